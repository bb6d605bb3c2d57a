package dev.mlv.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mlv.cli.CliRun;
import dev.mlv.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refresh past {@code defaults.refresh_timeout} stops the view that is running (its Spark jobs
 * are cancelled) and leaves its table at the previous version and content.
 */
class RunTimeoutTest {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void aViewStillRunningAtTheLimitIsCancelledAndItsTableLeftUnchanged() throws Exception {
    Path p = tmp.resolve("slow");
    Files.createDirectories(p.resolve("views/gold"));
    String yml =
        "name: slow\nworkspace: slow_ws\nlakehouse: slow_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.seq\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n"
            // Spark cancels a running task at the checks that code generation puts into its
            // loops; the test JVM's Spark runs without code generation (pom.xml), a real run with.
            + "    conf: {spark.sql.codegen.wholeStage: \"true\","
            + " spark.sql.codegen.factoryMode: \"FALLBACK\"}\n";
    Files.writeString(p.resolve("mlv.yml"), yml);
    // Cheap over 10 rows, hours over 10,000: a 3-way cross join of bronze.seq with itself.
    Files.writeString(
        p.resolve("views/gold/slow.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.slow AS SELECT COUNT(*) AS n FROM bronze.seq a\n"
            + "CROSS JOIN bronze.seq b CROSS JOIN bronze.seq c WHERE a.id + b.id + c.id >= 0\n");
    // Downstream of the view the limit stops, and beside it (started after it: --parallelism 1).
    Files.writeString(
        p.resolve("views/gold/after.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.after AS SELECT n FROM gold.slow\n");
    Files.writeString(
        p.resolve("views/gold/zz_beside.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.zz_beside AS SELECT COUNT(*) AS n FROM bronze.seq\n");
    ok(p, "sql", "CREATE SCHEMA IF NOT EXISTS bronze");
    ok(p, "sql", "CREATE TABLE bronze.seq (id BIGINT) USING delta");
    ok(p, "sql", "INSERT INTO bronze.seq SELECT id FROM range(10)");
    ok(p, "apply", "--auto-approve", "--quiet");
    Path table = p.resolve(".mlv/warehouse/slow_lh.Lakehouse/Tables/gold/slow/_delta_log");
    long commits = commits(table);
    ok(p, "sql", "INSERT INTO bronze.seq SELECT id FROM range(10, 10000)");
    Files.writeString(p.resolve("mlv.yml"), yml + "defaults:\n  refresh_timeout: 4s\n");

    long t0 = System.nanoTime();
    CliRun r = mlv(p, "refresh", "--format", "json", "--quiet", "--parallelism", "1");
    long seconds = (System.nanoTime() - t0) / 1_000_000_000;

    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .containsPattern("\"status\"\\s*:\\s*\"Failed\"")
        .contains("RUN_TIMEOUT")
        .contains("cancelled")
        // The limit as mlv.yml has it, not Duration's PT4S.
        .contains("time limit of 4s ");
    JsonNode views = new ObjectMapper().readTree(r.out()).path("views");
    assertThat(view(views, "gold.after").path("status").asText()).isEqualTo("Skipped");
    assertThat(view(views, "gold.after").path("reason").asText())
        .isEqualTo("UPSTREAM_FAILED: upstream gold.slow failed");
    assertThat(view(views, "gold.zz_beside").path("status").asText()).isEqualTo("Failed");
    assertThat(view(views, "gold.zz_beside").path("reason").asText()).isEqualTo("RUN_TIMEOUT");
    assertThat(seconds).as("the refresh stopped soon after its limit").isLessThan(60);
    assertThat(commits(table)).isEqualTo(commits);
    CliRun n = ok(p, "sql", "SELECT n FROM gold.slow", "--format", "csv");
    assertThat(n.out()).isEqualTo("n\n1000\n");
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aFileViewStillIngestingAtTheLimitIsCancelledAndItsFilesNotRecorded() throws Exception {
    Path p = tmp.resolve("slowfiles");
    Files.createDirectories(p.resolve("views/bronze"));
    Files.createDirectories(p.resolve("landing/raw"));
    String yml =
        "name: slowfiles\nworkspace: sf_ws\nlakehouse: sf_lh\nschema: dbo\nviews: [views]\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n";
    Files.writeString(p.resolve("mlv.yml"), yml);
    Files.writeString(
        p.resolve("views/bronze/raw.sql"),
        "CREATE MATERIALIZED LAKE VIEW bronze.raw USING OneLake_Files\n"
            + "OPTIONS ('format' = 'csv', 'path' = 'landing/raw', 'header' = 'true')\n"
            + "TBLPROPERTIES ('refresh_mode' = 'APPEND_ONLY')\n");
    Files.writeString(p.resolve("landing/raw/a.csv"), "id,name\n1,ann\n");
    ok(p, "apply", "--auto-approve", "--quiet");
    Path table = p.resolve(".mlv/warehouse/sf_lh.Lakehouse/Tables/bronze/raw/_delta_log");
    long commits = commits(table);
    // Spark's task takes two minutes to open this file, unless it is cancelled (interrupted).
    Files.writeString(p.resolve("landing/raw/b_slow.csv"), "id,name\n2,bob\n");
    Files.writeString(
        p.resolve("mlv.yml"),
        yml
            + "    conf: {fs.file.impl: "
            + SlowReadFileSystem.class.getName()
            + ", fs.file.impl.disable.cache: \"true\"}\n"
            + "defaults:\n  refresh_timeout: 4s\n");

    long t0 = System.nanoTime();
    CliRun r = mlv(p, "refresh", "--full", "--format", "json", "--quiet");
    long seconds = (System.nanoTime() - t0) / 1_000_000_000;

    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    JsonNode raw = view(new ObjectMapper().readTree(r.out()).path("views"), "bronze.raw");
    assertThat(raw.path("status").asText()).as(r.out()).isEqualTo("Failed");
    assertThat(raw.path("reason").asText()).isEqualTo("RUN_TIMEOUT");
    assertThat(raw.path("error").asText())
        .contains("time limit of 4s ")
        .contains("table left at its previous version");
    assertThat(seconds).as("the refresh stopped soon after its limit").isLessThan(60);
    assertThat(commits(table)).isEqualTo(commits);

    // Nothing of the stopped run was recorded: the next refresh finds b_slow.csv new.
    Files.writeString(p.resolve("mlv.yml"), yml);
    CliRun n = ok(p, "sql", "SELECT id, name FROM bronze.raw", "--format", "csv");
    assertThat(n.out()).isEqualTo("id,name\n1,ann\n");
    CliRun next = ok(p, "refresh", "--format", "json", "--quiet");
    JsonNode again = view(new ObjectMapper().readTree(next.out()).path("views"), "bronze.raw");
    assertThat(again.path("status").asText()).as(next.out()).isEqualTo("Completed");
    assertThat(again.path("reason").asText()).as(next.out()).startsWith("NEW_FILES");
    CliRun both = ok(p, "sql", "SELECT id, name FROM bronze.raw ORDER BY id", "--format", "csv");
    assertThat(both.out()).isEqualTo("id,name\n1,ann\n2,bob\n");
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aFileViewsFirstIngestionStoppedAtTheLimitLeavesNoTableBehind() throws Exception {
    Path p = tmp.resolve("slowfirst");
    Files.createDirectories(p.resolve("views/bronze"));
    Files.createDirectories(p.resolve("landing/raw"));
    String yml =
        "name: slowfirst\nworkspace: sf_ws\nlakehouse: sf_lh\nschema: dbo\nviews: [views]\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n";
    Files.writeString(
        p.resolve("views/bronze/raw.sql"),
        "CREATE MATERIALIZED LAKE VIEW bronze.raw USING OneLake_Files\n"
            + "OPTIONS ('format' = 'csv', 'path' = 'landing/raw', 'header' = 'true')\n");
    // a.csv is written by its task at once; b_slow.csv's task waits two minutes to open it.
    Files.writeString(p.resolve("landing/raw/a.csv"), "id,name\n1,ann\n");
    Files.writeString(p.resolve("landing/raw/b_slow.csv"), "id,name\n2,bob\n");
    Files.writeString(p.resolve("mlv.yml"), yml);
    // Spark started before the run, so the run's 4 seconds go to the ingestion.
    ok(p, "sql", "SELECT 1");
    Files.writeString(
        p.resolve("mlv.yml"),
        yml
            + "    conf: {fs.file.impl: "
            + SlowReadFileSystem.class.getName()
            + ", fs.file.impl.disable.cache: \"true\"}\n"
            + "defaults:\n  refresh_timeout: 4s\n");

    CliRun r = mlv(p, "apply", "--auto-approve", "--format", "json", "--quiet");

    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    JsonNode raw = view(new ObjectMapper().readTree(r.out()).path("views"), "bronze.raw");
    assertThat(raw.path("reason").asText()).as(r.out()).isEqualTo("RUN_TIMEOUT");
    // The rows a.csv's task wrote are not left in a folder that holds no table.
    assertThat(p.resolve(".mlv/warehouse/sf_lh.Lakehouse/Tables/bronze/raw")).doesNotExist();

    Files.writeString(p.resolve("mlv.yml"), yml);
    ok(p, "apply", "--auto-approve", "--quiet");
    CliRun both = ok(p, "sql", "SELECT id, name FROM bronze.raw ORDER BY id", "--format", "csv");
    assertThat(both.out()).isEqualTo("id,name\n1,ann\n2,bob\n");
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aFileViewsFirstIngestionThatFailsLeavesNoTableBehind() throws Exception {
    Path p = tmp.resolve("brokenfirst");
    Files.createDirectories(p.resolve("views/bronze"));
    Files.createDirectories(p.resolve("landing/raw"));
    String yml =
        "name: brokenfirst\nworkspace: bf_ws\nlakehouse: bf_lh\nschema: dbo\nviews: [views]\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n";
    Files.writeString(
        p.resolve("views/bronze/raw.sql"),
        "CREATE MATERIALIZED LAKE VIEW bronze.raw USING OneLake_Files\n"
            + "OPTIONS ('format' = 'csv', 'path' = 'landing/raw', 'header' = 'true')\n");
    // a.csv is written by its task at once; b_broken.csv's task fails to read it 3 s later.
    Files.writeString(p.resolve("landing/raw/a.csv"), "id,name\n1,ann\n");
    Files.writeString(p.resolve("landing/raw/b_broken.csv"), "id,name\n2,bob\n");
    Files.writeString(
        p.resolve("mlv.yml"),
        yml
            + "    conf: {fs.file.impl: "
            + BrokenReadFileSystem.class.getName()
            + ", fs.file.impl.disable.cache: \"true\"}\n");

    CliRun r = mlv(p, "apply", "--auto-approve", "--format", "json", "--quiet");

    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    JsonNode raw = view(new ObjectMapper().readTree(r.out()).path("views"), "bronze.raw");
    assertThat(raw.path("status").asText()).as(r.out()).isEqualTo("Failed");
    assertThat(raw.path("error").asText()).contains("b_broken.csv").contains("was not created");
    // The rows a.csv's task wrote are not left in a folder that holds no table.
    assertThat(p.resolve(".mlv/warehouse/bf_lh.Lakehouse/Tables/bronze/raw")).doesNotExist();
  }

  private static JsonNode view(JsonNode views, String name) {
    for (JsonNode v : views) {
      if (v.path("id").asText().endsWith("." + name)) {
        return v;
      }
    }
    throw new AssertionError("no view " + name + " in " + views);
  }

  private static long commits(Path log) throws Exception {
    try (var s = Files.list(log)) {
      return s.filter(f -> f.getFileName().toString().matches("\\d{20}\\.json")).count();
    }
  }

  private static CliRun mlv(Path p, String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "-p";
    all[args.length + 1] = p.toString();
    return CliRun.of(all);
  }

  private static CliRun ok(Path p, String... args) {
    CliRun r = mlv(p, args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }
}
