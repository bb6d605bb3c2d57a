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
