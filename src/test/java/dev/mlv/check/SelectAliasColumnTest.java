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

/**
 * UNRESOLVED_COLUMN for a name that only a select alias has, where Spark does not resolve select
 * aliases: ON, WHERE, and a subquery of them or of the SELECT list (each run on Spark 4.1.1 with
 * mlv shell and apply, which refused it with UNRESOLVED_COLUMN.WITH_SUGGESTION at the name).
 */
class SelectAliasColumnTest {
  @TempDir Path dir;

  /** silver.s produces id, amt and info; silver.t produces id and qty. */
  private List<Diagnostic> check(String select) throws IOException {
    return check(select, UpstreamColumnCheck.RULE);
  }

  private List<Diagnostic> check(String select, String rule) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\n"
            + "sources: [bronze.orders, bronze.customers]\n");
    write(
        "silver/s.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.s AS\n"
            + "SELECT id, amount AS amt, named_struct('city', c) AS info FROM bronze.orders\n");
    write(
        "silver/t.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.t AS SELECT id, qty FROM bronze.orders\n");
    write("gold/g.sql", "CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + select + "\n");
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project).stream().filter(d -> d.ruleId().equals(rule)).toList();
  }

  private void write(String name, String text) throws IOException {
    Path f = dir.resolve("views").resolve(name);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }

  @Test
  void aSelectAliasReadInWhereIsAnErrorAtTheName() throws IOException {
    List<Diagnostic> found = check("SELECT amt + 1 AS b FROM silver.s WHERE b > 0");
    assertThat(found).hasSize(1);
    Diagnostic d = found.get(0);
    assertThat(d.isError()).isTrue();
    assertThat(d.position().toString()).isEqualTo("views/gold/g.sql:2:41");
    assertThat(d.message())
        .isEqualTo(
            "column b cannot be resolved: silver.s (views/silver/s.sql) does not produce b, only"
                + " id, amt, info; Spark would refuse gold.g when apply or refresh runs it"
                + " ([UNRESOLVED_COLUMN.WITH_SUGGESTION]); b is an alias of the SELECT list,"
                + " which Spark does not resolve in WHERE");
    assertThat(d.hint())
        .isEqualTo(
            "repeat the aliased expression there, or compute it in a subquery or CTE"
                + " (WITH q AS (SELECT ... AS b ...) SELECT ... FROM q WHERE b ...)");
  }

  @Test
  void inOnAndInSubqueriesOfWhereAndOfTheSelectListTooWhateverTheCase() throws IOException {
    assertThat(check("SELECT s.amt + 1 AS b FROM silver.s s JOIN silver.t t ON b = t.qty"))
        .extracting(d -> d.position().toString() + " " + d.message().replaceAll(".*in ", ""))
        .containsExactly("views/gold/g.sql:2:58 ON");
    assertThat(
            check(
                "SELECT amt + 1 AS b FROM silver.s\n"
                    + "WHERE EXISTS (SELECT 1 FROM silver.t WHERE qty = b)"))
        .extracting(
            d -> d.position().toString() + " " + d.message().replaceAll(".*resolve in ", ""))
        .containsExactly("views/gold/g.sql:3:50 a subquery");
    assertThat(
            check(
                "SELECT amt + 1 AS b, (SELECT max(qty) FROM silver.t WHERE qty = b) AS m"
                    + " FROM silver.s"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:65");
    assertThat(check("SELECT amt AS B FROM silver.s WHERE b > 0"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:37");
  }

  /**
   * Found by QA: a lateral alias read inside an aggregate function or a window passed validate, and
   * Spark 4.1.1 refused it (UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC, _IN_WINDOW;
   * each case measured, also count(DISTINCT x), FILTER (WHERE x ...), WITHIN GROUP (ORDER BY x) and
   * row_number() OVER (ORDER BY x)).
   */
  @Test
  void aLateralAliasInsideAnAggregateOrAWindowIsAnError() throws IOException {
    List<Diagnostic> found =
        check(
            "SELECT amt * 2 AS rev, SUM(rev) AS total FROM silver.s GROUP BY amt", "LATERAL_ALIAS");
    assertThat(found).hasSize(1);
    assertThat(found.get(0).position().toString()).isEqualTo("views/gold/g.sql:2:28");
    assertThat(found.get(0).message())
        .isEqualTo(
            "rev is an alias of this SELECT list (no table in scope has such a column), read inside"
                + " an aggregate function, where Spark reads no lateral column alias; Spark would"
                + " refuse gold.g when apply or refresh runs it"
                + " ([UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC])");
    assertThat(found.get(0).hint())
        .isEqualTo(
            "write the aliased expression itself there, or compute rev in a subquery or CTE and"
                + " aggregate it in the query around it");
    assertThat(
            check(
                "SELECT amt * 2 AS rev, count(DISTINCT rev) AS n,"
                    + " sum(amt) FILTER (WHERE rev > 1) AS f,"
                    + " percentile_cont(0.5) WITHIN GROUP (ORDER BY rev) AS p"
                    + " FROM silver.s GROUP BY amt",
                "LATERAL_ALIAS"))
        .extracting(d -> d.position().column())
        .containsExactly(39, 73, 132);
    assertThat(
            check(
                "SELECT amt * 2 AS rev, max(rev) OVER () AS m,"
                    + " row_number() OVER (PARTITION BY rev ORDER BY id) AS r FROM silver.s",
                "LATERAL_ALIAS"))
        .extracting(d -> d.position().column() + " " + d.message().contains("_IN_WINDOW"))
        .containsExactly("28 true", "79 true");
    // A field of the alias (found by QA): Spark refuses it as it refuses the alias.
    assertThat(check("SELECT info AS x, max(x.city) OVER () AS m FROM silver.s", "LATERAL_ALIAS"))
        .extracting(d -> d.position().column() + " " + d.message().substring(0, 16))
        .containsExactly("23 x (in x.city) is");
    List<String> fine =
        List.of(
            // a column of that name wins over the alias
            "SELECT id + 1 AS amt, SUM(amt) AS total FROM silver.s GROUP BY id",
            // outside an aggregate, and an alias of the item itself or of a later one
            "SELECT amt * 2 AS rev, rev + 1 AS r2 FROM silver.s",
            "SELECT SUM(rev) AS t, amt * 2 AS rev FROM silver.s GROUP BY amt",
            // a table alias and a struct column's field
            "SELECT s.amt AS s, SUM(s.amt) AS total FROM silver.s s GROUP BY s.amt",
            "SELECT id AS info, max(info.city) AS c FROM silver.s GROUP BY id",
            // a subquery's aggregate reads its own FROM
            "SELECT amt AS q, (SELECT max(qty) FROM silver.t) AS m FROM silver.s",
            // columns not all known
            "SELECT amount * 2 AS rev, SUM(rev) AS total FROM bronze.orders GROUP BY amount");
    for (String select : fine) {
      assertThat(check(select, "LATERAL_ALIAS")).as(select).isEmpty();
    }
  }

  @Test
  void whereSparkResolvesTheAliasOrTheColumnsAreNotAllKnownNothingIsReported() throws IOException {
    List<String> fine =
        List.of(
            // lateral aliases, GROUP BY, HAVING and ORDER BY by alias
            "SELECT amt + 1 AS b, b + 1 AS c FROM silver.s",
            "SELECT amt + 1 AS b, count(*) AS n FROM silver.s GROUP BY b",
            "SELECT amt + 1 AS b, count(*) AS n FROM silver.s GROUP BY amt + 1 HAVING b > 0",
            "SELECT sum(amt) AS total FROM silver.s HAVING total > 0",
            "SELECT amt + 1 AS b FROM silver.s ORDER BY b",
            // an alias named like a column: WHERE reads the column
            "SELECT id + 1 AS amt FROM silver.s WHERE amt > 0",
            // a table whose columns are not known may have a column b
            "SELECT amount + 1 AS b FROM bronze.orders WHERE b > 0",
            "SELECT s.amt AS b FROM silver.s s JOIN bronze.customers c ON s.id = c.id WHERE b > 0",
            // a subquery's own alias in its own ORDER BY
            "SELECT id FROM silver.s WHERE id IN (SELECT qty + 1 AS q FROM silver.t ORDER BY q)");
    for (String select : fine) {
      assertThat(check(select)).as(select).isEmpty();
    }
  }
}
