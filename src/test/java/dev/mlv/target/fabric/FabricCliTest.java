package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mlv plan|apply|refresh|runs|sql --target prod} end to end against the simulator, with the
 * token read from {@code MLV_TEST_FABRIC_TOKEN} (set by the build to a known value): that value
 * must appear in no output, no trace and no file the commands write.
 */
class FabricCliTest {
  static final String TOKEN_ENV = "MLV_TEST_FABRIC_TOKEN";

  @TempDir Path dir;
  SimulatedFabric fabric;
  String secret;

  @BeforeEach
  void start() {
    secret = System.getenv(TOKEN_ENV);
    assertThat(secret).as(TOKEN_ENV + " is set by the surefire configuration").isNotBlank();
    fabric = new SimulatedFabric(dir);
    fabric.simulator.token = secret;
    // The CLI polls with the real intervals (seconds): answer without making it wait.
    fabric.simulator.answerAtOnce();
    fabric.target = fabric.open(FabricTargetContractTest.fast());
    fabric.write(
        "mlv.yml",
        fabric.config("    auth:\n      mode: token\n      token_env: " + TOKEN_ENV + "\n"));
    fabric.sql(
        "CREATE OR REPLACE TABLE " + SimulatedFabric.LAKEHOUSE + ".bronze.orders AS SELECT 1");
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  private CliRun mlv(String... args) {
    return CliRun.inProject(dir, args);
  }

  /**
   * Found by QA: {@code mlv sql -t prod} printed "Using Spark's default log4j profile" to stderr
   * without --debug, from the Spark parser of its syntax check. Spark prints it once per JVM, when
   * its logging first starts, and this test JVM started Spark long ago: so mlv runs in a JVM of its
   * own, as from the command line, against the simulator of this one.
   */
  @Test
  void sqlOnFabricPrintsNothingOfSparksLoggingToStderr() throws Exception {
    Child mlv =
        child(dev.mlv.cli.Main.class, "sql", "-t", "prod", "-p", dir.toString(), "SELECT 1 AS one");
    // The simulator keeps no rows, so it refuses the query: that refusal is all of stderr.
    assertThat(mlv.err())
        .as(mlv.out())
        .doesNotContain("log4j")
        .startsWith("error[SPARK_SQL]: the statement failed: ")
        .hasLineCount(1);
  }

  /**
   * What made the line appear, made certain: the Fabric target and its syntax check each configure
   * the logging, and a garbage collection after the second dropped that configuration before Spark
   * looked (whether one falls there depends on the JVM's heap, so the CLI test above alone could
   * pass by luck).
   */
  @Test
  void theQuietLoggingOfTheSyntaxCheckSurvivesAGarbageCollection() throws Exception {
    Child probe = child(SyntaxCheckQuietProbe.class);
    assertThat(probe.err()).isEmpty();
    assertThat(probe.out()).isEqualTo("OK\n");
  }

  private record Child(String out, String err) {}

  /** Runs {@code main} in a JVM of its own, with this JVM's class path and Spark's opens. */
  private Child child(Class<?> main, String... args) throws Exception {
    List<String> command =
        dev.mlv.reliability.ChildJava.command(List.of(), main.getName(), List.of(args));
    Path stdout = Files.createTempFile("child-out", ".txt");
    Path stderr = Files.createTempFile("child-err", ".txt");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile());
      builder.environment().put(TOKEN_ENV, secret);
      builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      Process p = builder.start();
      assertThat(p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
      return new Child(
          Files.readString(stdout, StandardCharsets.UTF_8),
          Files.readString(stderr, StandardCharsets.UTF_8));
    } finally {
      Files.delete(stdout);
      Files.delete(stderr);
    }
  }

