package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OnMismatch;
import dev.mlv.target.SqlResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Dropped rows land in the quarantine table after the view's commit, and only then. */
class QuarantineStoreTest {
  private static final String WS = "ws_q";
  private static final String LH = "lh_q";
  private static final Position AT = new Position(Path.of("silver/trials_clean.sql"), 3, 3);
  private static final String SELECT =
      "SELECT trial_id, formula_id, n_testers, first_choice_pct FROM lh_q.bronze.trials";
  private static final List<Constraint> RULES =
      List.of(
          new Constraint("pct_valid", "first_choice_pct BETWEEN 0 AND 100", OnMismatch.DROP, AT),
          new Constraint("has_formula", "formula_id IS NOT NULL", OnMismatch.DROP, AT),
          new Constraint("has_testers", "n_testers > 0", OnMismatch.DROP, AT));

  private static SparkSession spark;
  private static ViewMaterializer materializer;

  @BeforeAll
  static void bronze() {
    LocalSparkTestSupport.lakehouse(WS, LH);
    spark = LocalSparkTestSupport.spark();
    materializer = new ViewMaterializer(LocalSparkTestSupport.runtime());
    spark.sql("CREATE SCHEMA IF NOT EXISTS lh_q.bronze");
    // The demo's seven good trials and three bad ones, plus row 11 breaking two rules at once.
    spark.sql(
        "CREATE TABLE lh_q.bronze.trials USING delta AS SELECT * FROM VALUES"
            + " (1, 'OB-101', 12, 41.5), (2, 'OB-102', 10, 55.0), (3, 'OB-103', 14, 38.0),"
            + " (4, 'OB-104', 11, 68.0), (5, 'OB-105', 9, 47.5), (6, 'OB-106', 13, 52.0),"
            + " (7, 'OB-104', 15, 66.0), (8, 'OB-101', 12, 140.0),"
            + " (9, CAST(NULL AS STRING), 12, 50.0), (10, 'OB-102', 0, 50.0),"
            + " (11, CAST(NULL AS STRING), 0, 50.0)"
            + " AS t(trial_id, formula_id, n_testers, first_choice_pct)");
  }

  private static ObjectId id(String schema, String name) {
    return new ObjectId(WS, LH, schema, name);
  }

  private static MaterializeRequest request(ObjectId view, List<Constraint> rules) {
    return new MaterializeRequest(view, SELECT, rules, List.of(), Optional.empty(), Map.of());
  }

  private static Path dir(ObjectId table) {
    return LocalSparkTestSupport.runtime().warehouse().tableDir(table);
  }

  @Test
  void droppedRowsAreTheInverseOfTheRulesWithEveryBrokenRuleNamed() {
    ObjectId view = id("silver", "trials_q");
    ObjectId quarantine = QuarantineStore.tableOf(view);
    MaterializeResult r =
        materializer.materialize(
            request(view, RULES),
            Optional.of(new ViewMaterializer.QuarantineTarget(quarantine, "run-1")));

    assertThat(r.rowsWritten()).isEqualTo(7);
    assertThat(r.rowsDropped()).isEqualTo(4);
    Set<Integer> inverse =
        spark
            .sql(
                "SELECT trial_id FROM lh_q.bronze.trials WHERE NOT coalesce(first_choice_pct"
                    + " BETWEEN 0 AND 100, false) OR formula_id IS NULL OR NOT coalesce(n_testers"
                    + " > 0, false)")
            .collectAsList()
            .stream()
            .map(row -> row.getInt(0))
            .collect(Collectors.toSet());
    List<Row> kept = spark.read().format("delta").load(dir(quarantine).toString()).collectAsList();
    Map<Integer, List<String>> broken = new TreeMap<>();
    for (Row row : kept) {
      broken.put(
          row.getInt(row.fieldIndex("trial_id")),
          row.getList(row.fieldIndex(QuarantineStore.CONSTRAINTS)));
      assertThat(row.getString(row.fieldIndex(QuarantineStore.RUN_ID))).isEqualTo("run-1");
      assertThat(row.getLong(row.fieldIndex(QuarantineStore.VIEW_VERSION))).isEqualTo(r.version());
    }
    assertThat(broken.keySet()).isEqualTo(inverse).containsExactlyInAnyOrder(8, 9, 10, 11);
    assertThat(broken)
        .containsEntry(8, List.of("pct_valid"))
        .containsEntry(9, List.of("has_formula"))
        .containsEntry(10, List.of("has_testers"))
        .containsEntry(11, List.of("has_formula", "has_testers"));

    // A second run appends under its own id; pruning to the retained runs removes the first.
    materializer.materialize(
        request(view, RULES),
        Optional.of(new ViewMaterializer.QuarantineTarget(quarantine, "run-2")));
    SqlResult both = QuarantineStore.read(spark, dir(quarantine), Optional.empty(), 100);
    assertThat(both.rows()).hasSize(8);
    assertThat(both.columns().subList(0, 3))
        .containsExactly(
            QuarantineStore.RUN_ID, QuarantineStore.CONSTRAINTS, QuarantineStore.QUARANTINED_AT);
    assertThat(QuarantineStore.read(spark, dir(quarantine), Optional.of("run-1"), 100).rows())
        .hasSize(4)
        .allSatisfy(row -> assertThat(row.get(0)).isEqualTo("run-1"));
    QuarantineStore.prune(spark, dir(quarantine), List.of("run-2"));
    assertThat(QuarantineStore.read(spark, dir(quarantine), Optional.empty(), 100).rows())
        .hasSize(4)
        .allSatisfy(row -> assertThat(row.get(0)).isEqualTo("run-2"));
  }

