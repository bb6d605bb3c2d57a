package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The source versions a refresh consumed, stored in the view's {@code mlv.sources} table property
 * as {@code id=version@tableId;...}, so the next run can tell whether anything changed, and whether
 * each source is still the table it read (a table renamed into a source's place can be at a higher
 * version already). State written before table ids were kept has {@code id=version}: that source's
 * table id is unknown. An older mlv reads an entry with a table id as unreadable, which means a
 * full refresh, never a wrong one.
 */
final class SourceVersions {
  private SourceVersions() {}

  /** What one refresh read: each source's version, and its table id when known. */
  record Read(Map<ObjectId, Long> versions, Map<ObjectId, String> tableIds) {
    Read {
      versions = Map.copyOf(versions);
      tableIds = Map.copyOf(tableIds);
    }
  }

  static String format(Map<ObjectId, Long> versions, Map<ObjectId, String> tableIds) {
    StringJoiner j = new StringJoiner(";");
    new TreeMap<>(versions)
        .forEach(
            (id, v) -> {
              String table = tableIds.get(id);
              j.add(id + "=" + v + (table == null ? "" : "@" + table));
            });
    return j.toString();
  }

  static Read parse(String text) {
    Map<ObjectId, Long> versions = new TreeMap<>();
    Map<ObjectId, String> tableIds = new TreeMap<>();
    if (text == null || text.isBlank()) {
      return new Read(versions, tableIds);
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
            tableIds.put(id, value.substring(at + 1));
          }
        } catch (IllegalArgumentException e) {
          // A hand-edited property: treat that source as unknown, which forces a full refresh.
        }
      }
    }
    return new Read(versions, tableIds);
  }
}
