package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.RefreshAnalysis;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code mlv refresh --dry-run}: the strategy each selected view would get, in refresh order,
 * without Spark and without changing anything. A view whose upstream view is refreshed earlier in
 * the same run is judged by what that refresh will commit: appended rows keep it incremental, a
 * rewrite makes it full.
 */
final class DryRun {
  private final LocalTarget target;
  private final Project project;

  DryRun(LocalTarget target, Project project) {
    this.target = target;
    this.project = project;
  }

  RunReport plan(RefreshRequest request) {
    Instant now = Instant.now();
    // One parallel pass over the warehouse's Delta logs first; the views then read its results.
    target.deltaState().scan(target.warehouse().root());
    List<ViewRun> planned = new ArrayList<>();
    Map<ObjectId, LocalStrategy.Decided> refreshed = new HashMap<>();
    for (ObjectId id : LocalTarget.order(project.lineage(), request.views())) {
      LocalStrategy.Decided d = target.plannedStrategy(project, request, id);
      Strategy s = upstreamAware(id, d, refreshed);
      if (!(s instanceof Strategy.Skip)) {
        refreshed.put(id, new LocalStrategy.Decided(s, d.consumed(), d.current(), d.analysisOf()));
      }
      planned.add(
          new ViewRun(
              id,
              ViewStatus.Planned,
              s.label(),
              s.code() + ": " + s.detail(),
              0,
              0,
              Map.of(),
              0,
              java.util.Optional.empty()));
    }
    return new RunReport("dry-run", RunStatus.Planned, now, now, target.name(), planned);
  }

  private Strategy upstreamAware(
      ObjectId id, LocalStrategy.Decided d, Map<ObjectId, LocalStrategy.Decided> refreshed) {
    Strategy s = d.strategy();
    if (s instanceof Strategy.Full || s == LocalTarget.PYTHON_SKIP) {
      return s;
    }
    for (ObjectId up : project.lineage().upstream(id)) {
      LocalStrategy.Decided u = refreshed.get(up);
      if (u == null) {
        continue;
      }
      String name = project.names().display(up);
      boolean appends =
          u.strategy() instanceof Strategy.Incremental
              && u.analysis().shape() == RefreshAnalysis.Shape.APPEND;
      if (!appends) {
        return new Strategy.Full(
            "NON_APPEND_COMMIT source=" + name,
            "upstream " + name + " is rewritten first in this run");
      }
      if (s instanceof Strategy.Skip) {
        s =
            d.analysis().incrementalPossible() && d.analysis().conditions().isEmpty()
                ? new Strategy.Incremental(
                    "ONLY_APPENDS", "upstream " + name + " appends its new rows first in this run")
                : new Strategy.Full(
                    "SOURCES_CHANGED", "upstream " + name + " is refreshed first in this run");
      }
    }
    return s;
  }
}
