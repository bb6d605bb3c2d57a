package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.cli.CliRun;
import dev.mlv.cli.ExitCodes;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Planner;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.MlvParser;
import dev.mlv.target.SqlResult;
import dev.mlv.target.TargetContractTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only the embedded target does: the refresh lock across runs and processes, the run time
 * limit, the run history on disk and in Delta, {@code mlv sql}'s management statements, and names
 * of every length across two lakehouses.
 */
class LocalTargetTest {
  private static final String WS = "ws_local";
  private static final String LH = "lh_local";
  private static final String COLUMNS = "id INT, customer STRING, amount DOUBLE";

  @TempDir Path dir;
  private LocalTarget target;

  @BeforeAll
  static void sharedContext() {
    LocalSparkTestSupport.runtime();
  }

  @AfterEach
  void close() {
    if (target != null) {
      target.close();
    }
  }

  // ---- the refresh lock ----

  @Test
  void aRefreshWhileAnotherHoldsTheLakehouseIsSkippedWithExitCode3() throws IOException {
    Project p = project("");
    target = LocalTargetContractTest.open(p);
    Path warehouse = target.warehouse().root();
    try (RefreshLock held = RefreshLock.tryAcquire(warehouse, LH, "other-run").orElseThrow()) {
      RunReport run = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
      assertThat(run.status()).isEqualTo(RunStatus.Skipped);
      assertThat(run.views()).isEmpty();

      CliRun cli = CliRun.of("refresh", "--quiet", "-p", dir.toString());
      assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
      // --quiet leaves the progress out, not the reason for the exit code.
      assertThat(cli.err()).contains("another refresh was running on the lakehouse");
      // A program or a CI reading stdout learns why too (found by QA: only stderr said).
      CliRun json = CliRun.of("refresh", "--quiet", "--format", "json", "-p", dir.toString());
      assertThat(json.exitCode()).as(json.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
      assertThat(json.out())
          .contains("\"status\" : \"Skipped\"")
          .contains("\"reason\" : \"another refresh was running on the lakehouse");
      CliRun junit = CliRun.of("refresh", "--quiet", "--format", "junit", "-p", dir.toString());
      assertThat(junit.exitCode()).as(junit.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
      assertThat(junit.out())
          .contains("failures=\"1\"")
          .contains("<failure type=\"SKIPPED_CONCURRENT\"");
      assertThat(held.isHeld()).isTrue();
    }
    // Nothing was deployed, so the run after the lock is released fails, but it runs.
    RunReport after = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    assertThat(after.status()).isEqualTo(RunStatus.Failed);
    // The skipped runs are in the history too, as documented in history.md.
    assertThat(target.runs(10))
        .extracting(RunReport::status)
        .containsExactly(
            RunStatus.Failed,
            RunStatus.Skipped,
            RunStatus.Skipped,
            RunStatus.Skipped,
            RunStatus.Skipped);
  }

  /**
   * Found by QA: a conf value Spark refuses was an internal error naming SessionStateBuilder where
   * it reached the JVM's first session, and was dropped without a word where a session was already
   * up (as here, the shared test session). Now each is an error at its place in mlv.yml, before
   * Spark sees it, and the next command, with the value fixed, runs.
   */
  @Test
  void aConfValueSparkRefusesIsAnErrorAtItsPlaceInMlvYml() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    String yml =
        "name: local\nworkspace: "
            + WS
            + "\nlakehouse: "
            + LH
            + "\nschema: dbo\ntargets:\n  local:\n    type: spark\n    master: local[2]\n"
            + "    conf:\n      spark.sql.shuffle.partitions: %s\n      spark.sql.ansi.enabled: %s\n";
    write("mlv.yml", yml.formatted("abc", "maybe"));

    CliRun bad = CliRun.of("sql", "-p", dir.toString(), "SELECT 1 AS one");

    assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(bad.err())
        .contains(
            "mlv.yml:10:37: error[CONFIG_VALUE]: targets.local.conf.spark.sql.shuffle.partitions"
                + " is refused by Spark: [INVALID_CONF_VALUE.TYPE_MISMATCH]")
        .contains("'int'")
        .contains(
            "mlv.yml:11:31: error[CONFIG_VALUE]: targets.local.conf.spark.sql.ansi.enabled is"
                + " refused by Spark:")
        .doesNotContain("internal error")
        .doesNotContain("\tat ");

    write("mlv.yml", yml.formatted("3", "true"));
    CliRun fixed = CliRun.of("sql", "-p", dir.toString(), "SELECT 1 AS one");
    assertThat(fixed.exitCode()).as(fixed.toString()).isZero();
    assertThat(fixed.out()).contains("one");
  }

  /**
   * Found by QA: Spark 4.1.1 cannot write a query that selects a column of a table with a VARIANT
   * column in another letter case than stored (PLAN_VALIDATION_FAILED_RULE_IN_BATCH in
   * PushVariantIntoScan), while the SELECT alone runs. The error names the columns and the fix, and
   * the same view spelled as stored is created.
   */
  @Test
  void aVariantTablesColumnSelectedInAnotherCaseIsExplained() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    write(
        "mlv.yml",
        "name: local\nworkspace: "
            + WS
            + "\nlakehouse: "
            + LH
            + "\nschema: dbo\nviews: [views]\nsources:\n  - name: bronze.ev\n"
            + "targets:\n  local:\n    type: spark\n    master: local[2]\n");
    CliRun made =
        CliRun.of(
            "sql",
            "-p",
            dir.toString(),
            "CREATE SCHEMA IF NOT EXISTS bronze; CREATE TABLE bronze.ev USING delta AS SELECT 1 AS"
                + " id, 'a' AS kind, parse_json('{\"x\":1}') AS v");
    assertThat(made.exitCode()).as(made.toString()).isZero();
    write(
        "views/cv.sql",
        // kind AS Kind writes: only a reference in another case breaks (found by QA: the message
        // named the alias too).
        "CREATE MATERIALIZED LAKE VIEW silver.cv AS SELECT ID, kind AS Kind FROM bronze.ev");

    CliRun bad = CliRun.of("apply", "--auto-approve", "-p", dir.toString());

    assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(bad.out() + bad.err())
        .contains(
            "views/cv.sql:1:1: error[REFRESH_FAILED]: refresh of silver.cv failed: Spark 4.1.1"
                + " cannot write this query ([PLAN_VALIDATION_FAILED_RULE_IN_BATCH] in"
                + " PushVariantIntoScan): the view selects ID (stored as id) from a table that has"
                + " a VARIANT column")
        .contains("hint: write each such column as the table stores it");

    write(
        "views/cv.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.cv AS SELECT id, kind FROM bronze.ev");
    CliRun fixed = CliRun.of("apply", "--auto-approve", "-p", dir.toString());
    assertThat(fixed.exitCode()).as(fixed.toString()).isZero();
  }

  /**
   * Fabric's V-Order property, which a Fabric user sets in TBLPROPERTIES and open-source Delta
   * refuses ([DELTA_UNKNOWN_CONFIGURATION]): the same file applies locally, without it (found by
   * QA: validate called it unknown, and apply failed).
   */
  @Test
  void fabricsOwnTablePropertyIsLeftOffTheLocalTable() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    write(
        "mlv.yml",
        "name: local\nworkspace: "
            + WS
            + "\nlakehouse: "
            + LH
            + "\nschema: dbo\nviews: [views]\nsources:\n  - name: bronze.vo\n"
            + "targets:\n  local:\n    type: spark\n    master: local[2]\n");
    CliRun made =
        CliRun.of(
            "sql",
            "-p",
            dir.toString(),
            "CREATE SCHEMA IF NOT EXISTS bronze; CREATE TABLE bronze.vo USING delta AS SELECT 1 AS"
                + " id");
    assertThat(made.exitCode()).as(made.toString()).isZero();
    write(
        "views/vo.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.vo\n"
            + "TBLPROPERTIES ('delta.parquet.vorder.enabled' = 'true', 'team' = 'sales')\n"
            + "AS SELECT id FROM bronze.vo");

    CliRun applied = CliRun.of("apply", "--auto-approve", "-p", dir.toString());

