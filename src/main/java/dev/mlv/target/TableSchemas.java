package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a target tells of its tables' schemas without starting an engine: each table's column names
 * in order, and the field names of its struct columns (and arrays of structs), by column; a struct
 * inside a struct is there too, under its path ({@link dev.mlv.check.TableColumns#structKey}), so
 * that {@code s.a.b} can be checked as {@code s.a} is.
 */
public record TableSchemas(
    SortedMap<ObjectId, List<String>> columns,
    SortedMap<ObjectId, Map<String, List<String>>> structs) {
  public static final TableSchemas NONE = new TableSchemas(new TreeMap<>(), new TreeMap<>());

  public TableSchemas {
    columns = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(columns));
    structs = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(structs));
  }
}
