package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An ON MISMATCH FAIL rule broken by appended rows names them as mlv sql shows values. */
class FailRuleRowsTest {
  @TempDir Path dir;

  private CliRun ok(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "-p";
    all[args.length + 1] = dir.toString();
    CliRun r = CliRun.of(all);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  @Test
  void anIncrementalRefreshBrokenByANewRowShowsItsValues() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: ff\nworkspace: ff_ws\nlakehouse: ff_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.t\n"
            + "targets:\n  local: {type: spark, warehouse: .mlv/warehouse, master: \"local[2]\"}\n");
    Files.writeString(
        dir.resolve("views/f.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.f (CONSTRAINT ok CHECK (id <> 99) ON MISMATCH FAIL)"
            + " AS SELECT id, b, arr FROM bronze.t\n");
    ok("sql", "CREATE SCHEMA IF NOT EXISTS bronze");
    ok("sql", "CREATE TABLE bronze.t (id INT, b BINARY, arr ARRAY<STRING>) USING delta");
    ok("sql", "INSERT INTO bronze.t SELECT id, X'00', array('a') FROM range(1000, 3000)");
    ok("apply", "--auto-approve", "--quiet");
    ok("sql", "INSERT INTO bronze.t SELECT 99, X'CAFE00', array('a', NULL)");

    CliRun r = CliRun.of("refresh", "-p", dir.toString(), "--quiet");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("incremental ONLY_APPENDS")
        .contains("is not met by row id=99, b=[CA FE 00], arr=[a, NULL]");
    // The history counts the new rows that broke the rule, not the 2,000 read before.
    assertThat(lastRunViews().get(0).path("violations").toString()).isEqualTo("{\"ok\":1}");
  }

  /**
   * A refresh that a FAIL rule stopped records how many rows broke it, in the history, the report
   * and the JUnit report, as a completed refresh records its 0 (found by QA: the failed run's
   * violations were empty and the report counted 0 for it).
   */
  @Test
  void aRefreshFailedByAFailRuleRecordsTheRowsThatBrokeIt() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: fc\nworkspace: fc_ws\nlakehouse: fc_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.readings\n"
            + "targets:\n  local: {type: spark, warehouse: .mlv/warehouse, master: \"local[2]\"}\n");
    Files.writeString(
        dir.resolve("views/devices.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.devices\n"
            + "(CONSTRAINT device_key CHECK (device_id IS NOT NULL) ON MISMATCH FAIL,\n"
            + " CONSTRAINT positive CHECK (reading > 0) ON MISMATCH DROP)\n"
            + "AS SELECT device_id, reading FROM bronze.readings\n");
    ok("sql", "CREATE SCHEMA IF NOT EXISTS bronze");
    ok("sql", "CREATE TABLE bronze.readings (device_id STRING, reading INT) USING delta");
    ok("sql", "INSERT INTO bronze.readings VALUES ('d1', 1), ('d2', -2)");
    ok("apply", "--auto-approve", "--quiet");
    assertThat(lastRunViews().get(0).path("violations").toString())
        .isEqualTo("{\"device_key\":0,\"positive\":1}");
    ok("sql", "INSERT INTO bronze.readings VALUES (NULL, 3), (NULL, -4), ('d5', 5)");

    CliRun junit = CliRun.of("refresh", "--full", "--format", "junit", "-p", dir.toString());
    assertThat(junit.exitCode()).as(junit.toString()).isEqualTo(ExitCodes.ERROR);
    String rule = junit.out().substring(junit.out().indexOf("name=\"constraint device_key\""));
    assertThat(rule.substring(0, rule.indexOf("</testcase>")))
        .contains("<failure type=\"CONSTRAINT_FAILED\"")
        .contains("is not met by rows (first 2): device_id=NULL")
        .contains("<system-out>2 violations</system-out>");

    // Both NULL rows broke the FAIL rule; nothing was dropped, so the DROP rule has no count.
    JsonNode failed = lastRunViews().get(0);
    assertThat(failed.path("status").asText()).isEqualTo("Failed");
    assertThat(failed.path("rowsDropped").asLong()).isZero();
    assertThat(failed.path("violations").toString()).isEqualTo("{\"device_key\":2}");

    CliRun report = CliRun.of("report", "-o", "-", "-p", dir.toString());
    assertThat(report.exitCode()).as(report.toString()).isZero();
    assertThat(report.out())
        .contains("<td>device_key</td><td class=\"n\">2</td><td class=\"n\">1</td>")
        .contains("<div class=\"card\" id=\"kpi-violations\"><div class=\"v\">3</div>");
  }

  /** The views of the newest run, as {@code mlv runs RUN_ID --format json} reads them back. */
  private JsonNode lastRunViews() throws IOException {
    ObjectMapper json = new ObjectMapper();
    String id =
        json.readTree(ok("runs", "--limit", "1", "--format", "json").out())
            .path("runs")
            .get(0)
            .path("run")
            .path("id")
            .asText();
    return json.readTree(ok("runs", id, "--format", "json").out()).path("views");
  }
}
