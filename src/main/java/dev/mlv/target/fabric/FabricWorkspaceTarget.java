package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.mlv.diag.BusyException;
import dev.mlv.diag.MlvException;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Change;
import dev.mlv.plan.EnableCdf;
import dev.mlv.plan.Plan;
import dev.mlv.project.FabricTarget;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.RefreshPolicy;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.StrategyDecider;
import dev.mlv.refresh.UpstreamBlock;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.Fingerprint;
import dev.mlv.sql.SqlStatement;
import dev.mlv.target.DeployedNotebook;
import dev.mlv.target.DeployedState;
import dev.mlv.target.DeployedView;
import dev.mlv.target.SqlResult;
import dev.mlv.target.SqlValue;
import dev.mlv.target.Target;
import dev.mlv.target.UpstreamLakehouse;
import dev.mlv.target.local.SyntaxCheck;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A Fabric lakehouse as a target. Deployed views are read and changed with Spark SQL over Livy
 * (Fabric has no REST API that lists MLVs); refreshes are one {@code RefreshMaterializedLakeViews}
 * job per command, narrowed to the selection by an MLV execution definition. What each view did in
 * a job is read back from its Delta history, since the job API reports only the whole run.
 */
public final class FabricWorkspaceTarget implements Target {

  private final ProjectConfig config;
  private final FabricTarget target;
  private final FabricSql sql;
  private final LivyClient livy;
  private final JobClient jobs;
  private final RunBook book;
  private final FabricSchedules schedules;
  private final FabricNotebooks notebooks;
  private final FabricDrops drops;
  private List<UpstreamLakehouse> extendedLineage;
  private boolean extended;

  public FabricWorkspaceTarget(
      ProjectConfig config, FabricTarget target, TokenSource tokens, RetryPolicy policy) {
    this.config = config;
    this.target = target;
    FabricHttp http = new FabricHttp(target.endpoint(), target.allowEndpoint(), tokens, policy);
    Path state = config.root().resolve(".mlv").resolve("fabric").resolve(target.name());
    this.sql = new FabricSql(config.workspace(), config.lakehouse());
    this.livy =
        new LivyClient(
            http, target.workspaceId(), target.lakehouseId(), state.resolve("livy-session"));
    this.jobs = new JobClient(http, target.workspaceId(), target.lakehouseId());
    this.drops = new FabricDrops(livy);
    this.book = new RunBook(new RunRecords(state.resolve("runs")), jobs, target.name());
    this.schedules =
        new FabricSchedules(http, jobs, target.workspaceId(), target.lakehouseId(), target.name());
    this.notebooks =
        new FabricNotebooks(
            http,
            config,
            target,
            id ->
                livy.sql(
                    "DROP MATERIALIZED LAKE VIEW IF EXISTS " + sql.name(id),
                    "dropping " + id.shortName(),
                    true));
  }

  /** The lakehouse's refresh schedules, as declared resources. */
  @Override
  public Optional<dev.mlv.schedule.Schedules> schedules() {
    return Optional.of(schedules);
  }

  @Override
  public String name() {
    return target.name();
  }

  /** PySpark views are deployed as one notebook item per file, run once to register them. */
  @Override
  public boolean deploysPySparkViews() {
    return true;
  }

  /**
   * Includes the lakehouses upstream of this one in the next refresh: the given ones, or all of
   * them when the list is empty (Fabric's own default).
   */
  @Override
  public void extendedLineage(List<UpstreamLakehouse> lakehouses) {
    this.extended = true;
    this.extendedLineage = lakehouses.stream().map(l -> l.in(target.workspaceId())).toList();
  }

  // ---- state ----

  @Override
  public DeployedState state(Project project) {
    Map<ObjectId, DeployedView> views = new TreeMap<>();
    Map<ObjectId, DeployedState.SourceTable> tables = new TreeMap<>();
    Set<ObjectId> wantedTables = new HashSet<>();
    project.lineage().nodes().values().stream()
        .filter(n -> n.kind() == NodeKind.TABLE)
        .forEach(n -> wantedTables.add(n.id()));
    List<DeployedNotebook> deployedNotebooks = notebooks.deployed(project);
    for (String schema : schemas()) {
      Set<String> mlvs = new HashSet<>();
      LivyClient.Result shown =
          livy.listing(
              "SHOW MATERIALIZED LAKE VIEWS IN " + FabricSql.quote(schema),
              "listing the views of schema " + schema);
      for (List<JsonNode> row : shown.rows()) {
        String view = column(shown, row, "viewName", "name", "tableName").toLowerCase(Locale.ROOT);
        mlvs.add(view);
        ObjectId id = id(schema, view);
        Optional<DeployedView> pyspark = pysparkView(project, id, deployedNotebooks);
        if (pyspark.isPresent()) {
          views.put(id, pyspark.get());
        } else {
          deployed(id).ifPresent(v -> views.put(id, v));
        }
      }
      LivyClient.Result all =
          livy.listing(
              "SHOW TABLES IN " + FabricSql.quote(schema), "listing the tables of " + schema);
      for (List<JsonNode> row : all.rows()) {
        String table = column(all, row, "tableName", "name").toLowerCase(Locale.ROOT);
        ObjectId id = id(schema, table);
        if (!mlvs.contains(table) && wantedTables.contains(id)) {
          DeltaCommit h = history(id);
          tables.put(id, new DeployedState.SourceTable(h.version(), changeDataFeed(id)));
        }
      }
    }
    // A source in another lakehouse is not listed, but can be read and altered by name, as the
    // local target reads every lakehouse of its warehouse: apply then turns its feed on too.
    for (ObjectId id : wantedTables) {
      if (!inLakehouse(id)) {
        foreignTable(id).ifPresent(t -> tables.put(id, t));
      }
    }
    return new DeployedState(
        new TreeMap<>(views), new TreeMap<>(tables), Optional.of(deployedNotebooks));
  }

