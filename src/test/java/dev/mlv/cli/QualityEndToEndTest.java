package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo medallion with quarantine and a quality gate on silver, through the CLI: the three bad
 * trials are kept with the rule each broke, the gate passes at its limit and trips below it, and
 * the report and JUnit XML carry the counts.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QualityEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path tmp;
  static Path project;

  @BeforeAll
  static void copyExample() throws IOException {
    Path src = Path.of("examples/medallion");
    project = tmp.resolve("medallion");
    try (Stream<Path> files = Files.walk(src)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.toString().contains(".mlv")) {
          continue;
        }
        Path t = project.resolve(src.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
    gate(3);
  }

  /** Silver keeps its dropped rows and may drop at most {@code max} rows. */
  private static void gate(int max) throws IOException {
    Path yml = project.resolve("mlv.yml");
    String text = Files.readString(yml);
    int at = text.indexOf("view_config:");
    Files.writeString(
        yml,
        text.substring(0, at)
            + "view_config:\n  silver.trials_clean:\n    tags: [quality]\n    quarantine: true\n"
            + "    max_dropped_rows: "
            + max
            + "\n");
  }

  private static CliRun mlv(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("-p", project.toString()));
    return CliRun.of(all.toArray(String[]::new));
  }

  @Test
  @Order(1)
  void quarantinedRowsAreTheInverseOfTheRules() throws IOException {
    assertThat(mlv("seed").exitCode()).isZero();
    CliRun apply = mlv("apply", "--auto-approve", "--quiet");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();

    CliRun q = mlv("quarantine", "silver.trials_clean", "--format", "json");
    assertThat(q.exitCode()).as(q.toString()).isZero();
    Map<String, String> broken = new TreeMap<>();
    for (JsonNode row : rows(q.out())) {
      // An array, as the table holds it: ["pct_valid"]
      assertThat(row.path("_mlv_constraints").isArray()).as(row.toString()).isTrue();
      broken.put(row.path("trial_id").asText(), row.path("_mlv_constraints").path(0).asText());
    }
    assertThat(broken)
        .isEqualTo(Map.of("T901", "pct_valid", "T902", "has_formula", "T903", "has_testers"));

    // The rows the rules drop, asked of bronze with the inverse of the rules.
    CliRun inverse =
        mlv(
            "sql",
            "SELECT trial_id FROM bronze.preference_trials WHERE NOT coalesce(first_choice_pct"
                + " BETWEEN 0 AND 100, false) OR formula_id IS NULL OR NOT coalesce(n_testers > 0,"
                + " false) ORDER BY trial_id",
            "--format",
            "csv");
    assertThat(inverse.out()).isEqualTo("trial_id\n" + String.join("\n", broken.keySet()) + "\n");
    // Spark's parse errors start with a line break; the message is still there.
    CliRun typo = mlv("sql", "SELEC 1");
    assertThat(typo.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(typo.err()).contains("<input>:1:1: ").contains("PARSE_SYNTAX_ERROR");

    // The quarantine table is bookkeeping: no plan change, no source in the lineage.
    CliRun plan = mlv("plan", "--detailed-exitcode");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(mlv("lineage").out()).doesNotContain("__quarantine");
  }

  @Test
  @Order(2)
  void aGateBelowTheDropsFailsTheRefreshWithExitCode4AndJunitXml() throws IOException {
    // At its limit the gate passes (QualityGatesTest); one row below the drops it trips.
    gate(2);
    CliRun over = mlv("refresh", "--full", "--quiet", "--format", "junit");
    assertThat(over.exitCode()).as(over.toString()).isEqualTo(ExitCodes.QUALITY_GATE);
    assertThat(over.err())
        .contains(
            "quality gate: silver.trials_clean dropped 3 rows, more than max_dropped_rows 2;"
                + " violations by constraint: has_formula 1, has_testers 1, pct_valid 1");
    assertThat(over.out())
        .startsWith("<?xml")
        .contains("<testcase classname=\"silver.trials_clean\" name=\"refresh\"")
        .contains("<failure type=\"QUALITY_GATE\"")
        .contains("<testcase classname=\"silver.trials_clean\" name=\"constraint has_testers\"")
        .contains("<testcase classname=\"gold.formula_preference\" name=\"refresh\"")
        .contains("failures=\"4\"");
    // The history says why that run exited 4: its data landed, over the gate.
    CliRun runs = mlv("runs", "--limit", "1");
    assertThat(runs.out())
        .as(runs.toString())
        .contains("Completed")
        .contains("1 over a quality gate");
    assertThat(runs.out()).startsWith("RUN                      STATUS       STARTED (UTC)");
    String row = runs.out().lines().skip(1).findFirst().orElseThrow();
    assertThat(row).matches("\\S+ +Completed +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  .*");
    String id = row.substring(0, row.indexOf(' '));
    assertThat(mlv("runs", id).out())
        .contains("quality gate: silver.trials_clean dropped 3 rows, more than max_dropped_rows 2");
  }

  @Test
  @Order(3)
  void theReportAndTheQuarantineCoverEveryRun() throws IOException {
    CliRun all = mlv("quarantine", "silver.trials_clean", "--format", "json");
    assertThat(rows(all.out())).hasSize(6);
    // The view's columns keep their types in JSON; the bookkeeping ones are text.
    assertThat(rows(all.out()).get(0).path("n_testers").isNumber()).as(all.out()).isTrue();
    assertThat(rows(all.out()).get(0).path("_mlv_run_id").isTextual()).isTrue();
    // Every bookkeeping column history.md lists, the view commit's version as a number.
    assertThat(rows(all.out()).get(0).path("_mlv_view_version").isIntegralNumber())
        .as(all.out())
        .isTrue();
    assertThat(JSON.readTree(all.out()).path("run").isNull()).isTrue();
    String lastRun = rows(all.out()).get(0).path("_mlv_run_id").asText();
    CliRun one = mlv("quarantine", "silver.trials_clean", "--run", lastRun, "--format", "json");
    assertThat(rows(one.out())).hasSize(3);
    assertThat(JSON.readTree(one.out()).path("run").asText()).isEqualTo(lastRun);
    // A mistyped run id is an error, not "no rows dropped in that run" (found by QA).
    CliRun unknown = mlv("quarantine", "silver.trials_clean", "--run", "nope-run");
    assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(unknown.err()).contains("error[RUN_UNKNOWN]: no run with id 'nope-run'");
    CliRun noRun = mlv("runs", "nope-run");
    assertThat(noRun.exitCode()).as(noRun.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(noRun.err())
        .contains("error[RUN_UNKNOWN]: no run with id 'nope-run' on target local")
        .contains("hint: 'mlv runs' lists the recent runs");

    Path html = tmp.resolve("out/report.html");
    // Like plan -o: a folder or a missing folder is refused before any work, never replaced.
    CliRun noFolder = mlv("report", "-o", html.toString());
    assertThat(noFolder.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(noFolder.err()).contains("folder " + tmp.resolve("out") + " does not exist");
    Files.createDirectories(html.getParent());
    CliRun folder = mlv("report", "-o", html.getParent().toString());
    assertThat(folder.err()).contains("is a folder; give the report a file name");
    assertThat(html.getParent()).isDirectory();
    CliRun r = mlv("report", "-o", html.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.err()).contains("2 runs, 6 rows dropped, 6 violations");
    assertThat(Files.readString(html))
        .contains("<div class=\"card\" id=\"kpi-runs\"><div class=\"v\">2</div>")
        .contains("<div class=\"card\" id=\"kpi-rows-written\"><div class=\"v\">26</div>")
        .contains("<div class=\"card\" id=\"kpi-rows-dropped\"><div class=\"v\">6</div>")
        .contains("<td>pct_valid</td><td class=\"n\">2</td>")
        .contains("<td>T901</td>")
        .contains("<svg class=\"lineage\"");
  }

  @Test
  @Order(4)
  void aRenamedViewTakesItsQuarantineWithIt() {
    CliRun rename =
        mlv("sql", "ALTER MATERIALIZED LAKE VIEW silver.trials_clean RENAME TO silver.trials_ok");
    assertThat(rename.exitCode()).as(rename.toString()).isZero();
    CliRun moved =
        mlv("sql", "SELECT count(*) AS n FROM silver.trials_ok__quarantine", "--format", "csv");
    assertThat(moved.out()).as(moved.toString()).isEqualTo("n\n6\n");
    CliRun back =
        mlv("sql", "ALTER MATERIALIZED LAKE VIEW silver.trials_ok RENAME TO silver.trials_clean");
    assertThat(back.exitCode()).as(back.toString()).isZero();
    assertThat(mlv("quarantine", "silver.trials_clean", "--format", "json").out()).contains("T901");
  }

  @Test
  @Order(5)
  void theRefreshThatApplyRunsHonoursTheGateToo() throws IOException {
    gate(2);
    Path sql = project.resolve("views/silver/trials_clean.sql");
    String before = Files.readString(sql);
    // A changed definition: apply replaces the view and refreshes it, dropping 3 rows.
    Files.writeString(sql, before.replace("AS SELECT trial_id,", "AS SELECT DISTINCT trial_id,"));
    try {
      CliRun apply = mlv("apply", "--auto-approve", "--quiet");
      assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(ExitCodes.QUALITY_GATE);
      assertThat(apply.err())
          .contains(
              "quality gate: silver.trials_clean dropped 3 rows, more than max_dropped_rows 2");
    } finally {
      Files.writeString(sql, before);
    }
  }

  private static List<JsonNode> rows(String json) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    JsonNode doc = JSON.readTree(json);
    // Versioned as every JSON output is (found by QA: a bare array).
    assertThat(doc.path("formatVersion").asInt()).as(json).isEqualTo(1);
    assertThat(doc.path("view").asText()).isEqualTo("silver.trials_clean");
    doc.path("rows").forEach(out::add);
    return out;
  }
}
