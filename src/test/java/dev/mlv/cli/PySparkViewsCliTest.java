package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PySpark views from the command line: validate, lineage, selection, plan and a dry run. */
class PySparkViewsCliTest {
  @TempDir Path dir;

  private static final String YML =
      """
      name: py
      workspace: ws
      lakehouse: lh
      schema: dbo
      views: [views]
      sources:
        - bronze.orders
      targets:
        local:
          type: spark
          warehouse: .mlv/warehouse
      """;

  private static final String SILVER =
      "CREATE MATERIALIZED LAKE VIEW silver.orders AS SELECT * FROM bronze.orders\n";

  private static final String GOLD =
      """
      import fmlv

      # %%
      def totals(df):
          return df.groupBy("customer_id").count()

      # %%
      @fmlv.materialized_lake_view(name="gold.order_counts")
      @fmlv.check("has_customer", "customer_id IS NOT NULL", "drop")
      def order_counts():
          return totals(spark.read.table("silver.orders"))
      """;

  private Path project(String py) throws IOException {
    Files.writeString(dir.resolve("mlv.yml"), YML, StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("views"));
    Files.writeString(dir.resolve("views/silver.sql"), SILVER, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("views/gold.py"), py, StandardCharsets.UTF_8);
    return dir;
  }

  @Test
  void pysparkViewsTakePartInLineageAndSelection() throws IOException {
    Path p = project(GOLD);
    CliRun v = CliRun.of("validate", "-p", p.toString());
    assertThat(v.exitCode()).as(v.toString()).isZero();
    assertThat(v.out()).contains("2 views, 0 errors, 0 warnings");

    CliRun json = CliRun.of("lineage", "-p", p.toString(), "--format", "json");
    assertThat(json.out()).contains("\"kind\" : \"pyspark\"");
    CliRun up = CliRun.of("lineage", "-p", p.toString(), "--format", "text", "+gold.order_counts");
    assertThat(up.out())
        .contains("view    silver.orders")
        .contains("pyspark gold.order_counts  (views/gold.py:8)  <- silver.orders");
  }

  @Test
  void brokenDecoratorsFailValidateWithTheirPosition() throws IOException {
    Path p = project(GOLD.replace("name=\"gold.order_counts\"", "name=\"gold.\" + suffix"));
    CliRun v = CliRun.of("validate", "-p", p.toString());
    assertThat(v.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(v.out() + v.err())
        .contains(
            "views/gold.py:8:43: error[PY_DECORATOR_NOT_LITERAL]: @fmlv.materialized_lake_view argument name= is not a literal (found '+')")
        .doesNotContain("Exception");
  }

  @Test
  void aPythonFileWithNoViewIsAWarningAsAnEmptySqlFileIs() throws IOException {
    // Emptying gold.py is how gold.order_counts could be dropped by mistake (plan --prune), as
    // emptying a .sql file is; a .sql file said so, a .py file passed in silence.
    for (String py : new String[] {"", "# nothing left\n", "import fmlv\nx = 1\n"}) {
      CliRun v = CliRun.of("validate", "-p", project(py).toString());
      assertThat(v.exitCode()).as(v.toString()).isEqualTo(ExitCodes.OK);
      assertThat(v.out())
          .as(py)
          .contains(
              "views/gold.py:1:1: warning[EMPTY_FILE]: the file defines no view (no"
                  + " @fmlv.materialized_lake_view function and no %%sql cell with a"
                  + " CREATE MATERIALIZED LAKE VIEW)");
    }
    CliRun ok = CliRun.of("validate", "-p", project(GOLD).toString());
    assertThat(ok.out()).doesNotContain("EMPTY_FILE");
  }

  @Test
  void theLocalTargetPlansAndRefreshesAroundThemAndSaysWhy() throws IOException {
    Path p = project(GOLD);
    CliRun plan = CliRun.of("plan", "-p", p.toString());
    assertThat(plan.out())
        .contains("+ create   silver.orders")
        .contains("no-op    gold.order_counts                        PySpark view: not deployed");
    CliRun dry = CliRun.of("refresh", "-p", p.toString(), "--dry-run", "gold.order_counts");
    assertThat(dry.out()).contains("PYSPARK_NOT_RUN_LOCALLY");
  }
}