  /**
   * A table of another lakehouse, by its 3- or 4-part name; empty when it is missing or out of the
   * session's reach (no access to that lakehouse), where no state is known either way.
   */
  private Optional<DeployedState.SourceTable> foreignTable(ObjectId id) {
    try {
      DeltaCommit h = history(id);
      return h.version() < 0
          ? Optional.empty()
          : Optional.of(new DeployedState.SourceTable(h.version(), changeDataFeed(id)));
    } catch (MlvException e) {
      // Spark refused the statement (no access, say); a failing session or API still stops.
      if (e.diagnostics().stream().noneMatch(d -> d.ruleId().equals("SPARK_SQL"))) {
        throw e;
      }
      return Optional.empty();
    }
  }

  /**
   * A PySpark view as its notebook defines it: the catalog holds no CREATE text of ours for it, so
   * its definition and fingerprint come from the deployed notebook (or say that it is missing).
   */
  private Optional<DeployedView> pysparkView(
      Project project, ObjectId id, List<DeployedNotebook> deployed) {
    Optional<DeployedNotebook> nb =
        deployed.stream().filter(n -> n.fingerprints().containsKey(id)).findFirst();
    if (nb.isEmpty() && !FabricNotebooks.isPython(project, id)) {
      return Optional.empty();
    }
    DeltaCommit h = history(id);
    return Optional.of(
        new DeployedView(
            id,
            nb.map(n -> n.definitions().get(id))
                .orElse("-- a PySpark view whose notebook is not in the workspace"),
            nb.map(n -> n.fingerprints().get(id)).orElse("notebook-missing"),
            nb.isPresent(),
            h.version(),
            h.time(),
            Map.of(),
            Optional.of(h.time())));
  }

  /** The state lists every schema of the target's lakehouse, and no other lakehouse. */
  @Override
  public Optional<String> missingTableFix(Project project, ObjectId table) {
    return inLakehouse(table)
        ? Optional.of("Create it in the target's lakehouse, or fix the name in the SQL.")
        : Optional.empty();
  }

  /**
   * Whether {@code table} is in the target's lakehouse, the one place where a table's absence is
   * known: another lakehouse may be out of the session's reach.
   */
  private boolean inLakehouse(ObjectId table) {
    return id(table.schema(), table.name()).equals(table);
  }

  private ObjectId id(String schema, String name) {
    return new ObjectId(config.workspace(), config.lakehouse(), schema, name);
  }

  private List<String> schemas() {
    LivyClient.Result r = livy.listing("SHOW SCHEMAS", "listing the lakehouse's schemas");
    List<String> out = new ArrayList<>();
    for (List<JsonNode> row : r.rows()) {
      out.add(column(r, row, "namespace", "databaseName", "schemaName").toLowerCase(Locale.ROOT));
    }
    return out;
  }

  private static String column(LivyClient.Result r, List<JsonNode> row, String... names) {
    for (String n : names) {
      int i = r.columns().indexOf(n);
      if (i >= 0 && i < row.size()) {
        return row.get(i).asText();
      }
    }
    return row.get(row.size() - 1).asText();
  }

  private Optional<DeployedView> deployed(ObjectId id) {
    LivyClient.Result shown =
        livy.sql(
            "SHOW CREATE MATERIALIZED LAKE VIEW " + sql.name(id),
            "reading the definition of " + id.shortName());
    if (shown.rows().isEmpty()) {
      return Optional.empty();
    }
    String text = shown.rows().get(0).get(0).asText();
    DeltaCommit h = history(id);
    Optional<FabricSql.Deployed> back = FabricSql.readBack(text);
    return Optional.of(
        new DeployedView(
            id,
            back.map(FabricSql.Deployed::text).orElse(text),
            // A definition our parser cannot read gets a fingerprint of its text: a Replace.
            back.map(b -> b.definition().fingerprint()).orElse(Fingerprint.of(text)),
            back.map(FabricSql.Deployed::managed).orElse(false),
            h.version(),
            h.time(),
            Map.of(),
            Optional.of(h.time())));
  }

  private DeltaCommit history(ObjectId id) {
    List<DeltaCommit> latest = commits(id, 1);
    return latest.isEmpty() ? DeltaCommit.NONE : latest.get(0);
  }

  /** How many commits the dry run reads to find those after a view's last refresh. */
  private static final int COMMITS_READ = 100;

  /**
   * A table's newest {@code limit} commits, newest first; none when the table does not exist (Spark
   * answers DESCRIBE HISTORY on a missing table with an error, not with no rows).
   */
  private List<DeltaCommit> commits(ObjectId id, int limit) {
    LivyClient.Result r;
    try {
      r =
          livy.sql(
              "DESCRIBE HISTORY " + sql.name(id) + " LIMIT " + limit,
              "reading the history of " + id.shortName());
    } catch (MlvException e) {
      if (isMissingTable(e)) {
        return List.of();
      }
      throw e;
    }
    return r.rows().stream().map(row -> DeltaCommit.of(r.columns(), row)).toList();
  }

