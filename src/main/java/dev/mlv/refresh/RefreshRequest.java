package dev.mlv.refresh;

import dev.mlv.lineage.ObjectId;
import java.time.Duration;
import java.util.Map;
import java.util.SortedSet;

/**
 * What to refresh: the selected views, whether to force full refreshes, how many views may run at
 * once, the run's time limit, and views whose definition was just applied (always full).
 */
public record RefreshRequest(
    SortedSet<ObjectId> views,
    boolean full,
    int parallelism,
    Duration timeout,
    boolean dryRun,
    Map<ObjectId, String> forcedFull) {

  public RefreshRequest {
    views = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(views));
    forcedFull = Map.copyOf(forcedFull);
  }
}
