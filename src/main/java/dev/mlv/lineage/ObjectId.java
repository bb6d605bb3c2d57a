package dev.mlv.lineage;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A fully qualified, lower-case name of a table, view or file folder: {@code
 * workspace.lakehouse.schema.name}. For a file source, {@code schema} is {@code "files"} and {@code
 * name} is the folder path.
 */
public record ObjectId(String workspace, String lakehouse, String schema, String name)
    implements Comparable<ObjectId> {

  public ObjectId {
    workspace = workspace.toLowerCase(Locale.ROOT);
    lakehouse = lakehouse.toLowerCase(Locale.ROOT);
    schema = schema.toLowerCase(Locale.ROOT);
    name = name.toLowerCase(Locale.ROOT);
  }

  public static ObjectId parse(String dotted) {
    String[] p = dotted.split("\\.", 4);
    if (p.length != 4) {
      throw new IllegalArgumentException("not a four-part id: " + dotted);
    }
    return new ObjectId(p[0], p[1], p[2], p[3]);
  }

  public List<String> parts() {
    return List.of(workspace, lakehouse, schema, name);
  }

  /** {@code schema.name}, how users mostly write it. */
  public String shortName() {
    return schema + "." + name;
  }

  @Override
  public String toString() {
    return workspace + "." + lakehouse + "." + schema + "." + name;
  }

  /**
   * The order of {@link #toString()}, without building the strings: lineage maps compare ids
   * millions of times on large projects.
   */
  @Override
  public int compareTo(ObjectId o) {
    String[] a = {workspace, lakehouse, schema, name};
    String[] b = {o.workspace, o.lakehouse, o.schema, o.name};
    int ia = 0;
    int ib = 0;
    int pa = 0;
    int pb = 0;
    while (true) {
      char ca = charAt(a, pa, ia);
      char cb = charAt(b, pb, ib);
      if (ca == 0 && cb == 0) {
        // Equal dotted forms can still be different ids when a part holds a '.': order them by
        // parts, so that the order agrees with equals().
        return Comparator.comparing(ObjectId::workspace)
            .thenComparing(ObjectId::lakehouse)
            .thenComparing(ObjectId::schema)
            .thenComparing(ObjectId::name)
            .compare(this, o);
      }
      if (ca != cb) {
        return ca == 0 ? -1 : cb == 0 ? 1 : Character.compare(ca, cb);
      }
      if (ia < a[pa].length()) {
        ia++;
      } else {
        pa++;
        ia = 0;
      }
      if (ib < b[pb].length()) {
        ib++;
      } else {
        pb++;
        ib = 0;
      }
    }
  }

  /** The character at {@code i} of part {@code p} in the dotted form; 0 past the end. */
  private static char charAt(String[] parts, int p, int i) {
    if (p >= parts.length) {
      return 0;
    }
    if (i < parts[p].length()) {
      return parts[p].charAt(i);
    }
    return p == parts.length - 1 ? 0 : '.';
  }
}
