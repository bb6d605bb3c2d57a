package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a target tells of its tables' schemas without starting an engine: each table's column names
 * in order, and the field names of its struct columns (and arrays of structs), by column; a struct
 * inside a struct is there too, under its path ({@link #structKey}), so that {@code s.a.b} can be
 * checked as {@code s.a} is.
 */
public record TableSchemas(
    SortedMap<ObjectId, List<String>> columns,
    SortedMap<ObjectId, Map<String, List<String>>> structs) {
  public static final TableSchemas NONE = new TableSchemas(new TreeMap<>(), new TreeMap<>());

  public TableSchemas {
    columns = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(columns));
    structs = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(structs));
  }

  /**
   * The key of the struct at {@code path} (a column, then fields) in {@link #structs}: the names
   * joined by U+001F, a control character no column name holds, so a name with a dot stays one.
   */
  public static String structKey(List<String> path) {
    return String.join("\u001f", path);
  }

  /** The path a {@link #structKey} was made of. */
  public static List<String> structPath(String key) {
    return List.of(key.split("\u001f", -1));
  }
}
