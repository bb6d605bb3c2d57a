package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** COLUMN_TYPE: a column whose type, fixed by the SELECT's text, a Delta table cannot store. */
class ColumnTypeCheckTest {
  @TempDir Path dir;

  private List<Diagnostic> check(String select) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources: [bronze.orders]\n");
    write(
        "silver/a.sql", "CREATE MATERIALIZED LAKE VIEW silver.a AS SELECT id FROM bronze.orders\n");
    write("gold/g.sql", "CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + select + "\n");
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project).stream().filter(d -> d.ruleId().equals("COLUMN_TYPE")).toList();
  }

  private void write(String name, String text) throws IOException {
    Path f = dir.resolve("views").resolve(name);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }

  private static String at(Diagnostic d) {
    return d.position() + " " + d.message();
  }

  @Test
  void anIntervalColumnIsAnErrorAtTheColumnNamingItsType() throws IOException {
    List<Diagnostic> found = check("SELECT id,\n  INTERVAL 1 DAY AS grace\nFROM bronze.orders");
    assertThat(found)
        .extracting(ColumnTypeCheckTest::at)
        .containsExactly(
            "views/gold/g.sql:3:3 column grace is of type INTERVAL DAY, which a Delta table"
                + " cannot store: Spark would refuse gold.g when apply or refresh runs it"
                + " ([DELTA_UNSUPPORTED_DATA_TYPES])");
    assertThat(found.get(0).isError()).isTrue();
    assertThat(found.get(0).hint())
        .isEqualTo(
            "store a number, the seconds (unix_timestamp(end) - unix_timestamp(start)) or days"
                + " (datediff(end, start)), or the text: CAST(... AS STRING)");
    assertThat(check("SELECT CAST(id AS INTERVAL YEAR TO MONTH) AS span FROM bronze.orders"))
        .extracting(Diagnostic::hint)
        .containsExactly(
            "store a number, the months (months_between(end, start)), or the text:"
                + " CAST(... AS STRING)");
  }

  @Test
  void timeMakeIntervalAndTypelessNullsEachSayWhatFails() throws IOException {
    assertThat(
            check(
                "SELECT to_time(s) AS t, make_interval(0, 1) AS mi, NULL AS n,"
                    + " array() AS a, named_struct('x', NULL) AS st FROM bronze.orders"))
        .extracting(ColumnTypeCheckTest::at)
        .containsExactly(
            "views/gold/g.sql:2:8 column t is of type TIME, which Spark 4.1 does not support:"
                + " Spark would refuse gold.g when apply or refresh runs it"
                + " ([UNSUPPORTED_TIME_TYPE])",
            "views/gold/g.sql:2:25 column mi is of type INTERVAL (months, days and"
                + " microseconds), which a Delta table cannot store: Spark would refuse gold.g"
                + " when apply or refresh runs it (Cannot use \"INTERVAL\" type in the table"
                + " schema)",
            "views/gold/g.sql:2:52 column n is NULL without a type (VOID): Delta creates the"
                + " table, but every query that reads n, a * over the view included, fails"
                + " ([INTERNAL_ERROR_ATTRIBUTE_NOT_FOUND])",
            "views/gold/g.sql:2:63 column a holds NULL without a type (VOID, at a[]), which"
                + " Delta cannot store inside an array, map or struct: Spark would refuse gold.g"
                + " when apply or refresh runs it",
            "views/gold/g.sql:2:77 column st holds NULL without a type (VOID, at st.x), which"
                + " Delta cannot store inside an array, map or struct: Spark would refuse gold.g"
                + " when apply or refresh runs it");
  }

  @Test
  void aColonCastIsReportedAtItsItemAndAColumnWithoutAnAliasByItsDerivedName() throws IOException {
    // (A cast to TIME is NOT_SPARK_SQL at the type, before any column is made of it.)
    assertThat(check("SELECT id::VOID AS t, id, s::STRUCT<a: VOID> AS u FROM bronze.orders"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:8", "views/gold/g.sql:2:27");
    assertThat(check("SELECT id, CAST(id AS INTERVAL HOUR) FROM bronze.orders"))
        .extracting(ColumnTypeCheckTest::at)
        .containsExactly(
            "views/gold/g.sql:2:12 column id is of type INTERVAL HOUR, which a Delta table"
                + " cannot store: Spark would refuse gold.g when apply or refresh runs it"
                + " ([DELTA_UNSUPPORTED_DATA_TYPES])");
  }

  @Test
  void aStarBesideIsNotExpandedAndTheNamedColumnIsStillReported() throws IOException {
    assertThat(check("SELECT *, NULL AS note FROM bronze.orders"))
        .extracting(d -> d.position() + " " + d.hint())
        .containsExactly(
            "views/gold/g.sql:2:11 give it the type it should have: CAST(NULL AS STRING) AS note");
    assertThat(check("SELECT a.*, CAST(a.id AS INTERVAL DAY) AS d FROM silver.a a"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:13");
  }

  @Test
  void whatTheTextDoesNotFixIsNotReported() throws IOException {
    List<String> fine =
        List.of(
            // the source's column types are not known, nor what an operator makes of them
            "SELECT * FROM bronze.orders",
            "SELECT order_date - shipped_date AS days FROM bronze.orders",
            "SELECT ts + INTERVAL 1 DAY AS due FROM bronze.orders",
            "SELECT CAST(INTERVAL 1 DAY AS STRING) AS grace, CAST(NULL AS INT) AS n"
                + " FROM bronze.orders",
            // a union's column has the type of both branches
            "SELECT NULL AS n FROM bronze.orders UNION ALL SELECT id FROM bronze.orders",
            "SELECT INTERVAL 1 DAY AS i FROM bronze.orders EXCEPT SELECT i FROM bronze.orders",
            // only the view's own columns count, not a CTE's or a subquery's
            "WITH w AS (SELECT INTERVAL 1 DAY AS i FROM bronze.orders) SELECT id FROM w",
            "SELECT * FROM (SELECT NULL AS n FROM bronze.orders) q",
            "SELECT id FROM bronze.orders WHERE ts > current_timestamp() - INTERVAL 1 DAY",
            "SELECT parse_json(payload) AS v FROM bronze.orders");
    for (String select : fine) {
      assertThat(check(select)).as(select).isEmpty();
    }
  }

  @Test
  void aCollatedStringColumnIsAnErrorAtTheColumn() throws IOException {
    // Found against Delta 4.2 here: [DELTA_UNSUPPORTED_DATA_TYPES] ... [n: StringType(UNICODE)].
    List<Diagnostic> found =
        check(
            "SELECT id, collate(name, 'UNICODE') AS n,\n"
                + "  array(collate(name, 'UTF8_LCASE')) AS a, collate(name, 'UTF8_BINARY') AS b\n"
                + "FROM bronze.orders WHERE collate(name, 'UTF8_LCASE') = 'a'");
    assertThat(found)
        .extracting(ColumnTypeCheckTest::at)
        .containsExactly(
            "views/gold/g.sql:2:12 column n is of type STRING COLLATE UNICODE, a collated"
                + " string, which Delta 4.2 does not write here: Spark would refuse gold.g when"
                + " apply or refresh runs it ([DELTA_UNSUPPORTED_DATA_TYPES])",
            "views/gold/g.sql:3:3 column a holds STRING COLLATE UTF8_LCASE (at a[]), a collated"
                + " string, which Delta 4.2 does not write here: Spark would refuse gold.g when"
                + " apply or refresh runs it ([DELTA_UNSUPPORTED_DATA_TYPES])");
    assertThat(found.get(0).isError()).isTrue();
    assertThat(found.get(0).hint()).contains("lower(x)");
  }

  /**
   * An interval of several units, or of milliseconds, and an interval type after {@code ::}: the
   * view used to go to the fallback parser, and no COLUMN_TYPE came (found by QA; the types are
   * Spark 4.1.1's typeof of each literal).
   */
  @Test
  void intervalsCalciteDidNotReadAreStillTyped() throws IOException {
    List<Diagnostic> found =
        check(
            "SELECT id, INTERVAL 1 YEAR 2 MONTHS AS ym, INTERVAL '1' DAY 2 HOURS AS dh,"
                + " INTERVAL 5 MILLISECONDS AS ms, id::INTERVAL MINUTE AS m FROM bronze.orders"
                + " LIMIT ALL");
    assertThat(found)
        .extracting(Diagnostic::message)
        .allMatch(m -> m.contains("which a Delta table cannot store"))
        .extracting(m -> m.substring(0, m.indexOf(',')))
        .containsExactly(
            "column ym is of type INTERVAL YEAR TO MONTH",
            "column dh is of type INTERVAL DAY TO HOUR",
            "column ms is of type INTERVAL SECOND",
            "column m is of type INTERVAL MINUTE");
    // The units inside the string: Spark's typeof gives the same ANSI types.
    assertThat(
            check(
                    "SELECT id, INTERVAL '1 days' AS a, INTERVAL '1 year 2 months' AS b,"
                        + " INTERVAL '3 seconds' AS c, d + INTERVAL '2 days' AS e FROM bronze.orders")
                .stream()
                .map(d -> d.message().substring(0, d.message().indexOf(',')))
                .toList())
        .containsExactly(
            "column a is of type INTERVAL DAY",
            "column b is of type INTERVAL YEAR TO MONTH",
            "column c is of type INTERVAL SECOND");
  }
}
