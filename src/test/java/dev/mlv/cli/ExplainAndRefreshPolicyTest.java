package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mlv explain} and the strict {@code refresh_policy: incremental}, without Spark but for the
 * dry runs that need deployed tables.
 */
class ExplainAndRefreshPolicyTest {
  private static final String MEDALLION = "examples/medallion";

  @TempDir Path dir;

  @Test
  void explainPrintsTheVerdictOfEveryConstruct() {
    CliRun r = CliRun.of("explain", "gold.formula_preference", "-p", MEDALLION);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    Golden.assertMatches("explain-medallion-gold.txt", r.out());
    CliRun json = CliRun.of("explain", "silver.trials_clean", "-p", MEDALLION, "--format", "json");
    assertThat(json.exitCode()).as(json.toString()).isZero();
    assertThat(json.out()).contains("\"shape\" : \"APPEND\"", "\"formatVersion\" : 1");
  }

  /**
   * Constructs are listed as the SQL reads them: a chain of joins first to last (it was outermost
   * first, the order of Calcite's tree), a LEFT JOIN written after an inner one after it.
   */
  @Test
  void explainListsTheConstructsInTheOrderTheSqlReads() throws IOException {
    Path copy = dir.resolve("joins");
    Files.createDirectories(copy.resolve("views"));
    Files.writeString(
        copy.resolve("mlv.yml"),
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nviews: [views]\n"
            + "sources: [bronze.a, bronze.b, bronze.c]\n");
    Files.writeString(
        copy.resolve("views/j.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.j AS\n"
            + "SELECT a.k, b.v, c.w FROM bronze.a a\n"
            + "JOIN bronze.b b ON a.k = b.k\n"
            + "LEFT JOIN bronze.c c ON a.k = c.k\n");
    CliRun r = CliRun.of("explain", "silver.j", "-p", copy.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    int inner = r.out().indexOf("INNER JOIN");
    int left = r.out().indexOf("LEFT OUTER JOIN");
    assertThat(inner).as(r.out()).isPositive();
    assertThat(left).as(r.out()).isGreaterThan(inner);
  }

  /** With ANSI mode off in the default target's conf, a merged SUM is a condition of its own. */
  @Test
  void explainSaysASumIsFullWhileAnsiModeIsOffInTheTargetsConf() throws IOException {
    Path copy = dir.resolve("ansi");
    Files.createDirectories(copy.resolve("views"));
    String yml =
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nviews: [views]\n"
            + "sources: [bronze.a]\n";
    Files.writeString(
        copy.resolve("views/s.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.s AS\n"
            + "SELECT g, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY g\n");
    Files.writeString(copy.resolve("mlv.yml"), yml);
    CliRun on = CliRun.of("explain", "gold.s", "-p", copy.toString());
    assertThat(on.out()).as(on.toString()).doesNotContain("DECIMAL_SUM_WITHOUT_ANSI");
    Files.writeString(
        copy.resolve("mlv.yml"),
        yml
            + "targets:\n  local:\n    type: spark\n"
            + "    conf: {spark.sql.ansi.enabled: \"false\"}\n");
    CliRun off = CliRun.of("explain", "gold.s", "-p", copy.toString());
    assertThat(off.exitCode()).as(off.toString()).isZero();
    assertThat(off.out())
        .contains(
            "SUM (ANSI mode off)",
            "incremental while no SUM is of decimals: ANSI mode is off (spark.sql.ansi.enabled"
                + " in target local's conf is false)",
            "[DECIMAL_SUM_WITHOUT_ANSI]");
    CliRun json = CliRun.of("explain", "gold.s", "-p", copy.toString(), "--format", "json");
    assertThat(json.out()).contains("\"code\" : \"DECIMAL_SUM_WITHOUT_ANSI\"");
  }

  @Test
  void aFileViewIsExplainedByItsRefreshModeAsItsRefreshDecides() throws IOException {
    String files = "examples/medallion-files";
    CliRun r = CliRun.of("explain", "bronze.preference_trials", "-p", files);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith(
            "bronze.preference_trials  (file view, refresh_mode APPEND_ONLY; refresh_policy and"
                + " optimal refresh do not apply)\n")
        .contains("Verdict: incremental when new files arrived (NEW_FILES: only they are read")
        .doesNotContain("optimal refresh on")
        .doesNotContain("always full");
    CliRun json = CliRun.of("explain", "bronze.preference_trials", "-p", files, "--format", "json");
    assertThat(json.out())
        .contains("\"refreshMode\" : \"APPEND_ONLY\"")
        .doesNotContain("optimalRefresh");
    // MIRROR and FULL say what their refresh does
    Path copy = dir.resolve("f");
    Files.createDirectories(copy.resolve("views"));
    Files.writeString(
        copy.resolve("mlv.yml"),
        "name: t\nworkspace: fabcon_demo\nlakehouse: lh_oud_mlv\nschema: dbo\nviews: [views]\n");
    Files.writeString(
        copy.resolve("views/raw.sql"),
        Files.readString(Path.of(files, "views/bronze/preference_trials.sql"))
            .replace("'APPEND_ONLY'", "'MIRROR'"));
    CliRun mirror = CliRun.of("explain", "bronze.preference_trials", "-p", copy.toString());
    assertThat(mirror.out())
        .as(mirror.toString())
        .contains("refresh_mode MIRROR")
        .contains("Verdict: incremental when files were added, replaced or deleted");
  }

  @Test
  void aDryRunThatKnowsViewsWouldFailExitsOne() throws IOException {
    // A copy whose warehouse is empty: nothing is deployed yet.
    Path copy = dir.resolve("m");
    Files.createDirectories(copy.resolve("views/silver"));
    Files.createDirectories(copy.resolve("seeds"));
    for (String f : new String[] {"mlv.yml", "seeds/preference_trials.csv", "seeds/formulas.csv"}) {
      Files.copy(Path.of(MEDALLION, f), copy.resolve(f));
    }
    Files.copy(
        Path.of(MEDALLION, "views/silver/trials_clean.sql"),
        copy.resolve("views/silver/trials_clean.sql"));
    CliRun dry = CliRun.of("refresh", "--dry-run", "-p", copy.toString());
    assertThat(dry.exitCode()).as(dry.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(dry.out()).contains("NOT_DEPLOYED").doesNotContain(" full ");
    assertThat(dry.err()).contains("1 view would fail or be skipped").doesNotContain("above");
    // On one screen, the summary follows the table even when standard output is buffered.
    java.io.StringWriter screen = new java.io.StringWriter();
    int code =
        Main.run(
            new java.io.PrintWriter(new java.io.BufferedWriter(screen)),
            new java.io.PrintWriter(screen, true),
            "refresh",
            "--dry-run",
            "-p",
            copy.toString());
    assertThat(code).isEqualTo(ExitCodes.ERROR);
    assertThat(screen.toString().indexOf("would fail or be skipped"))
        .isGreaterThan(screen.toString().indexOf("NOT_DEPLOYED"));
    // JUnit says the same as the exit code: the view that would fail is a failed test case
    CliRun junit = CliRun.of("refresh", "--dry-run", "--format", "junit", "-p", copy.toString());
    assertThat(junit.exitCode()).as(junit.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(junit.out())
        .contains("<testsuites name=\"mlv refresh\" tests=\"4\" failures=\"1\"")
        .contains(
            "<testcase classname=\"silver.trials_clean\" name=\"refresh\" time=\"0.000\">\n"
                + "      <failure type=\"WOULD_FAIL\" message=\"NOT_DEPLOYED: ");
  }

  /**
   * Found by QA: a source rebuilt without a column a view reads made plan say UNRESOLVED_COLUMN,
   * while the dry run planned the refresh and exited 0, and the refresh then failed.
   */
  @Test
  void aDryRunKnowsASourceLostAColumnTheViewReads() throws IOException {
    Path p = dir.resolve("cols");
    Files.createDirectories(p.resolve("views"));
    Files.writeString(
        p.resolve("mlv.yml"),
        "name: cols\nworkspace: cols_ws\nlakehouse: cols_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - bronze.orders\n"
            + "targets:\n  local:\n    type: spark\n    master: local[2]\n");
    Files.writeString(
        p.resolve("views/o.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.o AS\nSELECT id, channel FROM bronze.orders\n");
    Files.writeString(
        p.resolve("views/c.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.c AS SELECT COUNT(*) AS n FROM silver.o\n");
    String root = p.toString();
    assertThat(
            CliRun.of(
                    "sql",
                    "-p",
                    root,
                    "CREATE SCHEMA IF NOT EXISTS bronze; CREATE TABLE bronze.orders USING delta"
                        + " AS SELECT 1 AS id, 'web' AS channel")
                .exitCode())
        .isZero();
    CliRun applied = CliRun.of("apply", "--auto-approve", "-p", root);
    assertThat(applied.exitCode()).as(applied.toString()).isZero();
    assertThat(
            CliRun.of(
                    "sql",
                    "-p",
                    root,
                    "CREATE OR REPLACE TABLE bronze.orders USING delta AS SELECT 2 AS id")
                .exitCode())
        .isZero();

    CliRun dry = CliRun.of("refresh", "--dry-run", "-p", root);

    assertThat(dry.exitCode()).as(dry.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(dry.out())
        .contains("silver.o")
        .contains("SOURCE_COLUMNS rule=UNRESOLVED_COLUMN: the refresh would fail: ")
        .contains("views/o.sql:2:12")
        .contains("UPSTREAM_FAILED");
    assertThat(dry.err()).contains("2 views would fail or be skipped");
    CliRun real = CliRun.of("refresh", "-p", root);
    assertThat(real.exitCode()).as(real.toString()).isEqualTo(ExitCodes.ERROR);
  }

  @Test
  void anotherFilesErrorDoesNotStopTheExplanationOfASoundView() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - bronze.orders\n");
    Files.writeString(
        dir.resolve("views/good.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.r AS SELECT cid, SUM(amount) / COUNT(*) AS avg_amt\n"
            + "FROM bronze.orders GROUP BY cid\n");
    Files.writeString(
        dir.resolve("views/bad.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.bad AS SELECT 'id FROM bronze.orders\n");
    CliRun good = CliRun.of("explain", "gold.r", "-p", dir.toString());
    assertThat(good.exitCode()).as(good.toString()).isZero();
    assertThat(good.out())
        .contains("an expression over SUM is not merged, only a bare aggregate is")
        .contains(
            "Verdict: incremental when change data feed is on for every source, only"
                + " appends arrived since the last refresh, every source is partitioned by a GROUP BY"
                + " column");
    CliRun bad = CliRun.of("explain", "gold.bad", "-p", dir.toString());
    assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(bad.err()).contains("views/bad.sql:");
    // Two definitions of one view: which one to explain is not for explain to pick.
    Files.writeString(
        dir.resolve("views/again.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.r AS SELECT cid FROM bronze.orders\n");
    CliRun twice = CliRun.of("explain", "gold.r", "-p", dir.toString());
    assertThat(twice.exitCode()).as(twice.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(twice.err()).contains("DUPLICATE_VIEW");
  }

  /** Found by QA: a view read from a broken file was explained as a source table. */
  @Test
  void aViewReadingABrokenViewIsNotExplained() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - bronze.t\n");
    Files.writeString(
        dir.resolve("views/a.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.a AS\nSELECT id, (x FROM bronze.t\n");
    Files.writeString(
        dir.resolve("views/b.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.b AS\nSELECT id FROM silver.a\n");
    Files.writeString(
        dir.resolve("views/c.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.c AS\nSELECT id FROM silver.b\n");
    for (String v : List.of("silver.b", "silver.c")) {
      CliRun r = CliRun.of("explain", v, "-p", dir.toString());
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(r.err()).contains("views/a.sql:2:12: error[SQL_PARSE]");
      assertThat(r.out()).doesNotContain("change data feed");
    }
  }

  @Test
  void explainOfAnUnknownViewIsAnError() {
    CliRun r = CliRun.of("explain", "gold.nope", "-p", MEDALLION);
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("no view or table named 'gold.nope'").doesNotContain("Exception");
    CliRun nearMiss = CliRun.of("explain", "gold.formula_preferense", "-p", MEDALLION);
    assertThat(nearMiss.err()).contains("did you mean 'gold.formula_preference'?");
    CliRun shortName = CliRun.of("explain", "formula_preference", "-p", MEDALLION);
    assertThat(shortName.exitCode()).as(shortName.toString()).isZero();
    assertThat(shortName.out()).startsWith("gold.formula_preference");
    // What is not a name at all is a usage error, as for lineage's selectors.
    for (String arg : new String[] {"", "schema:gold", "+gold.formula_preference"}) {
      CliRun usage = CliRun.of("explain", arg, "-p", MEDALLION);
      assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(ExitCodes.USAGE);
      assertThat(usage.err()).contains("is not a view name");
    }
  }

  @Test
  void strictIncrementalPolicyFailsValidateAndPlanAtTheConstruct() throws IOException {
    writeConfig(
        """
          silver.ranked:
            refresh_policy: incremental
          silver.sums:
            refresh_policy: incremental
        targets:
          local:
            type: spark
            warehouse: .mlv/warehouse
        """);
    write(
        "views/silver/ranked.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.ranked AS\n"
            + "SELECT id,\n  row_number() OVER (ORDER BY id) AS n FROM bronze.orders\n");
    write(
        "views/silver/sums.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.sums AS\n"
            + "SELECT customer, SUM(amount) AS total FROM bronze.orders GROUP BY customer\n");
    CliRun validate = CliRun.of("validate", "-p", dir.toString());
    assertThat(validate.exitCode()).as(validate.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(validate.out())
        .contains("ranked.sql:3:3")
        .contains("REFRESH_POLICY_INCREMENTAL")
        .contains("WINDOW_FUNCTION")
        .doesNotContain("silver.sums has refresh_policy");
    CliRun plan = CliRun.of("plan", "-p", dir.toString());
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(plan.err()).contains("REFRESH_POLICY_INCREMENTAL").contains("WINDOW_FUNCTION");
    // A refresh still runs such a view, in full, and says on stderr why the policy is not kept.
    CliRun dry = CliRun.of("refresh", "--dry-run", "-p", dir.toString());
    assertThat(dry.err())
        .as(dry.toString())
        .contains("ranked.sql:3:3: warning[REFRESH_POLICY_INCREMENTAL]")
        .contains("each refresh that does not skip it rebuilds it in full")
        .doesNotContain("silver.sums has refresh_policy");
    CliRun onlySums = CliRun.of("refresh", "--dry-run", "silver.sums", "-p", dir.toString());
    assertThat(onlySums.err()).as(onlySums.toString()).doesNotContain("REFRESH_POLICY");
  }

  @Test
  void theVerdictOfAViewAlwaysRebuiltSaysSoWhateverItsSql() throws IOException {
    writeConfig(
        """
          silver.pol_full:
            refresh_policy: full
          silver.opt_off:
            optimal_refresh: false
        """);
    for (String name : new String[] {"pol_full", "opt_off"}) {
      write(
          "views/silver/" + name + ".sql",
          "CREATE MATERIALIZED LAKE VIEW silver." + name + " AS SELECT id FROM bronze.orders\n");
    }
    CliRun policy = CliRun.of("explain", "silver.pol_full", "-p", dir.toString());
    assertThat(policy.exitCode()).as(policy.toString()).isZero();
    assertThat(policy.out()).contains("Verdict: always full (POLICY_FULL");
    CliRun off = CliRun.of("explain", "silver.opt_off", "-p", dir.toString(), "--format", "json");
    assertThat(off.exitCode()).as(off.toString()).isZero();
    assertThat(off.out()).contains("\"verdict\" : \"always full (OPTIMAL_REFRESH_OFF");
  }

  /**
   * GROUP BY an alias and a bare user or current_date are read by the source's columns, which the
   * SQL alone does not tell: explain shows the condition, the dry run and the refresh settle it.
   */
  @Test
  void namesSparkReadsByTheSourcesColumnsAreSettledByThem() throws IOException {
    write(
        "mlv.yml",
        "name: t\nworkspace: cols_ws\nlakehouse: cols_lh\nschema: dbo\nsources: [bronze.t]\n"
            + "defaults:\n  enable_cdf: true\n"
            + "targets:\n  local: {type: spark, warehouse: .mlv/warehouse, master: \"local[2]\"}\n");
    write(
        "views/gold/by_alias.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.by_alias AS\n"
            + "SELECT g % 2 AS parity, SUM(v) AS s FROM bronze.t GROUP BY parity\n");
    write(
        "views/gold/by_column.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.by_column AS\n"
            + "SELECT g % 2 AS g, SUM(v) AS s FROM bronze.t GROUP BY g\n");
    write(
        "views/silver/who.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.who AS SELECT k, user FROM bronze.t\n");
    write(
        "views/silver/seen.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.seen AS SELECT k, `current_date` AS d FROM bronze.t\n");
    CliRun explain = CliRun.of("explain", "gold.by_alias", "-p", dir.toString());
    assertThat(explain.exitCode()).as(explain.toString()).isZero();
    assertThat(explain.out())
        .contains("  if    GROUP BY parity")
        .contains("[GROUP_BY_ALIAS col=parity]")
        .contains("its FROM has no column named parity (");
    CliRun who = CliRun.of("explain", "silver.who", "-p", dir.toString());
    assertThat(who.out())
        .as(who.toString())
        .contains("  if    user")
        .contains("[NON_DETERMINISTIC fn=user]")
        .contains("Verdict: incremental when")
        .contains("its FROM has a column named user");

    String p = dir.toString();
    for (String sql :
        new String[] {
          "CREATE SCHEMA IF NOT EXISTS bronze",
          "CREATE TABLE bronze.t (k INT, g INT, v INT, user STRING) USING delta"
              + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
          "INSERT INTO bronze.t SELECT id, id % 5, id, 'u' FROM range(0, 400)"
        }) {
      CliRun r = CliRun.of("sql", sql, "-p", p);
      assertThat(r.exitCode()).as(r.toString()).isZero();
    }
    CliRun apply = CliRun.of("apply", "--auto-approve", "--quiet", "-p", p);
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    CliRun append = CliRun.of("sql", "INSERT INTO bronze.t VALUES (900, 1, 7, 'x')", "-p", p);
    assertThat(append.exitCode()).as(append.toString()).isZero();

    CliRun dry = CliRun.of("refresh", "--dry-run", "-p", p);
    assertThat(dry.exitCode()).as(dry.toString()).isZero();
    assertThat(dry.out())
        .as(dry.toString())
        .containsPattern("gold\\.by_alias +incremental +ONLY_APPENDS")
        .containsPattern("silver\\.who +incremental +ONLY_APPENDS")
        .containsPattern("gold\\.by_column +full +GROUP_BY_ALIAS col=g")
        .contains("bronze.t has a column g, which Spark groups by before the SELECT alias g")
        .containsPattern("silver\\.seen +full +NON_DETERMINISTIC fn=current_date")
        .contains("no table in its FROM has a column current_date, so Spark reads it as the");
    CliRun run = CliRun.of("refresh", "--quiet", "-p", p);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out())
        .as(run.toString())
        .containsPattern("gold\\.by_alias +incremental +ONLY_APPENDS")
        .containsPattern("silver\\.who +incremental +ONLY_APPENDS");
    CliRun sums = CliRun.of("sql", "SELECT parity, s FROM gold.by_alias ORDER BY parity", "-p", p);
    assertThat(sums.out()).as(sums.toString()).contains("31927").contains("47880");
  }

  @Test
  void everyJoinIsListedAtItsOwnPlace() throws IOException {
    // Two joins of one kind were one line, at the last one written (found by QA). Each is placed
    // where its keywords start: a LEFT JOIN was at its right-hand table (found by QA).
    writeConfig("  {}\n");
    write(
        "views/two.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.two AS SELECT o.id FROM bronze.orders o\n"
            + "JOIN bronze.lines l USING (id)\n"
            + "JOIN bronze.orders c ON c.id = l.id\n");
    write(
        "views/mix.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.mix AS SELECT o.id FROM bronze.orders o\n"
            + "LEFT JOIN bronze.lines l ON o.id = l.id\n"
            + "JOIN bronze.products p ON o.pid = p.id\n"
            + "LEFT JOIN bronze.returns r ON o.id = r.id\n");
    write(
        "views/nested.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.nested AS WITH x AS (SELECT o.id FROM"
            + " bronze.orders o JOIN bronze.lines l ON o.id = l.id JOIN bronze.products p ON"
            + " o.pid = p.id)\n"
            + "SELECT s.id FROM (SELECT x.id FROM x JOIN bronze.returns r ON x.id = r.id) s\n");
    write(
        "views/outer2.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.outer2 AS SELECT o.id FROM bronze.orders o\n"
            + "FULL JOIN bronze.lines l ON o.id = l.id\n"
            + "FULL JOIN bronze.returns r ON o.id = r.id\n");
    String inner = "both sides' new rows are joined, without double counting";
    String left =
        "incremental while the right side's tables are unchanged [LEFT_JOIN_RIGHT_CHANGED]";
    String incremental =
        "Verdict: incremental when change data feed is on for every source, only appends arrived"
            + " since the last refresh";
    CliRun two = CliRun.of("explain", "silver.two", "-p", dir.toString());
    assertThat(two.exitCode()).as(two.toString()).isZero();
    assertThat(verdicts(two))
        .containsExactlyInAnyOrder(
            "  ok    INNER JOIN                           2:1  " + inner,
            "  ok    INNER JOIN                           3:1  " + inner);
    assertThat(two.out()).contains(incremental + " (the new result rows are appended)");

    CliRun mix = CliRun.of("explain", "silver.mix", "-p", dir.toString());
    assertThat(verdicts(mix))
        .as(mix.toString())
        .containsExactlyInAnyOrder(
            "  if    LEFT OUTER JOIN                      2:1  " + left,
            "  ok    INNER JOIN                           3:1  " + inner,
            "  if    LEFT OUTER JOIN                      4:1  " + left);
    assertThat(mix.out())
        .contains(incremental + ", the right side's tables are unchanged (the new result rows");

    CliRun nested = CliRun.of("explain", "silver.nested", "-p", dir.toString());
    assertThat(verdicts(nested).filter(l -> l.contains("INNER JOIN")))
        .as(nested.toString())
        .containsExactlyInAnyOrder(
            "  ok    INNER JOIN                          1:92  " + inner,
            "  ok    INNER JOIN                         1:127  " + inner,
            "  ok    INNER JOIN                          2:38  " + inner);
    assertThat(nested.out()).contains(incremental);

    CliRun outer = CliRun.of("explain", "silver.outer2", "-p", dir.toString());
    assertThat(verdicts(outer))
        .as(outer.toString())
        .containsExactlyInAnyOrder(
            "  FULL  FULL OUTER JOIN                      2:1  rows of the other side can change"
                + " with every new row [OUTER_JOIN kind=FULL]",
            "  FULL  FULL OUTER JOIN                      3:1  rows of the other side can change"
                + " with every new row [OUTER_JOIN kind=FULL]");
    assertThat(outer.out()).contains("Verdict: always full (OUTER_JOIN kind=FULL)");
  }

  private static java.util.stream.Stream<String> verdicts(CliRun r) {
    return r.out()
        .lines()
        .filter(l -> l.startsWith("  ok") || l.startsWith("  if") || l.startsWith("  FULL"));
  }

  /** mlv.yml of a one-source project, with {@code viewConfig} under {@code view_config:}. */
  private void writeConfig(String viewConfig) throws IOException {
    write(
        "mlv.yml",
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources: [bronze.orders]\n"
            + "view_config:\n"
            + viewConfig);
  }

  private void write(String relative, String text) throws IOException {
    Path f = dir.resolve(relative);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text, StandardCharsets.UTF_8);
  }

  @Test
  void aConstructNamedInCjkKeepsThePositionColumnInPlace() throws IOException {
    // "WITH 売上" is 7 chars and 9 terminal columns: padded by chars, its position came 2 late.
    Files.writeString(
        dir.resolve("mlv.yml"), "name: t\nworkspace: w\nlakehouse: lh\nschema: dbo\n");
    Files.createDirectories(dir.resolve("views"));
    Files.writeString(
        dir.resolve("views/v.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.v AS\n"
            + "WITH `売上` AS (SELECT id FROM bronze.t)\n"
            + "SELECT a.id FROM `売上` a JOIN `売上` b ON a.id = b.id",
        StandardCharsets.UTF_8);
    CliRun r = CliRun.of("explain", "silver.v", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    var at = java.util.regex.Pattern.compile(" \\d+:\\d+  ");
    var lines = r.out().lines().filter(l -> at.matcher(l).find()).toList();
    assertThat(lines).as(r.out()).anyMatch(l -> l.contains("WITH 売上")).hasSizeGreaterThan(1);
    for (String l : lines) {
      var m = at.matcher(l);
      m.find();
      // "  mark  " + 34 columns of construct + " " + 5 of position
      assertThat(dev.mlv.lineage.DisplayWidth.of(l.substring(0, m.end() - 2)))
          .as(r.out())
          .isEqualTo(48);
    }
  }

  @Test
  void aCteIsListedWithWhatItsQueryHolds() throws IOException {
    // A filtered CTE was "(no construct that matters: a plain projection)".
    writeConfig("  {}\n");
    write(
        "views/v.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.big AS WITH priced AS (\n"
            + "  SELECT o.id, o.qty * p.price AS amount FROM bronze.orders o"
            + " JOIN bronze.products p ON o.pid = p.id WHERE o.qty > 0\n"
            + ")\nSELECT id, amount FROM priced WHERE amount >= 120;\n"
            + "CREATE MATERIALIZED LAKE VIEW silver.twice AS WITH c AS (SELECT id FROM bronze.orders)"
            + " SELECT a.id FROM c a JOIN c b ON a.id = b.id;\n");
    CliRun r = CliRun.of("explain", "silver.big", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out().lines().filter(l -> l.startsWith("  ok") || l.startsWith("  FULL")))
        .containsExactly(
            "  ok    WITH priced                         1:50  read once: its query is read where"
                + " the CTE is, as a subquery in FROM; its WHERE o.qty > 0 filters the new rows as"
                + " they arrive",
            "  ok    INNER JOIN                          2:63  both sides' new rows are joined,"
                + " without double counting");
    // Read twice, a CTE is not inlined: only the verdict that says so is listed.
    CliRun twice = CliRun.of("explain", "silver.twice", "-p", dir.toString());
    assertThat(twice.out()).contains("CTE_REUSED").doesNotContain("read once");
  }
}
