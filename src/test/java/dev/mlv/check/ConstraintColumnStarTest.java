package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.lineage.ObjectId;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CONSTRAINT_COLUMN over a view that selects {@code *}: a CHECK reading a column none of the tables
 * of the {@code *} has fails the first refresh ([UNRESOLVED_COLUMN], measured on Spark 4.1.1
 * through mlv apply on the local target). Found by QA: only a SELECT list naming every column was
 * checked.
 */
class ConstraintColumnStarTest {
  @TempDir Path dir;

  private static final TableColumns TOLD =
      new TableColumns(
          "local",
          Map.of(new ObjectId("ws", "lh", "bronze", "orders"), List.of("id", "amount", "qty")));

  /** silver.s produces id and amt; silver.t id and qty. */
  private List<Diagnostic> check(TableColumns told, String checkExpression, String select)
      throws IOException {
    return JoinedViewsProject.check(
        dir,
        told,
        "CONSTRAINT_COLUMN",
        Map.of(),
        "CREATE MATERIALIZED LAKE VIEW gold.g (\n  CONSTRAINT c CHECK ("
            + checkExpression
            + ") ON MISMATCH DROP\n) AS\n"
            + select
            + "\n");
  }

  private static String at(Diagnostic d) {
    return d.position() + " " + d.message() + " / " + d.hint();
  }

  @Test
  void aCheckOfAColumnTheStarDoesNotSelectIsAnErrorAtTheColumn() throws IOException {
    assertThat(check(TableColumns.NONE, "amt > 0 AND nosuch > 0", "SELECT * FROM silver.s"))
        .extracting(ConstraintColumnStarTest::at)
        .containsExactly(
            "views/gold/g.sql:2:35 the CHECK of constraint c reads nosuch, which the view's SELECT"
                + " does not produce; Spark would refuse the view when apply or refresh runs it"
                + " ([UNRESOLVED_COLUMN]) / a constraint reads the view's own columns: amt, id");
    assertThat(check(TableColumns.NONE, "qty > 0", "SELECT s.*, 1 AS one FROM silver.s s"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:23");
    // A column the EXCEPT list leaves out is not the view's.
    assertThat(check(TableColumns.NONE, "amt > 0", "SELECT * EXCEPT (amt) FROM silver.s"))
        .hasSize(1);
    // A source's columns, once the target told them (plan, apply).
    assertThat(check(TableColumns.NONE, "amt > 0", "SELECT * FROM bronze.orders")).isEmpty();
    assertThat(check(TOLD, "amt > 0", "SELECT * FROM bronze.orders"))
        .extracting(Diagnostic::hint)
        .containsExactly("a constraint reads the view's own columns: amount, id, qty");
  }

  @Test
  void aCheckOfColumnsTheViewProducesIsNotReported() throws IOException {
    assertThat(check(TableColumns.NONE, "AMT > 0 AND id IS NOT NULL", "SELECT * FROM silver.s"))
        .isEmpty();
    assertThat(check(TableColumns.NONE, "dbl > 0", "SELECT *, amt * 2 AS dbl FROM silver.s"))
        .isEmpty();
    assertThat(
            check(
                TableColumns.NONE, "qty > amt", "SELECT * FROM silver.s JOIN silver.t USING (id)"))
        .isEmpty();
    // The hidden _metadata column, and a lambda's parameter.
    assertThat(
            check(TableColumns.NONE, "_metadata.file_path IS NOT NULL", "SELECT * FROM silver.s"))
        .isEmpty();
    assertThat(check(TableColumns.NONE, "exists(array(amt), x -> x > 0)", "SELECT * FROM silver.s"))
        .isEmpty();
    // A * whose table's columns are not known says nothing.
    assertThat(check(TableColumns.NONE, "nosuch > 0", "SELECT * FROM bronze.orders")).isEmpty();
    assertThat(
            check(
                TableColumns.NONE,
                "nosuch > 0",
                "SELECT * FROM silver.s JOIN bronze.orders o ON s.id = o.id"))
        .isEmpty();
  }
}
