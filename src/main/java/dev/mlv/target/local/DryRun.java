package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.StrategyDecider;
import dev.mlv.refresh.ViewRun;
import dev.mlv.sql.RefreshAnalysis;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code mlv refresh --dry-run}: the strategy each selected view would get, in refresh order,
 * without Spark and without changing anything. A view whose upstream view is refreshed earlier in
 * the same run is judged by what that refresh will commit: appended rows keep it incremental, a
 * rewrite makes it full.
 */
final class DryRun {
  private final LocalTarget target;
  private final Project project;

  // Nothing is written during a dry run, so each table's log is read once, not once per question.
  private final Map<ObjectId, Optional<TableState>> states = new HashMap<>();

  DryRun(LocalTarget target, Project project) {
    this.target = target;
    this.project = project;
  }

  private TableState state(ObjectId id) {
    return states
        .computeIfAbsent(
            id,
            t -> Optional.ofNullable(target.deltaState().read(t, target.warehouse().tableDir(t))))
        .orElse(null);
  }

  RunReport plan(RefreshRequest request) {
    Instant now = RunReport.now();
    // One parallel pass over the warehouse's Delta logs first; the views then read its results.
    target.scan(project);
    List<ViewRun> planned = new ArrayList<>();
    Map<ObjectId, LocalStrategy.Decided> refreshed = new HashMap<>();
    // Views whose refresh will fail (a source is missing), with the cause: the run skips what
    // reads them, and what reads those, by the run's rule (UpstreamBlock).
    Map<ObjectId, String> failing = new HashMap<>();
    java.util.Set<ObjectId> skipped = new java.util.HashSet<>();
    for (ObjectId id : LocalTarget.order(project.lineage(), request.views())) {
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
      LocalStrategy.Decided d = target.plannedStrategy(project, request, id);
      // An upstream refresh in this run can make a skipped view incremental: judge that too.
      Strategy s =
          new LocalStrategy(target, project)
              .withoutAnsi(id, upstreamAware(id, d, refreshed), d.analysisOf());
      if (!(s instanceof Strategy.Skip) && !s.code().equals("NOT_DEPLOYED")) {
        s = columnError(id).orElse(s);
      }
      if (s.code().startsWith("SOURCE_MISSING")
          || s.code().equals("NOT_DEPLOYED")
          || s.code().startsWith(ViewRun.SOURCE_COLUMNS)) {
        failing.put(id, s.code());
      }
      if (!(s instanceof Strategy.Skip)) {
        refreshed.put(id, new LocalStrategy.Decided(s, d.consumed(), d.current(), d.analysisOf()));
      }
      planned.add(
          ViewRun.planned(
              id,
              // As the run will report it: a view that is not deployed is not refreshed at all.
              s.code().equals("NOT_DEPLOYED") ? "none" : s.label(),
              s.code() + ": " + s.detail()));
    }
    return new RunReport("dry-run", RunStatus.Planned, now, now, target.name(), planned);
  }

  // The column rules' errors by view file, found once, on the first view that is refreshed.
  private Map<java.nio.file.Path, dev.mlv.diag.Diagnostic> columnErrors;

  /**
   * A refresh of {@code id} that fails because a source lacks a column the view reads (found by QA:
   * plan said UNRESOLVED_COLUMN, the dry run planned a refresh and exited 0). Only where the
   * refresh runs the project's own definition, which is the SQL the column rules checked.
   */
  private Optional<Strategy> columnError(ObjectId id) {
    var view = project.view(id);
    if (view.isEmpty() || !target.refreshesProjectDefinition(project, id)) {
      return Optional.empty();
    }
    if (columnErrors == null) {
      columnErrors = new HashMap<>();
      var schemas = target.schemas(project);
      var sources =
          dev.mlv.check.TableColumns.sources(
              project, target.name(), schemas.columns(), schemas.structs());
      if (!sources.tables().isEmpty()) {
        // Only what the sources' columns add: the other rules do not all fail a refresh.
        Set<dev.mlv.diag.Diagnostic> without =
            new java.util.HashSet<>(dev.mlv.check.Checker.check(project));
        for (var found : dev.mlv.check.Checker.check(project, sources)) {
          if (found.isError() && found.position() != null && !without.contains(found)) {
            columnErrors.putIfAbsent(found.position().file(), found);
          }
        }
      }
    }
    dev.mlv.diag.Diagnostic error = columnErrors.get(view.get().definition().position().file());
    return error == null
        ? Optional.empty()
        : Optional.of(
            new Strategy.Full(
                ViewRun.SOURCE_COLUMNS + " rule=" + error.ruleId(),
                "the refresh would fail: " + error.position() + ": " + error.message()));
  }

