package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OnMismatch;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ViewMaterializerTest {

  private static final String WS = "ws_mat";
  private static final String LH = "lh_mat";
  private static final Position AT = new Position(Path.of("silver/trials_clean.sql"), 3, 3);
  private static final String SILVER_SELECT =
      "SELECT trial_id, formula_id, panel_segment, n_testers, first_choice_pct, trial_date\n"
          + "FROM lh_mat.bronze.preference_trials -- trailing comment";

  private static SparkSession spark;
  private static ViewMaterializer materializer;

  @BeforeAll
  static void bronze() {
    LocalSparkTestSupport.lakehouse(WS, LH);
    spark = LocalSparkTestSupport.spark();
    materializer = new ViewMaterializer(LocalSparkTestSupport.runtime());
    spark.sql("CREATE SCHEMA IF NOT EXISTS lh_mat.bronze");
    // Seven good trials and the demo's three bad rows: share 140, no formula, zero testers.
    spark.sql(
        "CREATE TABLE lh_mat.bronze.preference_trials USING delta AS SELECT * FROM VALUES"
            + " (1, 'OB-101', 'north', 12, 41.5, DATE'2026-10-01'),"
            + " (2, 'OB-102', 'north', 10, 55.0, DATE'2026-10-01'),"
            + " (3, 'OB-103', 'south', 14, 38.0, DATE'2026-10-02'),"
            + " (4, 'OB-104', 'south', 11, 68.0, DATE'2026-10-02'),"
            + " (5, 'OB-105', 'east',   9, 47.5, DATE'2026-10-03'),"
            + " (6, 'OB-106', 'east',  13, 52.0, DATE'2026-10-03'),"
            + " (7, 'OB-104', 'west',  15, 66.0, DATE'2026-10-04'),"
            + " (8, 'OB-101', 'west',  12, 140.0, DATE'2026-10-05'),"
            + " (9, CAST(NULL AS STRING), 'west', 12, 50.0, DATE'2026-10-05'),"
            + " (10, 'OB-102', 'west', 0, 50.0, DATE'2026-10-05')"
            + " AS t(trial_id, formula_id, panel_segment, n_testers, first_choice_pct, trial_date)");
  }

  private static ObjectId id(String schema, String name) {
    return new ObjectId(WS, LH, schema, name);
  }

  private static List<Constraint> silverRules(
      OnMismatch pct, OnMismatch formula, OnMismatch testers) {
    return List.of(
        new Constraint("pct_valid", "first_choice_pct BETWEEN 0 AND 100", pct, AT),
        new Constraint("has_formula", "formula_id IS NOT NULL", formula, AT),
        new Constraint("has_testers", "n_testers > 0", testers, AT));
  }

  private static MaterializeRequest request(
      ObjectId view, String select, List<Constraint> constraints) {
    return new MaterializeRequest(view, select, constraints, List.of(), Optional.empty(), Map.of());
  }

  /** A request whose SELECT was read from a file, starting at {@code at}. */
  private static MaterializeRequest writtenAt(ObjectId view, String select, Position at) {
    return new MaterializeRequest(
        view, select, List.of(), List.of(), Optional.empty(), Map.of(), Optional.of(at), Map.of());
  }

  private static long count(ObjectId table) {
    return spark
        .sql("SELECT count(*) FROM lh_mat." + table.schema() + "." + table.name())
        .first()
        .getLong(0);
  }

  @Test
  void medallionSilverDropsTheThreeBadRowsInOneCommit() {
    ObjectId silver = id("silver", "trials_clean");
    String definition =
        "CREATE MATERIALIZED LAKE VIEW silver.trials_clean\n AS SELECT 'it''s' \\ é";
    MaterializeResult result =
        materializer.materialize(
            new MaterializeRequest(
                silver,
                SILVER_SELECT + ";",
                silverRules(OnMismatch.DROP, OnMismatch.DROP, OnMismatch.DROP),
                List.of("panel_segment"),
                Optional.of("Trials that pass the quality rules; it's silver"),
                Map.of("mlv.managed", "true", "mlv.definition", definition)));

    assertThat(result.rowsWritten()).isEqualTo(7);
    assertThat(result.rowsDropped()).isEqualTo(3);
    assertThat(result.violations())
        .containsExactly(
            Map.entry("pct_valid", 1L), Map.entry("has_formula", 1L), Map.entry("has_testers", 1L));
    assertThat(result.version()).isZero();
    assertThat(count(silver)).isEqualTo(7);

    Row detail = spark.sql("DESCRIBE DETAIL lh_mat.silver.trials_clean").first();
    assertThat(detail.<String>getAs("description"))
        .isEqualTo("Trials that pass the quality rules; it's silver");
    assertThat(detail.getList(detail.fieldIndex("partitionColumns")))
        .containsExactly("panel_segment");
    Map<String, String> properties = detail.getJavaMap(detail.fieldIndex("properties"));
    assertThat(properties)
        .containsEntry("mlv.managed", "true")
        .containsEntry("mlv.definition", definition);
  }

  @Test
  void aRowBreakingTwoDropRulesIsDroppedOnceAndCountedTwice() {
    String select =
        SILVER_SELECT
            + "\nUNION ALL SELECT 11, CAST(NULL AS STRING), 'west', 0, 50.0, DATE'2026-10-06'";
    MaterializeResult result =
        materializer.materialize(
            request(
                id("silver", "double_break"),
                select,
                silverRules(OnMismatch.DROP, OnMismatch.DROP, OnMismatch.DROP)));

    assertThat(result.rowsWritten()).isEqualTo(7);
    assertThat(result.rowsDropped()).isEqualTo(4);
    assertThat(result.violations().values()).containsExactly(1L, 2L, 2L);
  }

  @Test
  void failIsTheDefaultAndLeavesTheTableAtItsPreviousVersion() {
    ObjectId view = id("silver", "fail_default");
    MaterializeResult first =
        materializer.materialize(
            request(
                view,
                SILVER_SELECT,
                silverRules(OnMismatch.DROP, OnMismatch.DROP, OnMismatch.DROP)));
    Path dir = LocalSparkTestSupport.runtime().warehouse().tableDir(view);
    List<Row> before =
        spark.sql("SELECT * FROM lh_mat.silver.fail_default ORDER BY trial_id").collectAsList();

    // A new definition with FAIL rules; FAIL is what the parser produces when none is written.
    MlvException failure =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(
                        view,
                        SILVER_SELECT,
                        silverRules(OnMismatch.FAIL, OnMismatch.DROP, OnMismatch.DROP))));

    assertThat(failure.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.ruleId()).isEqualTo(ViewMaterializer.CONSTRAINT_FAILED);
              assertThat(d.position()).isEqualTo(AT);
            });
    assertThat(failure.getMessage())
        .contains("refresh of silver.fail_default failed")
        .contains("pct_valid")
        .contains(
            "trial_id=8, formula_id=OB-101, panel_segment=west, n_testers=12, first_choice_pct=140.0")
        .doesNotContain("\tat ", "Exception", "MLVFAIL");
    // The failed run records the rows that broke its FAIL rule, as a completed one would; the
    // DROP rules dropped nothing, so they are not counted (found by QA: the map was empty).
    assertThat(failure).isInstanceOf(ViewMaterializer.ConstraintFailed.class);
    assertThat(((ViewMaterializer.ConstraintFailed) failure).violations())
        .containsExactly(Map.entry("pct_valid", 1L));
    assertThat(Warehouse.latestCommit(dir)).hasValue(first.version());
    assertThat(
            spark.sql("SELECT * FROM lh_mat.silver.fail_default ORDER BY trial_id").collectAsList())
        .isEqualTo(before);
  }

  @Test
  void failWinsOverDropOnTheSameRowAndACreateThatFailsLeavesNoTable() {
    ObjectId view = id("silver", "fail_wins");
    String select =
        "SELECT * FROM lh_mat.bronze.preference_trials WHERE trial_id <> 9"
            + "\nUNION ALL SELECT 11, CAST(NULL AS STRING), 'west', 0, 50.0, DATE'2026-10-06'";
    // Row 11 breaks has_testers (DROP, declared first) and has_formula (FAIL).
    List<Constraint> rules =
        List.of(
            new Constraint("has_testers", "n_testers > 0", OnMismatch.DROP, AT),
            new Constraint("has_formula", "formula_id IS NOT NULL", OnMismatch.FAIL, AT));

    assertThatThrownBy(() -> materializer.materialize(request(view, select, rules)))
        .isInstanceOfSatisfying(
            ViewMaterializer.ConstraintFailed.class,
            f -> assertThat(f.violations()).containsExactly(Map.entry("has_formula", 1L)))
        .hasMessageContaining("constraint has_formula")
        .hasMessageContaining("trial_id=11, formula_id=NULL");
    assertThat(materializer.tableExists(view)).isFalse();
  }

  @Test
  void aNullCheckResultIsAViolationAndTheSchemaMayChangeBetweenRefreshes() {
    ObjectId view = id("silver", "nullable");
    List<Constraint> rule = List.of(new Constraint("pct_max", "pct <= 100", OnMismatch.DROP, AT));
    MaterializeResult first =
        materializer.materialize(
            request(
                view,
                "SELECT * FROM VALUES (1, 50.0D), (2, CAST(NULL AS DOUBLE)), (3, 120.0D) AS t(id, pct)",
                rule));
    assertThat(first.rowsWritten()).isEqualTo(1);
    assertThat(first.violations()).containsExactly(Map.entry("pct_max", 2L));

    MaterializeResult second =
        materializer.materialize(
            request(
                view,
                "SELECT id, pct, 'v2' AS label FROM VALUES (1, 50.0D), (4, 99.0D) AS t(id, pct)",
                rule));
    assertThat(second.version()).isEqualTo(first.version() + 1);
    assertThat(
            spark.sql("SELECT id, label FROM lh_mat.silver.nullable ORDER BY id").collectAsList())
        .extracting(Row::toString)
        .containsExactly("[1,v2]", "[4,v2]");
  }

  @Test
  void aBadSelectFailsCleanlyBeforeWriting() {
    ObjectId view = id("silver", "bad_select");
    assertThatThrownBy(
            () ->
                materializer.materialize(
                    request(
                        view,
                        "SELECT no_such_column FROM lh_mat.bronze.preference_trials",
                        List.of())))
        .isInstanceOf(MlvException.class)
        .hasMessageStartingWith("refresh of silver.bad_select failed:")
        .hasMessageContaining("no_such_column")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"))
        .satisfies(
            e ->
                assertThat(((MlvException) e).diagnostics())
                    .extracting(d -> d.ruleId())
                    .containsExactly(ViewMaterializer.REFRESH_FAILED));
    assertThat(materializer.tableExists(view)).isFalse();
  }

  @Test
  void aColumnSparkCannotResolveIsReportedAtItsPlaceInTheViewsFile() {
    // The SELECT starts at line 3, column 4 of its file ("AS SELECT ..."); Spark counts from it.
    Position select = new Position(Path.of("views/silver/bad.sql"), 3, 4);
    String sql =
        "SELECT trial_id,\n       ROUND(AVG(no_such_pct), 1) AS pct\n"
            + "FROM lh_mat.bronze.preference_trials GROUP BY trial_id";
    MlvException failure =
        catchThrowableOfType(
            MlvException.class,
            () -> materializer.materialize(writtenAt(id("silver", "bad_place"), sql, select)));
    assertThat(failure.diagnostics()).hasSize(1);
    assertThat(failure.diagnostics().get(0).position())
        .isEqualTo(new Position(Path.of("views/silver/bad.sql"), 4, 18));
    assertThat(failure.getMessage())
        .startsWith("views/silver/bad.sql:4:18: error[REFRESH_FAILED]: refresh of")
        .contains("no_such_pct")
        .doesNotContain(" pos ");

    MlvException onFirstLine =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    writtenAt(
                        id("silver", "bad_place"),
                        "SELECT nope FROM lh_mat.bronze.preference_trials",
                        select)));
    assertThat(onFirstLine.diagnostics().get(0).position())
        .isEqualTo(new Position(Path.of("views/silver/bad.sql"), 3, 11));
  }

  /**
   * A CHECK Spark refuses as a condition (an aggregate, no boolean) is reported in the user's
   * terms: the constraint, its expression as written and its place, Spark's error class; never the
   * SQL mlv generates around it (mlv_tally_..., coalesce(..., false)). Found by QA.
   */
  @Test
  void aCheckSparkRefusesAsAConditionIsReportedAsWrittenAtItsExpression() {
    ObjectId view = id("silver", "bad_checks");
    Path file = Path.of("views/silver/bad_checks.sql");
    MlvException aggregate =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(
                        view,
                        SILVER_SELECT,
                        List.of(
                            new Constraint(
                                "c",
                                "sum(n_testers) > 0",
                                OnMismatch.DROP,
                                new Position(file, 2, 3),
                                new Position(file, 2, 22))))));
    assertThat(aggregate.diagnostics().get(0).position()).isEqualTo(new Position(file, 2, 22));
    assertThat(aggregate.getMessage())
        .contains("constraint c CHECK (sum(n_testers) > 0) cannot be evaluated")
        .contains("[INVALID_WHERE_CONDITION]")
        .contains("hint: a constraint tests each row on its own")
        .doesNotContain("mlv_tally")
        .doesNotContain("coalesce(")
        .doesNotContain("mlv_source");

    MlvException notBoolean =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(
                        view,
                        SILVER_SELECT,
                        List.of(
                            new Constraint("has_testers", "n_testers > 0", OnMismatch.DROP, AT, AT),
                            new Constraint(
                                "c",
                                "first_choice_pct",
                                OnMismatch.DROP,
                                new Position(file, 3, 3),
                                new Position(file, 3, 22))))));
    assertThat(notBoolean.diagnostics().get(0).position()).isEqualTo(new Position(file, 3, 22));
    assertThat(notBoolean.getMessage())
        .contains(
            "constraint c CHECK (first_choice_pct) cannot be evaluated: it is of type"
                + " DECIMAL(4,1), not BOOLEAN ([DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN])")
        .doesNotContain("coalesce(")
        .doesNotContain(" pos ");

    // A STRING CHECK, which mlv's coalesce((check), false) would cast row by row until a value
    // is no boolean ([CAST_INVALID_INPUT], naming no constraint), is no condition to Spark.
    MlvException string =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(
                        view,
                        SILVER_SELECT,
                        List.of(new Constraint("c", "formula_id", OnMismatch.DROP, AT)))));
    assertThat(string.getMessage())
        .contains(
            "constraint c CHECK (formula_id) cannot be evaluated: it is of type STRING, not"
                + " BOOLEAN");

    // An unknown column is placed where it is in the CHECK, as validate places it.
    MlvException unknown =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(
                        view,
                        SILVER_SELECT,
                        List.of(
                            new Constraint(
                                "c",
                                "n_testers > 0 AND nope > 0",
                                OnMismatch.DROP,
                                new Position(file, 4, 3),
                                new Position(file, 4, 22))))));
    assertThat(unknown.diagnostics().get(0).position()).isEqualTo(new Position(file, 4, 40));
    assertThat(unknown.getMessage()).contains("[UNRESOLVED_COLUMN");
    assertThat(materializer.tableExists(view)).isFalse();
  }

  @Test
  void aConstraintOnAColumnTheSelectDoesNotHaveIsReportedAtTheConstraint() {
    ObjectId view = id("silver", "bad_check");
    Position at = new Position(Path.of("views/silver/bad_check.sql"), 2, 5);
    List<Constraint> rules =
        List.of(
            new Constraint("has_testers", "n_testers > 0", OnMismatch.DROP, AT),
            new Constraint("pct_ok", "first_choice_pctx <= 100", OnMismatch.FAIL, at));
    MlvException failure =
        catchThrowableOfType(
            MlvException.class,
            () -> materializer.materialize(request(view, SILVER_SELECT, rules)));
    assertThat(failure.diagnostics().get(0).position()).isEqualTo(at);
    assertThat(failure.getMessage())
        .contains("constraint pct_ok CHECK (first_choice_pctx <= 100) cannot be evaluated")
        .contains("first_choice_pctx")
        .contains("hint: a constraint reads the columns of the view's SELECT: trial_id,");
    assertThat(materializer.tableExists(view)).isFalse();

    // An analysis error elsewhere quotes the plan with its FAIL markers: no row is blamed.
    MlvException partition =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    new MaterializeRequest(
                        view,
                        SILVER_SELECT,
                        rules.subList(0, 1).stream()
                            .map(c -> new Constraint(c.name(), c.expression(), OnMismatch.FAIL, AT))
                            .toList(),
                        List.of("no_such_column"),
                        Optional.empty(),
                        Map.of())));
    assertThat(partition.diagnostics().get(0).ruleId()).isEqualTo(ViewMaterializer.REFRESH_FAILED);
    assertThat(partition.getMessage()).contains("no_such_column").doesNotContain("is not met by");
    assertThat(materializer.tableExists(view)).isFalse();
  }

  @Test
  void sparksLineAndPosAreReadWhenItGivesNoQueryContext() {
    Position select = new Position(Path.of("v.sql"), 2, 4);
    String sql = "SELECT a,\n  b FROM t";
    RuntimeException e = new RuntimeException("[X] no column `b`. SQLSTATE: 42703; line 2 pos 2;");
    assertThat(SparkMessages.place(e, sql, select)).contains(new Position(Path.of("v.sql"), 3, 3));
    assertThat(SparkMessages.place(new RuntimeException("line 9 pos 0"), sql, select)).isEmpty();
    assertThat(SparkMessages.withoutSparkPlace("[X] no. SQLSTATE: 42703; line 2 pos 2;"))
        .isEqualTo("[X] no. SQLSTATE: 42703");
  }

  /** A scalar subquery runs on another thread: Spark wraps what failed there. */
  @Test
  void theFailureInsideASubqueryIsShownNotItsWrapper() {
    Exception e =
        new org.apache.spark.SparkException(
            "Exception thrown in awaitResult: ",
            new RuntimeException("[INVALID_ARRAY_INDEX] The index 0 is out of bounds."));
    assertThat(SparkMessages.explanation(e))
        .isEqualTo("[INVALID_ARRAY_INDEX] The index 0 is out of bounds.");
  }

  /**
   * Delta words its errors over several lines: the refresh's error is all of it, as one paragraph,
   * and an analysis error leaves out the plan Spark prints under it.
   */
  @Test
  void aDeltaErrorIsShownWholeAndAnAnalysisErrorWithoutItsPlan() {
    spark.sql("CREATE TABLE lh_mat.bronze.late_cdf (id INT) USING delta");
    spark.sql("INSERT INTO lh_mat.bronze.late_cdf VALUES (1)");
    spark.sql(
        "ALTER TABLE lh_mat.bronze.late_cdf SET TBLPROPERTIES (delta.enableChangeDataFeed=true)");
    spark.sql("INSERT INTO lh_mat.bronze.late_cdf VALUES (2)");
    ObjectId view = id("silver", "late_changes");

    MlvException delta =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(
                        view,
                        "SELECT id FROM table_changes('lh_mat.bronze.late_cdf', 1)",
                        List.of())));
    assertThat(delta.diagnostics().get(0).message())
        .contains("[DELTA_MISSING_CHANGE_DATA] Error getting change data for range [1 , 3]")
        .contains("as change data was not recorded for version [1].")
        .endsWith("SET TBLPROPERTIES (delta.enableChangeDataFeed=true)`.")
        .doesNotContain("\n");

    MlvException analysis =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(view, "SELECT nope FROM lh_mat.bronze.late_cdf", List.of())));
    assertThat(analysis.diagnostics().get(0).message())
        .contains("[UNRESOLVED_COLUMN.WITH_SUGGESTION]")
        .contains("SQLSTATE: 42703")
        .doesNotContain("\n")
        .doesNotContain("Project [")
        .doesNotContain("Relation");
  }

  @Test
  void propertiesRenameAndDrop() {
    ObjectId source = id("bronze", "events");
    materializer.materialize(request(source, "SELECT 1 AS id, 'a' AS kind", List.of()));
    materializer.setTableProperties(source, Map.of("delta.enableChangeDataFeed", "true"));
    assertThat(
            spark
                .sql("SHOW TBLPROPERTIES lh_mat.bronze.events ('delta.enableChangeDataFeed')")
                .first()
                .getString(1))
        .isEqualTo("true");

    ObjectId renamed = new ObjectId(WS, LH, "archive", "events_old");
    materializer.renameTable(source, renamed);
    assertThat(materializer.tableExists(source)).isFalse();
    assertThat(materializer.tableExists(renamed)).isTrue();
    assertThat(spark.sql("SELECT kind FROM lh_mat.archive.events_old").first().getString(0))
        .isEqualTo("a");
    assertThatThrownBy(() -> materializer.renameTable(source, renamed))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("no such table");

    assertThat(materializer.dropTable(renamed)).isTrue();
    assertThat(materializer.tableExists(renamed)).isFalse();
    assertThat(materializer.dropTable(renamed)).isFalse();
  }

  @Test
  void aPartitionColumnTheSelectLacksIsNamedWithTheColumnsItHas() {
    ObjectId view = id("silver", "bad_partition");
    MaterializeRequest r =
        new MaterializeRequest(
            view,
            "SELECT trial_id, formula_id FROM lh_mat.bronze.preference_trials",
            List.of(),
            List.of("`Day`"),
            Optional.empty(),
            Map.of());

    assertThatThrownBy(() -> materializer.materialize(r))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("PARTITIONED BY column Day is not a column of")
        .hasMessageContaining("its columns: trial_id, formula_id");
    assertThat(Warehouse.isTable(LocalSparkTestSupport.runtime().warehouse().tableDir(view)))
        .isFalse();
  }

  @Test
  void sourcesAreReadAtTheVersionsTheRequestRecords() {
    spark.sql("CREATE TABLE lh_mat.bronze.pinned_src USING delta AS SELECT 1 AS n");
    spark.sql("INSERT INTO lh_mat.bronze.pinned_src VALUES (2)"); // version 1, after the pin
    ObjectId source = id("bronze", "pinned_src");
    ObjectId view = id("silver", "pinned_view");

    materializer.materialize(
        new MaterializeRequest(
            view,
            "SELECT n FROM lh_mat.bronze.pinned_src",
            List.of(),
            List.of(),
            Optional.empty(),
            Map.of(),
            Optional.empty(),
            Map.of(source, 0L)),
        Optional.empty());

    assertThat(count(view)).isEqualTo(1);
    assertThat(count(source)).isEqualTo(2);
  }
}
