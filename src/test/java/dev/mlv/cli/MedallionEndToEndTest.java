package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed demo, end to end through the CLI on the embedded engine: 10 bronze trials with 3 bad
 * rows, silver drops 3 and writes 7, gold holds 6 rows with OB-104 leading at 68.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MedallionEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path tmp;
  static String project;

  @BeforeAll
  static void copyExample() throws IOException {
    Path src = Path.of("examples/medallion");
    Path dst = tmp.resolve("medallion");
    try (Stream<Path> files = Files.walk(src)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.toString().contains(".mlv")) {
          continue;
        }
        Path t = dst.resolve(src.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
    // Names are case-insensitive in Fabric; Spark matches catalog names as written, so a
    // mixed-case 4-part name proves the local engine registers the spellings it meets.
    Files.writeString(
        dst.resolve("views/gold/repeat_winners.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.repeat_winners AS\n"
            + "SELECT formula_id, trials FROM FabCon_Demo.LH_Oud_Mlv.gold.formula_preference"
            + " WHERE trials > 1");
    project = dst.toString();
  }

  private static CliRun mlv(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "-p";
    all[args.length + 1] = project;
    return CliRun.of(all);
  }

  @Test
  @Order(1)
  void planBeforeAnythingIsDeployedCreatesBothViewsWithoutSpark() {
    CliRun r = mlv("plan", "--detailed-exitcode", "-o", tmp.resolve("unseeded.json").toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CHANGES);
    assertThat(r.out())
        .contains("+ create   silver.trials_clean")
        .contains("+ create   gold.formula_preference")
        .contains("+ create   gold.repeat_winners")
        .contains("Plan: 3 to create");
    // Nothing is seeded yet: the plan says so before apply creates views it cannot fill.
    assertThat(r.err())
        .contains(
            "warning: bronze.preference_trials is not in the lakehouse; refreshing"
                + " silver.trials_clean will fail until it is. Load it with 'mlv seed'.")
        .contains("warning: bronze.formulas is not in the lakehouse");
  }

  @Test
  @Order(1)
  void applyAskingInJsonModeShowsThePlanAndTheQuestionOnStderr() {
    var stdin = System.in;
    System.setIn(new java.io.ByteArrayInputStream("no\n".getBytes()));
    CliRun r;
    try {
      r = mlv("apply", "--format", "json");
    } finally {
      System.setIn(stdin);
    }
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    // stdout stays one document, that of a failure; what a person reads goes to stderr.
    assertThat(r.out())
        .as(r.toString())
        .startsWith("{")
        .contains("\"status\" : \"Failed\"")
        .contains("APPLY_CANCELLED")
        .doesNotContain("+ create");
    assertThat(r.err())
        .contains("+ create   silver.trials_clean")
        .contains("Apply these changes? Only 'yes' is accepted: ")
        .contains("Apply cancelled.");
    assertThat(r.err().indexOf("+ create")).isLessThan(r.err().indexOf("Apply these changes?"));
  }

  @Test
  @Order(2)
  void refreshBeforeApplySaysWhatToDo() {
    CliRun r = mlv("refresh", "--quiet");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out()).contains("is not deployed; run 'mlv apply' first");
  }

  @Test
  @Order(3)
  void seedApplyAndTheNumbersOfTheDemo() throws IOException {
    CliRun seed = mlv("seed");
    assertThat(seed.exitCode()).as(seed.toString()).isZero();
    assertThat(seed.out()).contains("bronze.preference_trials").contains("10 rows");
    // The plan made before the seed would not turn change data feed on: it is stale.
    CliRun unseeded = mlv("apply", tmp.resolve("unseeded.json").toString(), "--auto-approve");
    assertThat(unseeded.exitCode()).as(unseeded.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(unseeded.err()).contains("error[PLAN_STALE]: the deployed views or tables changed");

    CliRun plan = mlv("plan", "-o", tmp.resolve("plan.json").toString());
    assertThat(plan.out()).contains("set CDF  bronze.preference_trials");
    assertThat(plan.err()).doesNotContain("warning");
    CliRun apply = mlv("apply", tmp.resolve("plan.json").toString(), "--format", "json", "--quiet");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    JsonNode run = JSON.readTree(apply.out());
    assertThat(run.path("formatVersion").asInt()).isEqualTo(1);
    assertThat(run.path("run").path("status").asText()).isEqualTo("Completed");
    JsonNode silver = run.path("views").get(0);
    assertThat(silver.path("id").asText()).isEqualTo("fabcon_demo.lh_oud_mlv.silver.trials_clean");
    assertThat(silver.path("rowsWritten").asLong()).isEqualTo(7);
    assertThat(silver.path("rowsDropped").asLong()).isEqualTo(3);
    assertThat(silver.path("violations").toString())
        .isEqualTo("{\"pct_valid\":1,\"has_formula\":1,\"has_testers\":1}");
    JsonNode gold = run.path("views").get(1);
    assertThat(gold.path("rowsWritten").asLong()).isEqualTo(6);
    JsonNode winners = view(run, "fabcon_demo.lh_oud_mlv.gold.repeat_winners");
    assertThat(winners.path("rowsWritten").asLong()).as(apply.out()).isEqualTo(1);
    // The example's PySpark view is downstream of gold; the local target does not run it, so
    // apply (whose plan lists it as not deployed here) does not refresh it.
    assertThat(apply.out()).doesNotContain("gold.formula_ranking");
    // Applied again: nothing to do, and stdout is still one JSON document (the empty plan).
    CliRun again = mlv("apply", "--auto-approve", "--format", "json");
    assertThat(again.exitCode()).as(again.toString()).isZero();
    JsonNode nothing = JSON.readTree(again.out());
    assertThat(nothing.path("changes").isArray()).as(again.out()).isTrue();
    assertThat(nothing.path("summary").path("create").asInt()).isZero();
    assertThat(nothing.path("summary").path("replace").asInt()).isZero();

    CliRun top =
        mlv(
            "sql",
            "SELECT formula_id, avg_first_choice_pct FROM gold.formula_preference"
                + " ORDER BY avg_first_choice_pct DESC LIMIT 1",
            "--format",
            "csv");
    assertThat(top.out()).isEqualTo("formula_id,avg_first_choice_pct\nOB-104,68.0\n");
  }

  @Test
  @Order(4)
  void aStalePlanIsRefused() throws IOException {
    CliRun r = mlv("apply", tmp.resolve("plan.json").toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("the deployed views or tables changed since");
    // A plan of another project is refused for that reason, not for a change in the lakehouse.
    Path other = tmp.resolve("other-plan.json");
    Files.writeString(
        other,
        Files.readString(tmp.resolve("plan.json"))
            .replace("\"project\" : \"medallion\"", "\"project\" : \"sales\""));
    CliRun foreign = mlv("apply", other.toString(), "--auto-approve");
    assertThat(foreign.exitCode()).as(foreign.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(foreign.err())
        .contains("other-plan.json was made for project 'sales', not 'medallion'")
        .doesNotContain("changed since");
  }

  @Test
  @Order(5)
  void nothingChangedMeansEverythingIsSkippedAndThePlanIsEmpty() {
    CliRun plan = mlv("plan", "--detailed-exitcode");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out()).contains("No changes.");
    CliRun r = mlv("refresh", "--format", "json", "--quiet");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("\"strategy\" : \"skip\"")
        .doesNotContain("\"strategy\" : \"full\"");
    // A run that needed no Spark is parked: mlv runs reads it back with the same times.
    sameRunInTheHistory(r);
  }

  /**
   * The run a refresh printed is the run {@code mlv runs ID} prints, to the microsecond (found by
   * QA: nanoseconds in the run's own JSON and in a parked record, microseconds once read back from
   * the history table).
   */
  private static void sameRunInTheHistory(CliRun refresh) {
    try {
      JsonNode own = JSON.readTree(refresh.out()).path("run");
      CliRun runs = mlv("runs", own.path("id").asText(), "--format", "json");
      assertThat(runs.exitCode()).as(runs.toString()).isZero();
      assertThat(JSON.readTree(runs.out()).path("run")).isEqualTo(own);
      assertThat(own.path("startedAt").asText()).matches(".*T[0-9:]+(\\.\\d{1,6})?Z");
      assertThat(own.path("endedAt").asText()).matches(".*T[0-9:]+(\\.\\d{1,6})?Z");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  @Order(5)
  void aColumnAnUpstreamViewNoLongerProducesIsRefusedBeforeAnythingIsReplaced() throws IOException {
    // Until validate knew it, apply replaced gold.formula_preference first and then failed on
    // gold.repeat_winners, which reads its column trials.
    Path upstream = Path.of(project, "views/gold/formula_preference.sql");
    String deployed = Files.readString(upstream);
    Files.writeString(upstream, deployed.replace("COUNT(*) AS trials", "COUNT(*) AS n_trials"));
    try {
      CliRun apply = mlv("apply", "--auto-approve");
      assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(apply.out()).as(apply.toString()).isEmpty();
      Golden.assertMatches("apply-unresolved-column.txt", apply.err());
    } finally {
      Files.writeString(upstream, deployed);
    }
    // The deployed views are still those of the files as they were: nothing to apply.
    CliRun plan = mlv("plan", "--detailed-exitcode");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out()).contains("No changes.");
  }

  @Test
  @Order(6)
  void newBronzeRowsRefreshSilverAndGoldInOrder() {
    CliRun ins =
        mlv(
            "sql",
            "INSERT INTO bronze.preference_trials VALUES ('T008', 'OB-105', 'rural', 20, 95.5,"
                + " DATE'2026-09-09')");
    assertThat(ins.exitCode()).as(ins.toString()).isZero();
    CliRun r = mlv("refresh", "--format", "json", "--quiet");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    // gold averages over an unpartitioned source, so it is rebuilt; silver reads only appends.
    assertThat(r.out()).contains("AGG_NEEDS_PARTITIONED_SOURCE fn=AVG");
    // A refresh of everything lists the PySpark view, skipped, saying why.
    assertThat(r.out()).contains("PYSPARK_NOT_RUN_LOCALLY");
    CliRun count = mlv("sql", "SELECT COUNT(*) AS n FROM silver.trials_clean", "--format", "csv");
    assertThat(count.out()).isEqualTo("n\n8\n");
    // A statement that fails after one that ran: the JSON keeps the run's shape with the result
    // before it, as the table prints it, and the error is on stderr (found by QA: the first
    // result was dropped for the failure document).
    CliRun partly =
        mlv(
            "sql",
            "SELECT 1 AS a; SELECT nosuchcol FROM silver.trials_clean; SELECT 2 AS z",
            "--format",
            "json");
    assertThat(partly.exitCode()).as(partly.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(partly.out()).isEqualTo("[ [ {\n  \"a\" : 1\n} ] ]\n");
    assertThat(partly.err()).contains("error[SQL_FAILED]").contains("nosuchcol");
    CliRun runs = mlv("runs", "--format", "json");
    assertThat(runs.exitCode()).as(runs.toString()).isZero();
    assertThat(runs.out()).contains("\"status\" : \"Completed\"");
    sameRunInTheHistory(r);
  }

  @Test
  @Order(6)
  void theHistoryStaysReadableWhileAViewFileIsBroken() throws IOException {
    Path broken = Path.of(project, "views/gold/broken.sql");
    Files.writeString(broken, "CREATE MATERIALIZED LAKE VIEW gold.broken AS SELECT a,, b FROM t\n");
    try {
      CliRun runs = mlv("runs");
      assertThat(runs.exitCode()).as(runs.toString()).isZero();
      assertThat(runs.out()).contains("Completed");
      CliRun quarantine = mlv("quarantine", "silver.trials_clean");
      assertThat(quarantine.exitCode()).as(quarantine.toString()).isZero();
      assertThat(mlv("validate").exitCode()).isEqualTo(ExitCodes.ERROR);
    } finally {
      Files.delete(broken);
    }
  }

  @Test
  @Order(7)
  void dmlIntoAViewIsRefusedAndManagementStatementsWork() {
    CliRun dml = mlv("sql", "DELETE FROM silver.trials_clean WHERE n_testers > 0");
    assertThat(dml.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(dml.err())
        .contains("cannot write to the materialized lake view silver.trials_clean");
    CliRun show = mlv("sql", "SHOW MATERIALIZED LAKE VIEWS IN silver", "--format", "csv");
    assertThat(show.out()).contains("silver,trials_clean");
    CliRun create = mlv("sql", "SHOW CREATE MATERIALIZED LAKE VIEW gold.formula_preference");
    assertThat(create.out())
        .contains("CREATE OR REPLACE MATERIALIZED LAKE VIEW gold.formula_preference")
        .contains("\nFROM silver.trials_clean t JOIN bronze.formulas f")
        .doesNotContain("\\n");
    for (String ifExists : new String[] {"", "IF EXISTS "}) {
      CliRun dropTable = mlv("sql", "DROP MATERIALIZED LAKE VIEW " + ifExists + "bronze.formulas");
      assertThat(dropTable.exitCode()).as(dropTable.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(dropTable.err())
          .contains("NOT_A_VIEW")
          .contains("bronze.formulas is a table, not a materialized lake view")
          .doesNotContain("does not exist");
    }
    assertThat(mlv("sql", "SELECT count(*) AS n FROM bronze.formulas", "--format", "csv").out())
        .isEqualTo("n\n6\n");
    // Values keep their types: JSON numbers, arrays and objects, and no JVM toString anywhere.
    String typed =
        "SELECT array(1, 2) AS a, named_struct('x', 1, 'y', 'z') AS s, X'41' AS b,"
            + " CAST(1.50 AS DECIMAL(10,2)) AS dec, CAST(NULL AS STRING) AS n, '' AS e";
    assertThat(mlv("sql", typed, "--format", "json").out())
        .isEqualTo(
            "[ {\n  \"a\" : [ 1, 2 ],\n  \"s\" : {\n    \"x\" : 1,\n    \"y\" : \"z\"\n  },\n"
                + "  \"b\" : \"QQ==\",\n  \"dec\" : 1.50,\n  \"n\" : null,\n  \"e\" : \"\"\n} ]\n");
    // Several statements in JSON are one document; status lines of MLV statements are on stderr.
    CliRun two = mlv("sql", "--format", "json", "SELECT 1 AS a; SELECT 2 AS b");
    assertThat(two.exitCode()).as(two.toString()).isZero();
    assertThat(two.out()).isEqualTo("[ [ {\n  \"a\" : 1\n} ], [ {\n  \"b\" : 2\n} ] ]\n");
    CliRun created =
        mlv(
            "sql",
            "--format",
            "json",
            "CREATE MATERIALIZED LAKE VIEW silver.tmpv AS SELECT * FROM silver.trials_clean");
    assertThat(created.exitCode()).as(created.toString()).isZero();
    assertThat(created.out()).isEqualTo("[ ]\n");
    assertThat(created.err()).contains("Created silver.tmpv: ");
    CliRun dropped = mlv("sql", "--format", "csv", "DROP MATERIALIZED LAKE VIEW silver.tmpv");
    assertThat(dropped.exitCode()).as(dropped.toString()).isZero();
    assertThat(dropped.out()).isEmpty();
    assertThat(dropped.err()).isNotBlank();
    assertThat(mlv("sql", typed, "--format", "csv").out())
        .isEqualTo("a,s,b,dec,n,e\n\"[1, 2]\",\"{1, z}\",[41],1.50,,\"\"\n");
  }

  @Test
  @Order(8)
  void aSeedLoadedAgainWithOtherColumnsSaysHow() throws IOException {
    Path csv = Path.of(project, "seeds/formulas.csv");
    List<String> lines = Files.readAllLines(csv);
    List<String> wider = new java.util.ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      wider.add(lines.get(i) + (i == 0 ? ",launch_year" : ",2026"));
    }
    Files.write(csv, wider);
    CliRun seed = mlv("seed", "bronze.formulas");
    assertThat(seed.exitCode()).as(seed.toString()).isZero();
    assertThat(seed.out()).contains("bronze.formulas").contains("6 rows");
    assertThat(seed.err())
        .contains("warning: bronze.formulas: column launch_year INT added")
        .contains("inferred from the seed file");
  }

  @Test
  @Order(9)
  void throughAPipeThePlanComesBeforeTheRefreshProgress() throws IOException {
    Files.writeString(
        Path.of(project, "views/gold/repeat_winners.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.repeat_winners AS\n"
            + "SELECT formula_id, trials FROM gold.formula_preference WHERE trials > 2");
    // stdout buffered as through a pipe, stderr not, both into one stream as with 2>&1.
    java.io.StringWriter both = new java.io.StringWriter();
    int code =
        Main.run(
            new java.io.PrintWriter(new java.io.BufferedWriter(both, 1 << 16)),
            new java.io.PrintWriter(both, true),
            "apply",
            "--auto-approve",
            "-p",
            project);
    String seen = both.toString();
    assertThat(code).as(seen).isZero();
    assertThat(seen.indexOf("Plan for project"))
        .as(seen)
        .isNotNegative()
        .isLessThan(seen.indexOf("started"));
  }

  @Test
  @Order(10)
  void aDeletedViewIsNotCalledNoChange() throws IOException {
    Files.delete(Path.of(project, "views/gold/repeat_winners.sql"));
    CliRun plan = mlv("plan", "--detailed-exitcode");
    // Not pruned, the orphan is no change to apply (exit 0), but the target does not match.
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out())
        .contains("(dropped only with --prune): gold.repeat_winners")
        .contains("No changes to apply; 1 deployed view is no longer in the project (see above).")
        .doesNotContain("The target matches the project");
  }

  /**
   * Found by QA: a prune-only apply in JSON printed a run id that was never recorded, so 'mlv runs
   * ID' could not find it. The document keeps its shape, with a null id.
   */
  @Test
  @Order(11)
  void aPruneOnlyApplyInJsonNamesNoRunIdItDidNotRecord() throws IOException {
    CliRun before = mlv("runs", "--format", "json");
    CliRun apply = mlv("apply", "--prune", "--auto-approve", "--format", "json", "--quiet");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    JsonNode run = JSON.readTree(apply.out());
    assertThat(run.path("run").path("id").isNull()).as(apply.out()).isTrue();
    assertThat(run.path("run").path("status").asText()).isEqualTo("Completed");
    assertThat(run.path("views")).isEmpty();
    CliRun after = mlv("runs", "--format", "json");
    assertThat(JSON.readTree(after.out()).path("runs"))
        .isEqualTo(JSON.readTree(before.out()).path("runs"));
    assertThat(mlv("plan", "--detailed-exitcode").out()).doesNotContain("repeat_winners");
  }

  private static JsonNode view(JsonNode run, String id) {
    for (JsonNode v : run.path("views")) {
      if (v.path("id").asText().equals(id)) {
        return v;
      }
    }
    throw new AssertionError("no view " + id + " in " + run);
  }
}
