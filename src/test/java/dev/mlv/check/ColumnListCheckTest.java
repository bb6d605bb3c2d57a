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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * COLUMN_LIST_LENGTH: a column list renaming a FROM item's or CTE's columns that does not name as
 * many as it has, which Spark refuses (each case measured on Spark 4.1.1 through mlv apply).
 */
class ColumnListCheckTest {
  @TempDir Path dir;

  /** silver.s produces id, amt and city. */
  private static final String SILVER_S =
      "CREATE MATERIALIZED LAKE VIEW silver.s AS\n"
          + "SELECT id, amount AS amt, city FROM bronze.orders\n";

  private List<Diagnostic> check(String select) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources: [bronze.orders]\n");
    write("silver/s.sql", SILVER_S);
    write("gold/g.sql", "CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + select + "\n");
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project).stream()
        .filter(d -> d.ruleId().equals(ColumnListCheck.RULE))
        .toList();
  }

  private void write(String name, String text) throws IOException {
    Path f = dir.resolve("views").resolve(name);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }

  @Test
  void anAliasOfAViewOfTheProjectNamingTooFewColumnsIsAnErrorAtTheAlias() throws IOException {
    List<Diagnostic> found = check("SELECT x.a\nFROM silver.s AS x(a)");
    assertThat(found).hasSize(1);
    Diagnostic d = found.get(0);
    assertThat(d.isError()).isTrue();
    assertThat(d.position().toString()).isEqualTo("views/gold/g.sql:3:18");
    assertThat(d.message())
        .isEqualTo(
            "alias x(a) names 1 column, but silver.s (views/silver/s.sql) has 3 columns: id, amt,"
                + " city; Spark would refuse gold.g when apply or refresh runs it"
                + " ([ASSIGNMENT_ARITY_MISMATCH])");
    assertThat(d.hint())
        .isEqualTo(
            "write 3 names in x(...), one per column, or drop the list and alias the columns"
                + " where they are selected");
  }

  @Test
  void valuesRowsAndASubqueryTellTheirNumberOfColumns() throws IOException {
    List<Diagnostic> found =
        check(
            "SELECT v.a, d.a AS b\n"
                + "FROM (VALUES (1, 2)) AS v(a)\n"
                + "CROSS JOIN (SELECT id, amount FROM bronze.orders) AS d(a)");
    assertThat(found)
        .extracting(d -> d.position().toString() + " " + d.message())
        .containsExactly(
            "views/gold/g.sql:3:25 alias v(a) names 1 column, but its VALUES rows have 2 values;"
                + " Spark would refuse gold.g when apply or refresh runs it"
                + " ([ASSIGNMENT_ARITY_MISMATCH])",
            "views/gold/g.sql:4:54 alias d(a) names 1 column, but its subquery selects 2"
                + " columns; Spark would refuse gold.g when apply or refresh runs it"
                + " ([ASSIGNMENT_ARITY_MISMATCH])");
  }

  @Test
  void aBareValuesListIsSparksInlineTable() throws IOException {
    List<Diagnostic> found = check("SELECT v.a FROM VALUES 1, 2 AS v(a, b)");
    assertThat(found)
        .extracting(Diagnostic::message)
        .containsExactly(
            "alias v(a, b) names 2 columns, but its VALUES rows have 1 value; Spark would refuse"
                + " gold.g when apply or refresh runs it"
                + " ([INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH])");
  }

  @Test
  void aCteListAndAnAliasOfACteAreCountedAsWell() throws IOException {
    List<Diagnostic> found =
        check(
            "WITH c(x) AS (SELECT id, city FROM bronze.orders),\n"
                + "     e AS (SELECT id, amt FROM silver.s)\n"
                + "SELECT y.p FROM e AS y(p)");
    assertThat(found)
        .extracting(d -> d.position().toString() + " " + d.message())
        .containsExactly(
            "views/gold/g.sql:2:6 CTE c(x) names 1 column, but its query selects 2 columns;"
                + " Spark would refuse gold.g when apply or refresh runs it"
                + " ([ASSIGNMENT_ARITY_MISMATCH])",
            "views/gold/g.sql:4:22 alias y(p) names 1 column, but CTE e has 2 columns; Spark"
                + " would refuse gold.g when apply or refresh runs it"
                + " ([ASSIGNMENT_ARITY_MISMATCH])");
  }

  /** Each of these applies on Spark 4.1.1, or its column count is not told by the SQL. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT x.a FROM silver.s AS x(a, b, c)",
        "SELECT x.a FROM silver.s x(a, b, c)",
        "SELECT z.k FROM (VALUES (1, 'a'), (2, 'b')) AS z(k, l)",
        "SELECT y.p FROM (SELECT id, amt FROM silver.s) AS y(p, q)",
        "SELECT y.p FROM (SELECT id FROM silver.s UNION ALL SELECT id FROM silver.s) AS y(p)",
        "WITH c AS (SELECT id, amt FROM silver.s), e(p, q) AS (SELECT * FROM c)"
            + " SELECT e2.m FROM e AS e2(m, n)",
        // A source's columns are the catalog's; a * and a generator's columns are not told.
        "SELECT x.a FROM bronze.orders AS x(a)",
        "SELECT s.a FROM (SELECT * FROM bronze.orders) AS s(a)",
        "SELECT g.v FROM (SELECT posexplode(array(1, 2))) AS g(v)",
        "SELECT r.id FROM range(3) AS r(id, extra)",
        "WITH s AS (SELECT id FROM silver.s AS t(id, amt, city)) SELECT q.i FROM s AS q(i)"
      })
  void aListOfTheRightLengthOrOfAnUnknownOneIsNotReported(String select) throws IOException {
    assertThat(check(select)).isEmpty();
  }
}
