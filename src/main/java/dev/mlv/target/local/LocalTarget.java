package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.Node;
import dev.mlv.lineage.ObjectId;
import dev.mlv.logging.QuietLogging;
import dev.mlv.plan.Change;
import dev.mlv.plan.EnableCdf;
import dev.mlv.plan.Plan;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectView;
import dev.mlv.project.SparkTarget;
import dev.mlv.quality.QualityGates;
import dev.mlv.refresh.DagWalker;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.TableExtractor;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.DeployedState;
import dev.mlv.target.DeployedView;
import dev.mlv.target.SqlResult;
import dev.mlv.target.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.SparkSession;

/**
 * The embedded target: a lakehouse in a local folder laid out like OneLake, refreshed with Spark
 * and Delta in this JVM. Spark starts only when a command needs to run SQL; reading the deployed
 * state and deciding that nothing changed use the Delta logs alone.
 */
public final class LocalTarget implements Target {
  static final String P_DEFINITION = "mlv.definition";
  static final String P_FINGERPRINT = "mlv.fingerprint";
  static final String P_MANAGED = "mlv.managed";
  static final String P_SOURCES = "mlv.sources";
  static final String P_REFRESHED = "mlv.refreshedAt";
  static final String P_TOOL = "mlv.tool.version";

  private final ProjectConfig config;
  private final SparkTarget target;
  private final boolean debug;
  private final Warehouse warehouse;
  private final Map<String, String> lakehouses = new LinkedHashMap<>();
  // Made on first use: loading it loads Calcite and its logging, which a dry run seldom needs.
  private TableExtractor extractor;
  private DeltaState deltaState;
  private volatile SparkRuntime runtime;
  private volatile String currentRun = "none"; // the id quarantined rows are recorded under
  private volatile RunDeadline runDeadline; // of the run in progress, if any
  private volatile Thread stopHook; // of the run in progress, if any
  private volatile Runnable stopRun; // Ctrl-C in the shell: stops the run in progress, if any
  // The listener of the run in progress: it hears of the exception behind a view's failure.
  private volatile RunListener runListener = RunListener.NONE;

  public LocalTarget(ProjectConfig config, SparkTarget target, boolean debug) {
    this.config = config;
    this.target = target;
    this.debug = debug;
    this.warehouse = new Warehouse(target.warehouse());
    lakehouses.put(
        config.lakehouse().toLowerCase(java.util.Locale.ROOT),
        config.workspace().toLowerCase(java.util.Locale.ROOT));
    config
        .lakehouses()
        .forEach(
            (lh, ref) ->
                lakehouses.putIfAbsent(lh, ref.workspace().toLowerCase(java.util.Locale.ROOT)));
  }

  @Override
  public String name() {
    return target.name();
  }

  // ---- state (Delta logs only, no Spark) ----

  @Override
  public DeployedState state(Project project) {
    Map<ObjectId, DeployedView> views = new TreeMap<>();
    Map<ObjectId, DeployedState.SourceTable> tables = new TreeMap<>();
    for (TableState t : scan(project)) {
      if (dev.mlv.project.ReservedNames.isReserved(t.id())) {
        continue;
      }
      Map<String, String> p = t.properties();
      if (p.containsKey(P_DEFINITION)) {
        views.put(t.id(), deployedView(t));
      } else {
        tables.put(
            t.id(),
            new DeployedState.SourceTable(
                t.version(), "true".equalsIgnoreCase(p.get("delta.enableChangeDataFeed"))));
      }
    }
    return DeployedState.of(views, tables);
  }

  @Override
  public dev.mlv.target.TableSchemas schemas(Project project) {
    java.util.SortedMap<ObjectId, List<String>> columns = new TreeMap<>();
    java.util.SortedMap<ObjectId, Map<String, List<String>>> structs = new TreeMap<>();
    for (TableState t : scan(project)) {
      if (!t.id().schema().equals(HistoryStore.SCHEMA)) {
        columns.put(t.id(), t.columns());
        if (!t.structs().isEmpty()) {
          structs.put(t.id(), t.structs());
        }
      }
    }
    return new dev.mlv.target.TableSchemas(columns, structs);
  }

  private static DeployedView deployedView(TableState t) {
    Map<String, String> p = t.properties();
    ConsumedVersions.Consumed consumed = ConsumedVersions.of(t);
    return new DeployedView(
        t.id(),
        p.get(P_DEFINITION),
        p.getOrDefault(P_FINGERPRINT, ""),
        "true".equals(p.get(P_MANAGED)),
        t.version(),
        t.lastCommit(),
        consumed.sources(),
        consumed.tableIds(),
        consumed.commits(),
        consumed.refreshedAt());
  }

  /**
   * The workspace of each lakehouse the project reaches. A warehouse holds each lakehouse name once
   * (its folder has no workspace), so prodws.plh.dbo.t is the table of folder plh.Lakehouse, as
   * Spark reads it: mlv.yml's workspace for it (the project's own lakehouse, then {@code
   * lakehouses:}), else the one the project's names give it. Spark's catalogs ({@link
   * #materializer}) and the Delta logs read without Spark ({@link #scan}) both take it from here.
   */
  private Map<String, String> workspaces(Project project) {
    Map<String, String> out = new LinkedHashMap<>();
    lakehouses.forEach((lh, ws) -> out.putIfAbsent(Warehouse.fold(lh), ws));
    for (ObjectId id : project.lineage().nodes().keySet()) {
      out.putIfAbsent(id.lakehouse(), id.workspace());
    }
    return out;
  }

  /** Every table of the warehouse, named as the project names it (see {@link #workspaces}). */
  List<TableState> scan(Project project) {
    return deltaState().scan(warehouse.root(), workspaces(project));
  }

  /** The target's settings in mlv.yml. */
  SparkTarget sparkTarget() {
    return target;
  }

  /** One reader per target, so its cache (keyed by each table's latest commit) is reused. */
  synchronized DeltaState deltaState() {
    if (deltaState == null) {
      deltaState =
          new DeltaState(
              lakehouses, config.workspace(), Optional.of(new TableStateCache(warehouse.root())));
    }
    return deltaState;
  }

  // ---- apply ----

