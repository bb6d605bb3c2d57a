package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LakehouseCatalogTest {

  private static final String WS = "ws_cat";
  private static final String WS_OTHER = "ws_cat_other";
  private static String lhA;
  private static String lhB;
  private static SparkSession spark;
  private static Warehouse warehouse;

  @BeforeAll
  static void setUp() {
    lhA = LocalSparkTestSupport.lakehouse(WS, "lh_cat_a");
    lhB = LocalSparkTestSupport.lakehouse(WS, "LH_Cat_B");
    LocalSparkTestSupport.lakehouse(WS_OTHER, "lh_cat_elsewhere");
    spark = LocalSparkTestSupport.spark();
    warehouse = LocalSparkTestSupport.runtime().warehouse();
    spark.sql("CREATE SCHEMA lh_cat_a.sales");
    spark.sql("CREATE SCHEMA lh_cat_b.ref");
    spark.sql(
        "CREATE TABLE lh_cat_b.ref.regions USING delta AS"
            + " SELECT * FROM VALUES (1, 'north'), (2, 'south') AS t(region_id, region)");
    spark.sql(
        "CREATE TABLE lh_cat_a.sales.Orders USING delta AS"
            + " SELECT * FROM VALUES (10, 1, 5.0), (11, 2, 7.5) AS t(order_id, region_id, amount)");
  }

  @Test
  void createSchemaAndCtasWriteTheOneLakeLayout() {
    Path orders = warehouse.tablesDir("lh_cat_a").resolve("sales").resolve("orders");
    assertThat(orders)
        .isEqualTo(warehouse.root().resolve("lh_cat_a.Lakehouse/Tables/sales/orders"));
    assertThat(orders.resolve("_delta_log/00000000000000000000.json")).isRegularFile();
    assertThat(warehouse.schemaDir("lh_cat_b", "ref").resolve("regions")).isDirectory();
    // The session catalog's warehouse directory is not used for lakehouse tables.
    assertThat(
            Files.exists(
                java.nio.file.Path.of(
                    System.getProperty("java.io.tmpdir"),
                    "mlv-spark-" + ProcessHandle.current().pid(),
                    "spark-warehouse/orders")))
        .isFalse();
  }

  @Test
  void insertAndJoinAcrossLakehouses() {
    spark.sql("CREATE TABLE lh_cat_a.sales.returns (order_id INT, reason STRING) USING delta");
    spark.sql("INSERT INTO lh_cat_a.sales.returns VALUES (10, 'late')");
    List<Row> rows =
        spark
            .sql(
                "SELECT r.region, x.reason FROM lh_cat_a.sales.orders o"
                    + " JOIN lh_cat_b.ref.regions r ON o.region_id = r.region_id"
                    + " JOIN lh_cat_a.sales.returns x ON x.order_id = o.order_id")
            .collectAsList();
    assertThat(rows).extracting(Row::toString).containsExactly("[north,late]");
  }

  @Test
  void oneToFourPartNamesResolveLikeLineage() {
    LocalSparkTestSupport.runtime().use(lhA, "sales");
    try {
      List<String> names =
          List.of(
              "orders",
              "sales.orders",
              "lh_cat_a.sales.orders",
              "ws_cat.lh_cat_a.sales.orders",
              "SALES.Orders",
              "`lh_cat_a`.`Sales`.`ORDERS`");
      // One query for all spellings: each branch must resolve to the same two-row table.
      String union =
          names.stream()
              .map(n -> "SELECT '" + n.replace("'", "") + "' AS name, amount FROM " + n)
              .reduce((a, b) -> a + " UNION ALL " + b)
              .orElseThrow();
      List<Row> sums =
          spark
              .sql("SELECT name, CAST(sum(amount) AS DOUBLE) FROM (" + union + ") GROUP BY name")
              .collectAsList();
      assertThat(sums)
          .hasSize(names.size())
          .allSatisfy(r -> assertThat(r.getDouble(1)).isEqualTo(12.5));
      // A four-part name reaches another lakehouse of the same workspace.
      assertThat(spark.sql("SELECT count(*) FROM ws_cat.lh_cat_b.ref.regions").first().getLong(0))
          .isEqualTo(2);
    } finally {
      LocalSparkTestSupport.runtime().use(LocalSparkTestSupport.DEFAULT_LAKEHOUSE, "dbo");
    }
  }

  @Test
  void workspaceCatalogOnlyKnowsItsOwnLakehouses() {
    assertThatThrownBy(() -> spark.sql("SELECT * FROM ws_other_cat.lh_cat_a.sales.orders"))
        .hasMessageContaining("ws_other_cat");
    assertThatThrownBy(() -> spark.sql("SELECT * FROM ws_cat_other.lh_cat_a.sales.orders"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
    assertThat(
            spark.sql("SHOW NAMESPACES IN ws_cat").collectAsList().stream()
                .map(r -> r.getString(0))
                .toList())
        .contains("lh_cat_a", "lh_cat_b")
        .doesNotContain("lh_cat_elsewhere");
  }

  @Test
  void showTablesAndNamespacesListFolders() {
    assertThat(
            spark.sql("SHOW TABLES IN lh_cat_b.ref").collectAsList().stream()
                .map(r -> r.getString(1))
                .toList())
        .containsExactly("regions");
    assertThat(
            spark.sql("SHOW NAMESPACES IN lh_cat_b").collectAsList().stream()
                .map(r -> r.getString(0))
                .toList())
        .contains("ref");
    spark.sql("CREATE SCHEMA ws_cat.lh_cat_b.Staging");
    assertThat(warehouse.schemaDir("lh_cat_b", "staging")).isDirectory();
    spark.sql("DROP SCHEMA lh_cat_b.staging");
    assertThat(warehouse.schemaDir("lh_cat_b", "staging")).doesNotExist();
  }

  @Test
  void alterPropertiesAndDescribeHistory() {
    spark.sql(
        "ALTER TABLE lh_cat_b.ref.regions SET TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed' = 'true', 'mlv.note' = 'x')");
    List<Row> history = spark.sql("DESCRIBE HISTORY lh_cat_b.ref.regions").collectAsList();
    assertThat(history)
        .extracting(r -> r.getAs("operation").toString())
        .first()
        .isEqualTo("SET TBLPROPERTIES");
    assertThat(
            spark.sql("SHOW TBLPROPERTIES lh_cat_b.ref.regions").collectAsList().stream()
                .map(r -> r.getString(0) + "=" + r.getString(1))
                .toList())
        .contains("delta.enableChangeDataFeed=true", "mlv.note=x");
  }

  @Test
  void renameMovesTheFolderAndDropDeletesIt() {
    spark.sql("CREATE TABLE lh_cat_a.sales.tmp USING delta AS SELECT 1 AS one");
    spark.sql("ALTER TABLE lh_cat_a.sales.tmp RENAME TO sales.tmp_renamed");
    assertThat(warehouse.schemaDir("lh_cat_a", "sales").resolve("tmp")).doesNotExist();
    assertThat(spark.sql("SELECT one FROM lh_cat_a.sales.tmp_renamed").first().getInt(0))
        .isEqualTo(1);
    spark.sql("DROP TABLE lh_cat_a.sales.tmp_renamed");
    assertThat(warehouse.schemaDir("lh_cat_a", "sales").resolve("tmp_renamed")).doesNotExist();
    assertThatThrownBy(() -> spark.sql("SELECT * FROM lh_cat_a.sales.tmp_renamed"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
  }

  @Test
  void aRenameTargetMayNameTheSourcesLakehouseAndWorkspaceWithTwoToFourParts() {
    Path sales = warehouse.schemaDir("lh_cat_a", "sales");
    spark.sql("CREATE TABLE lh_cat_a.sales.mv0 USING delta AS SELECT 1 AS one");
    // Spark passes these targets as written; each names the source's own lakehouse (and workspace).
    List<String[]> steps =
        List.of(
            new String[] {"lh_cat_a.sales.mv0", "lh_cat_a.sales.mv1"},
            new String[] {"lh_cat_a.sales.mv1", "ws_cat.lh_cat_a.sales.mv2"},
            new String[] {"lh_cat_a.sales.mv2", "`LH_Cat_A`.Sales.mv3"},
            new String[] {"lh_cat_a.sales.mv3", "WS_Cat.lh_cat_a.sales.mv4"},
            new String[] {"ws_cat.lh_cat_a.sales.mv4", "ws_cat.lh_cat_a.sales.mv5"},
            new String[] {"ws_cat.lh_cat_a.sales.mv5", "lh_cat_a.sales.mv6"},
            new String[] {"ws_cat.lh_cat_a.sales.mv6", "sales.mv7"},
            new String[] {"ws_cat.lh_cat_a.sales.mv7", "mv8"});
    for (String[] step : steps) {
      spark.sql("ALTER TABLE " + step[0] + " RENAME TO " + step[1]);
    }
    assertThat(sales.resolve("mv0")).doesNotExist();
    assertThat(sales.resolve("mv8")).isDirectory();
    assertThat(spark.sql("SELECT one FROM lh_cat_a.sales.mv8").first().getInt(0)).isEqualTo(1);
    spark.sql("DROP TABLE lh_cat_a.sales.mv8");
  }

  @Test
  void aRenameTargetInAnotherLakehouseOrWorkspaceIsRefusedAsAMove() {
    Path stays = warehouse.schemaDir("lh_cat_a", "sales").resolve("stays");
    spark.sql("CREATE TABLE lh_cat_a.sales.stays USING delta AS SELECT 1 AS one");
    spark.sql("CREATE SCHEMA IF NOT EXISTS lh_cat_b.sales");
    for (String[] rename :
        List.of(
            new String[] {"lh_cat_a.sales.stays", "lh_cat_b.ref.moved"},
            new String[] {"lh_cat_a.sales.stays", "lh_cat_b.sales.moved"},
            new String[] {"lh_cat_a.sales.stays", "ws_cat.lh_cat_b.ref.moved"},
            new String[] {"lh_cat_a.sales.stays", "ws_cat_other.lh_cat_a.sales.moved"},
            new String[] {"ws_cat.lh_cat_a.sales.stays", "lh_cat_b.ref.moved"},
            new String[] {"ws_cat.lh_cat_a.sales.stays", "ws_cat.lh_cat_b.ref.moved"})) {
      assertThatThrownBy(() -> spark.sql("ALTER TABLE " + rename[0] + " RENAME TO " + rename[1]))
          .as(rename[1])
          .hasMessageContaining("a table cannot be moved between lakehouses")
          .hasMessageNotContaining("schema does not exist");
      assertThat(stays).isDirectory();
    }
    assertThat(warehouse.schemaDir("lh_cat_b", "ref").resolve("moved")).doesNotExist();
    assertThat(warehouse.schemaDir("lh_cat_b", "sales").resolve("moved")).doesNotExist();
    spark.sql("DROP TABLE lh_cat_a.sales.stays");
  }

  @Test
  void aPinnedTableIsReadAtItsPinnedVersionByQueriesAndWrites() {
    spark.sql("CREATE TABLE lh_cat_a.sales.pinned USING delta AS SELECT 1 AS n");
    spark.sql("INSERT INTO lh_cat_a.sales.pinned VALUES (2)");
    Path dir = warehouse.schemaDir("lh_cat_a", "sales").resolve("pinned");

    long atZero =
        ReadPins.with(
            java.util.Map.of(dir, 0L),
            () -> {
              // A table written while pinned reads the pinned version too (as a refresh does).
              spark.sql(
                  "CREATE OR REPLACE TABLE lh_cat_a.sales.pinned_copy USING delta AS"
                      + " SELECT * FROM lh_cat_a.sales.pinned");
              return spark.sql("SELECT * FROM lh_cat_a.sales.pinned").count();
            });

    assertThat(atZero).isEqualTo(1);
    assertThat(spark.sql("SELECT * FROM lh_cat_a.sales.pinned_copy").count()).isEqualTo(1);
    assertThat(spark.sql("SELECT * FROM lh_cat_a.sales.pinned").count()).isEqualTo(2);
  }
}
