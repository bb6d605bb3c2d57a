package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a target holds now: every materialized lake view, and the current version of every table mlv
 * may read. Its {@link #fingerprint()} is the precondition of a saved plan.
 */
public record DeployedState(
    SortedMap<ObjectId, DeployedView> views, SortedMap<ObjectId, SourceTable> tables) {

  /** A Delta table that is not a view: its version and whether change data feed is on. */
  public record SourceTable(long version, boolean changeDataFeed) {}

  public DeployedState {
    views = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(views));
    tables = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(tables));
  }

  public static DeployedState of(
      Map<ObjectId, DeployedView> views, Map<ObjectId, SourceTable> tables) {
    return new DeployedState(new TreeMap<>(views), new TreeMap<>(tables));
  }

  public Optional<DeployedView> view(ObjectId id) {
    return Optional.ofNullable(views.get(id));
  }

  /** Changes whenever a view is created, replaced, renamed or dropped. */
  public String fingerprint() {
    StringBuilder sb = new StringBuilder();
    views.forEach((id, v) -> sb.append(id).append('=').append(v.fingerprint()).append('\n'));
    return dev.mlv.sql.Fingerprint.of(sb.toString());
  }
}