  /**
   * A table's commits after {@code after}, oldest first, or empty when there are more than the dry
   * run reads.
   */
  private Optional<List<DeltaCommit>> commitsAfter(ObjectId id, Instant after) {
    List<DeltaCommit> newest = commits(id, COMMITS_READ);
    boolean all =
        newest.size() < COMMITS_READ || !newest.get(newest.size() - 1).time().isAfter(after);
    if (!all) {
      return Optional.empty();
    }
    List<DeltaCommit> out =
        new ArrayList<>(newest.stream().filter(c -> c.time().isAfter(after)).toList());
    java.util.Collections.reverse(out);
    return Optional.of(out);
  }

  private static boolean isMissingTable(MlvException e) {
    String m = String.valueOf(e.getMessage());
    return e.diagnostics().stream().anyMatch(d -> d.ruleId().equals("SPARK_SQL"))
        && (m.contains("TABLE_OR_VIEW_NOT_FOUND")
            || m.contains("DELTA_MISSING_DELTA_TABLE")
            || m.contains("is not a Delta table"));
  }

  /**
   * The selected view a failed job's reason names: the one whose {@code schema.name} appears first
   * in the text as a whole name ({@code silver.orders} is not found in {@code
   * silver.orders_clean}); the longer name wins when two start at the same place.
   */
  static Optional<ObjectId> namedInFailure(String failure, List<ObjectId> selected) {
    String text = failure.toLowerCase(Locale.ROOT).replace("`", "");
    ObjectId best = null;
    int bestAt = Integer.MAX_VALUE;
    for (ObjectId id : selected) {
      String name = id.shortName().toLowerCase(Locale.ROOT);
      for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
        int end = at + name.length();
        boolean starts = at == 0 || !isNamePart(text.charAt(at - 1));
        boolean ends = end == text.length() || !isNamePart(text.charAt(end));
        if (starts && ends) {
          if (at < bestAt || at == bestAt && name.length() > best.shortName().length()) {
            best = id;
            bestAt = at;
          }
          break;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean isNamePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /**
   * Whether a source's change data feed is on; a table of another lakehouse that is missing or out
   * of reach is not known to be off.
   */
  private boolean feedOn(ObjectId id) {
    return inLakehouse(id)
        ? changeDataFeed(id)
        : foreignTable(id).map(DeployedState.SourceTable::changeDataFeed).orElse(true);
  }

  private boolean changeDataFeed(ObjectId id) {
    LivyClient.Result r =
        livy.sql(
            "SHOW TBLPROPERTIES " + sql.name(id) + " ('delta.enableChangeDataFeed')",
            "reading the properties of " + id.shortName());
    return !r.rows().isEmpty()
        && "true".equalsIgnoreCase(r.rows().get(0).get(r.rows().get(0).size() - 1).asText());
  }

  // ---- apply ----

  @Override
  public RunReport apply(Project project, Plan plan, RunListener listener) {
    return cancellable(() -> applyNow(project, plan, listener));
  }

  private RunReport applyNow(Project project, Plan plan, RunListener listener) {
    String runId = RunRecords.newId();
    Instant started = RunReport.now();
    RunBook.InFlight now = book.start(runId, started);
    try {
      return applyNow(project, plan, listener, now);
    } finally {
      book.end();
    }
  }

  private RunReport applyNow(
      Project project, Plan plan, RunListener listener, RunBook.InFlight now) {
    String runId = now.runId;
    Instant started = now.started;
    for (EnableCdf e : plan.enableCdf()) {
      listener.message("  enabling change data feed on " + project.names().display(e.table()));
      livy.sql(
          "ALTER TABLE "
              + sql.name(e.table())
              + " SET TBLPROPERTIES (delta.enableChangeDataFeed = true)",
          "enabling change data feed on " + e.table().shortName(),
          true);
    }
    Map<ObjectId, ViewRun> results = now.applied;
    Set<ObjectId> failed = new HashSet<>();
    LineageGraph lineage = project.lineage();
    for (Change c : plan.changes()) {
      if (c instanceof Change.Rename r) {
        listener.message(
            "  renaming "
                + project.names().display(r.from())
                + " to "
                + project.names().display(r.id()));
        try {
          livy.sql(
              "ALTER MATERIALIZED LAKE VIEW "
                  + sql.name(r.from())
                  + " RENAME TO "
                  + sql.name(r.id()),
              "renaming " + r.from().shortName());
        } catch (MlvException e) {
          // The rest of the plan still runs; this view and what reads it are reported failed.
          failed.add(r.id());
          ViewRun run =
              ViewRun.failed(
                  r.id(), "RENAME: from " + project.names().display(r.from()), e.getMessage());
          results.put(r.id(), run);
          listener.viewFinished(run);
        }
      } else if (c instanceof Change.Drop d) {
        listener.message("  dropping " + project.names().display(d.id()));
        try {
          livy.sql(
              "DROP MATERIALIZED LAKE VIEW IF EXISTS " + sql.name(d.id()),
              "dropping " + d.id().shortName(),
              true);
        } catch (MlvException e) {
          failed.add(d.id());
          ViewRun run = ViewRun.failed(d.id(), "DROP: " + c.reason(), e.getMessage());
          results.put(d.id(), run);
          listener.viewFinished(run);
        }
      } else if (c instanceof Change.Create || c instanceof Change.Replace) {
        ObjectId id = c.id();
        if (failed.contains(id)) {
          continue; // its rename failed: replacing it now would create a second table
        }
        String statement =
            c instanceof Change.Create cr ? cr.statement() : ((Change.Replace) c).statement();
        String reason = c instanceof Change.Create ? "NEW_VIEW" : "DEFINITION_CHANGED";
        Optional<UpstreamBlock> brokenUpstream = blockedBy(project, id, failed, results);
        if (brokenUpstream.isPresent()) {
          failed.add(id);
          ViewRun skipped =
              ViewRun.skippedForUpstream(
                  id, "full", brokenUpstream.get(), project.names()::display);
          results.put(id, skipped);
          listener.viewFinished(skipped);
          continue;
        }
        listener.viewStarted(id, new Strategy.Full(reason, c.reason()));
        long t0 = System.nanoTime();
        ViewRun run;
        try {
          if (FabricNotebooks.isPython(project, id)) {
            notebooks.deployFor(project, plan, id, listener);
          } else {
            // As the local target writes a view: with change data feed when enable_cdf is on,
            // so that Fabric can refresh the views reading it incrementally.
            boolean cdf = project.view(id).map(v -> v.settings().enableCdf()).orElse(false);
            livy.sql(FabricSql.createOrReplace(statement, cdf), "creating " + id.shortName(), true);
          }
          DeltaCommit h = history(id);
          run =
              new ViewRun(
                  id,
                  ViewStatus.Completed,
                  "full",
                  reason + ": " + c.reason(),
                  h.rows(),
                  0,
                  Map.of(),
                  ms(t0),
                  Optional.empty());
          run = drops.settle(project, run);
        } catch (MlvException e) {
          failed.add(id);
          run =
              new ViewRun(
                  id,
                  ViewStatus.Failed,
                  "full",
                  reason + ": " + c.reason(),
                  0,
                  0,
                  Map.of(),
                  ms(t0),
                  Optional.of(e.getMessage()));
        }
        results.put(id, run);
        listener.viewFinished(run);
      }
    }
    boolean notebooksOk = notebooks.finish(project, plan, listener);
    // Views downstream of a change read new data: one refresh job brings them up to date.
    List<ObjectId> downstream = new ArrayList<>();
    for (ObjectId id : plan.refresh()) {
      Optional<UpstreamBlock> broken = blockedBy(project, id, failed, results);
      if (broken.isPresent()) {
        ViewRun skipped =
            ViewRun.skippedForUpstream(id, "full", broken.get(), project.names()::display);
        results.put(id, skipped);
        listener.viewFinished(skipped);
      } else {
        downstream.add(id);
      }
    }
    List<String> jobIds = List.of();
    Optional<JobClient.OutcomeUnknown> lost = Optional.empty();
    RunStatus status = failed.isEmpty() && notebooksOk ? RunStatus.Completed : RunStatus.Failed;
    if (!downstream.isEmpty()) {
      RefreshRequest request =
          new RefreshRequest(
              new TreeSet<>(downstream),
              false,
              1,
              config.defaults().refreshTimeout(),
              false,
              Map.of());
      JobRun job;
      try {
        job = runJob(project, request, listener, true, now);
      } catch (MlvException e) {
        return stoppedInShell(now, e);
      }
      lost = job.lost();
      jobIds = job.jobIds();
      job.views().forEach(v -> results.put(v.id(), v));
      if (job.status() == RunStatus.Skipped) {
        // Deduped: the definitions are deployed, their refresh is left to the job already running.
        Set<ObjectId> reported = new HashSet<>();
        job.views().forEach(v -> reported.add(v.id()));
        for (ObjectId id : downstream) {
          if (reported.contains(id)) {
            continue; // a later job was deduped: this view's outcome is already known
          }
          ViewRun skipped =
              ViewRun.skipped(
                  id,
                  "skip",
                  "DEDUPED: another refresh is already running on lakehouse "
                      + config.lakehouse()
                      + "; run 'mlv refresh' after it ends");
          results.put(id, skipped);
          listener.viewFinished(skipped);
        }
        if (status == RunStatus.Completed) {
          status = RunStatus.Skipped;
        }
      } else if (job.status() != RunStatus.Completed) {
        status = RunStatus.Failed;
      }
    }
    List<ViewRun> ordered;
    synchronized (results) {
      ordered = order(lineage, results);
    }
    RunReport report = new RunReport(runId, status, started, RunReport.now(), name(), ordered);
    return book.recordFinished(now, report, jobIds, lost, listener);
  }

  /** The instances Fabric throttled before each of these jobs ran: attempts of the same run. */
  private static List<ViewRun> order(LineageGraph lineage, Map<ObjectId, ViewRun> results) {
    List<ViewRun> out = new ArrayList<>();
    for (SortedSet<ObjectId> layer : lineage.layers()) {
      for (ObjectId id : layer) {
        if (results.containsKey(id)) {
          out.add(results.get(id));
        }
      }
    }
    // A view dropped from the project is in no layer; a failed drop is still reported.
    results.values().stream().filter(v -> !out.contains(v)).forEach(out::add);
    return out;
  }

  private static long ms(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }

  // ---- refresh ----

  @Override
  public RunReport refresh(Project project, RefreshRequest request, RunListener listener) {
    if (request.dryRun()) {
      extended = false; // a dry run starts no job, so the request ends here
      return new FabricDryRun(
              this::history, this::commitsAfter, this::feedOn, this::inLakehouse, name())
          .plan(project, request);
    }
    return cancellable(
        () -> {
          String runId = RunRecords.newId();
          Instant started = RunReport.now();
          RunBook.InFlight now = book.start(runId, started);
          try {
            JobRun job;
            try {
              job = runJob(project, request, listener, false, now);
            } catch (MlvException e) {
              return stoppedInShell(now, e);
            }
            RunReport report =
                new RunReport(runId, job.status(), started, RunReport.now(), name(), job.views());
            return book.recordFinished(now, report, job.jobIds(), job.lost(), listener);
          } finally {
            book.end();
          }
        });
  }

  /**
   * Ctrl-C: cancels the statement or job in flight; during a refresh or apply the run is then
   * recorded {@code Interrupted}, as on the local target, with the views finished kept, those of
   * the cancelled job failed and the others skipped ({@code INTERRUPTED}). Best effort: the process
   * is ending.
   */
  void interrupt() {
    // Read before the cancel: the refresh forgets its job once it sees it end.
    Optional<String> runningJob = jobs.runningId();
    livy.cancelInFlight();
    jobs.cancelRunning();
    book.current().ifPresent(now -> book.recordInterrupted(now, runningJob));
  }

  /**
   * Ctrl-C in {@code mlv shell} interrupts the command's thread instead of ending the process,
   * which makes the Fabric call in progress fail: the job is cancelled and the run recorded {@code
   * Interrupted} as {@link #interrupt} records it, and that run is the command's outcome. Any other
   * failure is the command's, as before. The interrupt is spent here, so that the shell's next
   * requests (the cancel among them) are sent.
   */
  private RunReport stoppedInShell(RunBook.InFlight now, MlvException e) {
    if (!Thread.interrupted()) {
      throw e;
    }
    Optional<String> job =
        e instanceof JobClient.OutcomeUnknown lost ? Optional.of(lost.jobId()) : jobs.runningId();
    job.ifPresent(jobs::cancel);
    return book.recordInterrupted(now, job).orElseThrow(() -> e);
  }

  /**
   * What the jobs of one command did: the status, the job instance ids, each view's outcome, and
   * the first job if it could not be followed (the command fails with it once the run is saved).
   */
  private record JobRun(
      RunStatus status,
      List<String> jobIds,
      List<ViewRun> views,
      Optional<JobClient.OutcomeUnknown> lost) {
    JobRun(RunStatus status, List<String> jobIds, List<ViewRun> views) {
      this(status, jobIds, views, Optional.empty());
    }
  }

  /**
   * Why a view must be rebuilt whatever its sources did ({@code --full}, {@code refresh_policy:
   * full}, {@code optimal_refresh: false}), decided as the local target decides it.
   */
  static Optional<Strategy> alwaysFull(Project project, ObjectId id, boolean full) {
    Optional<dev.mlv.project.ProjectView> v = project.view(id);
    return StrategyDecider.alwaysFull(
        full,
        v.map(x -> x.settings().refreshPolicy()).orElse(RefreshPolicy.AUTO),
        v.map(x -> x.settings().optimalRefresh()).orElse(true));
  }

  /** One refresh job: the views it refreshes, in Fabric's {@code Full} or {@code Optimal} mode. */
  private record Stage(boolean full, List<ObjectId> views) {}

  /**
   * Fabric's refresh mode belongs to the execution definition, not to a view: views that must be
   * rebuilt ({@link #alwaysFull}) go to {@code Full} jobs, the others to {@code Optimal} ones. A
   * job refreshes its views in dependency order, so a view goes to the first job after every job
   * refreshing one of its ancestors that has its mode. With one mode (the usual case, and every
   * {@code --full}) that is one job.
   */
  private static List<Stage> stages(Project project, List<ObjectId> jobViews, boolean full) {
    Map<ObjectId, Integer> stageOf = new HashMap<>();
    TreeMap<Integer, List<ObjectId>> byStage = new TreeMap<>();
    for (ObjectId id : jobViews) {
      boolean rebuilt = alwaysFull(project, id, full).isPresent();
      int at =
          project.lineage().ancestors(id).stream()
              .filter(stageOf::containsKey)
              .mapToInt(stageOf::get)
              .max()
              .orElse(0);
      // Even stages are Optimal jobs, odd ones Full jobs.
      if ((at % 2 == 1) != rebuilt) {
        at++;
      }
      stageOf.put(id, at);
      byStage.computeIfAbsent(at, k -> new ArrayList<>()).add(id);
    }
    List<Stage> out = new ArrayList<>();
    byStage.forEach((at, views) -> out.add(new Stage(at % 2 == 1, views)));
    return out;
  }

  /**
   * Runs the refresh jobs of a command and reads back what they did to each view. {@code
   * afterChanges}: the command changed views before (apply), so a first job that cannot start fails
   * its views and the run is recorded, as for a later job, instead of failing the command.
   */
  private JobRun runJob(
      Project project,
      RefreshRequest request,
      RunListener listener,
      boolean afterChanges,
      RunBook.InFlight now) {
    List<ObjectId> selected = new ArrayList<>();
    for (SortedSet<ObjectId> layer : project.lineage().layers()) {
      layer.stream().filter(request.views()::contains).forEach(selected::add);
    }
    now.order = List.copyOf(selected);
    Map<ObjectId, DeltaCommit> before = new HashMap<>();
    for (ObjectId id : selected) {
      before.put(id, history(id));
    }
    // Refresh runs what apply deployed: a view never applied fails, as on the local target, and
    // the job is not asked for it or for what reads it.
    Set<ObjectId> notDeployed = new HashSet<>();
    for (ObjectId id : selected) {
      if (before.get(id).version() < 0) {
        notDeployed.add(id);
      }
    }
    List<ObjectId> jobViews =
        selected.stream()
            .filter(
                id ->
                    !notDeployed.contains(id)
                        && project.lineage().ancestors(id).stream()
                            .noneMatch(notDeployed::contains))
            .toList();
    if (jobViews.isEmpty()) {
      List<ViewRun> runs = notDeployedRuns(project, selected, notDeployed, listener);
      return new JobRun(RunStatus.Failed, List.of(), runs);
    }
    // One command's request: a shell reusing this target must not inherit it.
    boolean extendedNow = extended;
    extended = false;
    Set<ObjectId> failed = new HashSet<>(notDeployed);
    Map<ObjectId, ViewRun> outcome = now.done;
    List<String> jobIds = now.jobIds;
    boolean jobFailed = false;
    String deduped = null;
    Optional<JobClient.OutcomeUnknown> lostFirst = Optional.empty();
    for (Stage stage : stages(project, jobViews, request.full())) {
      List<ObjectId> send =
          stage.views().stream()
              .filter(id -> project.lineage().ancestors(id).stream().noneMatch(failed::contains))
              .toList();
      if (send.isEmpty() || deduped != null) {
        continue;
      }
      JobClient.JobInstance done;
      now.running = send;
      try {
        // Upstream lakehouses are upstream of every view: the first job refreshes them.
        done =
            startJob(
                project,
                send,
                stage.full(),
                extendedNow && jobIds.isEmpty(),
                request.timeout(),
                listener);
      } catch (MlvException e) {
        if (Thread.currentThread().isInterrupted()) {
          throw e; // Ctrl-C in the shell: the command records the run as interrupted
        }
        boolean first = jobIds.isEmpty();
        if (first && !afterChanges && !(e instanceof JobClient.OutcomeUnknown)) {
          throw e; // nothing ran: the command stops with the error, as it always did
        }
        // An earlier job (or apply) changed views: they are recorded, and this job's views failed
        // (or their outcome is unknown: the job runs on, and the record names it).
        String code = "JOB_NOT_STARTED";
        if (e instanceof JobClient.OutcomeUnknown lost) {
          jobIds.add(lost.jobId());
          code = "JOB_OUTCOME_UNKNOWN";
          if (first) {
            lostFirst = Optional.of(lost);
          }
        }
        for (ObjectId id : send) {
          outcome.put(id, ViewRun.failed(id, code, e.getMessage()));
          failed.add(id);
        }
        jobFailed = true;
        continue;
      }
      jobIds.add(done.id());
      boolean skipped = done.status().equals("Deduped");
      if (!skipped && skippedAsCancelled(done, send, before)) {
        listener.message(
            "  Fabric reports the refresh job "
                + done.id()
                + " Cancelled, which mlv did not ask for, and it changed no view: Fabric shows a"
                + " refresh it skipped because another was running on lakehouse "
                + config.lakehouse()
                + " as Cancelled (or someone cancelled it in Fabric)");
        skipped = true;
      } else if (skipped) {
        listener.message(
            "  another refresh is already running on lakehouse "
                + config.lakehouse()
                + "; Fabric skipped this one (Deduped), it is not queued");
      }
      if (skipped) {
        if (outcome.isEmpty()) {
          return new JobRun(RunStatus.Skipped, jobIds, List.of());
        }
        deduped =
            "DEDUPED: another refresh is already running on lakehouse "
                + config.lakehouse()
                + "; run 'mlv refresh' after it ends";
        continue;
      }
      jobFailed |= !done.status().equals("Completed");
      String failure = done.failure().orElse(done.status());
      Optional<ObjectId> named =
          done.status().equals("Completed") ? Optional.empty() : namedInFailure(failure, send);
      for (ObjectId id : send) {
        Optional<UpstreamBlock> brokenUp = blockedBy(project, id, failed, outcome);
        ViewRun run =
            brokenUp.isPresent()
                ? ViewRun.skippedForUpstream(id, "skip", brokenUp.get(), project.names()::display)
                : readBack(
                    project, id, before.get(id), done, failure, named, stage.full(), request);
        if (run.status() != ViewStatus.Completed) {
          failed.add(id);
        }
        outcome.put(id, run);
      }
    }
    List<ViewRun> runs = new ArrayList<>();
    for (ObjectId id : selected) {
      ViewRun run = outcome.get(id);
      if (run == null) {
        Optional<UpstreamBlock> brokenUp = blockedBy(project, id, failed, outcome);
        if (notDeployed.contains(id) && brokenUp.isEmpty()) {
          run = notDeployed(project, id);
        } else if (brokenUp.isPresent()) {
          run = ViewRun.skippedForUpstream(id, "skip", brokenUp.get(), project.names()::display);
          failed.add(id);
        } else {
          run = ViewRun.skipped(id, "skip", deduped);
        }
      }
      runs.add(run);
      listener.viewFinished(run);
    }
    RunStatus status =
        !jobFailed && failed.isEmpty()
            ? deduped == null ? RunStatus.Completed : RunStatus.Skipped
            : RunStatus.Failed;
    return new JobRun(status, jobIds, runs, lostFirst);
  }

  /** Finds or creates the execution definition of these views and runs one job on it. */
  private JobClient.JobInstance startJob(
      Project project,
      List<ObjectId> views,
      boolean full,
      boolean extendedNow,
      java.time.Duration timeout,
      RunListener listener) {
    List<String> names = views.stream().map(ObjectId::shortName).toList();
    JobClient.Selection selection =
        new JobClient.Selection(
            full, names, false, extendedNow, extendedNow ? extendedLineage : List.of());
    if (selection.extendedLineage()) {
      listener.message(
          selection.lakehouses().isEmpty()
              ? "  extended lineage: all upstream lakehouses are refreshed too (Fabric's default when none is named)"
              : "  extended lineage: upstream lakehouses "
                  + selection.lakehouses().stream().map(UpstreamLakehouse::spelled).toList()
                  + " are refreshed too");
    }
    String displayName =
        "mlv "
            + config.name()
            + " "
            + Fingerprint.of(
                    String.join(",", names)
                        + full
                        + selection.extendedLineage()
                        + selection.lakehouses().stream().map(UpstreamLakehouse::spelled).toList())
                .substring(0, 12);
    String definition = jobs.definitionFor(displayName, selection);
    listener.message(
        "  starting one "
            + JobClient.JOB_TYPE
            + " job for "
            + views.size()
            + " view(s)"
            + (full ? " in Full refresh mode" : ""));
    Set<String> seenStatus = new HashSet<>();
    return jobs.runThrottled(
        Optional.of(definition),
        timeout,
        j -> {
          if (seenStatus.add(j.id() + j.status())) {
            listener.message("  job " + j.id() + ": " + j.status());
          }
        },
        listener::message);
  }

  /**
   * A job Fabric reports {@code Cancelled} though mlv did not cancel it, and that changed none of
   * its views: Fabric's job status shows a refresh it skipped (another was running) as Cancelled,
   * so it is reported as the skip it is rather than as failed views.
   */
  private boolean skippedAsCancelled(
      JobClient.JobInstance done, List<ObjectId> send, Map<ObjectId, DeltaCommit> before) {
    return done.status().equals("Cancelled")
        && done.errorCode().isEmpty()
        && !jobs.cancelledHere(done.id())
        && send.stream().allMatch(id -> history(id).version() == before.get(id).version());
  }

  /**
   * What a finished job did to one view it was asked for, read from the view's Delta history: a new
   * version is a refresh (in a {@code Full} job for the reason the view was sent there), an
   * unchanged one a skip, unless the job failed on this view.
   */
  private ViewRun readBack(
      Project project,
      ObjectId id,
      DeltaCommit b,
      JobClient.JobInstance done,
      String failure,
      Optional<ObjectId> named,
      boolean full,
      RefreshRequest request) {
    DeltaCommit a = history(id);
    if (a.version() != b.version()) {
      boolean python = FabricNotebooks.isPython(project, id);
      Optional<Strategy> forced = full ? alwaysFull(project, id, request.full()) : Optional.empty();
      String strategy =
          !full && !python && a.incremental() ? "incremental" : "full"; // PySpark: never
      String reason =
          forced.isPresent()
              ? forced.get().code()
                  + ": "
                  + forced.get().detail()
                  + "; Fabric rebuilt the view, version "
                  + a.version()
              : python
                  ? "PYSPARK_VIEW: Fabric rebuilt the PySpark view in full, version " + a.version()
                  : "REFRESHED: Fabric's optimal refresh wrote version "
                      + a.version()
                      + " ("
                      + a.describe()
                      + ")";
      ViewRun run =
          new ViewRun(
              id,
              ViewStatus.Completed,
              strategy,
              reason,
              a.rows(),
              0,
              Map.of(),
              0,
              Optional.empty());
      return drops.settle(project, run);
    }
    if (!done.status().equals("Completed") && (named.isEmpty() || named.get().equals(id))) {
      return new ViewRun(
          id,
          ViewStatus.Failed,
          "full",
          done.errorCode()
              .filter(JobClient.RUN_TIMEOUT::equals)
              .orElse("JOB_" + done.status().toUpperCase(Locale.ROOT)),
          0,
          0,
          Map.of(),
          0,
          Optional.of(failure));
    }
    return new ViewRun(
        id,
        ViewStatus.Completed,
        "skip",
        "NO_NEW_COMMITS: Fabric's optimal refresh left the view at version " + a.version(),
        0,
        0,
        Map.of(),
        0,
        Optional.empty());
  }

  /** The outcome when no job runs: every selected view is, or reads, a view never applied. */
  private static List<ViewRun> notDeployedRuns(
      Project project, List<ObjectId> selected, Set<ObjectId> notDeployed, RunListener listener) {
    List<ViewRun> runs = new ArrayList<>();
    Set<ObjectId> blocked = new HashSet<>(notDeployed);
    Map<ObjectId, ViewRun> done = new HashMap<>();
    for (ObjectId id : selected) {
      Optional<UpstreamBlock> upstream = blockedBy(project, id, blocked, done);
      ViewRun run =
          upstream.isEmpty()
              ? notDeployed(project, id)
              : ViewRun.skippedForUpstream(id, "skip", upstream.get(), project.names()::display);
      if (upstream.isPresent()) {
        blocked.add(id);
      }
      done.put(id, run);
      runs.add(run);
      listener.viewFinished(run);
    }
    return runs;
  }

  /**
   * The run's rule ({@link UpstreamBlock}) for a view of a Fabric apply or run: {@code blocked}
   * holds the views that failed or were skipped for a failure, {@code results} tells the skipped
   * ones; a view between them that is not blocked is looked through, as any failed ancestor stops
   * the view.
   */
  private static Optional<UpstreamBlock> blockedBy(
      Project project, ObjectId id, Set<ObjectId> blocked, Map<ObjectId, ViewRun> results) {
    java.util.function.Predicate<ObjectId> skipped =
        p -> results.get(p) != null && results.get(p).skippedForUpstream();
    return UpstreamBlock.of(
        project.lineage(),
        id,
        blocked::contains,
        p -> blocked.contains(p) && !skipped.test(p),
        skipped);
  }

  private static ViewRun notDeployed(Project project, ObjectId id) {
    String message =
        "view " + project.names().display(id) + " is not deployed; run 'mlv apply' first";
    return new ViewRun(
        id, ViewStatus.Failed, "none", "NOT_DEPLOYED", 0, 0, Map.of(), 0, Optional.of(message));
  }

  // ---- runs ----

  @Override
  public List<RunReport> runs(int limit, RunListener listener) {
    return book.runs(limit, listener);
  }

  @Override
  public Optional<RunReport> run(String id, RunListener listener) {
    return book.run(id, listener);
  }

  // ---- sql ----

  /**
   * Before any request: a typo would otherwise cost a Livy session start, and the statements before
   * it would run and commit. Fabric's own syntax (VORDER) is left to Fabric.
   */
  @Override
  public void checkSql(Project project, List<SqlStatement> statements) {
    SyntaxCheck.withoutSession(
        SyntaxCheck.plain(statements).stream().filter(o -> !FabricSql.fabricOnly(o.sql())).toList(),
        "no statement was run: each statement's syntax is checked before the first is sent to"
            + " Fabric");
  }

  @Override
  public SqlResult sql(Project project, SqlStatement statement) {
    return cancellable(
        () -> {
          viewChange(statement).ifPresent(this::refuseWhileRefreshing);
          if (statement instanceof SqlStatement.Rename rename) {
            // As the local target refuses it: the name of mlv's own tables (found by QA).
            ObjectId to = rename.target(project.names().resolve(rename.from()), project.names());
            dev.mlv.check.Checker.reservedName(project, to, rename.to().position())
                .ifPresent(
                    d -> {
                      throw new MlvException(d);
                    });
          }
          LivyClient.Result r = livy.sql(FabricSql.text(statement), "the statement");
          List<List<SqlValue>> rows = new ArrayList<>();
          for (List<JsonNode> row : r.rows()) {
            List<SqlValue> cells = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
              JsonNode type = i < r.types().size() ? r.types().get(i) : MissingNode.getInstance();
              cells.add(LivyValues.of(row.get(i), type));
            }
            rows.add(cells);
          }
          String note =
              r.capped()
                  ? "note: Fabric's Livy endpoint returns at most "
                      + LivyClient.ROW_CAP
                      + " rows of a statement; this result may be cut short (aggregate, filter or"
                      + " add a LIMIT)"
                  : null;
          List<String> types = new ArrayList<>();
          for (int i = 0; i < r.columns().size(); i++) {
            types.add(i < r.types().size() ? LivyValues.typeName(r.types().get(i)) : "");
          }
          return SqlResult.typed(r.columns(), types, rows, r.columns().isEmpty() ? "OK" : note);
        });
  }

  /** The statements that change a view, named as the local target names them when refusing. */
  private static Optional<String> viewChange(SqlStatement st) {
    if (st instanceof SqlStatement.Rename) {
      return Optional.of("ALTER ... RENAME");
    } else if (st instanceof SqlStatement.Drop) {
      return Optional.of("DROP MATERIALIZED LAKE VIEW");
    } else if (st instanceof SqlStatement.CreateView) {
      return Optional.of("CREATE MATERIALIZED LAKE VIEW");
    } else if (st instanceof SqlStatement.Refresh) {
      return Optional.of("REFRESH");
    }
    return Optional.empty();
  }

  /**
   * Fabric has no lock to take: a view changed while the lakehouse's refresh job runs would be
   * moved or rewritten under that job, so the change is refused, as the local target refuses it
   * under its lock. A job that starts between this look and the statement is not seen.
   */
  private void refuseWhileRefreshing(String what) {
    for (JobClient.JobInstance j : jobs.instances()) {
      if (j.status().equals("InProgress") || j.status().equals("NotStarted")) {
        throw new BusyException(
            "LAKEHOUSE_BUSY",
            what
                + " was not run: refresh job "
                + j.id()
                + (j.invokeType().isBlank() ? "" : " (" + j.invokeType() + ")")
                + " is "
                + (j.status().equals("InProgress") ? "refreshing" : "about to refresh")
                + " lakehouse "
                + config.lakehouse()
                + "; run it again when that run is over");
      }
    }
  }

  @Override
  public void cancelRunning() {
    livy.cancelInFlight();
    jobs.cancelRunning();
  }

  /**
   * Ctrl-C cancels the statement or job in flight instead of leaving it running in Fabric, and
   * records an interrupted refresh ({@link #interrupt}).
   */
  private <T> T cancellable(java.util.function.Supplier<T> work) {
    Thread hook = new Thread(this::interrupt, "mlv-fabric-cancel");
    boolean added = false;
    try {
      Runtime.getRuntime().addShutdownHook(hook);
      added = true;
    } catch (IllegalStateException e) {
      // Already shutting down.
    }
    try {
      return work.get();
    } finally {
      if (added) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
          // Shutting down: the hook runs.
        }
      }
    }
  }

  @Override
  public void close() {
    // The Livy session is kept for the next command; nothing else is held open.
  }
}
