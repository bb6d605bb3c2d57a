package dev.mlv.pyspark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.sql.Name;
import dev.mlv.sql.OnMismatch;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.TableExtractor;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PySparkReaderTest {
  private static final TableExtractor EXTRACTOR = new TableExtractor();

  private static PySparkReader.Result read(String file, String text) {
    return new PySparkReader(() -> EXTRACTOR).read(Path.of(file), text);
  }

  private static List<ViewDefinition> views(PySparkReader.Result r) {
    return r.statements().stream()
        .filter(s -> s instanceof SqlStatement.CreateView)
        .map(s -> ((SqlStatement.CreateView) s).definition())
        .toList();
  }

  private static List<String> rules(PySparkReader.Result r) {
    return r.diagnostics().stream().map(Diagnostic::ruleId).toList();
  }

  private static List<String> tables(PySparkReader.Result r, ViewDefinition v) {
    QueryFacts f = r.facts().get(v);
    return f.tables().stream().map(Name::dotted).toList();
  }

  @Test
  void readsTheSeedExampleWithEveryDecoratorArgument() {
    var r =
        read(
            "views/silver/customer.py",
            """
            import fmlv
            from pyspark.sql import functions as F

            @fmlv.materialized_lake_view(
                name="LH1.silver.customer_enriched",
                comment="Customers with sales in USD",
                partition_cols=["year", "city"],
                table_properties={"delta.enableChangeDataFeed": "true"},
                replace=True
            )
            @fmlv.check("nonnull_sales", "sales IS NOT NULL", "drop")
            @fmlv.check("positive", "sales >= 0")
            def customer_enriched():
                df = spark.read.table("LH2.bronze.customer_bronze")
                return df.withColumn("sales_in_usd", F.col("sales") * 1.0)
            """);
    assertThat(r.diagnostics()).isEmpty();
    ViewDefinition v = views(r).get(0);
    assertThat(v.name().parts()).containsExactly("lh1", "silver", "customer_enriched");
    assertThat(v.orReplace()).isTrue();
    assertThat(v.comment()).contains("Customers with sales in USD");
    assertThat(v.partitionedBy()).containsExactly("year", "city");
    assertThat(v.properties()).containsEntry("delta.enableChangeDataFeed", "true");
    assertThat(v.constraints())
        .extracting(c -> c.name() + ":" + c.expression() + ":" + c.onMismatch())
        .containsExactly(
            "nonnull_sales:sales IS NOT NULL:" + OnMismatch.DROP,
            "positive:sales >= 0:" + OnMismatch.FAIL);
    assertThat(v.position().toString()).isEqualTo("views/silver/customer.py:4:1");
    assertThat(((ViewBody.Python) v.body()).function()).isEqualTo("customer_enriched");
    assertThat(v.statement()).startsWith("@fmlv.materialized_lake_view(").contains("return df");
    assertThat(tables(r, v)).containsExactly("lh2.bronze.customer_bronze");
    assertThat(r.facts().get(v).tables().get(0).position().toString())
        .isEqualTo("views/silver/customer.py:14:28");
  }

  @Test
  void aVariableInADecoratorIsRefusedWhereItStands() {
    var r =
        read(
            "v.py",
            """
            import fmlv
            view_name = "LH1.silver.customer_silver"
            @fmlv.materialized_lake_view(name=view_name)
            def customer_silver():
                return spark.read.table("bronze.customer_bronze")
            """);
    assertThat(views(r)).isEmpty();
    Diagnostic d = r.diagnostics().get(0);
    assertThat(d.ruleId()).isEqualTo("PY_DECORATOR_NOT_LITERAL");
    assertThat(d.position().toString()).isEqualTo("v.py:3:35");
    assertThat(d.message()).contains("argument name= is not a literal (found 'view_name')");
  }

  @Test
  void notebookRulesOneViewPerCellHelpersAboveMagicsOnTop() {
    var twoInCell =
        read(
            "nb.py",
            """
            # %%
            import fmlv
            # %%
            @fmlv.materialized_lake_view(name="silver.a")
            def a():
                return spark.table("bronze.x")

            @fmlv.materialized_lake_view(name="silver.b")
            def b():
                return spark.table("bronze.x")
            """);
    assertThat(rules(twoInCell)).containsExactly("PY_ONE_VIEW_PER_CELL");
    assertThat(twoInCell.diagnostics().get(0).position().line()).isEqualTo(8);

    var helperBelow =
        read(
            "nb.py",
            """
            import fmlv
            # %%
            @fmlv.materialized_lake_view(name="silver.a")
            def a():
                return clean(spark.table("bronze.x"))
            # %%
            def clean(df):
                return df.dropna()
            """);
    assertThat(rules(helperBelow)).containsExactly("PY_HELPER_BELOW");
    assertThat(helperBelow.diagnostics().get(0).position().toString()).isEqualTo("nb.py:5:12");

    var magic =
        read(
            "nb.py",
            """
            # %%
            %%pyspark
            import fmlv
            # %%
            x = 1
            %%sql
            SELECT 1
            # %%
            %pip install numpy
            """);
    assertThat(rules(magic)).containsExactly("PY_MAGIC_NOT_AT_TOP", "PY_MAGIC_UNSUPPORTED");
    assertThat(magic.diagnostics().get(0).position().toString()).isEqualTo("nb.py:6:1");
  }

  @Test
  void sqlInSparkSqlIsReadByTheSameExtractorAsSqlViews() {
    var r =
        read(
            "v.py",
            """
            import fmlv
            @fmlv.materialized_lake_view(name="gold.orders_by_customer")
            def orders_by_customer():
                return spark.sql(\"\"\"
                    SELECT c.id, COUNT(*) AS n
                    FROM silver.customers c JOIN silver.orders o ON o.customer_id = c.id
                    GROUP BY c.id\"\"\")
            """);
    assertThat(r.diagnostics()).isEmpty();
    ViewDefinition v = views(r).get(0);
    assertThat(tables(r, v)).containsExactly("silver.customers", "silver.orders");
    assertThat(r.facts().get(v).tables().get(1).position().toString()).isEqualTo("v.py:6:38");
  }

  @Test
  void readsThroughHelpersAndChainsAndDeclaredDependencies() {
    var r =
        read(
            "v.py",
            """
            import fmlv
            from delta.tables import DeltaTable

            def load(name):
                return spark.read.format("delta").option("x", "y").table(name)

            def lookups():
                return DeltaTable.forName(spark, "ref.countries").toDF()

            # mlv: depends-on bronze.events_2024, bronze.events_2025
            @fmlv.materialized_lake_view(name="silver.events")
            def events():
                return load(f"bronze.events_{year}").join(lookups(), "country")
            """);
    assertThat(rules(r)).containsExactly("PY_DYNAMIC_READ");
    assertThat(r.diagnostics().get(0).position().toString()).isEqualTo("v.py:5:62");
    ViewDefinition v = views(r).get(0);
    assertThat(tables(r, v))
        .containsExactly("bronze.events_2024", "bronze.events_2025", "ref.countries");
    assertThat(((ViewBody.Python) v.body()).source())
        .contains("def load(name)")
        .contains("def lookups()")
        .contains("def events()");
  }

  @Test
  void namesWithAPeriodAndUnknownArgumentsAreRefused() {
    var period =
        read(
            "v.py",
            """
            import fmlv
            @fmlv.materialized_lake_view(name="silver.`a.b`")
            def ab():
                return spark.table("bronze.x")
            """);
    assertThat(rules(period)).containsExactly("PY_VIEW_NAME");
    var unknown =
        read(
            "v.py",
            """
            import fmlv
            @fmlv.materialized_lake_view(name="silver.a", partitions=["x"])
            def a():
                return spark.table("bronze.x")
            """);
    assertThat(rules(unknown)).containsExactly("PY_DECORATOR_ARGUMENT");
    assertThat(unknown.diagnostics().get(0).hint()).contains("partition_cols");
  }

  @Test
  void unrelatedCodeIsAWarning() {
    var r =
        read(
            "v.py",
            """
            import fmlv
            LIMIT = 10
            @fmlv.materialized_lake_view(name="silver.a")
            def a():
                return spark.table("bronze.x").limit(LIMIT)
            display(spark.table("silver.a"))
            """);
    assertThat(rules(r)).containsExactly("PY_UNRELATED_CODE");
    assertThat(r.diagnostics().get(0).position().line()).isEqualTo(6);
    assertThat(r.diagnostics().get(0).isError()).isFalse();
  }

  @Test
  void theFingerprintIgnoresCommentsAndLayoutButNotCodeNorHelpers() {
    String base =
        """
        import fmlv
        def clean(df):
            return df.dropna()
        @fmlv.materialized_lake_view(name="silver.a")
        def a():
            return clean(spark.table("bronze.x"))
        """;
    String comments =
        """
        import fmlv
        def clean(df):   # drop incomplete rows
            return df.dropna( )
        @fmlv.materialized_lake_view(name="silver.a")
        def a():
            # read bronze
            return clean(
                spark.table("bronze.x"))
        """;
    String helper = base.replace("df.dropna()", "df.dropna(how='all')");
    String code = base.replace("bronze.x", "bronze.y");
    String fp = views(read("v.py", base)).get(0).fingerprint();
    assertThat(views(read("v.py", comments)).get(0).fingerprint()).isEqualTo(fp);
    assertThat(views(read("v.py", helper)).get(0).fingerprint()).isNotEqualTo(fp);
    assertThat(views(read("v.py", code)).get(0).fingerprint()).isNotEqualTo(fp);
  }

  @Test
  void notebooksMapPositionsIntoTheJsonAndReadSqlCells() {
    String nb =
        """
        {
         "cells": [
          {
           "cell_type": "markdown",
           "source": ["# Silver\\n"]
          },
          {
           "cell_type": "code",
           "source": [
            "import fmlv\\n",
            "def tidy(df):\\n",
            "    return df\\n"
           ]
          },
          {
           "cell_type": "code",
           "source": [
            "@fmlv.materialized_lake_view(name=\\"silver.a\\")\\n",
            "def a():\\n",
            "    return tidy(spark.read.table(\\"bronze.x\\"))\\n",
            "@fmlv.materialized_lake_view(name=\\"silver.b\\")\\n",
            "def b():\\n",
            "    return spark.read.table(\\"bronze.x\\")\\n"
           ]
          },
          {
           "cell_type": "code",
           "source": [
            "%%sql\\n",
            "CREATE MATERIALIZED LAKE VIEW silver.c AS SELECT * FROM bronze.y\\n"
           ]
          }
         ],
         "metadata": {},
         "nbformat": 4
        }
        """;
    var r = read("nb.ipynb", nb);
    assertThat(rules(r)).containsExactly("PY_ONE_VIEW_PER_CELL");
    assertThat(r.diagnostics().get(0).position().toString()).isEqualTo("nb.ipynb:21:6");
    List<ViewDefinition> v = views(r);
    assertThat(v)
        .extracting(d -> d.name().dotted())
        .containsExactly("silver.c", "silver.a", "silver.b");
    assertThat(v.get(0).body()).isInstanceOf(ViewBody.Select.class);
    assertThat(tables(r, v.get(0))).containsExactly("bronze.y");
    assertThat(v.get(1).position().toString()).isEqualTo("nb.ipynb:18:6");
    assertThat(tables(r, v.get(1))).containsExactly("bronze.x");

    var broken = read("nb.ipynb", "{\"cells\": [");
    assertThat(rules(broken)).containsExactly("NOTEBOOK_JSON");
    assertThat(broken.diagnostics().get(0).message()).doesNotContain("Source", "REDACTED");
  }

  @Test
  void unclosedStringsArePositionedSyntaxErrors() {
    var r =
        read(
            "v.py",
            """
            import fmlv
            @fmlv.materialized_lake_view(name="silver.a)
            def a():
                return spark.table("bronze.x")
            """);
    assertThat(rules(r)).containsExactly("PY_SYNTAX");
    assertThat(r.diagnostics().get(0).position().toString()).isEqualTo("v.py:2:35");
  }

  @Test
  void anUnclosedBracketIsASyntaxErrorAtTheBracketNotAMissingFunction() {
    var r =
        read(
            "v.py",
            """
            import fmlv
            @fmlv.materialized_lake_view(name="silver.a"
            def a():
                return spark.table("bronze.x")
            """);
    assertThat(rules(r)).containsExactly("PY_SYNTAX");
    assertThat(r.diagnostics().get(0).format())
        .startsWith("v.py:2:29: error[PY_SYNTAX]: '(' is never closed");
  }

  @Test
  void indentationPythonRefusesIsASyntaxErrorAtTheLine() {
    String view =
        """
        import fmlv
        @fmlv.materialized_lake_view(name="silver.a")
        def a():
        %s
        """;
    var unexpected =
        read("v.py", view.formatted("    df = spark.table(\"bronze.x\")\n        return df"));
    assertThat(rules(unexpected)).containsExactly("PY_SYNTAX");
    assertThat(unexpected.diagnostics().get(0).format())
        .startsWith("v.py:5:9: error[PY_SYNTAX]: unexpected indent");
    var unindent = read("v.py", view.formatted("    df = spark.table(\"bronze.x\")\n  return df"));
    assertThat(unindent.diagnostics().get(0).format())
        .startsWith(
            "v.py:5:3: error[PY_SYNTAX]: unindent does not match any outer indentation level");
    var noBody = read("v.py", view.formatted("return spark.table(\"bronze.x\")"));
    assertThat(noBody.diagnostics().get(0).format())
        .startsWith(
            "v.py:4:1: error[PY_SYNTAX]: expected an indented block after the 'def' on line 3");
    var atEnd = read("v.py", view.formatted("    if True:"));
    assertThat(atEnd.diagnostics().get(0).format())
        .contains("error[PY_SYNTAX]: expected an indented block after the 'if' on line 4");
    // Brackets, continuation lines, comments and one-line compound statements are not lines.
    var fine =
        read(
            "v.py",
            view.formatted(
                """
                    df = spark.table(
                  "bronze.x")  # an odd indent inside brackets
                    if df is None: return None
                    x = {"k":
                1}
                    y = 1 + \\
                  2
                # a comment at column 1
                    return df"""));
    assertThat(fine.diagnostics()).isEmpty();
  }

  @Test
  void aCheckThatIsNotAnExpressionIsFoundAsInASqlView() {
    var r =
        read(
            "v.py",
            """
            import fmlv
            @fmlv.materialized_lake_view(name="silver.a")
            @fmlv.check("ok", "x > 0", "drop")
            @fmlv.check("bad", "x >", "drop")
            def a():
                return spark.table("bronze.x")
            """);
    assertThat(r.facts().get(views(r).get(0)).unreadableChecks()).containsExactly("bad");
  }
}
