package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The source versions a refresh consumed, stored in the view's {@code mlv.sources} table property
 * as {@code id=version@tableId#commitId;...} (the commit id: the txnId of the commit at that
 * version, when its log names one), so the next run can tell whether anything changed, and whether
 * each source is still the table it read (a table renamed into a source's place can be at a higher
 * version already). State written before table ids were kept has {@code id=version}: that source's
 * table id is unknown. An older mlv reads an entry with a table id as unreadable, which means a
 * full refresh, never a wrong one.
 */
final class SourceVersions {
  private SourceVersions() {}

  /**
   * What one refresh read: each source's version, and its table id and the id of the commit at that
   * version when known.
   */
  record Read(
      Map<ObjectId, Long> versions, Map<ObjectId, String> tableIds, Map<ObjectId, String> commits) {
    Read {
      versions = Map.copyOf(versions);
      tableIds = Map.copyOf(tableIds);
      commits = Map.copyOf(commits);
    }
  }

  static String format(
      Map<ObjectId, Long> versions, Map<ObjectId, String> tableIds, Map<ObjectId, String> commits) {
    StringJoiner j = new StringJoiner(";");
    new TreeMap<>(versions)
        .forEach(
            (id, v) -> {
              String table = tableIds.get(id);
              String commit = table == null ? null : commits.get(id);
              j.add(
                  id
                      + "="
                      + v
                      + (table == null ? "" : "@" + table)
                      + (commit == null ? "" : "#" + commit));
            });
    return j.toString();
  }

  static Read parse(String text) {
    Map<ObjectId, Long> versions = new TreeMap<>();
    Map<ObjectId, String> tableIds = new TreeMap<>();
    Map<ObjectId, String> commits = new TreeMap<>();
    if (text == null || text.isBlank()) {
      return new Read(versions, tableIds, commits);
    }
    for (String part : text.split(";")) {
      int eq = part.lastIndexOf('=');
      if (eq > 0) {
        String value = part.substring(eq + 1);
        int at = value.indexOf('@');
        try {
          ObjectId id = ObjectId.parse(part.substring(0, eq));
          versions.put(id, Long.parseLong(at < 0 ? value : value.substring(0, at)));
          if (at >= 0 && at + 1 < value.length()) {
            String table = value.substring(at + 1);
            int hash = table.indexOf('#');
            if (hash >= 0 && hash + 1 < table.length()) {
              commits.put(id, table.substring(hash + 1));
            }
            tableIds.put(id, hash < 0 ? table : table.substring(0, hash));
          }
        } catch (IllegalArgumentException e) {
          // A hand-edited property: treat that source as unknown, which forces a full refresh.
        }
      }
    }
    return new Read(versions, tableIds, commits);
  }
}