    assertThat(applied.exitCode()).as(applied.toString()).isZero();
    CliRun shown =
        CliRun.of("sql", "-p", dir.toString(), "SHOW TBLPROPERTIES silver.vo", "--format", "csv");
    assertThat(shown.out()).contains("team,sales").doesNotContain("delta.parquet.vorder.enabled,");
    CliRun again = CliRun.of("plan", "-p", dir.toString(), "--detailed-exitcode");
    assertThat(again.exitCode()).as(again.toString()).isZero();
  }

  /**
   * Found by QA: mlv seed ran during a refresh and replaced the source the run was reading. It
   * takes the lakehouse's lock as apply does, so while another run holds it, it exits 3 and the
   * table keeps its version.
   */
  @Test
  void aSeedWhileAnotherRunHoldsTheLakehouseExits3AndLeavesTheTable() throws IOException {
    write("seeds/s.csv", "a,b\n1,2\n");
    project("", "", "{name: bronze.seeded, seed: seeds/s.csv}");
    CliRun first = CliRun.of("seed", "-p", dir.toString(), "bronze.seeded");
    assertThat(first.exitCode()).as(first.toString()).isZero();
    Path log = dir.resolve(".mlv/warehouse/" + LH + ".Lakehouse/Tables/bronze/seeded/_delta_log");
    List<String> before = names(log);
    write("seeds/s.csv", "a,b\n3,4\n5,6\n");
    try (RefreshLock held =
        RefreshLock.tryAcquire(dir.resolve(".mlv/warehouse"), LH, "other-run").orElseThrow()) {
      CliRun cli = CliRun.of("seed", "-p", dir.toString());
      assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
      assertThat(cli.err())
          .contains("error[LAKEHOUSE_BUSY]: seed was not run: run other-run")
          .contains("run it again when that run is over");
      assertThat(cli.out()).doesNotContain("seeded");
      assertThat(held.isHeld()).isTrue();
    }
    assertThat(names(log)).isEqualTo(before);
    // Once the run is over, the seed goes through.
    CliRun after = CliRun.of("seed", "-p", dir.toString());
    assertThat(after.exitCode()).as(after.toString()).isZero();
    assertThat(after.out()).contains("seeded bronze.seeded").contains("2 rows");
  }

  private static List<String> names(Path folder) throws IOException {
    try (var files = Files.list(folder)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  /** A rename or drop under a running refresh would pull the table from under its writer. */
  @Test
  void viewStatementsOfMlvSqlWaitForNoRunAndExit3WhileOneHoldsTheLakehouse() throws IOException {
    Project p = applied("");
    Path warehouse = target.warehouse().root();
    try (RefreshLock held = RefreshLock.tryAcquire(warehouse, LH, "other-run").orElseThrow()) {
      for (String statement :
          List.of(
              "ALTER MATERIALIZED LAKE VIEW gold.by_customer RENAME TO gold.totals",
              "DROP MATERIALIZED LAKE VIEW gold.by_customer",
              "CREATE MATERIALIZED LAKE VIEW gold.extra AS SELECT 1 AS one",
              "REFRESH MATERIALIZED LAKE VIEW gold.by_customer FULL")) {
        CliRun cli = CliRun.of("sql", "-p", dir.toString(), statement);
        assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
        assertThat(cli.err())
            .as(statement)
            .contains("error[LAKEHOUSE_BUSY]")
            .contains("run other-run")
            .contains("run it again when that run is over");
      }
      assertThat(held.isHeld()).isTrue();
    }
    assertThat(rows(p, "SHOW MATERIALIZED LAKE VIEWS"))
        .extracting(r -> r.substring(0, r.indexOf('|', r.indexOf('|') + 1)))
        .containsExactly("gold|by_customer", "silver|orders_clean");
    // Once the run is over, the same statement goes through.
    sql(p, "ALTER MATERIALIZED LAKE VIEW gold.by_customer RENAME TO gold.totals");
    assertThat(rows(p, "SELECT count(*) FROM gold.totals")).containsExactly("2");
  }

  /**
   * The warnings of the run a REFRESH statement makes reach stderr, as 'mlv refresh' prints them.
   */
  @Test
  void aWarningOfTheRunOfARefreshStatementIsPrinted() throws IOException {
    Project p = applied("");
    Path warehouse = target.warehouse().root();
    Path pending = target.warehouse().mlvDir(LH).resolve("runs").resolve("pending");
    Files.createDirectories(pending.getParent());
    if (Files.isDirectory(pending)) {
      for (Path f : files(pending)) {
        Files.delete(f);
      }
      Files.delete(pending);
    }
    Files.writeString(pending, "not a folder");
    try (RefreshLock held = RefreshLock.tryAcquire(warehouse, LH, "other-run").orElseThrow()) {
      CliRun cli =
          CliRun.of(
              "sql", "-p", dir.toString(), "REFRESH MATERIALIZED LAKE VIEW gold.by_customer FULL");
      assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
      assertThat(cli.err())
          .containsPattern("(?m)^warning: run \\S+ could not be kept in \\.mlv/runs/pending \\(")
          .contains("error[LAKEHOUSE_BUSY]");
    }
  }

  /** Each statement commits as it runs: a typo in the last must be found before the first runs. */
  @Test
  void severalStatementsAreAllParsedBeforeAnyRuns() throws IOException {
    Project p = applied("");
    List<String> before = rows(p, "SELECT count(*) FROM bronze.orders");
    CliRun cli =
        CliRun.of(
            "sql",
            "-p",
            dir.toString(),
            "INSERT INTO bronze.orders VALUES (90, 'x', 1.0);\nSELEC oops;\n"
                + "INSERT INTO bronze.orders VALUES (91, 'y', 2.0)");
    assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(cli.err())
        .contains("<input>:2:1: error[SQL_PARSE]")
        .contains("no statement was run");
    assertThat(rows(p, "SELECT count(*) FROM bronze.orders")).isEqualTo(before);
  }

  @Test
  void aLockLeftByADeadProcessDoesNotBlock() throws IOException {
    Project p = project("");
    target = LocalTargetContractTest.open(p);
    Path lock = RefreshLock.lockFile(target.warehouse().root(), LH);
    Instant now = Instant.now();
    RefreshLock.write(
        lock, new RefreshLock.Holder("dead-run", deadPid(), RefreshLock.host(), now, now));

    RunReport run = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);

    assertThat(run.status()).isNotEqualTo(RunStatus.Skipped);
    assertThat(run.views().get(0).status()).isEqualTo(ViewStatus.Failed);
    assertThat(run.views().get(0).error().orElseThrow()).contains("not deployed");
    assertThat(lock).doesNotExist();
  }

  private static long deadPid() {
    for (long pid = 4_000_000; ; pid++) {
      if (ProcessHandle.of(pid).isEmpty()) {
        return pid;
      }
    }
  }

  // ---- the run time limit ----

  @Test
  void aRunPastItsTimeLimitFailsTheRemainingViewsAndLeavesTablesUnchanged() throws IOException {
    Project p = applied("");
    append(p, 9, "c", 4.0);
    Map<ObjectId, Long> before = versions(p);

    RunReport run = target.refresh(p, all(p, Duration.ZERO), RunListener.NONE);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    ViewRun silver = run.views().get(0);
    assertThat(silver.status()).isEqualTo(ViewStatus.Failed);
    assertThat(silver.reason()).isEqualTo("RUN_TIMEOUT");
    assertThat(silver.error().orElseThrow()).contains("time limit");
    assertThat(run.views().get(1).status()).isNotEqualTo(ViewStatus.Completed);
    assertThat(versions(p)).isEqualTo(before);
  }

  @Test
  void aViewWhoseCommitLandedAsTheRunWasInterruptedIsRecordedCompleted() throws Exception {
    Project p = applied("");
    append(p, 9, "c", 4.0);
    Map<ObjectId, Long> before = versions(p);
    ObjectId silver = id("silver.orders_clean");
    ObjectId gold = id("gold.by_customer");
    // Ctrl-C as silver's commit lands: the JVM starts the run's hook, Spark goes down, and the
    // step after the commit fails.
    Thread[] hook = new Thread[1];
    target.afterCommit =
        view -> {
          if (view.equals(silver)) {
            hook[0] = target.stopHook();
            hook[0].start();
            while (hook[0].getState() != Thread.State.TIMED_WAITING) {
              Thread.onSpinWait();
            }
            throw new IllegalStateException("Cannot call methods on a stopped SparkContext");
          }
        };
    List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
    RunListener listener =
        new RunListener() {
          @Override
          public void message(String text) {
            messages.add(text);
          }
        };

    RunReport run;
    try {
      run = target.refresh(p, all(p, Duration.ofHours(1)), listener);
    } finally {
      target.afterCommit = view -> {};
    }
    hook[0].join(20_000);

    assertThat(run.status()).isEqualTo(RunStatus.Interrupted);
    ViewRun s = run.views().stream().filter(v -> v.id().equals(silver)).findFirst().orElseThrow();
    assertThat(s.status()).as(s.toString()).isEqualTo(ViewStatus.Completed);
    assertThat(s.strategy()).isEqualTo("full");
    assertThat(s.rowsWritten()).isEqualTo(4);
    ViewRun g = run.views().stream().filter(v -> v.id().equals(gold)).findFirst().orElseThrow();
    assertThat(g.status()).isEqualTo(ViewStatus.Skipped);
    assertThat(g.reason()).startsWith("INTERRUPTED");
    assertThat(messages)
        .anyMatch(m -> m.contains("run " + run.id() + " stopped after 1 of 2 views"));
    assertThat(target.run(run.id()).orElseThrow().views()).contains(s);
    Map<ObjectId, Long> after = versions(p);
    assertThat(after.get(silver)).isEqualTo(before.get(silver) + 1);
    assertThat(after.get(gold)).isEqualTo(before.get(gold));

    // The commit holds what it consumed: the next run skips silver and refreshes gold over it.
    RunReport next = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    assertThat(next.views())
        .extracting(v -> v.id().name() + " " + v.status() + " " + v.strategy() + " " + v.reason())
        .anyMatch(v -> v.startsWith("orders_clean Completed skip NO_NEW_COMMITS"))
        .anyMatch(v -> v.startsWith("by_customer Completed full"));
    assertThat(rows(p, "SELECT customer, total FROM gold.by_customer ORDER BY customer"))
        .contains("c|4.0");
  }

  /**
   * Found by QA: after SIGINT the line said "the next run records this one as Interrupted", but the
   * run's record is kept before the JVM ends and 'mlv runs' listed it at once. And a PySpark view,
   * which the local target never runs, was "interrupted before it started" and counted among the
   * views the run stopped short of.
   */
  @Test
  void aRunStoppedBySigintSaysItIsRecordedAndKeepsAPySparkViewsReason() throws Exception {
    write("views/gold/ranked.py", RANKED_PY);
    Project p = applied("");
    append(p, 9, "c", 4.0);
    ObjectId silver = id("silver.orders_clean");
    ObjectId ranked = id("gold.ranked");
    Thread[] hook = new Thread[1];
    target.afterCommit = view -> sigintAfter(view, silver, hook);
    List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();

    RunReport run;
    try {
      run = target.refresh(p, all(p, Duration.ofHours(1)), messagesTo(messages));
    } finally {
      target.afterCommit = view -> {};
    }
    hook[0].join(20_000);

    assertThat(run.status()).isEqualTo(RunStatus.Interrupted);
    ViewRun r = run.views().stream().filter(v -> v.id().equals(ranked)).findFirst().orElseThrow();
    assertThat(r.status()).as(r.toString()).isEqualTo(ViewStatus.Skipped);
    assertThat(r.reason()).startsWith("PYSPARK_NOT_RUN_LOCALLY");
    // Of the two views the run would refresh, not of the three it was given.
    assertThat(messages)
        .anyMatch(
            m ->
                m.contains("run " + run.id() + " stopped after 1 of 2 views")
                    && m.endsWith("the run is recorded as Interrupted"))
        .noneMatch(m -> m.contains("next run"));
    // On record at once, with no other run between.
    RunReport listed = target.runs(10).get(0);
    assertThat(listed.id()).isEqualTo(run.id());
    assertThat(listed.status()).isEqualTo(RunStatus.Interrupted);
    assertThat(listed.views()).contains(r);
  }

  /**
   * When the record cannot be kept as the JVM ends, only the run's marker is left, and the line
   * says the next run records it; it does.
   */
  @Test
  void aRunStoppedBySigintWhoseRecordCannotBeKeptSaysTheNextRunRecordsIt() throws Exception {
    Project p = applied("");
    append(p, 9, "c", 4.0);
    ObjectId silver = id("silver.orders_clean");
    // A file where the parked records go: the record cannot be written.
    Path pending = target.warehouse().mlvDir(LH).resolve("runs/pending");
    Files.createDirectories(pending.getParent());
    Files.writeString(pending, "in the way");
    Thread[] hook = new Thread[1];
    target.afterCommit = view -> sigintAfter(view, silver, hook);
    List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();

    try {
      assertThatThrownBy(() -> target.refresh(p, all(p, Duration.ofHours(1)), messagesTo(messages)))
          .isInstanceOf(java.io.UncheckedIOException.class);
    } finally {
      target.afterCommit = view -> {};
    }
    hook[0].join(20_000);

    assertThat(messages)
        .anyMatch(
            m ->
                m.contains("stopped after 1 of 2 views")
                    && m.endsWith("the next run records this one as Interrupted"))
        .noneMatch(m -> m.contains("is recorded as"));
    RunReport marked = target.runs(10).get(0);
    assertThat(marked.status()).isEqualTo(RunStatus.Interrupted);
    String runId = marked.id();
    Files.delete(pending);
    RunReport next = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    assertThat(next.status()).as(next.toString()).isEqualTo(RunStatus.Completed);
    RunReport earlier = target.run(runId).orElseThrow();
    assertThat(earlier.status()).isEqualTo(RunStatus.Interrupted);
    assertThat(earlier.views())
        .extracting(v -> v.id().name() + " " + v.status())
        .containsExactly("orders_clean Completed", "by_customer Skipped");
  }

  private static final String RANKED_PY =
      """
      import fmlv

      # %%
      @fmlv.materialized_lake_view(name="gold.ranked")
      def ranked():
          return spark.read.table("gold.by_customer")
      """;

  /** Starts the run's shutdown hook right after {@code at}'s commit, as SIGINT does. */
  private void sigintAfter(ObjectId view, ObjectId at, Thread[] hook) {
    if (view.equals(at)) {
      hook[0] = target.stopHook();
      hook[0].start();
      while (hook[0].getState() != Thread.State.TIMED_WAITING) {
        Thread.onSpinWait();
      }
    }
  }

  /**
   * Runs {@code request}, and once {@code started} is counted down and a Spark job runs, stops it
   * as the shell's Ctrl-C does ({@code cancelCommand}); the run as reported.
   */
  private RunReport cancelledOnceRunning(
      Project p,
      RefreshRequest request,
      RunListener listener,
      java.util.concurrent.CountDownLatch started)
      throws Exception {
    java.util.concurrent.CompletableFuture<RunReport> running =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> target.refresh(p, request, listener));
    assertThat(started.await(2, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
    var tracker = LocalSparkTestSupport.runtime().session().sparkContext().statusTracker();
    long wait = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (tracker.getActiveJobIds().length == 0 && System.nanoTime() < wait) {
      Thread.sleep(50);
    }
    assertThat(tracker.getActiveJobIds()).as("slow's job is running").isNotEmpty();
    target.cancelCommand(Thread.currentThread());
    return running.get(2, java.util.concurrent.TimeUnit.MINUTES);
  }

  /** Ten minutes of sleep for a row with id > 100, none for the others. */
  private static final String SLOW =
      "CREATE MATERIALIZED LAKE VIEW silver.slow AS SELECT id, reflect('java.lang.Thread',"
          + " 'sleep', CAST(CASE WHEN id > 100 THEN 600000 ELSE 0 END AS BIGINT)) AS slept"
          + " FROM bronze.orders\n";

  /** Keeps the messages, and counts {@code started} down when {@code view} starts. */
  private static RunListener watching(
      ObjectId view, java.util.concurrent.CountDownLatch started, List<String> messages) {
    return new RunListener() {
      @Override
      public void viewStarted(ObjectId v, dev.mlv.refresh.Strategy strategy) {
        if (v.equals(view)) {
          started.countDown();
        }
      }

      @Override
      public void message(String text) {
        messages.add(text);
      }
    };
  }

  private static RunListener messagesTo(List<String> messages) {
    return new RunListener() {
      @Override
      public void message(String text) {
        messages.add(text);
      }
    };
  }

  @Test
  void aViewInterruptedBeforeItsCommitLandedIsLeftAsItWas() throws Exception {
    Project p = applied("");
    append(p, 9, "c", 4.0);
    ObjectId silver = id("silver.orders_clean");
    Path table = target.warehouse().tableDir(silver);
    java.util.OptionalLong now = Warehouse.latestCommit(table);
    ViewRun failed =
        LocalTarget.failed(silver, "full", "REFRESH_FAILED", "SparkContext was shut down", 0);
    dev.mlv.refresh.Strategy full =
        new dev.mlv.refresh.Strategy.Full("FULL_REQUESTED", "a full refresh was requested");

    ViewRun left = LocalTarget.interrupted(failed, table, now, full);
    assertThat(left.status()).isEqualTo(ViewStatus.Failed);
    assertThat(left.reason()).isEqualTo("INTERRUPTED");
    assertThat(left.error().orElseThrow()).contains("left as it was");
    // The commit before the one this run started from is not this run's.
    ViewRun earlier =
        LocalTarget.interrupted(
            failed, table, java.util.OptionalLong.of(now.getAsLong() - 1), full);
    assertThat(earlier.status()).isEqualTo(ViewStatus.Completed);
    assertThat(earlier.rowsWritten()).isEqualTo(3);
  }

  /**
   * Ctrl-C in 'mlv shell' during a local refresh: the shell calls cancelCommand, which cancels the
   * running view's Spark job; the view keeps its previous version, the view not reached is not run,
   * the run is recorded Interrupted, and the target runs the next query.
   */
  @Test
  void aRefreshStoppedWithCtrlCInTheShellIsRecordedInterruptedAndLeavesItsViewsAsTheyWere()
      throws Exception {
    write("views/silver/slow.sql", SLOW);
    Project p = applied("");
    append(p, 900, "z", 1.0);
    Map<ObjectId, Long> before = versions(p);
    ObjectId slow = id("silver.slow");
    ObjectId gold = id("gold.by_customer");
    java.util.concurrent.CountDownLatch slowStarted = new java.util.concurrent.CountDownLatch(1);
    List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
    RunListener listener = watching(slow, slowStarted, messages);
    // One view at a time: slow first, then gold (which does not read slow) waits its turn.
    RefreshRequest request =
        new RefreshRequest(
            new TreeSet<>(List.of(slow, gold)), true, 1, Duration.ofHours(1), false, Map.of());
    long t0 = System.nanoTime();
    RunReport run = cancelledOnceRunning(p, request, listener, slowStarted);

    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMinutes(5));
    assertThat(Thread.interrupted()).as("the caller's thread is left alone").isFalse();
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Interrupted);
    ViewRun s = run.views().stream().filter(v -> v.id().equals(slow)).findFirst().orElseThrow();
    assertThat(s.status()).as(s.toString()).isEqualTo(ViewStatus.Failed);
    assertThat(s.reason()).isEqualTo("INTERRUPTED");
    assertThat(s.error().orElseThrow()).contains("left as it was");
    ViewRun g = run.views().stream().filter(v -> v.id().equals(gold)).findFirst().orElseThrow();
    assertThat(g.status()).as(g.toString()).isEqualTo(ViewStatus.Skipped);
    assertThat(g.reason()).startsWith("INTERRUPTED");
    assertThat(messages)
        .anyMatch(
            m ->
                m.contains("run " + run.id() + " stopped after 0 of 2 views")
                    && m.contains("recorded as Interrupted"));
    // Written to the history now, as Spark stays up: no marker is left for the next run.
    assertThat(target.runs(10).get(0).id()).isEqualTo(run.id());
    assertThat(target.run(run.id()).orElseThrow().status()).isEqualTo(RunStatus.Interrupted);
    assertThat(versions(p)).isEqualTo(before);
    // The target goes on: a query runs, over the table as it was.
    assertThat(rows(p, "SELECT count(*) FROM silver.slow")).containsExactly("3");
  }

  /**
   * Found by QA: a PySpark view below the view Ctrl-C stopped was "interrupted before it started"
   * and counted among the views the run stopped short of; the local target never runs it.
   */
  @Test
  void aPySparkViewBelowAViewStoppedWithCtrlCKeepsItsReasonAndIsNotCounted() throws Exception {
    write("views/silver/slow.sql", SLOW);
    write(
        "views/gold/slow_ranked.py",
        RANKED_PY
            .replace("gold.ranked", "gold.slow_ranked")
            .replace("gold.by_customer", "silver.slow"));
    Project p = applied("");
    append(p, 900, "z", 1.0);
    ObjectId slow = id("silver.slow");
    ObjectId ranked = id("gold.slow_ranked");
    ObjectId gold = id("gold.by_customer");
    java.util.concurrent.CountDownLatch slowStarted = new java.util.concurrent.CountDownLatch(1);
    List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
    RunListener listener = watching(slow, slowStarted, messages);
    RefreshRequest request =
        new RefreshRequest(
            new TreeSet<>(List.of(slow, ranked, gold)),
            true,
            1,
            Duration.ofHours(1),
            false,
            Map.of());
    RunReport run = cancelledOnceRunning(p, request, listener, slowStarted);

    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Interrupted);
    ViewRun s = run.views().stream().filter(v -> v.id().equals(slow)).findFirst().orElseThrow();
    assertThat(s.reason()).as(s.toString()).isEqualTo("INTERRUPTED");
    ViewRun r = run.views().stream().filter(v -> v.id().equals(ranked)).findFirst().orElseThrow();
    assertThat(r.status()).as(r.toString()).isEqualTo(ViewStatus.Skipped);
    assertThat(r.reason()).startsWith("PYSPARK_NOT_RUN_LOCALLY");
    assertThat(messages)
        .anyMatch(
            m ->
                m.contains("run " + run.id() + " stopped after 0 of 2 views")
                    && m.contains("recorded as Interrupted"));
  }

  /**
   * Found by QA: Ctrl-C in 'mlv shell' during 'seed' cancels the load's Spark jobs, and the seed
   * said SEED_FAILED, a fault of the file. It is the interrupt, said as such, with the table as it
   * was, and the target goes on.
   */
  @Test
  void aSeedStoppedWithCtrlCInTheShellSaysItWasInterruptedAndKeepsTheTable() throws IOException {
    write("seeds/s.csv", "id,name\n1,a\n2,b\n");
    Project p = project("", "", "{name: bronze.seeded, seed: seeds/s.csv}");
    target = LocalTargetContractTest.open(p);
    target.seed(p, List.of("bronze.seeded"), RunListener.NONE);
    // Long enough to read that the cancel lands while a job of the load runs.
    StringBuilder big = new StringBuilder("id,name\n");
    for (int i = 0; i < 300_000; i++) {
      big.append(i).append(",n").append(i).append('\n');
    }
    write("seeds/s.csv", big.toString());
    Thread caller = Thread.currentThread();
    org.apache.spark.SparkContext sc = target.runtime().session().sparkContext();
    org.apache.spark.scheduler.SparkListener cancelling =
        new org.apache.spark.scheduler.SparkListener() {
          @Override
          public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
            target.cancelCommand(caller);
          }
        };
    sc.addSparkListener(cancelling);
    try {
      assertThatThrownBy(() -> target.seed(p, List.of("bronze.seeded"), RunListener.NONE))
          .isInstanceOfSatisfying(
              MlvException.class,
              e ->
                  assertThat(e.diagnostics())
                      .singleElement()
                      .satisfies(
                          d -> {
                            assertThat(d.ruleId()).isEqualTo("INTERRUPTED");
                            assertThat(d.message())
                                .isEqualTo(
                                    "interrupted; seed stopped while bronze.seeded was being"
                                        + " loaded; it was left as it was (version 0)");
                          }));
    } finally {
      sc.removeSparkListener(cancelling);
    }
    assertThat(rows(p, "SELECT count(*) FROM bronze.seeded")).containsExactly("2");
  }

  // ---- run history ----

  @Test
  void historyKeepsOnlyTheConfiguredNumberOfRuns() throws IOException {
    Project p = applied("  history: {retain_runs: 2}\n");
    RunReport second = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    RunReport third = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);

    assertThat(target.runs(10)).extracting(RunReport::id).containsExactly(third.id(), second.id());
    assertThat(historyTable().select("run_id").distinct().count()).isEqualTo(2);
  }

  /** A run older than retain_days leaves the history when the next run is recorded. */
  @Test
  void historyDropsRunsOlderThanTheRetainedDays() throws IOException {
    Project p = applied("");
    RunReport applied = target.runs(1).get(0);
    Instant old = Instant.now().minus(Duration.ofDays(8)); // the test store keeps 7 days
    HistoryStore store = history();
    RunReport aged = new RunReport("aged-run", RunStatus.Completed, old, old, "local", List.of());
    store.record(aged, Optional.of(target.runtime().session()));
    assertThat(historyTable().where("run_id = 'aged-run'").count()).isZero();
    assertThat(target.runs(10)).extracting(RunReport::id).containsExactly(applied.id());
  }

  @Test
  void aRunWithoutSparkIsListedAndAnInterruptedRunIsRecordedByTheNextRun() throws IOException {
    applied("");
    target.close();
    Path runs = new Warehouse(target.warehouse().root()).mlvDir(LH).resolve("runs");
    // A process that died mid-run leaves its marker behind.
    Instant crashedAt = Instant.now().minusSeconds(60);
    HistoryStore store = history();
    store.started(
        new RunReport("crashed-run", RunStatus.Running, crashedAt, null, "local", List.of()));
    // It had finished one view before it died: that view and the time are kept.
    ViewRun finished =
        new ViewRun(
            ObjectId.parse("ws_local.lh_local.silver.orders_clean"),
            ViewStatus.Completed,
            "full",
            "FULL_REQUESTED: a full refresh was requested",
            3,
            0,
            java.util.Map.of(),
            1200,
            java.util.Optional.empty());
    store.progress(
        new RunReport(
            "crashed-run",
            RunStatus.Running,
            crashedAt,
            crashedAt.plusSeconds(5),
            "local",
            List.of(finished)));

    Project p = project("");
    target = LocalTargetContractTest.open(p);
    RunReport quiet = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    assertThat(quiet.status()).isEqualTo(RunStatus.Completed);
    assertThat(quiet.views()).extracting(ViewRun::strategy).containsOnly("skip");
    // Parked as a file: a run where nothing changed starts no Spark.
    assertThat(files(runs.resolve("pending"))).hasSize(1);
    assertThat(target.runs(10))
        .extracting(r -> r.id() + " " + r.status())
        .contains(quiet.id() + " Completed", "crashed-run Interrupted");
    RunReport crashed = target.run("crashed-run").orElseThrow();
    assertThat(crashed.durationMs()).isEqualTo(5000);
    assertThat(crashed.views()).containsExactly(finished);

    append(p, 9, "c", 4.0);
    RunReport busy = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    assertThat(busy.status()).isEqualTo(RunStatus.Completed);

    assertThat(files(runs.resolve("pending"))).isEmpty();
    assertThat(files(runs.resolve("running"))).isEmpty();
    assertThat(
            historyTable().select("run_id", "run_status").distinct().collectAsList().stream()
                .map(r -> r.getString(0) + "|" + r.getString(1))
                .toList())
        .contains("crashed-run|Interrupted", quiet.id() + "|Completed");
  }

  @Test
  void filesLeftByARunKilledAfterItsHistoryCommitAreNotRecordedAgain() throws IOException {
    // HistoryStore straight on the shared session: the views of a real run add nothing here.
    target = LocalTargetContractTest.open(project(""));
    Optional<org.apache.spark.sql.SparkSession> spark = Optional.of(LocalSparkTestSupport.spark());
    HistoryStore store = history();
    Path runs = new Warehouse(target.warehouse().root()).mlvDir(LH).resolve("runs");
    RunReport done = finished("done-run", 90, ViewStatus.Completed);
    store.started(done);
    store.record(done, spark);
    long rowsOfDone = historyTable().where("run_id = 'done-run'").count();
    // As if the process had died after writing the table but before deleting its marker (and a
    // parked copy of the same run).
    store.record(done, Optional.empty());
    store.started(done);
    // And one killed between parking its record and deleting its marker.
    RunReport quiet = finished("quiet-run", 60, ViewStatus.Skipped);
    store.started(quiet);
    store.record(quiet, Optional.empty());
    store.started(quiet);
    assertThat(files(runs.resolve("running"))).hasSize(2);
    assertThat(files(runs.resolve("pending"))).hasSize(2);

    store.record(finished("next-run", 30, ViewStatus.Completed), spark);

    assertThat(files(runs.resolve("running"))).isEmpty();
    assertThat(files(runs.resolve("pending"))).isEmpty();
    assertThat(historyTable().where("run_id = 'done-run'").count()).isEqualTo(rowsOfDone);
    assertThat(
            historyTable().where("run_id = 'quiet-run'").collectAsList().stream()
                .map(r -> r.getString(1))
                .toList())
        .containsExactly("Completed");
    assertThat(store.list(10, RunListener.NONE))
        .extracting(r -> r.id() + " " + r.status())
        .containsExactly("next-run Completed", "quiet-run Completed", "done-run Completed");
  }

  /** As on a Fabric target: a record that cannot be read is a warning naming it, not silence. */
  @Test
  void aDamagedRunRecordIsSkippedWithAWarningAndTheOthersAreListed() throws IOException {
    target = LocalTargetContractTest.open(project(""));
    HistoryStore store = history();
    store.record(finished("kept-run", 30, ViewStatus.Completed), Optional.empty());
    Path damaged =
        new Warehouse(target.warehouse().root()).mlvDir(LH).resolve("runs/pending/x.json");
    Files.writeString(
        damaged,
        "{\"run\":{\"id\":\"x\",\"status\":\"Weird\",\"startedAt\":\"2026-01-01T00:00:00Z\"}}");
    List<String> warnings = new java.util.ArrayList<>();
    RunListener listener =
        new RunListener() {
          @Override
          public void message(String text) {
            warnings.add(text);
          }
        };
    assertThat(target.runs(10, listener)).extracting(RunReport::id).containsExactly("kept-run");
    assertThat(warnings)
        .containsExactly(
            "warning: run record "
                + damaged
                + " is skipped: run.status 'Weird' is not one of Running, Completed, Failed,"
                + " Skipped, Interrupted, Planned");

    // The next run that writes the history takes the readable records in and leaves the damaged
    // one where it is, instead of deleting it unseen.
    store.record(
        finished("next-run", 10, ViewStatus.Completed), Optional.of(LocalSparkTestSupport.spark()));
    assertThat(damaged).exists();
    assertThat(files(damaged.getParent())).containsExactly(damaged);
  }

  private static RunReport finished(String id, int secondsAgo, ViewStatus view) {
    Instant started = Instant.now().minusSeconds(secondsAgo);
    return new RunReport(
        id,
        RunStatus.Completed,
        started,
        started.plusSeconds(1),
        "local",
        List.of(
            new ViewRun(
                new ObjectId(WS, LH, "silver", "v"),
                view,
                "full",
                "FULL_REQUESTED: a full refresh was requested",
                1,
                0,
                Map.of(),
                5,
                Optional.empty())));
  }

  /**
   * Found by QA: an apply that only renamed a view recorded a run with no views, listed by mlv
   * runs, drawn in the report and counted by the retention; and the report counted the renamed
   * view's earlier drops in its totals under the old name, in no breakdown. Now such an apply
   * records no run, and the history's rows and parked records follow the view to its new name, as
   * its quarantine table does.
   */
  @Test
  void anApplyThatOnlyRenamesRecordsNoRunAndTheViewsHistoryFollowsIt() throws IOException {
    applied("");
    ObjectId old = id("gold.by_customer");
    ObjectId renamed = id("gold.customer_totals");
    target.close();
    Path runs = new Warehouse(target.warehouse().root()).mlvDir(LH).resolve("runs");
    Project p = project("");
    target = LocalTargetContractTest.open(p);
    // Nothing new: every view skipped, parked as a file with no Spark. It stays a run.
    RunReport quiet = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    assertThat(quiet.views()).extracting(ViewRun::strategy).containsOnly("skip");
    assertThat(files(runs.resolve("pending"))).hasSize(1);
    List<String> before = target.runs(10).stream().map(RunReport::id).toList();
    assertThat(before).hasSize(2).contains(quiet.id());

    Files.delete(dir.resolve("views/gold/by_customer.sql"));
    write(
        "views/gold/customer_totals.sql",
        TargetContractTest.GOLD.replace("gold.by_customer", "gold.customer_totals"));
    p = project("");
    dev.mlv.plan.Plan plan = plan(p);
    assertThat(plan.changes())
        .filteredOn(c -> !(c instanceof dev.mlv.plan.Change.NoOp))
        .singleElement()
        .isInstanceOf(dev.mlv.plan.Change.Rename.class);
    RunReport run = target.apply(p, plan, RunListener.NONE);

    assertThat(run.status()).isEqualTo(RunStatus.Completed);
    assertThat(run.views()).isEmpty();
    assertThat(target.runs(10)).extracting(RunReport::id).containsExactlyElementsOf(before);
    assertThat(files(runs.resolve("running"))).isEmpty();
    // The history names the view as the project now does, in the table and in the parked run.
    assertThat(
            historyTable().select("view_id").distinct().collectAsList().stream()
                .map(r -> r.getString(0))
                .toList())
        .contains(renamed.toString())
        .doesNotContain(old.toString());
    for (RunReport r : target.runs(10)) {
      assertThat(r.views()).extracting(ViewRun::id).contains(renamed).doesNotContain(old);
    }
  }

  private org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> historyTable() {
    ObjectId table = new ObjectId(WS, LH, HistoryStore.SCHEMA, HistoryStore.TABLE);
    return target
        .runtime()
        .session()
        .read()
        .format("delta")
        .load(target.warehouse().tableDir(table).toString());
  }

  private HistoryStore history() {
    return new HistoryStore(
        new Warehouse(target.warehouse().root()),
        new ObjectId(WS, LH, HistoryStore.SCHEMA, HistoryStore.TABLE),
        25,
        7);
  }

  private static List<Path> files(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(f -> f.toString().endsWith(".json")).toList();
    }
  }

  // ---- mlv sql ----

  /**
   * Found by QA: RENAME TO silver.x__quarantine took the renamed view for its own quarantine table
   * and moved it on to x__quarantine__quarantine, then failed with an internal error, leaving the
   * view lost; RENAME TO mlv_history.x put a view among the run history's tables. Both are refused
   * before anything moves.
   */
  @Test
  void aRenameToANameMlvKeepsForItselfIsRefusedAndNothingMoves() throws IOException {
    Project p = applied("");
    Path silver = target.warehouse().tableDir(id("silver.orders_clean")).getParent();
    List<String> before = listing(silver);
    assertThatThrownBy(
            () ->
                sql(
                    p,
                    "ALTER MATERIALIZED LAKE VIEW silver.orders_clean"
                        + " RENAME TO silver.orders_clean__quarantine"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining(
            "error[RESERVED_NAME]: silver.orders_clean__quarantine is a name mlv keeps for its own"
                + " tables");
    assertThatThrownBy(
            () ->
                sql(p, "ALTER MATERIALIZED LAKE VIEW silver.orders_clean RENAME TO mlv_history.x"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("error[RESERVED_NAME]: mlv_history.x is a name mlv keeps");
    assertThat(listing(silver)).isEqualTo(before);
    assertThat(target.warehouse().tableDir(id("mlv_history.x"))).doesNotExist();
    assertThat(target.deployed(id("silver.orders_clean"))).isPresent();
    assertThat(rows(p, "SELECT count(*) FROM silver.orders_clean")).containsExactly("3");
  }

  private static List<String> listing(Path folder) throws IOException {
    try (var files = Files.list(folder)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void managementStatementsOfMlvSql() throws IOException {
    Project p = applied("");

    assertThat(rows(p, "SHOW MATERIALIZED LAKE VIEWS"))
        .extracting(r -> r.substring(0, r.indexOf('|', r.indexOf('|') + 1)))
        .containsExactly("gold|by_customer", "silver|orders_clean");
    assertThat(rows(p, "SHOW MATERIALIZED LAKE VIEWS IN silver")).hasSize(1);
    assertThatThrownBy(() -> sql(p, "SHOW MATERIALIZED LAKE VIEWS IN nosuchschema"))
        .hasMessageContaining("error[SCHEMA_NOT_FOUND]: schema nosuchschema does not exist");

    sql(p, "ALTER MATERIALIZED LAKE VIEW gold.by_customer RENAME TO gold.totals");
    assertThat(sql(p, "SHOW CREATE MATERIALIZED LAKE VIEW gold.totals").rows().get(0).get(0))
        .contains("gold.totals")
        .doesNotContain("by_customer");
    assertThat(rows(p, "SELECT count(*) FROM gold.totals")).containsExactly("2");
    // Time travel is for ad-hoc queries: the table's first version, by number and by time.
    assertThat(rows(p, "SELECT count(*) FROM gold.totals VERSION AS OF 0")).containsExactly("2");
    assertThatThrownBy(() -> sql(p, "SHOW CREATE MATERIALIZED LAKE VIEW totals"))
        .hasMessageContaining("does not exist in schema dbo")
        .hasMessageContaining("name it with its own: <schema>.totals");
    Object latest = sql(p, "DESCRIBE HISTORY gold.totals").rows().get(0).get(1);
    assertThat(rows(p, "SELECT count(*) FROM gold.totals TIMESTAMP AS OF '" + latest + "'"))
        .containsExactly("2");
    assertThatThrownBy(() -> sql(p, "SHOW CREATE MATERIALIZED LAKE VIEW gold.by_customer"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("does not exist");

    assertThat(sql(p, "DROP MATERIALIZED LAKE VIEW IF EXISTS gold.nothing").message())
        .contains("Nothing to drop");
    assertThatThrownBy(() -> sql(p, "DROP MATERIALIZED LAKE VIEW gold.nothing"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("does not exist");
    // A one-part new name keeps the view in its schema; an all-uppercase one is refused.
    assertThat(sql(p, "ALTER MATERIALIZED LAKE VIEW gold.totals RENAME TO sums").message())
        .isEqualTo("Renamed gold.totals to gold.sums");
    assertThat(sql(p, "SHOW CREATE MATERIALIZED LAKE VIEW gold.sums").rows().get(0).get(0))
        .contains("`gold`.sums");
    assertThatThrownBy(() -> sql(p, "ALTER MATERIALIZED LAKE VIEW gold.sums RENAME TO GOLD.t"))
        .hasMessageContaining("error[UPPERCASE_SCHEMA]");
    sql(p, "ALTER MATERIALIZED LAKE VIEW gold.sums RENAME TO gold.totals");
    // An ad-hoc CREATE meets the rules validate applies to a project's files.
    assertThatThrownBy(() -> sql(p, "CREATE MATERIALIZED LAKE VIEW MYSCHEMA.up AS SELECT 1 AS x"))
        .hasMessageContaining("error[UPPERCASE_SCHEMA]");
    assertThatThrownBy(
            () ->
                sql(
                    p,
                    "CREATE MATERIALIZED LAKE VIEW silver.tt AS SELECT * FROM bronze.orders"
                        + " VERSION AS OF 0"))
        .hasMessageContaining("error[TIME_TRAVEL]");
    assertThatThrownBy(
            () -> sql(p, "CREATE MATERIALIZED LAKE VIEW silver.u AS SELECT my_udf(1) AS x"))
        .hasMessageContaining("error[UDF]");
    assertThatThrownBy(
            () ->
                sql(
                    p,
                    "CREATE OR REPLACE MATERIALIZED LAKE VIEW IF NOT EXISTS silver.z AS"
                        + " SELECT 1 AS x"))
        .hasMessageContaining("error[REPLACE_IF_NOT_EXISTS]")
        .hasMessageContaining("hint: keep CREATE OR REPLACE");
    // A temporary view lives only in the session, so no refresh could read it.
    sql(p, "CREATE OR REPLACE TEMP VIEW recent AS SELECT 1 AS x");
    assertThatThrownBy(
            () -> sql(p, "CREATE MATERIALIZED LAKE VIEW silver.r AS SELECT * FROM recent"))
        .hasMessageContaining("<input>:1:57: error[TEMP_VIEW_SOURCE]: recent is a temporary view")
        .hasMessageContaining("WITH recent AS (...)");
    sql(p, "DROP VIEW recent");
    // Spark says only that the lakehouse's catalog has no functions; mlv names the function.
    assertThatThrownBy(() -> sql(p, "SELECT 1 AS a, no_such_fn(2) AS b"))
        .hasMessageContaining(
            "<input>:1:16: error[SQL_FAILED]: [UNRESOLVED_ROUTINE] function 'no_such_fn' is not a"
                + " Spark built-in");
    assertThat(target.deployed(new ObjectId(WS, LH, "silver", "r"))).isEmpty();
    // Spark's own parser error is SQL_PARSE, as docs/rules.md says (found by QA: SQL_FAILED).
    assertThatThrownBy(() -> sql(p, "SELECT (1"))
        .hasMessageContaining("error[SQL_PARSE]: [PARSE_SYNTAX_ERROR]")
        .hasMessageNotContaining("SQL_FAILED");
    // mlv's own refusal from inside Spark's catalog keeps its rule (found by QA: it read
    // 'error[SQL_FAILED]: error[UNSAFE_NAME]: ...').
    assertThatThrownBy(() -> sql(p, "SELECT * FROM delta.`/tmp/no/such/table`"))
        .hasMessageStartingWith("<input>:1:1: error[UNSAFE_NAME]: delta.`<path>` reads a table by")
        .hasMessageNotContaining("SQL_FAILED");
    // And where mlv's write guard meets it, before Spark: at the table (it had no place).
    assertThatThrownBy(() -> sql(p, "DELETE FROM delta.`/tmp/no/such/table` WHERE id = 1"))
        .hasMessageStartingWith("<input>:1:13: error[UNSAFE_NAME]: delta.`<path>` reads a table");

    sql(p, "DROP MATERIALIZED LAKE VIEW gold.totals");
    assertThat(rows(p, "SHOW MATERIALIZED LAKE VIEWS")).hasSize(1);

    SqlResult refreshed = sql(p, "REFRESH MATERIALIZED LAKE VIEW silver.orders_clean FULL");
    assertThat(refreshed.rows())
        .singleElement()
        .satisfies(r -> assertThat(r.subList(1, 4)).containsExactly("Completed", "full", "3"));

    assertThat(
            sql(
                    p,
                    "CREATE MATERIALIZED LAKE VIEW IF NOT EXISTS silver.orders_clean AS SELECT 1 AS x")
                .message())
        .contains("nothing done");
    assertThatThrownBy(
            () -> sql(p, "CREATE MATERIALIZED LAKE VIEW silver.orders_clean AS SELECT 1 AS x"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("already exists");
    sql(p, "CREATE OR REPLACE MATERIALIZED LAKE VIEW silver.adhoc AS SELECT 1 AS x");
    assertThat(rows(p, "SELECT x FROM silver.adhoc")).containsExactly("1");
    // Not in the project: refreshed alone, in full, from its stored definition.
    assertThat(sql(p, "REFRESH MATERIALIZED LAKE VIEW silver.adhoc").rows())
        .singleElement()
        .satisfies(r -> assertThat(r.subList(1, 4)).containsExactly("Completed", "full", "1"));

    for (String dml :
        List.of(
            "INSERT INTO silver.orders_clean VALUES (7, 'q', 1.0)",
            "UPDATE silver.orders_clean SET amount = 0",
            "DELETE FROM lh_local.silver.orders_clean WHERE id = 1",
            "MERGE INTO ws_local.lh_local.silver.orders_clean t USING bronze.orders s"
                + " ON t.id = s.id WHEN MATCHED THEN DELETE",
            // Spellings a pattern on the first words missed: the parser's plan shows the write.
            "WITH x AS (SELECT * FROM silver.orders_clean) INSERT INTO silver.orders_clean"
                + " SELECT * FROM x",
            "FROM silver.orders_clean INSERT INTO bronze.orders SELECT *"
                + " INSERT INTO `silver`.`ORDERS_CLEAN` SELECT *",
            "INSERT OVERWRITE TABLE silver.orders_clean SELECT * FROM silver.orders_clean",
            "TRUNCATE TABLE silver.orders_clean",
            "CREATE OR REPLACE TABLE silver.orders_clean AS SELECT 1 AS x",
            "RESTORE TABLE silver.orders_clean TO VERSION AS OF 0")) {
      assertThatThrownBy(() -> sql(p, dml))
          .as(dml)
          .isInstanceOf(MlvException.class)
          .hasMessageContaining("cannot write to the materialized lake view");
    }
    // A view's shape comes from its definition, and DROP or RENAME by ALTER TABLE would leave
    // its bookkeeping behind.
    for (String[] alter :
        new String[][] {
          {"ALTER TABLE silver.orders_clean ADD COLUMNS (z INT)", "ALTER TABLE cannot change"},
          {"ALTER TABLE silver.orders_clean SET TBLPROPERTIES ('x'='y')", "ALTER TABLE cannot"},
          {"ALTER TABLE silver.orders_clean DROP COLUMN amount", "ALTER TABLE cannot change"},
          {"COMMENT ON TABLE silver.orders_clean IS 'x'", "ALTER TABLE cannot change"},
          {"DROP TABLE silver.orders_clean", "use DROP MATERIALIZED LAKE VIEW"},
          {"ALTER TABLE silver.orders_clean RENAME TO silver.o2", "RENAME TO ..., not ALTER"}
        }) {
      assertThatThrownBy(() -> sql(p, alter[0]))
          .as(alter[0])
          .isInstanceOf(MlvException.class)
          .hasMessageContaining(alter[1]);
    }
    assertThat(sql(p, "ALTER TABLE bronze.orders SET TBLPROPERTIES ('x'='y')").message())
        .isEqualTo("OK");
    // A 1-part name is the view in the schema USE chose, as Spark reads it.
    var catalog = target.runtime().session().catalog();
    String schemaBefore = catalog.currentDatabase();
    String catalogBefore = catalog.currentCatalog();
    try {
      sql(p, "USE silver");
      for (String unqualified :
          List.of(
              "DROP TABLE orders_clean",
              "ALTER TABLE orders_clean ADD COLUMNS (z INT)",
              "INSERT INTO orders_clean SELECT * FROM orders_clean",
              "DELETE FROM orders_clean WHERE id = 1")) {
        assertThatThrownBy(() -> sql(p, unqualified))
            .as(unqualified)
            .isInstanceOf(MlvException.class)
            .hasMessageContaining("silver.orders_clean");
      }
    } finally {
      catalog.setCurrentCatalog(catalogBefore);
      catalog.setCurrentDatabase(schemaBefore);
    }
    assertThat(rows(p, "SELECT count(*) FROM silver.orders_clean")).containsExactly("3");
    assertThat(rows(p, "SELECT count(*) FROM bronze.orders")).containsExactly("3");
    // The refusal points at the view's name in the statement.
    assertThatThrownBy(
            () ->
                sql(
                    p,
                    "WITH x AS (SELECT 1)\nINSERT INTO silver.orders_clean SELECT * FROM"
                        + " silver.orders_clean"))
        .hasMessageStartingWith("<input>:2:13: ");
    // So does a Spark error, at what it names.
    assertThatThrownBy(() -> sql(p, "SELECT *\nFROM bronze.no_such_table"))
        .hasMessageStartingWith("<input>:2:6: ")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("line 2 pos"));
    // An ad-hoc view whose first refresh fails is one diagnostic at the failing column.
    assertThatThrownBy(
            () ->
                sql(
                    p,
                    "CREATE MATERIALIZED LAKE VIEW silver.adhoc2 AS SELECT nope FROM bronze.orders"))
        .hasMessageStartingWith("<input>:1:")
        .hasMessageContaining("error[CREATE_FAILED]: ")
        .hasMessageContaining("the view was not created")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("REFRESH_FAILED"));
    // A syntax error too, whose place Spark writes "(line 1, pos 18)".
    assertThatThrownBy(() -> sql(p, "SELECT 2 AS b FROM"))
        .hasMessageStartingWith("<input>:1:19: ")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pos 18"));

    // A Spark error is one line naming what is wrong, not an internal error.
    assertThatThrownBy(() -> sql(p, "SELECT * FROM bronze.no_such_table"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("no_such_table")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));

    // Dropping a view others read says so, and that apply brings it back.
    assertThat(sql(p, "DROP MATERIALIZED LAKE VIEW silver.orders_clean").message())
        .contains("gold.by_customer reads it and will fail to refresh until it is back")
        .contains("'mlv apply' creates it again");
  }

  /**
   * The fields of a table's struct columns and arrays of structs, and of the structs within them,
   * read from its Delta log without Spark, for UNRESOLVED_FIELD; a map is no struct. A new process
   * reads them from the table state remembered between commands, as plan does.
   */
  @Test
  void theFieldsOfATablesStructColumnsAreToldWithoutSpark() throws IOException {
    Project p = applied("");
    sql(
        p,
        "CREATE TABLE bronze.nested USING delta AS SELECT 1 AS id, named_struct('a', 1, 'B',"
            + " named_struct('c', 'x', 'd', array(named_struct('e', 1)))) AS s,"
            + " array(named_struct('f', 1, 'g', 2)) AS arr, map('k', named_struct('z', 1)) AS m");
    ObjectId nested = id("bronze.nested");
    // A struct within a struct, or within an array in one, is told by its path.
    Map<String, List<String>> expected =
        Map.of(
            "s",
            List.of("a", "B"),
            dev.mlv.check.TableColumns.structKey(List.of("s", "B")),
            List.of("c", "d"),
            dev.mlv.check.TableColumns.structKey(List.of("s", "B", "d")),
            List.of("e"),
            "arr",
            List.of("f", "g"));
    assertThat(target.schemas(p).structs()).containsEntry(nested, expected);
    target.close();
    target = LocalTargetContractTest.open(p);
    assertThat(target.schemas(p).structs()).containsEntry(nested, expected);
  }

  @Test
  void applyNeverReplacesATableThatIsNotAViewNorUsesMlvsOwnNames() throws IOException {
    Project p = applied("");
    sql(p, "CREATE TABLE silver.manual USING delta AS SELECT 'precious' AS note");
    write(
        "views/silver/manual.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.manual AS SELECT 'x' AS note");
    write(
        "views/silver/trap.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.orders_clean__quarantine AS SELECT 1 AS n");
    Project edited = project("");
    List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();

    RunReport run =
        target.apply(
            edited,
            plan(edited),
            new RunListener() {
              @Override
              public void viewFinished(ViewRun v) {
                told.add(v.id().name() + " " + v.status());
              }
            });

    Map<String, ViewRun> byName =
        run.views().stream().collect(Collectors.toMap(v -> v.id().name(), v -> v));
    assertThat(byName.get("manual").status()).isEqualTo(ViewStatus.Failed);
    assertThat(byName.get("manual").reason()).isEqualTo("TABLE_EXISTS");
    // Placed at the view's statement, as a refresh failure is, and heard by the progress (found
    // by QA: no 'failed' line and no file:line:column).
    assertThat(byName.get("manual").error())
        .get()
        .asString()
        .startsWith("views/silver/manual.sql:1:1: error[TABLE_EXISTS]: ")
        .contains("mlv does not overwrite it");
    assertThat(byName.get("orders_clean__quarantine").reason()).isEqualTo("RESERVED_NAME");
    assertThat(told).contains("manual Failed", "orders_clean__quarantine Failed");
    assertThat(rows(edited, "SELECT note FROM silver.manual")).containsExactly("precious");
  }

  @Test
  void aViewWhoseFirstRefreshFailsInApplyIsSaidNotToBeCreated() throws IOException {
    Project p = applied("");
    write(
        "views/silver/broken.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.broken AS SELECT raise_error('bad') AS x");
    Project edited = project("");

    RunReport run = target.apply(edited, plan(edited), RunListener.NONE);

    ViewRun broken =
        run.views().stream().filter(v -> v.id().name().equals("broken")).findFirst().orElseThrow();
    assertThat(broken.status()).isEqualTo(ViewStatus.Failed);
    assertThat(broken.error())
        .get()
        .asString()
        .contains("silver.broken was not created, since a view is created by its first refresh")
        .contains("run 'mlv apply' again");
    assertThat(target.deployed(broken.id())).isEmpty();
    java.nio.file.Files.delete(dir.resolve("views/silver/broken.sql"));
  }

  /** The run keeps a failure's text; its listener hears of the exception, for --debug. */
  @Test
  void theExceptionBehindAViewsFailureReachesTheListener() throws IOException {
    applied("");
    write(
        "views/silver/broken.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.broken AS"
            + " SELECT CAST(concat('x', customer) AS INT) AS n FROM bronze.orders");
    Project edited = project("");
    Map<ObjectId, Throwable> causes = new java.util.concurrent.ConcurrentHashMap<>();
    RunListener listener =
        new RunListener() {
          @Override
          public void viewFailed(ObjectId id, Throwable cause) {
            causes.put(id, cause);
          }
        };

    RunReport run = target.apply(edited, plan(edited), listener);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(causes).containsOnlyKeys(id("silver.broken"));
    List<String> chain = new java.util.ArrayList<>();
    for (Throwable t = causes.get(id("silver.broken")); t != null; t = t.getCause()) {
      chain.add(t.getClass().getName() + ": " + t.getMessage());
    }
    assertThat(chain)
        .anyMatch(m -> m.contains("org.apache.spark") && m.contains("CAST_INVALID_INPUT"));
    java.nio.file.Files.delete(dir.resolve("views/silver/broken.sql"));
  }

  /**
   * A source dropped after apply fails the views that read it, at the place in the view's file that
   * names it, as validate places a table reference.
   */
  @Test
  void aMissingSourceIsReportedWhereTheViewsFileNamesIt() throws IOException {
    Project p = applied("");
    sql(p, "DROP TABLE bronze.orders");

    RunReport run = target.refresh(p, all(p, Duration.ofMinutes(5)), RunListener.NONE);

    ViewRun silver = run.views().get(0);
    assertThat(silver.id()).isEqualTo(id("silver.orders_clean"));
    assertThat(silver.error())
        .get()
        .asString()
        .isEqualTo(
            "views/silver/orders_clean.sql:3:37: error[SOURCE_MISSING]: source bronze.orders does"
                + " not exist in the local lakehouse\n  hint: create and load it with 'mlv sql',"
                + " or declare a seed for it in mlv.yml");

    // Refresh runs the deployed definition, which the edited file no longer is: the view's
    // statement is the place. Apply replaces the view from the file: the place is the file's.
    write(
        "views/silver/orders_clean.sql",
        TargetContractTest.SILVER.replace("amount FROM", "amount, 1 AS one\nFROM"));
    Project edited = project("");
    RunReport deployed =
        target.refresh(edited, all(edited, Duration.ofMinutes(5)), RunListener.NONE);
    assertThat(deployed.views().get(0).error())
        .get()
        .asString()
        .startsWith("views/silver/orders_clean.sql:1:1: error[SOURCE_MISSING]");
    RunReport applied = target.apply(edited, plan(edited), RunListener.NONE);
    assertThat(applied.views().get(0).error())
        .get()
        .asString()
        .startsWith(
            "views/silver/orders_clean.sql:4:6: error[SOURCE_MISSING]: source bronze.orders does"
                + " not exist in the local lakehouse");
    write("views/silver/orders_clean.sql", TargetContractTest.SILVER);
  }

  @Test
  void aRefreshErrorOfAViewWhoseFileIsOnlyReformattedIsPlacedInTheFile() throws IOException {
    applied("");
    // Formatting only (plan: no change): the file is what the error must point into.
    write(
        "views/gold/by_customer.sql",
        "-- totals\nCREATE MATERIALIZED LAKE VIEW gold.by_customer AS\n"
            + "  SELECT customer,\n         SUM(amount)   AS total\n"
            + "  FROM silver.orders_clean GROUP BY customer\n");
    write(
        "views/silver/orders_clean.sql",
        TargetContractTest.SILVER
            .replace("amount > 0", "amt > 0")
            .replace("SELECT id, customer, amount", "SELECT id, customer, amount AS amt"));
    Project edited = project("");
    dev.mlv.plan.Plan plan = plan(edited);
    assertThat(plan.changes())
        .extracting(c -> c.getClass().getSimpleName() + " " + c.id().name())
        .containsExactly("Replace orders_clean", "NoOp by_customer");

    RunReport run = target.apply(edited, plan, RunListener.NONE);

    ViewRun gold =
        run.views().stream()
            .filter(v -> v.id().name().equals("by_customer"))
            .findFirst()
            .orElseThrow();
    assertThat(gold.status()).isEqualTo(ViewStatus.Failed);
    assertThat(gold.error())
        .get()
        .asString()
        .startsWith("views/gold/by_customer.sql:4:")
        .contains("`amount`");
    write("views/silver/orders_clean.sql", TargetContractTest.SILVER);
    write("views/gold/by_customer.sql", TargetContractTest.GOLD);
  }

  // ---- names ----

  @Test
  void namesOfOneToFourPartsAndASecondLakehouse() throws IOException {
    write(
        "views/gold/customer_orders.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.customer_orders AS\n"
            + "SELECT c.name, SUM(o.amount) AS total\n"
            + "FROM crm_lh.dbo.customers c\n"
            + "JOIN ws_local.lh_local.bronze.orders o ON o.customer = c.customer\n"
            + "GROUP BY c.name\n");
    write(
        "views/dbo/customer_count.sql",
        "CREATE MATERIALIZED LAKE VIEW customer_count AS SELECT count(*) AS n FROM"
            + " gold.customer_orders\n");
    Project p =
        project("", "lakehouses:\n  crm_lh: {workspace: " + WS + "}\n", "crm_lh.dbo.customers");
    target = LocalTargetContractTest.open(p);
    LocalTargetContractTest.load(target, p, id("bronze.orders"), COLUMNS, orders(), false);
    LocalTargetContractTest.load(
        target,
        p,
        new ObjectId(WS, "crm_lh", "dbo", "customers"),
        "customer STRING, name STRING",
        List.of(List.of("a", "Ann"), List.of("b", "Bob")),
        false);

    RunReport run = target.apply(p, plan(p), RunListener.NONE);

    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(rows(p, "SELECT name, total FROM gold.customer_orders ORDER BY name"))
        .containsExactly("Ann|15.0", "Bob|7.0");
    assertThat(rows(p, "SELECT n FROM customer_count")).containsExactly("2");
    assertThat(rows(p, "SELECT n FROM lh_local.dbo.customer_count")).containsExactly("2");
    assertThat(target.state(p).tables())
        .containsKey(new ObjectId(WS, "crm_lh", "dbo", "customers"));
  }

  /**
   * A 4-part name of a lakehouse mlv.yml does not list: Spark read folder plh.Lakehouse for it, but
   * the Delta logs read without Spark named that folder's tables after the default workspace, so
   * plan warned the loaded table was missing and never turned its change data feed on.
   */
  @Test
  void aFourPartSourceOfAnUnlistedLakehouseIsTheTableSparkReads() throws IOException {
    write(
        "views/silver/from_prod.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.from_prod AS SELECT id FROM prodws.plh.dbo.t\n");
    Project p =
        project(
            "", "view_config:\n  silver.from_prod: {enable_cdf: true}\n", "\"prodws.plh.dbo.t\"");
    ObjectId t = new ObjectId("prodws", "plh", "dbo", "t");
    target = LocalTargetContractTest.open(p);
    LocalTargetContractTest.load(target, p, id("bronze.orders"), COLUMNS, orders(), false);
    LocalTargetContractTest.load(target, p, t, "id INT", List.of(List.of(1), List.of(2)), false);
    assertThat(dir.resolve(".mlv/warehouse/plh.Lakehouse/Tables/dbo/t")).isDirectory();
    // As mlv plan runs: a new process, whose target has run no SQL yet.
    target.close();
    target = LocalTargetContractTest.open(p);

    assertThat(target.state(p).tables()).containsKey(t);
    assertThat(target.columns(p)).containsKey(t);
    dev.mlv.plan.Plan plan = plan(p);
    assertThat(plan.enableCdf()).extracting(dev.mlv.plan.EnableCdf::table).containsExactly(t);
    RunReport applied = target.apply(p, plan, RunListener.NONE);
    assertThat(applied.status()).as(applied.toString()).isEqualTo(RunStatus.Completed);
    assertThat(target.state(p).tables().get(t).changeDataFeed()).isTrue();

    LocalTargetContractTest.load(target, p, t, "id INT", List.of(List.of(3)), true);
    RunReport run = target.refresh(p, all(p, Duration.ofHours(1)), RunListener.NONE);
    ViewRun fromProd =
        run.views().stream()
            .filter(v -> v.id().name().equals("from_prod"))
            .findFirst()
            .orElseThrow();
    assertThat(fromProd.reason()).as(fromProd.toString()).doesNotContain("CDF_OFF");
    assertThat(fromProd.strategy()).as(fromProd.toString()).isEqualTo("incremental");
    assertThat(rows(p, "SELECT count(*) FROM silver.from_prod")).containsExactly("3");
  }

  // ---- helpers ----

  private Project applied(String defaults) throws IOException {
    Project p = project(defaults);
    target = LocalTargetContractTest.open(p);
    LocalTargetContractTest.load(target, p, id("bronze.orders"), COLUMNS, orders(), false);
    RunReport run = target.apply(p, plan(p), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    return p;
  }

  private static List<List<Object>> orders() {
    return List.of(List.of(1, "a", 10.0), List.of(2, "a", 5.0), List.of(3, "b", 7.0));
  }

  private void append(Project p, int id, String customer, double amount) {
    LocalTargetContractTest.load(
        target, p, id("bronze.orders"), COLUMNS, List.of(List.of(id, customer, amount)), true);
  }

  private Project project(String defaults) throws IOException {
    return project(defaults, "", null);
  }

  private Project project(String defaults, String extra, String extraSource) throws IOException {
    write(
        "mlv.yml",
        "name: local\nworkspace: "
            + WS
            + "\nlakehouse: "
            + LH
            + "\nschema: dbo\n"
            + "sources: [bronze.orders"
            + (extraSource == null ? "" : ", " + extraSource)
            + "]\n"
            + extra
            + "defaults:\n  enable_cdf: false\n  parallelism: 2\n"
            + defaults
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n");
    if (!Files.exists(dir.resolve("views/silver/orders_clean.sql"))) {
      write("views/silver/orders_clean.sql", TargetContractTest.SILVER);
      write("views/gold/by_customer.sql", TargetContractTest.GOLD);
    }
    LoadResult loaded = ProjectLoader.load(dir, Map.of());
    assertThat(loaded.hasErrors()).as(loaded.diagnostics().toString()).isFalse();
    ProjectConfig config = loaded.orThrow();
    Project p =
        new ProjectBuilder()
            .build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    assertThat(p.hasErrors()).as(p.diagnostics().toString()).isFalse();
    return p;
  }

  private void write(String relative, String text) throws IOException {
    Path f = dir.resolve(relative);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text, StandardCharsets.UTF_8);
  }

  private static ObjectId id(String schemaAndName) {
    String[] p = schemaAndName.split("\\.");
    return new ObjectId(WS, LH, p[0], p[1]);
  }

  private dev.mlv.plan.Plan plan(Project p) {
    return new Planner(Clock.systemUTC())
        .plan(p, target.name(), target.state(p), new TreeSet<>(p.views().keySet()), true, false);
  }

  private static RefreshRequest all(Project p, Duration timeout) {
    return new RefreshRequest(
        new TreeSet<>(p.views().keySet()), false, 2, timeout, false, Map.of());
  }

  private Map<ObjectId, Long> versions(Project p) {
    Map<ObjectId, Long> out = new java.util.TreeMap<>();
    var s = target.state(p);
    s.views().forEach((id, v) -> out.put(id, v.version()));
    s.tables().forEach((id, t) -> out.put(id, t.version()));
    return out;
  }

  private SqlResult sql(Project p, String sql) {
    return target.sql(p, MlvParser.parse(Position.start(null), sql).statements().get(0));
  }

  private List<String> rows(Project p, String sql) {
    return sql(p, sql).rows().stream()
        .map(r -> r.stream().map(String::valueOf).collect(Collectors.joining("|")))
        .toList();
  }
}
