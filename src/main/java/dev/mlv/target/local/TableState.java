package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * A deployed Delta table as its log describes it: version, table properties, last commit time,
 * partition columns, the table's id ({@code metaData.id}: a table created again, or another table
 * renamed into its place, has a new one; empty when it could not be read), its top-level column
 * names, which settle how Spark reads a view's names such as {@code GROUP BY g} or {@code user},
 * and the field names of each struct column (or array of structs), for {@code s.field}.
 */
public record TableState(
    ObjectId id,
    Path path,
    long version,
    Map<String, String> properties,
    Instant lastCommit,
    java.util.List<String> partitionColumns,
    java.util.Optional<String> tableId,
    java.util.List<String> columns,
    Map<String, java.util.List<String>> structs) {

  public TableState {
    properties = Map.copyOf(properties);
    partitionColumns = java.util.List.copyOf(partitionColumns);
    columns = java.util.List.copyOf(columns);
    structs = Map.copyOf(structs);
  }
}