  @Test
  void aFailedRefreshQuarantinesNothingAndNamesTheRowsThatFailedIt() {
    ObjectId view = id("silver", "trials_fail");
    ObjectId quarantine = QuarantineStore.tableOf(view);
    List<Constraint> rules =
        List.of(RULES.get(0), new Constraint("has_testers", "n_testers > 0", OnMismatch.FAIL, AT));
    MlvException failure =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(view, rules),
                    Optional.of(new ViewMaterializer.QuarantineTarget(quarantine, "run-f"))));

    assertThat(failure.getMessage())
        .contains("constraint has_testers")
        .contains("rows (first 2)")
        .contains("trial_id=10")
        .contains("n_testers=0")
        .contains("trial_id=11")
        .doesNotContain("MLVFAIL");
    assertThat(Warehouse.isTable(dir(view))).isFalse();
    assertThat(Warehouse.isTable(dir(quarantine))).isFalse();
    assertThat(spark.catalog().listTables().collectAsList())
        .noneMatch(t -> t.name().startsWith("mlv_source_"));
  }

  /** Binary, arrays, maps, structs and TIMESTAMP_NTZ read as mlv sql shows them. */
  @Test
  void complexValuesAreShownAsMlvSqlShowsThemInTheTableAndInAFailure() {
    String select =
        "SELECT id, X'DEADBEEF' AS payload, array('p', CAST(NULL AS STRING)) AS tags, map('k', CAST(NULL AS STRING)) AS attrs,"
            + " named_struct('a', CAST(NULL AS INT), 'b', 3.0D) AS loc,"
            + " TIMESTAMP_NTZ'2025-02-01 10:00:00' AS at FROM VALUES (1), (2) AS t(id)";
    ObjectId view = id("silver", "typed_q");
    ObjectId quarantine = QuarantineStore.tableOf(view);
    materializer.materialize(
        new MaterializeRequest(
            view,
            select,
            List.of(new Constraint("one", "id = 1", OnMismatch.DROP, AT)),
            List.of(),
            Optional.empty(),
            Map.of()),
        Optional.of(new ViewMaterializer.QuarantineTarget(quarantine, "run-t")));
    SqlResult q = QuarantineStore.read(spark, dir(quarantine), Optional.empty(), 10);
    Map<String, String> row = new TreeMap<>();
    for (int i = 0; i < q.columns().size(); i++) {
      row.put(q.columns().get(i), q.rows().get(0).get(i));
    }
    assertThat(row)
        .containsEntry("payload", "[DE AD BE EF]")
        .containsEntry("tags", "[p, NULL]")
        .containsEntry("attrs", "{k -> NULL}")
        .containsEntry("loc", "{NULL, 3.0}")
        .containsEntry("at", "2025-02-01 10:00:00")
        .containsEntry(QuarantineStore.CONSTRAINTS, "one");

    MlvException failure =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    new MaterializeRequest(
                        id("silver", "typed_fail"),
                        select,
                        List.of(new Constraint("one", "id = 1", OnMismatch.FAIL, AT)),
                        List.of(),
                        Optional.empty(),
                        Map.of()),
                    Optional.empty()));
    assertThat(failure.getMessage())
        .contains(
            "id=2, payload=[DE AD BE EF], tags=[p, NULL], attrs={k -> NULL}, loc={NULL, 3.0}, ...");
  }

  @Test
  void aColumnNamedLikeTheBookkeepingIsRefusedBeforeAnythingIsWritten() {
    ObjectId view = id("silver", "trials_clash");
    MaterializeRequest clash =
        new MaterializeRequest(
            view,
            "SELECT trial_id, formula_id AS _MLV_Constraints, first_choice_pct"
                + " FROM lh_q.bronze.trials",
            RULES.subList(0, 1),
            List.of(),
            Optional.empty(),
            Map.of());
    MlvException failure =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    clash,
                    Optional.of(
                        new ViewMaterializer.QuarantineTarget(
                            QuarantineStore.tableOf(view), "run-c"))));

    assertThat(failure.getMessage())
        .contains("_MLV_Constraints")
        .contains("quarantine")
        .contains("nothing was written");
    assertThat(Warehouse.isTable(dir(view))).isFalse();
    // Without a quarantine the name is the view's own business.
    assertThat(materializer.materialize(clash).rowsWritten()).isEqualTo(10);
  }

  @Test
  void aQuarantineThatCannotBeWrittenSaysTheViewsDataLanded() throws Exception {
    ObjectId view = id("silver", "trials_qbroken");
    ObjectId quarantine = QuarantineStore.tableOf(view);
    // A plain file where the quarantine table's folder would be.
    java.nio.file.Files.createDirectories(dir(quarantine).getParent());
    java.nio.file.Files.writeString(dir(quarantine), "not a table");

    MlvException failure =
        catchThrowableOfType(
            MlvException.class,
            () ->
                materializer.materialize(
                    request(view, RULES),
                    Optional.of(new ViewMaterializer.QuarantineTarget(quarantine, "run-b"))));

    assertThat(failure.diagnostics().get(0).ruleId()).isEqualTo(QuarantineStore.QUARANTINE_FAILED);
    assertThat(failure.getMessage())
        .contains("new data is committed")
        .contains(quarantine.toString());
    assertThat(spark.read().format("delta").load(dir(view).toString()).count()).isEqualTo(7);
  }

  @Test
  void aColumnWhoseTypeChangesKeepsEarlierRunsRowsAsText() {
    ObjectId view = id("silver", "trials_retyped");
    ObjectId quarantine = QuarantineStore.tableOf(view);
    List<Constraint> rule =
        List.of(new Constraint("has_testers", "n_testers > 0", OnMismatch.DROP, AT));
    for (var run :
        List.of(
            Map.entry("run-int", "trial_id"),
            Map.entry("run-text", "CAST(trial_id AS STRING) || '-x'"),
            Map.entry("run-int-again", "trial_id"))) {
      materializer.materialize(
          new MaterializeRequest(
              view,
              "SELECT " + run.getValue() + " AS trial_id, n_testers FROM lh_q.bronze.trials",
              rule,
              List.of(),
              Optional.empty(),
              Map.of()),
          Optional.of(new ViewMaterializer.QuarantineTarget(quarantine, run.getKey())));
    }

    SqlResult all = QuarantineStore.read(spark, dir(quarantine), Optional.empty(), 100);
    int trial = all.columns().indexOf("trial_id");
    assertThat(all.rows().stream().map(r -> r.get(0) + ":" + r.get(trial)).toList())
        .containsExactlyInAnyOrder(
            "run-int:10",
            "run-int:11",
            "run-text:10-x",
            "run-text:11-x",
            "run-int-again:10",
            "run-int-again:11");
  }

  @Test
  void aColumnWhoseNameHoldsADotIsQuarantinedAndReadBack() {
    // Spark reads an unquoted `trial.id` as field id of a column trial.
    ObjectId view = id("silver", "trials_dotted");
    ObjectId quarantine = QuarantineStore.tableOf(view);
    materializer.materialize(
        new MaterializeRequest(
            view,
            "SELECT trial_id AS `trial.id`, n_testers FROM lh_q.bronze.trials",
            List.of(new Constraint("has_testers", "n_testers > 0", OnMismatch.DROP, AT)),
            List.of(),
            Optional.empty(),
            Map.of()),
        Optional.of(new ViewMaterializer.QuarantineTarget(quarantine, "run-dot")));

    SqlResult all = QuarantineStore.read(spark, dir(quarantine), Optional.empty(), 100);
    int trial = all.columns().indexOf("trial.id");
    assertThat(trial).isPositive();
    assertThat(all.rows().stream().map(r -> r.get(trial)).toList())
        .containsExactlyInAnyOrder("10", "11");
  }
}
