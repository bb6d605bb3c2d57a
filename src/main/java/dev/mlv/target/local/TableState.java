package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * A deployed Delta table as its log describes it: version, table properties, last commit time and
 * partition columns.
 */
public record TableState(
    ObjectId id,
    Path path,
    long version,
    Map<String, String> properties,
    Instant lastCommit,
    java.util.List<String> partitionColumns) {

  public TableState {
    properties = Map.copyOf(properties);
    partitionColumns = java.util.List.copyOf(partitionColumns);
  }
}
