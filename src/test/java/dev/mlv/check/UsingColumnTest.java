package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code JOIN ... USING (x)} where one side has no column x, which Spark refuses when apply runs
 * the view ([UNRESOLVED_USING_COLUMN_FOR_JOIN], found by QA: validate and plan passed it). Each
 * case, refused or taken, measured on Spark 4.1.1.
 */
class UsingColumnTest {
  @TempDir Path dir;

  /** silver.s produces id and amt; silver.t id and qty; silver.u id, qty and z. */
  private List<Diagnostic> check(String select) throws IOException {
    return JoinedViewsProject.check(
        dir,
        TableColumns.NONE,
        UpstreamColumnCheck.RULE,
        Map.of(
            "silver/u.sql",
            "CREATE MATERIALIZED LAKE VIEW silver.u AS SELECT id, qty, z FROM bronze.orders\n"),
        "CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + select + "\n");
  }

  private static String at(Diagnostic d) {
    return d.position() + " " + d.ruleId() + " " + d.message() + " / " + d.hint();
  }

  @Test
  void aUsingColumnOneSideLacksIsAnErrorAtTheColumn() throws IOException {
    assertThat(check("SELECT * FROM silver.s JOIN silver.t USING (qty)"))
        .extracting(UsingColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:45 UNRESOLVED_COLUMN USING column qty cannot be resolved on the"
                + " left side of the join: silver.s (views/silver/s.sql) does not produce qty,"
                + " only id, amt; Spark would refuse gold.g when apply or refresh runs it"
                + " ([UNRESOLVED_USING_COLUMN_FOR_JOIN]) / name in USING only columns both sides"
                + " of the join have, or join them ON a condition over each side's column");
    assertThat(check("SELECT * FROM silver.s JOIN silver.t USING (id, amt)"))
        .extracting(UsingColumnTest::at)
        .singleElement()
        .asString()
        .startsWith(
            "views/gold/g.sql:2:49 UNRESOLVED_COLUMN USING column amt cannot be resolved on the"
                + " right side of the join: silver.t (views/silver/t.sql) does not produce amt");
    // A near name is offered.
    assertThat(check("SELECT * FROM silver.t JOIN silver.u USING (qyt)"))
        .extracting(Diagnostic::hint)
        .containsExactly("did you mean 'qty'?", "did you mean 'qty'?");
    // A nested join is its own join: t lacks z.
    assertThat(check("SELECT * FROM silver.s JOIN (silver.t JOIN silver.u USING (z)) USING (id)"))
        .extracting(d -> d.position() + " " + d.message().substring(0, 50))
        .containsExactly(
            "views/gold/g.sql:2:60 USING column z cannot be resolved on the left side");
    // A subquery's join is resolved against its own sides only, not the outer query's; each
    // side that lacks the column is told.
    assertThat(
            check(
                "SELECT * FROM silver.s WHERE EXISTS (SELECT 1 FROM silver.t JOIN silver.u"
                    + " USING (amt))"))
        .extracting(d -> d.message().substring(0, 50))
        .containsExactly(
            "USING column amt cannot be resolved on the left si",
            "USING column amt cannot be resolved on the right s");
  }

  @Test
  void usingColumnsSparkResolvesAreNotReported() throws IOException {
    // Compared without case.
    assertThat(check("SELECT * FROM silver.s JOIN silver.t USING (ID)")).isEmpty();
    // The left side is every item joined before: t's qty is there.
    assertThat(check("SELECT * FROM silver.s JOIN silver.t USING (id) JOIN silver.u USING (qty)"))
        .isEmpty();
    // Two columns of that name on one side: Spark takes the first.
    assertThat(
            check(
                "SELECT a.amt FROM silver.s a JOIN silver.t b ON a.id = b.id JOIN silver.t c"
                    + " USING (id)"))
        .isEmpty();
    assertThat(check("SELECT * FROM silver.s LEFT SEMI JOIN silver.t USING (id)")).isEmpty();
    // A CTE whose columns are told, and one whose are not (a side not known is left alone).
    assertThat(
            check(
                "WITH c AS (SELECT id, amt AS qty FROM silver.s)"
                    + " SELECT * FROM c JOIN silver.t USING (qty)"))
        .isEmpty();
    assertThat(check("SELECT * FROM bronze.orders JOIN silver.t USING (nosuch)"))
        .extracting(d -> d.message().substring(0, 58))
        .containsExactly("USING column nosuch cannot be resolved on the right side o");
    assertThat(check("SELECT * FROM silver.t JOIN bronze.orders USING (qty)")).isEmpty();
  }
}
