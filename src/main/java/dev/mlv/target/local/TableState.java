package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * A deployed Delta table as its log describes it: version, table properties, last commit time,
 * partition columns and the table's id ({@code metaData.id}: a table created again, or another
 * table renamed into its place, has a new one; empty when it could not be read).
 */
public record TableState(
    ObjectId id,
    Path path,
    long version,
    Map<String, String> properties,
    Instant lastCommit,
    java.util.List<String> partitionColumns,
    java.util.Optional<String> tableId) {

  public TableState {
    properties = Map.copyOf(properties);
    partitionColumns = java.util.List.copyOf(partitionColumns);
  }
}
