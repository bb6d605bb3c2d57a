package dev.mlv.target.fabric;

import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.StrategyDecider;
import dev.mlv.refresh.ViewRun;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * {@code mlv refresh --dry-run} on Fabric: each selected view's strategy and reason, from the
 * tables' latest commits and change data feeds and the views' SQL, with no job started. What
 * Fabric's optimal refresh will pick is not known before the run unless a documented rule makes it
 * a rebuild; such views are shown as {@code full}.
 */
final class FabricDryRun {
  private final Function<ObjectId, DeltaCommit> history;
  private final BiFunction<ObjectId, Instant, Optional<List<DeltaCommit>>> commitsAfter;
  private final Predicate<ObjectId> feedOn;
  private final Predicate<ObjectId> inLakehouse;
  private final String target;

  /**
   * {@code history} gives a table's latest commit ({@link DeltaCommit#NONE} if it does not exist),
   * {@code commitsAfter} its commits after a time, oldest first (empty when they are too many),
   * {@code feedOn} whether its change data feed is on, {@code inLakehouse} whether it is a table of
   * the target's lakehouse (the only one whose tables are listed).
   */
  FabricDryRun(
      Function<ObjectId, DeltaCommit> history,
      BiFunction<ObjectId, Instant, Optional<List<DeltaCommit>>> commitsAfter,
      Predicate<ObjectId> feedOn,
      Predicate<ObjectId> inLakehouse,
      String target) {
    this.history = history;
    this.commitsAfter = commitsAfter;
    this.feedOn = feedOn;
    this.inLakehouse = inLakehouse;
    this.target = target;
  }

  RunReport plan(Project project, RefreshRequest request) {
    Instant now = RunReport.now();
    List<ViewRun> planned = new ArrayList<>();
    Set<ObjectId> rebuilt = new HashSet<>();
    Map<ObjectId, DeltaCommit> histories = new HashMap<>();
    // Views whose refresh will fail, with the cause: the run skips what reads them, and what
    // reads those, by the run's rule (UpstreamBlock).
    Map<ObjectId, String> failing = new HashMap<>();
    Set<ObjectId> skipped = new HashSet<>();
    for (SortedSet<ObjectId> layer : project.lineage().layers()) {
      for (ObjectId id : layer) {
        if (!request.views().contains(id)) {
          continue;
        }
        Optional<ViewRun> blocked =
            dev.mlv.refresh.UpstreamBlock.plannedSkip(
                project.lineage(),
                id,
                request.views()::contains,
                failing,
                skipped,
                project.names()::display);
        if (blocked.isPresent()) {
          planned.add(blocked.get());
          continue;
        }
        DeltaCommit view = histories.computeIfAbsent(id, history);
        // Only the target's lakehouse is listed; a source elsewhere may exist out of reach.
        Optional<ObjectId> missing =
            project.lineage().upstream(id).stream()
                .filter(
                    u -> project.lineage().node(u).kind() != NodeKind.FILES && inLakehouse.test(u))
                .filter(u -> histories.computeIfAbsent(u, history).version() < 0)
                .findFirst();
        Optional<Strategy> forced = FabricWorkspaceTarget.alwaysFull(project, id, request.full());
        String strategy;
        String reason;
        if (view.version() < 0) {
          // As the run reports it: a view that is not deployed is not refreshed at all.
          strategy = "none";
          reason = "NOT_DEPLOYED: the view is not deployed; run 'mlv apply' first";
          failing.put(id, "NOT_DEPLOYED");
        } else if (missing.isPresent()) {
          // As the local target's decider says it, and first: --full does not make it exist.
          String name = project.names().display(missing.get());
          strategy = "full";
          reason =
              "SOURCE_MISSING source="
                  + name
                  + ": "
                  + name
                  + " does not exist; the refresh fails until it does";
          failing.put(id, "SOURCE_MISSING source=" + name);
        } else if (forced.isPresent()) {
          // --full, refresh_policy: full, optimal_refresh: false: the run sends it to a Full job.
          strategy = "full";
          reason = forced.get().code() + ": " + forced.get().detail();
        } else {
          Optional<ObjectId> refreshedFirst =
              project.lineage().ancestors(id).stream().filter(rebuilt::contains).findFirst();
          Optional<ObjectId> newer =
              project.lineage().upstream(id).stream()
                  .filter(u -> histories.computeIfAbsent(u, history).time().isAfter(view.time()))
                  .findFirst();
          // What changed, as the reason says it; Fabric's own choice is added when it is open.
          Optional<String> changed =
              refreshedFirst
                  .map(
                      u ->
                          "upstream "
                              + project.names().display(u)
                              + " is refreshed first in this run")
                  .or(
                      () ->
                          newer.map(
                              u ->
                                  project.names().display(u)
                                      + " has commits after the view's last refresh"));
          Optional<String> noRowChanged =
              refreshedFirst.isPresent()
                  ? Optional.empty()
                  : onlyRewrites(project, id, view.time(), histories);
          if (changed.isPresent() && noRowChanged.isPresent()) {
            // No documented rule makes this a rebuild, so no local code claims one: the feed, a
            // construct or a PySpark view matter only if Fabric refreshes the view at all.
            strategy = "full";
            reason =
                "SOURCES_CHANGED: "
                    + noRowChanged.get()
                    + " after the view's last refresh, which changed no row (Fabric's optimal"
                    + " refresh may skip the view, as the local target does with NO_DATA_CHANGE;"
                    + " its documentation does not say)";
          } else if (changed.isPresent()) {
            strategy = "full";
            // Fabric refreshes a PySpark view in full or skips it: never incrementally.
            reason =
                FabricNotebooks.isPython(project, id)
                    ? "PYSPARK_VIEW: " + changed.get() + "; a PySpark view is refreshed in full"
                    : certainlyFull(project, id, changed.get())
                        .or(
                            () ->
                                refreshedFirst.isPresent()
                                    ? Optional.empty()
                                    : nonAppend(project, id, view.time(), histories))
                        .orElse(
                            "SOURCES_CHANGED: "
                                + changed.get()
                                + (refreshedFirst.isPresent()
                                    ? ""
                                    : " (Fabric's optimal refresh picks incremental or full)"));
          } else {
            strategy = "skip";
            reason = "NO_NEW_COMMITS: no source has a commit after the view's last refresh";
          }
        }
        if (!strategy.equals("skip")) {
          rebuilt.add(id);
        }
        planned.add(ViewRun.planned(id, strategy, reason));
      }
    }
    return new RunReport("dry-run", RunStatus.Planned, now, now, target, planned);
  }