  @Override
  public RunReport apply(Project project, Plan plan, RunListener listener) {
    Map<ObjectId, String> forced = new LinkedHashMap<>();
    SortedSet<ObjectId> toRefresh = new TreeSet<>(plan.refresh());
    return locked(
        project,
        () -> {
          ViewMaterializer m = materializer(project);
          for (EnableCdf e : plan.enableCdf()) {
            listener.message(
                "  enabling change data feed on " + project.names().display(e.table()));
            m.setTableProperties(e.table(), Map.of("delta.enableChangeDataFeed", "true"));
          }
          for (Change c : plan.changes()) {
            if (c instanceof Change.Rename r) {
              listener.message(
                  "  renaming "
                      + project.names().display(r.from())
                      + " to "
                      + project.names().display(r.id()));
              renameView(m, r.from(), r.id()).ifPresent(listener::message);
              m.setTableProperties(r.id(), Map.of(P_DEFINITION, r.statement()));
            } else if (c instanceof Change.Drop d) {
              listener.message("  dropping " + project.names().display(d.id()));
              m.dropTable(d.id());
              m.dropTable(QuarantineStore.tableOf(d.id()));
            } else if (c instanceof Change.Create cr) {
              forced.put(cr.id(), "NEW_VIEW");
              toRefresh.add(cr.id());
            } else if (c instanceof Change.Replace rp) {
              forced.put(rp.id(), "DEFINITION_CHANGED");
              toRefresh.add(rp.id());
            }
          }
          return new RefreshRequest(
              toRefresh,
              false,
              config.defaults().parallelism(),
              config.defaults().refreshTimeout(),
              false,
              forced);
        },
        listener);
  }

  /**
   * Renames a view with its quarantine table and its run history, so {@code mlv runs} and {@code
   * mlv report} follow it as {@code mlv quarantine} does; a warning when the history could not
   * follow. The view's rename stands either way: the report then shows the earlier runs under the
   * old name, as a view no longer in the project.
   */
  Optional<String> renameView(ViewMaterializer m, ObjectId from, ObjectId to) {
    m.renameView(from, to);
    try {
      history().renamed(runtime().session(), from, to);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(
          "warning: the run history of "
              + from
              + " stays under that name ("
              + SparkMessages.explanation(e)
              + "); the view itself is renamed to "
              + to);
    }
  }

  // ---- refresh ----

  @Override
  public RunReport refresh(Project project, RefreshRequest request, RunListener listener) {
    if (request.dryRun()) {
      return new DryRun(this, project).plan(request);
    }
    return locked(project, () -> request, listener);
  }

  /**
   * The local engine has no Python runtime wired to its lakehouse, so a PySpark view is reported as
   * skipped, with why, and the rest of the DAG runs; Fabric runs it from its notebook.
   */
  @Override
  public boolean deploysPySparkViews() {
    return false;
  }

  /** The state is a scan of the whole warehouse: every lakehouse, every table. */
  @Override
  public Optional<String> missingTableFix(Project project, ObjectId table) {
    String load = loadHint(project, table);
    return Optional.of(Character.toUpperCase(load.charAt(0)) + load.substring(1) + ".");
  }

  static final Strategy.Skip PYTHON_SKIP =
      new Strategy.Skip(
          ViewRun.PYSPARK_NOT_RUN_LOCALLY,
          "PySpark views are not run by the local target; deploy to Fabric to run it, or define"
              + " the view in SQL to run it here");

  static boolean isPython(Project project, ObjectId id) {
    var v = project.views().get(id);
    return v != null && v.definition().isPython();
  }

  private static final dev.mlv.sql.RefreshAnalysis NO_ANALYSIS =
      new dev.mlv.sql.RefreshAnalysis(
          dev.mlv.sql.RefreshAnalysis.Shape.NONE, List.of(), List.of(), List.of());

  LocalStrategy.Decided plannedStrategy(Project project, RefreshRequest request, ObjectId id) {
    if (isPython(project, id)) {
      return new LocalStrategy.Decided(PYTHON_SKIP, Map.of(), Map.of(), NO_ANALYSIS);
    }
    Optional<DeployedView> deployed = deployed(id);
    if (deployed.isEmpty()) {
      return new LocalStrategy.Decided(
          new Strategy.Full("NOT_DEPLOYED", "the view is not deployed; run 'mlv apply' first"),
          Map.of(),
          Map.of(),
          NO_ANALYSIS);
    }
    Optional<ViewDefinition> def = deployedDefinition(project, id, deployed.get());
    if (def.isPresent() && def.get().isFileSource()) {
      return new LocalStrategy.Decided(
          files().decide(id, def.get(), request.full(), Optional.empty(), project.names()),
          Map.of(),
          Map.of(),
          NO_ANALYSIS);
    }
    List<ObjectId> upstream =
        def.map(d -> upstreamOf(project, id, d))
            .orElse(List.copyOf(project.lineage().upstream(id)));
    return decide(project, request.full(), Optional.empty(), id, deployed, def, upstream);
  }

  /**
   * Makes a change to the lakehouse's views outside a run ({@code mlv sql}'s RENAME, DROP, CREATE)
   * under the refresh lock, so it cannot move or drop a table a running refresh is writing; refused
   * while another run holds the lock.
   */
  <T> T underLock(String what, java.util.function.Supplier<T> change) {
    Optional<RefreshLock> lock =
        RefreshLock.tryAcquire(warehouse.root(), config.lakehouse(), "sql-" + RunIds.next());
    if (lock.isEmpty()) {
      throw new dev.mlv.diag.BusyException(
          "LAKEHOUSE_BUSY",
          what
              + " was not run: "
              + holderText()
              + " is refreshing lakehouse "
              + config.lakehouse()
              + "; run it again when that run is over");
    }
    try (RefreshLock held = lock.get()) {
      return change.get();
    }
  }

  String holderText() {
    return RefreshLock.holder(warehouse.root(), config.lakehouse())
        .map(h -> "run " + h.runId() + ", pid " + h.pid() + " on " + h.host())
        .orElse("another run");
  }

