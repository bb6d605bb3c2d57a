package dev.mlv.lineage;

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

  @Override
  public int compareTo(ObjectId o) {
    return toString().compareTo(o.toString());
  }
}
