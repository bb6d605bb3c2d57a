package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/** A deployed Delta table as its log describes it: version, table properties, last commit time. */
public record TableState(
    ObjectId id, Path path, long version, Map<String, String> properties, Instant lastCommit) {

  public TableState {
    properties = Map.copyOf(properties);
  }
}