  /**
   * Whether upstream view {@code up} will have change data feed on once refreshed: a full refresh
   * writes the table's properties anew (the definition's, else {@code enable_cdf}: with it off, the
   * new table has no feed, whatever the old one had), an append keeps those it has.
   */
  private boolean changeDataFeedAfter(ObjectId up, LocalStrategy.Decided u) {
    String key = "delta.enableChangeDataFeed";
    var view = project.view(up);
    if (u.strategy() instanceof Strategy.Full && view.isPresent()) {
      String declared = view.get().definition().properties().get(key);
      return declared != null
          ? "true".equalsIgnoreCase(declared)
          : view.get().settings().enableCdf();
    }
    TableState state = state(up);
    return state != null && "true".equalsIgnoreCase(state.properties().get(key));
  }

  /**
   * A source's columns once the upstream refreshes of this run committed: a view created or
   * redefined in this run may get other columns than its table has now, so they are not known.
   */
  private Optional<List<String>> columnsAfter(
      ObjectId src, Map<ObjectId, LocalStrategy.Decided> refreshed) {
    LocalStrategy.Decided u = refreshed.get(src);
    if (u != null
        && (u.strategy().code().equals("NEW_VIEW")
            || u.strategy().code().equals("DEFINITION_CHANGED"))) {
      return Optional.empty();
    }
    TableState state = state(src);
    return state == null ? Optional.empty() : Optional.of(state.columns());
  }