  /** Runs the request under the lakehouse's refresh lock; skipped when another run holds it. */
  private RunReport locked(
      Project project, java.util.function.Supplier<RefreshRequest> prepare, RunListener listener) {
    String runId = RunIds.next();
    Instant started = RunReport.now();
    Optional<RefreshLock> lock =
        RefreshLock.tryAcquire(warehouse.root(), config.lakehouse(), runId);
    if (lock.isEmpty()) {
      listener.message(
          "  another refresh ("
              + holderText()
              + ") is running on lakehouse "
              + config.lakehouse()
              + "; this one is skipped, not queued");
      RunReport skipped =
          new RunReport(runId, RunStatus.Skipped, started, RunReport.now(), name(), List.of());
      // Parked, not written: the table belongs to the run holding the lock, whose history write
      // (or the next run's) takes the parked record in, as Fabric lists its deduped runs too.
      try {
        history().record(skipped, Optional.empty());
      } catch (RuntimeException e) {
        listener.message(
            "warning: run "
                + runId
                + " could not be kept in .mlv/runs/pending ("
                + SparkMessages.explanation(e)
                + ")");
      }
      return skipped;
    }
    try (RefreshLock held = lock.get()) {
      HistoryStore history = history();
      currentRun = runId;
      // The marker comes before apply's renames and drops, so a crash in them is on record too.
      RunReport running = new RunReport(runId, RunStatus.Running, started, null, name(), List.of());
      history.started(running);
      // Set by Ctrl-C: in the shell (cancelRunning), or as the JVM ends (the hook below, which
      // sets exiting too). Apply's renames and drops are not cut short: the run stops before its
      // first view.
      java.util.concurrent.atomic.AtomicBoolean stopping =
          new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicBoolean exiting =
          new java.util.concurrent.atomic.AtomicBoolean();
      stopRun =
          () -> {
            stopping.set(true);
            RunDeadline walking = runDeadline;
            if (walking != null) {
              walking.interrupt();
            }
          };
      RefreshRequest request;
      try {
        request = prepare.get();
      } catch (RuntimeException e) {
        stopRun = null;
        recordRun(
            history,
            new RunReport(runId, RunStatus.Failed, started, RunReport.now(), name(), List.of()),
            listener);
        throw e;
      }
      if (request.views().isEmpty()) {
        // Apply only renamed, dropped or turned change data feed on: no view was refreshed or
        // considered, so there is no run to keep. Recorded, it was a "(no views)" line in mlv
        // runs, a bar in the report and one of the runs the retention keeps (found by QA).
        stopRun = null;
        history.discard(runId);
        return new RunReport(
            runId, RunStatus.Completed, started, RunReport.now(), name(), List.of());
      }
      Instant deadline = started.plus(request.timeout());
      List<ViewRun> runs;
      List<ViewRun> done = new java.util.ArrayList<>();
      // Ctrl-C ends the JVM without unwinding this method: no view starts after it, and what
      // fails as Spark shuts down is the interrupt, not the view. The JVM halts once its hooks
      // are done, so this one waits (bounded) until the run's record is parked; without the wait,
      // whether the record named the interrupted view depended on which thread won.
      java.util.concurrent.CountDownLatch parked = new java.util.concurrent.CountDownLatch(1);
      // The views that ended on their own, not cut short by the interrupt.
      java.util.concurrent.atomic.AtomicInteger ended =
          new java.util.concurrent.atomic.AtomicInteger();
      // The strategy each view started with: a view that committed before the interrupt cut its
      // last steps short is recorded as it ran.
      Map<ObjectId, Strategy> startedWith = new java.util.concurrent.ConcurrentHashMap<>();
      // The status the run's record was kept with, once it is (in the table or parked): 'mlv runs'
      // lists it from then on. Until then only the marker says the run existed.
      java.util.concurrent.atomic.AtomicReference<RunStatus> kept =
          new java.util.concurrent.atomic.AtomicReference<>();
      // The views the run would refresh: the local target never runs a PySpark view, so it is not
      // one the interrupt stopped (found by QA: "stopped after 1 of 6 views" for 5).
      int toRefresh = (int) request.views().stream().filter(v -> !isPython(project, v)).count();
      Thread onExit =
          new Thread(
              () -> {
                exiting.set(true);
                stopping.set(true);
                try {
                  parked.await(PARK_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                // Counted once the record is parked: a view whose commit landed as the signal
                // came is one of the finished, as the record says. The record is kept before
                // the JVM ends, so 'mlv runs' lists it at once; only when it could not be (its
                // write failed, or outlasted the wait) is the marker left for the next run
                // (found by QA: the line said "the next run records" when it already was).
                RunStatus recorded = kept.get();
                listener.message(
                    interruptedLine(
                        runId,
                        ended.get(),
                        toRefresh,
                        recorded != null
                            ? "the run is recorded as " + recorded
                            : "the next run records this one as Interrupted"));
              });
      stopHook = onExit;
      RunListener untilStopped =
          new RunListener() {
            @Override
            public void viewStarted(ObjectId id, Strategy strategy) {
              startedWith.put(id, strategy);
              if (!stopping.get()) {
                listener.viewStarted(id, strategy);
              }
            }

            @Override
            public void viewFinished(ViewRun run) {
              if (!stopping.get()) {
                listener.viewFinished(run);
              }
            }

            @Override
            public void viewFailed(ObjectId id, Throwable cause) {
              if (!stopping.get()) {
                listener.viewFailed(id, cause);
              }
            }

            @Override
            public void message(String text) {
              if (!stopping.get()) {
                listener.message(text);
              }
            }
          };
      Runtime.getRuntime().addShutdownHook(onExit);
      try {
        try (RunDeadline limit =
            new RunDeadline(runId, deadline, request.timeout(), this::startedContext)) {
          runDeadline = limit;
          if (stopping.get()) {
            limit.interrupt(); // Ctrl-C came before the walk: no view starts
          }
          this.runListener = untilStopped;
          runs =
              DagWalker.walk(
                  project.lineage(),
                  request.views(),
                  request.parallelism(),
                  deadline,
                  id -> {
                    ViewRun r;
                    if (stopping.get()) {
                      r = isPython(project, id) ? pythonSkipped(id) : notStarted(id);
                    } else {
                      Path table = warehouse.tableDir(id);
                      OptionalLong before = Warehouse.latestCommit(table);
                      r = guarded(project, request, id, untilStopped);
                      if (stopping.get() && r.status() == ViewStatus.Failed) {
                        r = interrupted(r, table, before, startedWith.get(id));
                      }
                      if (!r.reason().equals(INTERRUPTED) && !isPython(project, id)) {
                        ended.incrementAndGet();
                      }
                    }
                    synchronized (done) {
                      done.add(r);
                      history.progress(
                          new RunReport(
                              runId, RunStatus.Running, started, RunReport.now(), name(), done));
                    }
                    return r;
                  },
                  untilStopped);
        } finally {
          runDeadline = null;
          stopHook = null;
          this.runListener = RunListener.NONE;
          try {
            Runtime.getRuntime().removeShutdownHook(onExit);
          } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting: the hook is about to say so.
          }
        }
        boolean stopped = stopping.get(); // a Ctrl-C after the last view changes nothing
        if (stopped) {
          runs = notStartedBelowInterrupted(project.lineage(), runs, v -> isPython(project, v));
        }
        RunStatus status =
            stopped
                ? RunStatus.Interrupted
                : runs.stream().anyMatch(r -> r.status() == ViewStatus.Failed)
                    ? RunStatus.Failed
                    : RunStatus.Completed;
        RunReport finished = new RunReport(runId, status, started, RunReport.now(), name(), runs);
        // The history says why the command exits 4: the breach is its view's error.
        RunReport report =
            QualityGates.annotate(
                finished,
                QualityGates.check(
                    finished,
                    v ->
                        project.views().containsKey(v)
                            ? project.views().get(v).settings().quality()
                            : null),
                project.names()::display);
        if (exiting.get()) {
          // Spark is going down with the JVM: park the record for the next run, quietly.
          history.record(report, Optional.empty());
          kept.set(report.status());
          return report;
        }
        recordRun(history, report, listener);
        kept.set(report.status());
        if (stopped) {
          // Ctrl-C in the shell: Spark stays up, and the record is written now.
          listener.message(
              interruptedLine(runId, ended.get(), toRefresh, "the run is recorded as Interrupted"));
        }
        QuarantineStore.pruneAll(this, project, history, listener);
        return report;
      } finally {
        // Until the record is written: a Ctrl-C during the write must not cancel its Spark job.
        stopRun = null;
        parked.countDown();
      }
    }
  }

  /** The line Ctrl-C prints, whether the JVM ends (a signal) or goes on (the shell's Ctrl-C). */
  private static String interruptedLine(String runId, int ended, int views, String recorded) {
    return "mlv: interrupted; run "
        + runId
        + " stopped after "
        + ended
        + " of "
        + DiagnosticRenderer.plural(views, "view")
        + "; any view still being written keeps its previous version, and "
        + recorded;
  }

  /** How long Ctrl-C waits for the interrupted run's record to be parked before the JVM ends. */
  static final java.time.Duration PARK_WAIT = java.time.Duration.ofSeconds(10);

  private static final String INTERRUPTED = "INTERRUPTED";

  private static ViewRun notStarted(ObjectId id) {
    return ViewRun.skipped(id, "none", INTERRUPTED + ": the run was interrupted before it started");
  }

  /** A PySpark view's outcome in every local run, interrupted or not. */
  private static ViewRun pythonSkipped(ObjectId id) {
    return ViewRun.skipped(
        id, PYTHON_SKIP.label(), PYTHON_SKIP.code() + ": " + PYTHON_SKIP.detail());
  }

  /**
   * {@code runs} with each view the walk skipped below one the interruption stopped recorded as not
   * started: the interruption, not a broken upstream, kept it from running. One below a view that
   * really failed keeps its UPSTREAM_ reason; a PySpark view ({@code python}) gets the reason every
   * local run gives it, as it would not have run anyway.
   */
  private static List<ViewRun> notStartedBelowInterrupted(
      LineageGraph lineage, List<ViewRun> runs, java.util.function.Predicate<ObjectId> python) {
    Set<ObjectId> cut = new HashSet<>();
    Set<ObjectId> broke = new HashSet<>();
    for (ViewRun r : runs) {
      if (r.reason().startsWith(INTERRUPTED)) {
        cut.add(r.id());
      } else if (r.status() == ViewStatus.Failed) {
        broke.add(r.id());
      }
    }
    return runs.stream()
        .map(
            r -> {
              if (r.status() != ViewStatus.Skipped || !r.reason().startsWith("UPSTREAM_")) {
                return r;
              }
              Set<ObjectId> above = lineage.ancestors(r.id());
              return above.stream().anyMatch(cut::contains)
                      && above.stream().noneMatch(broke::contains)
                  ? python.test(r.id()) ? pythonSkipped(r.id()) : notStarted(r.id())
                  : r;
            })
        .toList();
  }

  /**
   * What a view that failed during an interrupt did, told by its Delta log rather than by the
   * failure: once its refresh commit has landed, a step after it that Spark's shutdown broke (a
   * temporary function dropped, the quarantine append) does not undo it. Such a view is Completed,
   * with the rows its commit counted; the commit holds the source versions it consumed, so the next
   * run skips it. A view with no new commit was left at its previous version.
   */
  static ViewRun interrupted(ViewRun failed, Path table, OptionalLong before, Strategy strategy) {
    Optional<LandedCommit> landed =
        strategy == null || strategy instanceof Strategy.Skip
            ? Optional.empty()
            : LandedCommit.after(table, before);
    if (landed.isPresent()) {
      return new ViewRun(
          failed.id(),
          ViewStatus.Completed,
          strategy.label(),
          strategy.code() + ": " + strategy.detail(),
          landed.get().rowsWritten(),
          0,
          Map.of(),
          failed.durationMs(),
          Optional.empty());
    }
    return failed(
        failed.id(),
        failed.strategy(),
        INTERRUPTED,
        "the run was interrupted while this view was written; it was left as it was",
        System.nanoTime() - failed.durationMs() * 1_000_000);
  }

  /**
   * Runs after a view's refresh commit has landed, before the refresh returns. A test seam: it
   * makes a step after the commit fail while the run is being interrupted.
   */
  volatile java.util.function.Consumer<ObjectId> afterCommit = id -> {};

  /** The shutdown hook of the run in progress, for a test to start as a SIGINT would. */
  Thread stopHook() {
    return stopHook;
  }

  /**
   * A view whose refresh throws (an unreadable stored definition, a lakehouse that cannot be read)
   * fails alone, with one line of error, instead of aborting the run and leaving its marker behind.
   */
  /**
   * Records the run. The views are written by now, so a history that cannot be written must not
   * turn a good run into a failure: the record is parked and written by the next run.
   */
  private void recordRun(HistoryStore history, RunReport report, RunListener listener) {
    Optional<org.apache.spark.sql.SparkSession> spark =
        runtime != null && runtime.started() ? Optional.of(runtime.session()) : Optional.empty();
    try {
      history.record(report, spark);
    } catch (Exception e) {
      listener.message(
          "warning: run "
              + report.id()
              + " could not be written to mlv_history.runs ("
              + SparkMessages.explanation(e)
              + "); it is kept in .mlv/runs/pending and written by the next run");
      history.record(report, Optional.empty());
    }
  }

  private ViewRun guarded(
      Project project, RefreshRequest request, ObjectId id, RunListener listener) {
    long t0 = System.nanoTime();
    try {
      return refreshView(project, request, id, listener);
    } catch (RuntimeException e) {
      listener.viewFailed(id, e);
      ViewRun failed =
          failed(
              id,
              "none",
              "REFRESH_FAILED",
              // mlv's own errors are already a diagnostic (rule, place, hint): kept whole.
              e instanceof MlvException m
                  ? m.getMessage()
                  : "refresh of "
                      + project.names().display(id)
                      + " failed: "
                      + SparkMessages.explanation(e),
              t0);
      listener.viewFinished(failed);
      return failed;
    }
  }

  private ViewRun refreshView(
      Project project, RefreshRequest request, ObjectId id, RunListener listener) {
    long t0 = System.nanoTime();
    if (isPython(project, id)) {
      listener.viewStarted(id, PYTHON_SKIP);
      ViewRun skipped = pythonSkipped(id);
      listener.viewFinished(skipped);
      return skipped;
    }
    Optional<DeployedView> deployed = deployed(id);
    String forced = request.forcedFull().get(id);
    ViewDefinition def;
    if (dev.mlv.project.ReservedNames.isReserved(id)) {
      return told(
          listener,
          failed(
              id,
              "none",
              "RESERVED_NAME",
              placed(
                  project,
                  id,
                  "RESERVED_NAME",
                  project.names().display(id)
                      + " is a name the local target keeps for its own tables (schema "
                      + HistoryStore.SCHEMA
                      + ", names ending in "
                      + QuarantineStore.SUFFIX
                      + ")",
                  "rename the view"),
              t0));
    }
    if (deployed.isEmpty() && Warehouse.isTable(warehouse.tableDir(id))) {
      // A table that is not a view (a source, one made with mlv sql): Fabric refuses to create a
      // view over it, and CREATE OR REPLACE would have replaced its data.
      return told(
          listener,
          failed(
              id,
              "none",
              "TABLE_EXISTS",
              placed(
                  project,
                  id,
                  "TABLE_EXISTS",
                  project.names().display(id)
                      + " is an existing table, not a materialized lake view; mlv does not"
                      + " overwrite it",
                  "rename the view, or drop the table first (mlv sql \"DROP TABLE "
                      + project.names().display(id)
                      + "\") if its data is not needed"),
              t0));
    }
    if (forced != null) {
      def = project.views().get(id).definition();
    } else if (deployed.isEmpty()) {
      return told(
          listener,
          failed(
              id,
              "none",
              "NOT_DEPLOYED",
              "view " + project.names().display(id) + " is not deployed; run 'mlv apply' first",
              t0));
    } else {
      // Refresh runs what is deployed, as Fabric does; apply is what deploys the project.
      Optional<ViewDefinition> parsed = deployedDefinition(project, id, deployed.get());
      if (parsed.isEmpty()) {
        return told(
            listener,
            failed(
                id,
                "none",
                "BAD_DEFINITION",
                "the definition stored with "
                    + project.names().display(id)
                    + " cannot be parsed; run 'mlv apply' to replace it",
                t0));
      }
      def = parsed.get();
    }
    List<ObjectId> upstream = upstreamOf(project, id, def);
    LocalStrategy.Decided decided =
        def.isFileSource()
            ? new LocalStrategy.Decided(
                files()
                    .decide(id, def, request.full(), Optional.ofNullable(forced), project.names()),
                Map.of(),
                Map.of(),
                NO_ANALYSIS)
            : decide(
                project,
                request.full(),
                Optional.ofNullable(forced),
                id,
                deployed,
                Optional.of(def),
                upstream);
    Strategy strategy = decided.strategy();
    listener.viewStarted(id, strategy);
    ViewRun result;
    if (strategy instanceof Strategy.Skip) {
      result =
          new ViewRun(
              id,
              ViewStatus.Completed,
              strategy.label(),
              strategy.code() + ": " + strategy.detail(),
              0,
              0,
              Map.of(),
              elapsed(t0),
              Optional.empty());
    } else if (strategy instanceof Strategy.Incremental && !def.isFileSource()) {
      // A file view ingests its new files itself; only SELECT views are rewritten over changes.
      RunDeadline limit = runDeadline;
      IncrementalMaterializer inc = new IncrementalMaterializer(this, project);
      result =
          limit == null
              ? inc.run(id, def, decided, t0)
              : limit.run(runtime().session().sparkContext(), () -> inc.run(id, def, decided, t0));
    } else {
      result = materialize(project, id, def, upstream, strategy, true, t0);
    }
    if (result.status() == ViewStatus.Completed && !(strategy instanceof Strategy.Skip)) {
      afterCommit.accept(id);
    }
    if (forced != null && result.status() == ViewStatus.Failed) {
      result = afterFailedApply(result, forced, project.names().display(id));
    }
    listener.viewFinished(result);
    return result;
  }

  /**
   * A view that apply creates or replaces is written by its refresh, so a failed refresh leaves no
   * view, or the previous one: the error says which, since the plan promised a create or replace.
   */
  private static ViewRun afterFailedApply(ViewRun failed, String forced, String view) {
    String what =
        forced.equals("NEW_VIEW")
            ? view + " was not created, since a view is created by its first refresh"
            : view + " keeps its previous definition and data";
    return failed.withError(
        failed.error().orElse("the refresh failed")
            + "\n"
            + what
            + "; fix the cause and run 'mlv apply' again");
  }

  /** Whether a refresh of {@code id} runs the project's own definition (deployed as it is). */
  boolean refreshesProjectDefinition(Project project, ObjectId id) {
    Optional<ViewDefinition> file = project.view(id).map(dev.mlv.project.ProjectView::definition);
    return file.isPresent()
        && deployed(id).flatMap(d -> deployedDefinition(project, id, d)).orElse(null) == file.get();
  }

  /**
   * The deployed definition of a view, parsed. When it is the very text of the project's file (the
   * usual case after apply), the project's parse is that parse, so Calcite is not run again.
   */
  private static Optional<ViewDefinition> deployedDefinition(
      Project project, ObjectId id, DeployedView deployed) {
    Optional<ViewDefinition> file = project.view(id).map(dev.mlv.project.ProjectView::definition);
    if (file.isPresent() && file.get().statement().equals(deployed.definition())) {
      return file;
    }
    Optional<ViewDefinition> parsed = parseDefinition(deployed.definition());
    // A file that differs only in formatting (plan: no change) is the same view; its parse
    // places an error at the file's line and column rather than in the deployed text.
    if (file.isPresent()
        && parsed.isPresent()
        && file.get().fingerprint().equals(parsed.get().fingerprint())) {
      return file;
    }
    return parsed;
  }

  /**
   * What the SELECT of {@code def} reads: the project's own definition comes with it, another (a
   * deployed one, or one given to mlv sql) is parsed here.
   */
  private QueryFacts factsOf(
      Project project, ObjectId id, ViewDefinition def, ViewBody.Select select) {
    return project
        .view(id)
        .filter(v -> v.definition() == def)
        .flatMap(dev.mlv.project.ProjectView::facts)
        .orElseGet(() -> extractor().extract(select.sql(), select.position()));
  }

  /** The tables a definition of view {@code id} reads, resolved with the project's defaults. */
  List<ObjectId> upstreamOf(Project project, ObjectId id, ViewDefinition def) {
    if (!(def.body() instanceof ViewBody.Select select)) {
      return List.of();
    }
    QueryFacts facts = factsOf(project, id, def, select);
    if (!facts.parsed()) {
      throw new MlvException(facts.diagnostics());
    }
    return facts.tables().stream().map(project.names()::resolve).distinct().sorted().toList();
  }

  /**
   * The Delta table id of each table in {@code tables} that has one now, recorded with the versions
   * a refresh reads so the next one can tell a source that is another table.
   */
  Map<ObjectId, String> tableIds(java.util.Collection<ObjectId> tables) {
    Map<ObjectId, String> ids = new TreeMap<>();
    for (ObjectId t : tables) {
      TableState s = deltaState().read(t, warehouse.tableDir(t));
      if (s != null) {
        s.tableId().ifPresent(v -> ids.put(t, v));
      }
    }
    return ids;
  }

  /**
   * The id of the commit at each version in {@code versions} that its log names, recorded with them
   * so the next refresh can tell a version number another commit took since (a table's folder
   * restored from a copy keeps its table id).
   */
  Map<ObjectId, String> commitIds(Map<ObjectId, Long> versions) {
    Map<ObjectId, String> ids = new TreeMap<>();
    versions.forEach(
        (t, v) -> deltaState().commitIdAt(warehouse.tableDir(t), v).ifPresent(c -> ids.put(t, c)));
    return ids;
  }

  Optional<DeployedView> deployed(ObjectId id) {
    return Optional.ofNullable(deltaState().read(id, warehouse.tableDir(id)))
        .filter(t -> t.properties().containsKey(P_DEFINITION))
        .map(LocalTarget::deployedView);
  }

  ViewRun materialize(
      Project project,
      ObjectId id,
      ViewDefinition def,
      List<ObjectId> upstream,
      Strategy strategy,
      boolean managed,
      long t0) {
    String reason = strategy.code() + ": " + strategy.detail();
    Map<ObjectId, Long> sources = new TreeMap<>();
    for (ObjectId up : upstream) {
      OptionalLong v = Warehouse.latestCommit(warehouse.tableDir(up));
      if (v.isEmpty()) {
        // Placed where the view's file names the table, as validate places it.
        Position at = referenceTo(project, id, def, up);
        String missing =
            "source " + project.names().display(up) + " does not exist in the local lakehouse";
        return failed(
            id,
            strategy.label(),
            reason,
            at == null
                ? missing + "; " + hintFor(project, up)
                : Diagnostic.error("SOURCE_MISSING", at, missing, hintFor(project, up)).format(),
            t0);
      }
      sources.put(up, v.getAsLong());
    }
    Map<String, String> props = new LinkedHashMap<>(def.properties());
    // Fabric's own delta. properties (V-Order's) mean nothing to open-source Delta, which refuses
    // them: the view is created without them here, as the same file is with them in Fabric.
    props.keySet().removeIf(dev.mlv.check.DeltaProperties::fabricOnly);
    props.put(P_DEFINITION, def.statement());
    props.put(P_FINGERPRINT, def.fingerprint());
    props.put(P_MANAGED, String.valueOf(managed));
    props.put(
        P_SOURCES, SourceVersions.format(sources, tableIds(sources.keySet()), commitIds(sources)));
    props.put(P_REFRESHED, Instant.now().toString());
    props.put(P_TOOL, dev.mlv.Version.current());
    // Views read by other views need change data feed for those to refresh incrementally.
    if (project.view(id).map(v -> v.settings().enableCdf()).orElse(false)) {
      props.putIfAbsent("delta.enableChangeDataFeed", "true");
    }
    if (!(def.body() instanceof ViewBody.Select select)) {
      return ingestFiles(project, id, def, strategy, props, t0);
    }
    RunDeadline limit = runDeadline;
    boolean existed = Warehouse.latestCommit(warehouse.tableDir(id)).isPresent();
    try {
      ViewMaterializer m = materializer(project);
      MaterializeRequest req =
          new MaterializeRequest(
              id,
              select.sql(),
              def.constraints(),
              def.partitionedBy(),
              def.comment(),
              props,
              Optional.of(select.position()),
              sources);
      Optional<ViewMaterializer.QuarantineTarget> q =
          QuarantineStore.target(project, id, currentRun);
      MaterializeResult r =
          limit == null
              ? m.materialize(req, q)
              : limit.run(runtime().session().sparkContext(), () -> m.materialize(req, q));
      return new ViewRun(
          id,
          ViewStatus.Completed,
          strategy.label(),
          reason,
          r.rowsWritten(),
          r.rowsDropped(),
          r.violations(),
          elapsed(t0),
          Optional.empty());
    } catch (Exception e) { // Spark's AnalysisException is checked, yet thrown undeclared
      if (!existed) {
        removeUncommitted(warehouse.tableDir(id));
      }
      if (limit != null && limit.expired()) {
        return failed(id, strategy.label(), "RUN_TIMEOUT", limit.message(), t0);
      }
      MlvException failure =
          e instanceof MlvException m
              ? m
              : new MlvException(
                  ViewMaterializer.REFRESH_FAILED,
                  "refresh failed: " + SparkMessages.explanation(e),
                  e);
      return failed(id, strategy.label(), reason, placed(failure, def), t0, e);
    }
  }

  /**
   * The failure's text with a place in the view's file when it has none: where Spark says the
   * failing expression is (a CAST of a bad value, a division by zero, in the SELECT or in a CHECK),
   * found by the fragment it quotes, else the view's CREATE statement, so the file is always named.
   */
  static String placed(MlvException failure, ViewDefinition def) {
    var first = failure.diagnostics().get(0);
    if (first.position() != null || def.position() == null || def.position().file() == null) {
      return failure.getMessage();
    }
    Position at = def.position();
    if (def.body() instanceof ViewBody.Select select && failure.getCause() != null) {
      // The SELECT first; then the whole statement, where a CHECK expression is written.
      at =
          SparkMessages.placeByFragment(failure.getCause(), select.sql(), select.position())
              .or(
                  () ->
                      SparkMessages.placeByFragment(
                          failure.getCause(), def.statement(), def.position()))
              .orElse(at);
    }
    return Diagnostic.error(first.ruleId(), at, first.message(), first.hint()).format();
  }

  /**
   * A view's first refresh failed: Spark may have written data files (and Delta a staged commit)
   * into a folder that holds no commit, so no table. They are removed, so that a failed first
   * refresh leaves nothing behind; a folder that holds a commit is never touched. The job's other
   * tasks are cancelled asynchronously and may still open a file after the failure is reported
   * (recreating the folder), so the folder must stay gone for a moment, within a bounded wait.
   */
  private static void removeUncommitted(Path table) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
    int quiet = 0;
    while (quiet < 3 && System.nanoTime() < deadline) {
      if (Warehouse.latestCommit(table).isPresent()) {
        return;
      }
      if (Files.exists(table)) {
        quiet = 0;
        try (var walk = Files.walk(table)) {
          for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(p);
          }
        } catch (IOException | UncheckedIOException e) {
          // A task is still writing here; the next round deletes what it left.
        }
      } else {
        quiet++;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private ViewRun ingestFiles(
      Project project,
      ObjectId id,
      ViewDefinition def,
      Strategy strategy,
      Map<String, String> props,
      long t0) {
    String reason = strategy.code() + ": " + strategy.detail();
    RunDeadline limit = runDeadline;
    boolean existed = Warehouse.latestCommit(warehouse.tableDir(id)).isPresent();
    try {
      FileIngestor ingestor = files();
      // In the run's job group, as a SELECT view's jobs: the time limit cancels them. The rows and
      // the list of ingested files are one Delta commit, so a cancelled ingestion records neither.
      FileIngestor.Result r =
          limit == null
              ? ingestor.ingest(id, def, strategy, props, project.names())
              : limit.run(
                  runtime().session().sparkContext(),
                  () -> ingestor.ingest(id, def, strategy, props, project.names()));
      return new ViewRun(
          id,
          ViewStatus.Completed,
          strategy.label(),
          reason,
          r.rowsWritten(),
          0,
          Map.of(),
          elapsed(t0),
          Optional.empty(),
          Optional.of(new dev.mlv.refresh.FileCounts(r.filesIngested(), r.filesRemoved())));
    } catch (RuntimeException e) {
      // Whatever stopped it: the files its tasks wrote before the failure are no table.
      if (!existed) {
        removeUncommitted(warehouse.tableDir(id));
      }
      if (limit != null && limit.expired()) {
        return failed(id, strategy.label(), "RUN_TIMEOUT", limit.message(), t0);
      }
      if (e instanceof MlvException m) {
        return failed(id, strategy.label(), reason, m.getMessage(), t0, m);
      }
      throw e;
    }
  }

  /**
   * Whether the incremental ingestion of file view {@code id} only appends rows (new files under
   * APPEND_ONLY, or MIRROR with no file replaced or deleted), as a dry run must know for the views
   * below it; read from the folder's listing, as the decision was.
   */
  boolean ingestionAppends(Project project, ObjectId id) {
    Optional<DeployedView> deployed = deployed(id);
    Optional<ViewDefinition> def =
        deployed.flatMap(d -> deployedDefinition(project, id, d)).filter(d -> d.isFileSource());
    return def.isPresent() && files().onlyAppends(id, def.get());
  }

  /**
   * The rebuild of an APPEND_ONLY file view reads its folder again, as a definition change does on
   * Fabric (CREATE OR REPLACE), so the rows of files it ingested before and no longer finds go with
   * it (found by QA: a comment changed, and a deleted file's rows were gone without a word).
   */
  @Override
  public List<String> replaceWarnings(Project project, ObjectId view) {
    Optional<ViewDefinition> next = project.view(view).map(dev.mlv.project.ProjectView::definition);
    Optional<ViewDefinition> kept =
        deployed(view).flatMap(d -> deployedDefinition(project, view, d));
    if (next.isEmpty() || kept.isEmpty()) {
      return List.of();
    }
    List<String> dropped = files().droppedByRereading(view, kept.get(), next.get());
    return dropped.isEmpty()
        ? List.of()
        : List.of(
            "the rebuild reads the folder again and drops " + FileIngestor.droppedRows(dropped));
  }

  /** File-ingesting views: Spark starts only when files are read. */
  private FileIngestor files() {
    return new FileIngestor(
        this::runtime, warehouse, new SourceFolders(target.files(), warehouse, config.root()));
  }

  private static String hintFor(Project project, ObjectId up) {
    Node n = project.lineage().node(up);
    if (n != null && n.isView()) {
      return "run 'mlv apply' to create it";
    }
    return loadHint(project, up);
  }

  /**
   * Where the view's file names {@code table}: the reference in its SELECT, as validate places it;
   * else (a deployed definition that is not the file's, whose text has no file) the view's
   * statement in its file; null for a view of no file (one made with mlv sql).
   */
  private Position referenceTo(Project project, ObjectId view, ViewDefinition def, ObjectId table) {
    if (def.body() instanceof ViewBody.Select select) {
      QueryFacts facts = factsOf(project, view, def, select);
      for (dev.mlv.sql.Name name : facts.tables()) {
        if (inFile(name.position()) && project.names().resolve(name).equals(table)) {
          return name.position();
        }
      }
    }
    if (inFile(def.position())) {
      return def.position();
    }
    return project
        .view(view)
        .map(v -> v.definition().position())
        .filter(LocalTarget::inFile)
        .orElse(null);
  }

  private static boolean inFile(Position at) {
    return at != null && at.file() != null;
  }

  /** How a missing table gets its rows locally: its seed, or by hand. */
  private static String loadHint(Project project, ObjectId table) {
    boolean seeded =
        project.config().sources().stream()
            .anyMatch(
                s ->
                    s.seed().isPresent()
                        && project.names().resolve(dev.mlv.sql.Name.of(s.name())).equals(table));
    if (project.views().containsKey(table)) {
      return "it is a view of the project: deploy it with 'mlv apply'";
    }
    if (project.config().sources().stream()
        .noneMatch(s -> project.names().resolve(dev.mlv.sql.Name.of(s.name())).equals(table))) {
      // Neither a view of the project nor a declared source: most often a view dropped or renamed.
      return "no view of the project defines it and no source declares it: fix the name in the"
          + " SQL, create it with 'mlv sql', or declare it under sources: with a seed";
    }
    return seeded
        ? "load it with 'mlv seed'"
        : "create and load it with 'mlv sql', or declare a seed for it in mlv.yml";
  }

  private LocalStrategy.Decided decide(
      Project project,
      boolean full,
      Optional<String> forced,
      ObjectId id,
      Optional<DeployedView> deployed,
      Optional<ViewDefinition> def,
      List<ObjectId> upstream) {
    return new LocalStrategy(this, project).decide(full, forced, id, deployed, def, upstream);
  }

  /**
   * A failure of the project's view {@code id} as a diagnostic at its CREATE statement, as validate
   * places one: file:line:column, rule, message and hint.
   */
  private static String placed(
      Project project, ObjectId id, String rule, String message, String hint) {
    ProjectView view = project.views().get(id);
    return dev.mlv.diag.Diagnostic.error(
            rule, view == null ? null : view.definition().position(), message, hint)
        .format();
  }

  /**
   * A view that fails before it starts (its name, the table in its place, its deployed state): the
   * listener hears it finish, so the progress prints its failed line and counts it as any other.
   */
  private static ViewRun told(RunListener listener, ViewRun run) {
    listener.viewFinished(run);
    return run;
  }

  /**
   * A view that {@code cause} failed: the run's listener hears of it, the run keeps the text and,
   * when a row broke an {@code ON MISMATCH FAIL} rule, the rows that broke each such rule.
   */
  ViewRun failed(
      ObjectId id, String strategy, String reason, String error, long t0, Throwable cause) {
    runListener.viewFailed(id, cause);
    Map<String, Long> violations =
        cause instanceof ViewMaterializer.ConstraintFailed c ? c.violations() : Map.of();
    return new ViewRun(
        id, ViewStatus.Failed, strategy, reason, 0, 0, violations, elapsed(t0), Optional.of(error));
  }

  static ViewRun failed(ObjectId id, String strategy, String reason, String error, long t0) {
    return new ViewRun(
        id, ViewStatus.Failed, strategy, reason, 0, 0, Map.of(), elapsed(t0), Optional.of(error));
  }

  static long elapsed(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }

  static List<ObjectId> order(LineageGraph graph, SortedSet<ObjectId> selected) {
    List<ObjectId> out = new java.util.ArrayList<>();
    for (SortedSet<ObjectId> layer : graph.layers()) {
      layer.stream().filter(selected::contains).forEach(out::add);
    }
    return out;
  }

  // ---- history ----

  private HistoryStore history() {
    return new HistoryStore(
        warehouse,
        new ObjectId(
            config.workspace(), config.lakehouse(), HistoryStore.SCHEMA, HistoryStore.TABLE),
        config.defaults().history().retainRuns(),
        config.defaults().history().retainDays());
  }

  @Override
  public List<RunReport> runs(int limit, RunListener listener) {
    // Read with Delta Kernel: listing runs starts no Spark.
    return history().list(limit, listener);
  }

  @Override
  public Optional<RunReport> run(String id, RunListener listener) {
    return runs(Integer.MAX_VALUE, listener).stream().filter(r -> r.id().equals(id)).findFirst();
  }

  // ---- sql and seed ----

  /** Where the rows this run drops from a view go, when the view keeps a quarantine. */
  Optional<ViewMaterializer.QuarantineTarget> quarantineFor(Project project, ObjectId view) {
    return QuarantineStore.target(project, view, currentRun);
  }

  @Override
  public SqlResult quarantine(Project project, ObjectId view, Optional<String> runId, int limit) {
    ObjectId table = QuarantineStore.tableOf(view);
    if (!Warehouse.isTable(warehouse.tableDir(table))) {
      return new SqlResult(List.of(), List.of(), null);
    }
    runtime().registerLakehouse(table.workspace(), table.lakehouse());
    return QuarantineStore.read(runtime().session(), warehouse.tableDir(table), runId, limit);
  }

  @Override
  public SqlResult sql(Project project, SqlStatement statement) {
    return sql(project, statement, RunListener.NONE);
  }

  @Override
  public SqlResult sql(Project project, SqlStatement statement, RunListener listener) {
    return new LocalSql(this, project, listener).run(statement);
  }

  @Override
  public void checkSql(Project project, List<SqlStatement> statements) {
    new LocalSql(this, project, RunListener.NONE).checkSyntax(statements);
  }

  /**
   * Loads the seed files of the named sources (all seeded sources when none is named), under the
   * refresh lock: a seed during a run replaced a table the run was reading (found by QA), so it is
   * refused, as mlv sql's RENAME and DROP are, while another run holds the lakehouse.
   */
  public List<Seeder.Loaded> seed(Project project, List<String> names, RunListener listener) {
    return underLock("seed", () -> new Seeder(this, project).load(names, listener));
  }

  // ---- Spark plumbing ----

  synchronized boolean sparkStarted() {
    return runtime != null && runtime.started();
  }

  SparkSession sparkSession() {
    return runtime().session();
  }

  /** The SparkContext if this target has started Spark, else null. */
  private synchronized org.apache.spark.SparkContext startedContext() {
    return runtime != null && runtime.started() ? runtime.session().sparkContext() : null;
  }

  /**
   * Ctrl-C in the shell. During a refresh or apply (a REFRESH statement's too) the run stops: no
   * view starts after it, the running views' Spark jobs are cancelled, so each is left at its
   * previous version (Delta commits all or nothing) unless its commit had landed, and the run is
   * recorded {@code Interrupted}. Otherwise the Spark jobs running (a query's) are cancelled.
   */
  @Override
  public void cancelRunning() {
    // From a signal handler while the command's thread holds this target: no lock taken here.
    Runnable stop = stopRun;
    if (stop != null) {
      stop.run();
      return;
    }
    SparkRuntime r = runtime;
    if (r != null && r.started()) {
      r.session().sparkContext().cancelAllJobs();
    }
  }

  /**
   * As {@link #cancelRunning}. The command's thread is not interrupted: it waits for views that run
   * on other threads, and Spark fails a job whose calling thread is interrupted, so the run's
   * record could not be written after it.
   */
  @Override
  public void cancelCommand(Thread command) {
    cancelRunning();
  }

  synchronized SparkRuntime runtime() {
    if (runtime == null) {
      // Before Spark sees the conf: a value it refuses would fail deep in its start, or be dropped.
      QuietLogging.apply(debug || QuietLogging.debugRequested());
      SparkConfCheck.check(target);
      runtime =
          new SparkRuntime(
              new SparkRuntime.Settings(
                  warehouse.root(),
                  lakehouses,
                  config.lakehouse().toLowerCase(java.util.Locale.ROOT),
                  config.schema().toLowerCase(java.util.Locale.ROOT),
                  Optional.ofNullable(target.master()),
                  target.conf(),
                  debug));
      try {
        runtime.use(config.lakehouse(), config.schema());
      } catch (Exception e) { // Scala throws SparkException and ClassNotFoundException unchecked
        boolean started = runtime.started();
        runtime = null;
        Optional<MlvException> conf =
            started ? Optional.empty() : SparkConfCheck.startFailed(target, e);
        if (conf.isPresent()) {
          throw conf.get();
        }
        throw e;
      }
    }
    return runtime;
  }

  /**
   * Registers every lakehouse the project's lineage reaches, under every spelling its SQL uses,
   * before SQL runs against them.
   */
  ViewMaterializer materializer(Project project) {
    SparkRuntime rt = runtime();
    workspaces(project)
        .forEach(
            (lh, ws) -> {
              if (!lakehouses.containsKey(lh)) {
                lakehouses.put(lh, ws);
                rt.registerLakehouse(ws, lh);
              }
            });
    for (ProjectView v : project.views().values()) {
      registerSpellings(v.facts().map(QueryFacts::tables).orElse(List.of()));
    }
    return new ViewMaterializer(rt);
  }

  /** Makes the lakehouse and workspace parts of these names resolvable as they are spelled. */
  void registerSpellings(List<dev.mlv.sql.Name> names) {
    SparkRuntime rt = runtime();
    for (dev.mlv.sql.Name t : names) {
      List<String> written = t.written();
      if (written.size() >= 3) {
        written.subList(0, written.size() - 2).forEach(rt::registerSpelling);
      }
    }
  }

  synchronized TableExtractor extractor() {
    if (extractor == null) {
      extractor = new TableExtractor();
    }
    return extractor;
  }

  Warehouse warehouse() {
    return warehouse;
  }

  ProjectConfig config() {
    return config;
  }

  static Optional<ViewDefinition> parseDefinition(String statement) {
    MlvParser.Result r = MlvParser.parse(Position.start(null), statement);
    return r.statements().stream()
        .filter(SqlStatement.CreateView.class::isInstance)
        .map(s -> ((SqlStatement.CreateView) s).definition())
        .findFirst();
  }

  @Override
  public synchronized void close() {
    if (deltaState != null) {
      deltaState.save();
    }
    if (runtime != null) {
      runtime.close();
      runtime = null;
    }
  }
}
