package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a target holds now: every materialized lake view, and the current version of every table mlv
 * may read. Its {@link #fingerprint()} is the precondition of a saved plan. {@code notebooks} are
 * the notebook items mlv deployed for PySpark views, on a target that deploys them as notebooks
 * (empty on any other).
 */
public record DeployedState(
    SortedMap<ObjectId, DeployedView> views,
    SortedMap<ObjectId, SourceTable> tables,
    Optional<List<DeployedNotebook>> notebooks) {

  /** A Delta table that is not a view: its version and whether change data feed is on. */
  public record SourceTable(long version, boolean changeDataFeed) {}

  public DeployedState {
    views = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(views));
    tables = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(tables));
    notebooks = notebooks.map(List::copyOf);
  }

  public DeployedState(
      SortedMap<ObjectId, DeployedView> views, SortedMap<ObjectId, SourceTable> tables) {
    this(views, tables, Optional.empty());
  }

  public static DeployedState of(
      Map<ObjectId, DeployedView> views, Map<ObjectId, SourceTable> tables) {
    return new DeployedState(new TreeMap<>(views), new TreeMap<>(tables));
  }

  public Optional<DeployedView> view(ObjectId id) {
    return Optional.ofNullable(views.get(id));
  }

  /**
   * Changes whenever a view is created, replaced, renamed or dropped, and when a table appears,
   * goes or has its change data feed turned on or off: a plan made before its sources were loaded
   * would otherwise be applied without turning the feed on. New rows in a table do not change it.
   */
  public String fingerprint() {
    StringBuilder sb = new StringBuilder();
    views.forEach((id, v) -> sb.append(id).append('=').append(v.fingerprint()).append('\n'));
    tables.forEach(
        (id, t) -> {
          // mlv's own tables come and go with refreshes, which do not make a plan stale.
          if (!dev.mlv.project.ReservedNames.isReserved(id)) {
            sb.append("table:").append(id).append(t.changeDataFeed() ? " cdf" : "").append('\n');
          }
        });
    // Only a state with notebooks adds them, so other targets keep the fingerprints they had.
    notebooks.ifPresent(
        list ->
            list.stream()
                .sorted(java.util.Comparator.comparing(DeployedNotebook::source))
                .forEach(
                    n ->
                        sb.append("notebook:")
                            .append(n.source())
                            .append('=')
                            .append(n.id())
                            .append(new TreeMap<>(n.fingerprints()))
                            .append('\n')));
    return dev.mlv.sql.Fingerprint.of(sb.toString());
  }
}
