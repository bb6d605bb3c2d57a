package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The source versions a refresh consumed, stored in the view's {@code mlv.sources} table property
 * as {@code id=version;id=version}, so the next run can tell whether anything changed.
 */
final class SourceVersions {
  private SourceVersions() {}

  static String format(Map<ObjectId, Long> versions) {
    StringJoiner j = new StringJoiner(";");
    new TreeMap<>(versions).forEach((id, v) -> j.add(id + "=" + v));
    return j.toString();
  }

  static Map<ObjectId, Long> parse(String text) {
    Map<ObjectId, Long> out = new TreeMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String part : text.split(";")) {
      int eq = part.lastIndexOf('=');
      if (eq > 0) {
        try {
          out.put(ObjectId.parse(part.substring(0, eq)), Long.parseLong(part.substring(eq + 1)));
        } catch (IllegalArgumentException e) {
          // A hand-edited property: treat that source as unknown, which forces a full refresh.
        }
      }
    }
    return out;
  }
}