  /**
   * The decision once the upstream views refreshed earlier in this run have committed, in the order
   * the real run decides: the SQL's constructs and conditions first, then the kind of commit.
   */
  private Strategy upstreamAware(
      ObjectId id, LocalStrategy.Decided d, Map<ObjectId, LocalStrategy.Decided> refreshed) {
    Strategy s = d.strategy();
    // FULL_CHEAPER is the decider's last word: an upstream rewrite (D5) comes before it.
    boolean cheaper = s instanceof Strategy.Full && s.code().equals("FULL_CHEAPER");
    // So are a source's non-append commit and an incomplete history (D5): a condition an upstream
    // refresh breaks (SUBQUERY_TABLE_CHANGED, LEFT_JOIN_RIGHT_CHANGED) comes first (found by QA).
    boolean kindOfCommit =
        s instanceof Strategy.Full
            && (s.code().startsWith("NON_APPEND_COMMIT ")
                || s.code().startsWith("HISTORY_INCOMPLETE "));
    if ((s instanceof Strategy.Full && !cheaper && !kindOfCommit) || s == LocalTarget.PYTHON_SKIP) {
      return s;
    }
    List<ObjectId> ups =
        project.lineage().upstream(id).stream().filter(refreshed::containsKey).toList();
    if (ups.isEmpty()) {
      return s;
    }
    List<String> names = ups.stream().map(u -> project.names().display(u)).toList();
    String what = upstream(names, "is refreshed", "are refreshed");
    RefreshAnalysis analysis = d.analysis();
    Optional<RefreshAnalysis.Construct> blocker = analysis.blocker();
    if (blocker.isPresent()) {
      RefreshAnalysis.Construct b = blocker.get();
      return new Strategy.Full(b.code(), what + "; " + b.because(b.note()));
    }
    java.util.function.Function<ObjectId, Optional<List<String>>> columns =
        src -> columnsAfter(src, refreshed);
    Optional<Strategy> byColumns =
        StrategyDecider.settledByColumns(analysis, what, columns, project.names());
    if (byColumns.isPresent()) {
      return byColumns.get();
    }
    for (ObjectId up : ups) {
      if (!changeDataFeedAfter(up, refreshed.get(up))) {
        String name = project.names().display(up);
        return new Strategy.Full(
            "CDF_OFF source=" + name, what + "; change data feed is off on " + name);
      }
    }
    if (analysis.shape() == RefreshAnalysis.Shape.NONE) {
      return new Strategy.Full("NOT_ANALYSABLE", what + "; the SQL could not be analysed");
    }
    Set<ObjectId> committed = new TreeSet<>();
    d.current()
        .forEach(
            (src, v) -> {
              if (!v.equals(d.consumed().get(src))) {
                committed.add(src);
              }
            });
    // A source that only rewrote files since (OPTIMIZE) is as unchanged as the real run finds it.
    SourceLogReader reader = new SourceLogReader(target.deltaState(), target.warehouse());
    Set<ObjectId> changed =
        StrategyDecider.rowsChanged(committed, d.consumed(), d.current(), reader);
    changed.addAll(ups);
    Map<ObjectId, List<String>> partitions = new TreeMap<>();
    for (ObjectId src : d.current().keySet()) {
      TableState state = state(src);
      partitions.put(src, state == null ? List.of() : state.partitionColumns());
    }
    for (RefreshAnalysis.Construct c : analysis.conditions()) {
      Optional<String> broken =
          StrategyDecider.brokenCondition(
              c, analysis, changed, partitions, columns, project.names());
      if (broken.isPresent()) {
        return new Strategy.Full(c.code(), what + "; " + c.because(broken.get()));
      }
    }
    if (kindOfCommit) {
      return s;
    }
    for (ObjectId up : ups) {
      LocalStrategy.Decided u = refreshed.get(up);
      String name = project.names().display(up);
      // A file view's incremental ingestion appends the new files' rows too, unless MIRROR
      // removes the rows of replaced or deleted files (found by QA: planned full, ran incremental).
      boolean appends =
          u.strategy() instanceof Strategy.Incremental
              && (u.analysis().shape() == RefreshAnalysis.Shape.APPEND
                  || u.strategy().code().equals("NEW_FILES")
                  || (u.strategy().code().equals("FILES_CHANGED")
                      && target.ingestionAppends(project, up)));
      if (!appends) {
        // The commit the upstream's refresh will make: its next version, and the operation Delta
        // records for a full refresh (CREATE OR REPLACE) or a merge of aggregates (an overwrite).
        TableState state = state(up);
        long version = state == null ? 0 : state.version() + 1;
        String operation =
            u.strategy() instanceof Strategy.Full ? "CREATE_OR_REPLACE_TABLE_AS_SELECT" : "WRITE";
        return new Strategy.Full(
            "NON_APPEND_COMMIT source=" + name + " version=" + version + " operation=" + operation,
            "upstream " + name + " is rewritten first in this run");
      }
    }
    String appends = upstream(names, "appends its new rows", "append their new rows");
    if (cheaper) {
      // The run weighs the upstream views' data with the sources' (found by QA: planned
      // FULL_CHEAPER from one source's share, the run went incremental). Their own new rows are
      // not known yet, so they count as none here: a plan of incremental may still run full.
      long appended = 0;
      long total = 0;
      for (ObjectId src : changed) {
        if (ups.contains(src)) {
          total += SourceLogReader.dataBytes(target.warehouse().tableDir(src));
        } else {
          StrategyDecider.SourceLog log =
              reader.since(src, d.consumed().getOrDefault(src, d.current().get(src)));
          appended += log.appendedBytes();
          total += log.totalBytes();
        }
      }
      String detail = s.detail();
      int cut = detail.indexOf(StrategyDecider.NEW_DATA_SHARE);
      Strategy weighed =
          StrategyDecider.cheaperOrAppends(
              cut < 0 ? detail : detail.substring(0, cut), appended, total, analysis.shape());
      return weighed instanceof Strategy.Incremental i
          ? new Strategy.Incremental(i.code(), i.detail() + "; " + appends)
          : weighed;
    }
    // The run names every source with new commits; so does its dry run.
    return s instanceof Strategy.Skip
        ? new Strategy.Incremental("ONLY_APPENDS", appends)
        : s instanceof Strategy.Incremental i
            ? new Strategy.Incremental(i.code(), i.detail() + "; " + appends)
            : s;
  }

  /**
   * "upstream a is refreshed first in this run", or "upstream a, b are refreshed ...": the verb
   * agrees with the number of views named.
   */
  static String upstream(List<String> names, String one, String many) {
    return "upstream "
        + String.join(", ", names)
        + " "
        + (names.size() == 1 ? one : many)
        + " first in this run";
  }
}
