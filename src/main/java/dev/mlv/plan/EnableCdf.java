package dev.mlv.plan;

import dev.mlv.lineage.ObjectId;
import java.util.List;

/**
 * Turning on change data feed on a source table before the first refresh of the views that read it,
 * since incremental refresh needs it on every source.
 */
public record EnableCdf(ObjectId table, List<ObjectId> readers) {
  public EnableCdf {
    readers = List.copyOf(readers);
  }
}