  /**
   * For a view whose sources changed, the reasons Fabric's optimal refresh can only rebuild it,
   * named as the local target names them and in its order: a construct that is never incremental
   * (whatever the feeds) or a name whose reading needs the sources' columns, which mlv does not
   * read on Fabric, then a source without change data feed (Fabric needs it on every source).
   * Otherwise Fabric's own decision is not known before the run.
   */
  private Optional<String> certainlyFull(Project project, ObjectId id, String changed) {
    Optional<dev.mlv.project.ProjectView> v = project.view(id);
    if (v.isEmpty() || v.get().definition().isPython() || v.get().definition().isFileSource()) {
      return Optional.empty();
    }
    dev.mlv.sql.RefreshAnalysis analysis =
        dev.mlv.sql.RefreshAnalyzer.analyze(v.get().definition());
    Optional<dev.mlv.sql.RefreshAnalysis.Construct> blocker = analysis.blocker();
    if (blocker.isPresent()) {
      dev.mlv.sql.RefreshAnalysis.Construct b = blocker.get();
      return Optional.of(b.code() + ": " + changed + "; " + b.because(b.note()));
    }
    // A name only the sources' columns settle (GROUP BY an alias, a bare current_user): mlv
    // reads no Fabric table's columns, so it stays full, as the local target does without them.
    Optional<Strategy> byColumns =
        StrategyDecider.settledByColumns(
            analysis, changed, source -> Optional.empty(), project.names());
    if (byColumns.isPresent()) {
      return Optional.of(byColumns.get().code() + ": " + byColumns.get().detail());
    }
    for (ObjectId up : project.lineage().upstream(id)) {
      if (project.lineage().node(up).kind() != NodeKind.FILES && !feedOn.test(up)) {
        String name = project.names().display(up);
        return Optional.of(
            "CDF_OFF source=" + name + ": " + changed + "; change data feed is off on " + name);
      }
    }
    return Optional.empty();
  }

  /**
   * When every source with commits after the view's last refresh has only commits that change no
   * row (OPTIMIZE, VACUUM START and END, REORG: their files carry dataChange=false, or they have no
   * file at all), what they are, as the reason says it; empty otherwise, or when a history is too
   * long to read whole.
   */
  private Optional<String> onlyRewrites(
      Project project, ObjectId id, Instant refreshed, Map<ObjectId, DeltaCommit> histories) {
    List<String> said = new ArrayList<>();
    for (ObjectId up : project.lineage().upstream(id)) {
      if (project.lineage().node(up).kind() == NodeKind.FILES) {
        return Optional.empty();
      }
      if (!histories.computeIfAbsent(up, history).time().isAfter(refreshed)) {
        continue;
      }
      Optional<List<DeltaCommit>> commits = commitsAfter.apply(up, refreshed);
      if (commits.isEmpty()
          || commits.get().isEmpty()
          || !commits.get().stream().allMatch(DeltaCommit::changesNoRow)) {
        return Optional.empty();
      }
      said.add(
          project.names().display(up)
              + " has only "
              + String.join(
                  ", ", commits.get().stream().map(DeltaCommit::operation).distinct().toList())
              + " commits");
    }
    return said.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", said));
  }

  /**
   * D5 as the local target names it: the first commit of a source after the view's last refresh
   * that the history shows is not an append, which Fabric's optimal refresh can only rebuild from.
   * Commits the history does not settle (an OPTIMIZE, a MERGE without file counts) are left to
   * Fabric.
   */
  private Optional<String> nonAppend(
      Project project, ObjectId id, Instant refreshed, Map<ObjectId, DeltaCommit> histories) {
    for (ObjectId up : project.lineage().upstream(id)) {
      if (project.lineage().node(up).kind() == NodeKind.FILES
          || !histories.computeIfAbsent(up, history).time().isAfter(refreshed)) {
        continue;
      }
      for (DeltaCommit c : commitsAfter.apply(up, refreshed).orElse(List.of())) {
        String name = project.names().display(up);
        if (c.turnsFeedOn()) {
          return Optional.of(
              "CDF_OFF source="
                  + name
                  + ": change data feed was turned on at version "
                  + c.version()
                  + " of "
                  + name
                  + ", so the rows of its commits before that are not in the feed");
        }
        Optional<String> why = c.notAnAppend();
        if (why.isPresent()) {
          return Optional.of(
              "NON_APPEND_COMMIT source="
                  + name
                  + " version="
                  + c.version()
                  + " operation="
                  + c.operation().replace(' ', '_')
                  + ": commit "
                  + c.version()
                  + " of "
                  + name
                  + " "
                  + why.get()
                  + ", so the rows since the last refresh are not only new ones");
        }
      }
    }
    return Optional.empty();
  }
}