  /** A damaged run record is one warning line naming it; the other runs are still listed. */
  @Test
  void runsSkipsADamagedRecordWithAWarningAndListsTheOthers() throws IOException {
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    Path records = dir.resolve(".mlv/fabric/prod/runs");
    Path weird = records.resolve("x.json");
    Files.writeString(
        weird,
        "{\"run\":{\"id\":\"x\",\"status\":\"Weird\",\"startedAt\":\"2026-01-01T00:00:00Z\"}}");
    Path badTime = records.resolve("y.json");
    Files.writeString(
        badTime, "{\"run\":{\"id\":\"y\",\"status\":\"Completed\",\"startedAt\":\"yesterday\"}}");
    Path garbage = records.resolve("z.json");
    Files.writeString(garbage, "{\"run\": tru");

    CliRun list = mlv("runs", "-t", "prod");
    assertThat(list.exitCode()).as(list.toString()).isZero();
    assertThat(list.out()).contains("Completed").contains("2 views");
    assertThat(list.err().lines().toList())
        .containsExactly(
            "warning: run record "
                + weird
                + " is skipped: run.status 'Weird' is not one of Running, Completed, Failed,"
                + " Skipped, Interrupted, Planned",
            "warning: run record "
                + badTime
                + " is skipped: run.startedAt 'yesterday' is not a time such as"
                + " 2026-01-01T00:00:00Z",
            "warning: run record " + garbage + " is skipped: it is not JSON (line 1, column 12)");

    CliRun json = mlv("runs", "-t", "prod", "--format", "json");
    assertThat(json.exitCode()).as(json.toString()).isZero();
    assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out()).path("runs"))
        .hasSize(1);
  }

  /** --quiet drops the progress lines, not the warning that the run is not on record. */
  @Test
  void quietStillPrintsTheWarningThatARunCouldNotBeRecorded() throws IOException {
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve", "--quiet");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    Path records = dir.resolve(".mlv/fabric/prod/runs");
    try (Stream<Path> files = Files.list(records)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(records);
    Files.writeString(records, "not a folder");

    CliRun refresh = mlv("refresh", "-t", "prod", "--full", "--quiet");
    assertThat(refresh.exitCode()).as(refresh.toString()).isZero();
    assertThat(refresh.err().lines().toList())
        .singleElement()
        .asString()
        .startsWith("warning: run ")
        .endsWith(
            " could not be recorded in "
                + records
                + " (it is a file, not a folder), so 'mlv runs' will not show what each view did");
  }

  @Test
  void everyCommandWorksAgainstFabricAndNoneLeaksTheToken() throws IOException {
    List<CliRun> runs = new ArrayList<>();
    CliRun plan = mlv("plan", "-t", "prod", "-o", dir.resolve("plan.json").toString());
    runs.add(plan);
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out()).contains("silver.orders_clean").contains("gold.by_customer");
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).mlvs).isEmpty();

    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    runs.add(apply);
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).mlvs).hasSize(2);

    CliRun refresh = mlv("refresh", "-t", "prod", "silver.orders_clean+");
    runs.add(refresh);
    assertThat(refresh.exitCode()).as(refresh.toString()).isZero();
    assertThat(fabric.simulator.jobsSubmitted.get()).isEqualTo(1);

    CliRun list = mlv("runs", "-t", "prod");
    runs.add(list);
    assertThat(list.exitCode()).as(list.toString()).isZero();

    CliRun sql = mlv("sql", "-t", "prod", "SHOW MATERIALIZED LAKE VIEWS IN silver");
    runs.add(sql);
    assertThat(sql.exitCode()).as(sql.toString()).isZero();
    assertThat(sql.out()).contains("orders_clean");

    // A failing command with --debug prints its trace: still no token.
    fabric.simulator.token = "rotated";
    CliRun refused = mlv("--debug", "plan", "-t", "prod");
    runs.add(refused);
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err()).contains("TokenNotValid");

    for (CliRun r : runs) {
      assertThat(r.out() + r.err()).doesNotContain(secret);
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertThat(Files.readString(f, StandardCharsets.ISO_8859_1))
            .as(f.toString())
            .doesNotContain(secret);
      }
    }
    // The simulator saw the token: the test would notice it, had it leaked.
    assertThat(fabric.simulator.requestLog).anyMatch(l -> l.contains(secret));
  }

  @Test
  void aSyntaxErrorInAnyStatementIsReportedBeforeLivyIsAsked() {
    // setUp's own statement went through the target's session: count from here.
    int requests = fabric.simulator.requests.get();
    int sessions = fabric.simulator.sessionsCreated.get();
    CliRun sql =
        mlv(
            "sql",
            "-t",
            "prod",
            "INSERT INTO bronze.orders VALUES (2);\nINSERT INTO bronze.orders VALUES (3);\n"
                + "SELEC oops");
    assertThat(sql.exitCode()).as(sql.toString()).isEqualTo(dev.mlv.cli.ExitCodes.ERROR);
    assertThat(sql.err())
        .contains("<input>:3:1: error[SQL_PARSE]")
        .contains("no statement was run");
    assertThat(fabric.simulator.timesRun("INSERT INTO bronze.orders")).isZero();
    assertThat(fabric.simulator.sessionsCreated.get()).isEqualTo(sessions);
    assertThat(fabric.simulator.requests.get()).as("HTTP requests").isEqualTo(requests);

    // One statement alone too: a typo must not cost a session start.
    CliRun one = mlv("sql", "-t", "prod", "SELECT * FROM bronze.orders WHERE id =");
    assertThat(one.exitCode()).as(one.toString()).isEqualTo(dev.mlv.cli.ExitCodes.ERROR);
    assertThat(one.err()).contains("<input>:1:").contains("error[SQL_PARSE]");
    assertThat(fabric.simulator.requests.get()).as("HTTP requests").isEqualTo(requests);
  }

  @Test
  void fabricOnlySyntaxIsLeftToFabric() {
    // VORDER is Fabric's Delta extension: Spark's parser here refuses it, Fabric runs it.
    CliRun sql = mlv("sql", "-t", "prod", "OPTIMIZE bronze.orders VORDER");
    assertThat(sql.err()).doesNotContain("SQL_PARSE");
    assertThat(fabric.simulator.timesRun("OPTIMIZE bronze.orders VORDER")).isEqualTo(1);
  }

  @Test
  void aMissingTokenVariableIsOneClearError() {
    fabric.write(
        "mlv.yml",
        fabric.config("    auth:\n      mode: token\n      token_env: MLV_NO_SUCH_VAR\n"));
    CliRun plan = mlv("plan", "-t", "prod");
    assertThat(plan.exitCode()).isNotZero();
    assertThat(plan.err()).contains("MLV_NO_SUCH_VAR").doesNotContain("\tat ");
  }

  @Test
  void planWarnsOfATableMissingFromTheTargetsLakehouseOnly() {
    fabric.write(
        "views/silver/extra.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.extra AS\n"
            + "SELECT m.id FROM bronze.missing m JOIN other_lh.bronze.elsewhere e ON m.id = e.id\n");
    CliRun plan = mlv("plan", "-t", "prod");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.err())
        .contains(
            "warning: bronze.missing is not in the lakehouse; refreshing silver.extra will fail"
                + " until it is. Create it in the target's lakehouse, or fix the name in the SQL.")
        // Another lakehouse is not listed by the target: no guess either way.
        .doesNotContain("elsewhere")
        .doesNotContain("bronze.orders");
  }

  /**
   * 'mlv apply FILE' prints the warnings 'mlv plan -o FILE' printed, for the views the plan was
   * made for; it printed none.
   */
  @Test
  void applyingASavedPlanPrintsThePlansWarnings() {
    String auth = "    auth:\n      mode: token\n      token_env: " + TOKEN_ENV + "\n";
    fabric.write(
        "mlv.yml", fabric.config(auth) + "view_config:\n  gold.nope:\n    refresh_policy: full\n");
    fabric.write(
        "views/silver/extra.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.extra AS SELECT m.id FROM bronze.missing m\n");
    String unknown = "warning[VIEW_CONFIG_UNKNOWN]: view_config names gold.nope";
    String missing = "warning: bronze.missing is not in the lakehouse; refreshing silver.extra";

    String saved = dir.resolve("plan.json").toString();
    CliRun plan = mlv("plan", "-t", "prod", "-o", saved);
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.err()).contains(unknown).contains(missing);
    CliRun apply = mlv("apply", "-t", "prod", saved);
    assertThat(warnings(apply.err())).as(apply.toString()).isEqualTo(warnings(plan.err()));

    // A plan of some views warns of what those views read, and so does its apply.
    String savedSome = dir.resolve("some.json").toString();
    CliRun some = mlv("plan", "-t", "prod", "gold.by_customer", "-o", savedSome);
    assertThat(some.exitCode()).as(some.toString()).isZero();
    assertThat(some.err()).contains(unknown).doesNotContain(missing);
    CliRun applySome = mlv("apply", "-t", "prod", savedSome);
    assertThat(warnings(applySome.err())).as(applySome.toString()).isEqualTo(warnings(some.err()));
  }

  private static List<String> warnings(String err) {
    return err.lines().filter(l -> l.startsWith("warning")).toList();
  }

  @Test
  void aDryRunSaysAViewWhoseSourceIsMissingWouldFailAndExitsOne() {
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    fabric.sql("DROP TABLE " + SimulatedFabric.LAKEHOUSE + ".bronze.orders");
    int jobs = fabric.simulator.jobsSubmitted.get();

    // --full too: a full refresh does not make the source exist.
    for (String[] args :
        List.of(
            new String[] {"refresh", "-t", "prod", "--dry-run"},
            new String[] {"refresh", "-t", "prod", "--dry-run", "--full"})) {
      CliRun dry = mlv(args);
      assertThat(dry.exitCode()).as(dry.toString()).isEqualTo(dev.mlv.cli.ExitCodes.ERROR);
      assertThat(dry.out())
          .as(dry.toString())
          .contains(
              "SOURCE_MISSING source=bronze.orders: bronze.orders does not exist; the refresh"
                  + " fails until it does")
          .contains(
              "UPSTREAM_FAILED: upstream silver.orders_clean will fail (SOURCE_MISSING"
                  + " source=bronze.orders), so this view will be skipped");
      assertThat(dry.err()).contains("2 views would fail or be skipped");
    }
    assertThat(fabric.simulator.jobsSubmitted.get()).isEqualTo(jobs);
  }

  /** A refresh job of the lakehouse as a schedule starts it, in the given status. */
  private com.fasterxml.jackson.databind.node.ObjectNode scheduledJob(String status) {
    var job = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
    String id = java.util.UUID.randomUUID().toString();
    job.put("id", id);
    job.put("jobType", JobClient.JOB_TYPE);
    job.put("invokeType", "Scheduled");
    job.put("status", status);
    job.put("startTimeUtc", "2026-01-01T10:00:00");
    fabric.simulator.lakehouse(fabric.lakehouseId).jobs.put(id, job);
    return job;
  }

  /**
   * Ctrl-C in {@code mlv shell} interrupts the command's thread: the refresh is cancelled and
   * recorded Interrupted, and the command exits 130, the code Ctrl-C gives outside the shell.
   */
  @Test
  void aRefreshInterruptedInItsThreadExits130() throws Exception {
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    int submitted = fabric.simulator.jobsSubmitted.get();
    fabric.simulator.holdJobs = true;
    java.util.concurrent.atomic.AtomicReference<CliRun> ended =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread refresh = new Thread(() -> ended.set(mlv("refresh", "-t", "prod", "--full")));
    refresh.start();
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (fabric.simulator.jobsSubmitted.get() == submitted && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    Thread.sleep(200); // the job is being followed
    refresh.interrupt(); // what the shell's Ctrl-C handler does
    refresh.join(30_000);
    fabric.simulator.holdJobs = false;

    CliRun run = ended.get();
    assertThat(run).isNotNull();
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(dev.mlv.cli.ExitCodes.INTERRUPTED);
    assertThat(run.out()).as(run.toString()).contains("Interrupted");
  }

  /** A rename or drop under a running refresh job would pull the table from under its writer. */
  @Test
  void viewStatementsOfMlvSqlExit3WhileARefreshJobRunsOnTheLakehouse() {
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    var job = scheduledJob("InProgress");
    List<String> statements =
        List.of(
            "ALTER MATERIALIZED LAKE VIEW gold.by_customer RENAME TO gold.totals",
            "DROP MATERIALIZED LAKE VIEW gold.by_customer",
            "CREATE MATERIALIZED LAKE VIEW gold.extra AS SELECT 1 AS one",
            "REFRESH MATERIALIZED LAKE VIEW gold.by_customer FULL");
    for (String status : List.of("InProgress", "NotStarted")) {
      job.put("status", status);
      for (String statement : statements) {
        CliRun cli = mlv("sql", "-t", "prod", statement);
        assertThat(cli.exitCode())
            .as(cli.toString())
            .isEqualTo(dev.mlv.cli.ExitCodes.SKIPPED_CONCURRENT);
        assertThat(cli.err())
            .as(statement)
            .contains("error[LAKEHOUSE_BUSY]")
            .contains("refresh job " + job.path("id").asText() + " (Scheduled)")
            .contains("lakehouse " + SimulatedFabric.LAKEHOUSE)
            .contains("run it again when that run is over");
      }
    }
    for (String verb :
        List.of("ALTER MATERIALIZED", "DROP MATERIALIZED", "CREATE MATERIALIZED", "REFRESH")) {
      assertThat(fabric.simulator.timesRun(verb)).as(verb).isZero();
    }
    // Reading is no change: it runs while the job does.
    for (String read :
        List.of(
            "SHOW TABLES IN bronze",
            "SHOW MATERIALIZED LAKE VIEWS IN gold",
            "SHOW CREATE MATERIALIZED LAKE VIEW gold.by_customer")) {
      CliRun cli = mlv("sql", "-t", "prod", read);
      assertThat(cli.exitCode()).as(cli.toString()).isZero();
    }

    // Once the job is over, the same statement goes through.
    job.put("status", "Completed");
    CliRun drop = mlv("sql", "-t", "prod", "DROP MATERIALIZED LAKE VIEW gold.by_customer");
    assertThat(drop.exitCode()).as(drop.toString()).isZero();
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).mlvs).hasSize(1);
  }

  @Test
  void planWarnsWhenItDropsAViewTheProjectStillReads() throws IOException {
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    java.nio.file.Files.delete(dir.resolve("views/silver/orders_clean.sql"));

    CliRun plan = mlv("plan", "-t", "prod", "--prune");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.err())
        .contains(
            "warning: the plan drops silver.orders_clean, which gold.by_customer still reads;"
                + " it fails to refresh until its SQL names the view the project defines.");
    CliRun keep = mlv("plan", "-t", "prod");
    assertThat(keep.err()).doesNotContain("the plan drops");
  }

  @Test
  void planAndApplyWarnOfViewConfigKeyedByTheOldNameOfARenamedView() throws IOException {
    String auth = "    auth:\n      mode: token\n      token_env: " + TOKEN_ENV + "\n";
    fabric.write(
        "mlv.yml",
        fabric.config(auth) + "view_config:\n  gold.by_customer:\n    refresh_policy: full\n");
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    assertThat(apply.err()).doesNotContain("VIEW_CONFIG_UNKNOWN");
    Path old = dir.resolve("views/gold/by_customer.sql");
    Files.writeString(
        dir.resolve("views/gold/totals.sql"),
        Files.readString(old).replace("gold.by_customer", "gold.totals"));
    Files.delete(old);

    String warning =
        "warning[VIEW_CONFIG_UNKNOWN]: view_config names gold.by_customer, which no definition"
            + " in the project creates";
    CliRun plan = mlv("plan", "-t", "prod");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out()).contains("rename");
    assertThat(plan.err()).contains("mlv.yml:").contains(warning);
    CliRun renamed = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(renamed.exitCode()).as(renamed.toString()).isZero();
    assertThat(renamed.err()).contains(warning);
  }
}
