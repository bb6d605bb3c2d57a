package dev.mlv.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mlv.cli.CliRun;
import dev.mlv.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C: a real SIGINT to a {@code mlv refresh} in its own JVM while a view is being written. The
 * run stops with exit code 130, says where it stopped, keeps the view it finished, leaves the view
 * being written at its previous version, starts nothing after it, and is on record as {@code
 * Interrupted}; the next refresh is not blocked. In {@code mlv shell} with piped input the same
 * SIGINT stops only the command, and the shell reads on.
 */
class InterruptTest {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void ctrlCStopsTheRunKeepsFinishedViewsAndLeavesTheRunningOneAsItWas() throws Exception {
    Path p = tmp.resolve("intr");
    Files.createDirectories(p.resolve("views/silver"));
    Files.createDirectories(p.resolve("views/gold"));
    Files.writeString(
        p.resolve("mlv.yml"),
        "name: intr\nworkspace: intr_ws\nlakehouse: intr_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.seq\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n"
            + "    conf: {spark.sql.codegen.wholeStage: \"true\","
            + " spark.sql.codegen.factoryMode: \"FALLBACK\"}\n"
            + "defaults:\n  parallelism: 1\n");
    Files.writeString(
        p.resolve("views/silver/ids.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.ids AS SELECT id FROM bronze.seq\n");
    // Cheap over 10 rows, hours over 3,000: a 3-way cross join.
    Files.writeString(
        p.resolve("views/gold/slow.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.slow AS SELECT COUNT(*) AS n FROM silver.ids a\n"
            + "CROSS JOIN silver.ids b CROSS JOIN silver.ids c WHERE a.id + b.id + c.id >= 0\n");
    Files.writeString(
        p.resolve("views/gold/after.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.after AS SELECT n * 2 AS n2 FROM gold.slow\n");
    ok(p, "sql", "CREATE SCHEMA IF NOT EXISTS bronze");
    ok(p, "sql", "CREATE TABLE bronze.seq (id BIGINT) USING delta");
    ok(p, "sql", "INSERT INTO bronze.seq SELECT id FROM range(10)");
    ok(p, "apply", "--auto-approve", "--quiet");
    Path tables = p.resolve(".mlv/warehouse/intr_lh.Lakehouse/Tables");
    long slowCommits = commits(tables.resolve("gold/slow/_delta_log"));
    long afterCommits = commits(tables.resolve("gold/after/_delta_log"));
    ok(p, "sql", "INSERT INTO bronze.seq SELECT id FROM range(10, 3000)");

    String runId;
    try (ChildMlv child = ChildMlv.start("1g", p, "refresh", "-p", p.toString())) {
      // started silver.ids, completed silver.ids, started gold.slow
      assertThat(child.awaitProgress(3, 180_000)).as(child.err()).isTrue();
      Thread.sleep(1500);
      assertThat(child.isAlive()).as("gold.slow is still running: " + child.err()).isTrue();
      Process kill =
          new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).inheritIO().start();
      assertThat(kill.waitFor()).isZero();
      int code = child.waitFor(120_000);
      String err = child.err();
      assertThat(code).as(err).isEqualTo(ExitCodes.INTERRUPTED);
      assertThat(err).contains("mlv: interrupted; run ").contains("stopped after 1 of 3 views");
      // The record is kept before the JVM ends: 'mlv runs' lists it at once, as the line says
      // (found by QA: it said the next run would record it).
      assertThat(err)
          .contains("the run is recorded as Interrupted")
          .doesNotContain("the next run records");
      runId = err.replaceAll("(?s).*mlv: interrupted; run (\\S+) stopped.*", "$1");
      assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
    }

    // The finished view kept its new rows; the running one and the one after it are unchanged.
    assertThat(commits(tables.resolve("gold/slow/_delta_log"))).isEqualTo(slowCommits);
    assertThat(commits(tables.resolve("gold/after/_delta_log"))).isEqualTo(afterCommits);
    assertThat(ok(p, "sql", "SELECT COUNT(*) AS c FROM silver.ids", "--format", "csv").out())
        .isEqualTo("c\n3000\n");
    assertThat(ok(p, "sql", "SELECT n FROM gold.slow", "--format", "csv").out())
        .isEqualTo("n\n1000\n");

    // On record as Interrupted, each view as it ended.
    JsonNode run = interruptedRun(p, runId);
    Map<String, String> views = new HashMap<>();
    for (JsonNode v : run.path("views")) {
      views.put(
          v.path("id").asText().replace("intr_ws.intr_lh.", ""),
          v.path("status").asText() + " " + v.path("reason") + " " + v.path("error"));
    }
    assertThat(views.get("silver.ids")).as(run.toString()).startsWith("Completed");
    assertThat(views.get("gold.slow"))
        .as(run.toString())
        .startsWith("Failed")
        .contains("INTERRUPTED");
    // Not run because of the interruption, not because its upstream "failed" (found by QA).
    assertThat(views.get("gold.after"))
        .as(run.toString())
        .startsWith("Skipped")
        .contains("INTERRUPTED: the run was interrupted before it started");

    // Nothing blocks the next run, which finishes the job once the data is small again.
    ok(p, "sql", "DELETE FROM bronze.seq WHERE id >= 20");
    ok(p, "refresh", "--quiet");
    assertThat(ok(p, "sql", "SELECT n2 FROM gold.after", "--format", "csv").out())
        .isEqualTo("n2\n16000\n");
  }

  /**
   * QA piped a refresh into {@code mlv shell} and sent SIGINT: the JVM ended (exit 130) instead of
   * the shell reading its next line, and the run's record sometimes held only one view.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void ctrlCInAPipedShellStopsTheRunRecordsEveryViewAndTheShellReadsOn() throws Exception {
    Path p = tmp.resolve("shintr");
    Files.createDirectories(p.resolve("views/gold"));
    Files.writeString(
        p.resolve("mlv.yml"),
        "name: shintr\nworkspace: intr_ws\nlakehouse: intr_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.seq\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n"
            + "defaults:\n  parallelism: 2\n");
    // Two views that take hours over 3,000 rows run side by side; one view below each.
    for (String n : List.of("1", "2")) {
      Files.writeString(
          p.resolve("views/gold/slow" + n + ".sql"),
          "CREATE MATERIALIZED LAKE VIEW gold.slow"
              + n
              + " AS SELECT COUNT(*) AS n FROM bronze.seq a\n"
              + "CROSS JOIN bronze.seq b CROSS JOIN bronze.seq c WHERE a.id + b.id + c.id >= 0\n");
      Files.writeString(
          p.resolve("views/gold/after" + n + ".sql"),
          "CREATE MATERIALIZED LAKE VIEW gold.after"
              + n
              + " AS SELECT n FROM gold.slow"
              + n
              + "\n");
    }
    ok(p, "sql", "CREATE SCHEMA IF NOT EXISTS bronze");
    ok(p, "sql", "CREATE TABLE bronze.seq (id BIGINT) USING delta");
    ok(p, "sql", "INSERT INTO bronze.seq SELECT id FROM range(10)");
    ok(p, "apply", "--auto-approve", "--quiet");
    ok(p, "sql", "INSERT INTO bronze.seq SELECT id FROM range(10, 3000)");

    String runId;
    try (ChildMlv child = ChildMlv.start("1g", p, "shell", "-p", p.toString())) {
      child.send("refresh --no-progress\n");
      assertThat(child.awaitOut("started   gold.slow", 2, 180_000)).as(child.out()).isTrue();
      Thread.sleep(1500);
      Process kill =
          new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).inheritIO().start();
      assertThat(kill.waitFor()).isZero();
      // Read once the refresh has returned: the shell is still there to run them.
      child.send("runs --limit 1\nexit\n");
      int code = child.waitFor(120_000);
      String out = child.out();
      // The shell's code is its first failure's: the interrupted refresh.
      assertThat(code).as(out + child.err()).isEqualTo(ExitCodes.INTERRUPTED);
      assertThat(out).contains("stopped after 0 of 4 views").contains("(exit code 130)");
      assertThat(out).containsPattern("(?m)^(mlv> )?RUN\\s+STATUS");
      runId = out.replaceAll("(?s).*mlv: interrupted; run (\\S+) stopped.*", "$1");
      assertThat(out).containsPattern("(?m)^(mlv> )?" + runId + "\\s+Interrupted\\s");
    }

    // Every view is on record, as a refresh outside the shell records them.
    JsonNode run = interruptedRun(p, runId);
    Map<String, String> views = new HashMap<>();
    for (JsonNode v : run.path("views")) {
      views.put(
          v.path("id").asText().replace("intr_ws.intr_lh.", ""),
          v.path("status").asText() + " " + v.path("reason"));
    }
    assertThat(views).as(run.toString()).hasSize(4);
    for (String n : List.of("1", "2")) {
      assertThat(views.get("gold.slow" + n))
          .as(run.toString())
          .startsWith("Failed")
          .contains("INTERRUPTED");
      assertThat(views.get("gold.after" + n))
          .as(run.toString())
          .startsWith("Skipped")
          .contains("INTERRUPTED: the run was interrupted before it started");
    }
  }

  /**
   * Found by QA: SIGINT during {@code mlv seed} exited 130 with the table intact, but said
   * error[SEED_FAILED] with Spark's "SparkContext was shut down". It says it was interrupted and
   * what the table was left as.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void ctrlCDuringASeedSaysSoAndLeavesTheTableAsItWas() throws Exception {
    Path p = tmp.resolve("seedintr");
    Files.createDirectories(p.resolve("views"));
    Files.createDirectories(p.resolve("seeds"));
    Files.writeString(
        p.resolve("mlv.yml"),
        "name: seedintr\nworkspace: intr_ws\nlakehouse: intr_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.orders\n    seed: seeds/orders.csv\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n");
    Path csv = p.resolve("seeds/orders.csv");
    Files.writeString(csv, "id,customer,amount\n1,c1,1.5\n");
    ok(p, "seed");
    Path log = p.resolve(".mlv/warehouse/intr_lh.Lakehouse/Tables/bronze/orders/_delta_log");
    long before = commits(log);
    // Seconds of Spark work: the SIGINT comes while it runs.
    try (var w = Files.newBufferedWriter(csv)) {
      w.write("id,customer,amount\n");
      for (int i = 0; i < 3_000_000; i++) {
        w.write(i + ",c" + (i % 1000) + "," + (i % 977) + ".5\n");
      }
    }
    try (ChildMlv child = ChildMlv.start("1g", p, "seed", "--debug", "-p", p.toString())) {
      long deadline = System.currentTimeMillis() + 180_000;
      while (!child.err().contains("Starting job: save at Seeder")
          && child.isAlive()
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
      assertThat(child.isAlive()).as(child.err()).isTrue();
      Process kill =
          new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).inheritIO().start();
      assertThat(kill.waitFor()).isZero();
      int code = child.waitFor(120_000);
      String err = child.err();
      assertThat(code).as(err).isEqualTo(ExitCodes.INTERRUPTED);
      assertThat(err)
          .contains(
              "mlv: interrupted; seed stopped while bronze.orders was being loaded; it was left"
                  + " as it was (version 0)")
          .doesNotContain("SEED_FAILED")
          .doesNotContain("error[");
      assertThat(child.out()).doesNotContain("seeded");
    }
    assertThat(commits(log)).isEqualTo(before);
    assertThat(ok(p, "sql", "SELECT COUNT(*) AS c FROM bronze.orders", "--format", "csv").out())
        .isEqualTo("c\n1\n");
  }

  private static long commits(Path log) throws Exception {
    try (var s = Files.list(log)) {
      return s.filter(f -> f.getFileName().toString().matches("\\d{20}\\.json")).count();
    }
  }

  private static CliRun ok(Path p, String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "-p";
    all[args.length + 1] = p.toString();
    CliRun r = CliRun.of(all);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  /** Run {@code runId} as {@code mlv runs} lists it, on record as Interrupted. */
  private static JsonNode interruptedRun(Path p, String runId) throws Exception {
    String listed = ok(p, "runs", "--format", "json").out();
    JsonNode run = null;
    for (JsonNode r : new ObjectMapper().readTree(listed).path("runs")) {
      if (r.path("run").path("id").asText().equals(runId)) {
        run = r;
      }
    }
    assertThat(run).as("run " + runId + " in mlv runs: " + listed).isNotNull();
    assertThat(run.path("run").path("status").asText()).isEqualTo("Interrupted");
    return run;
  }
}
