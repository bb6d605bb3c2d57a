package dev.mlv.sql;

import dev.mlv.diag.Position;

/** {@code CONSTRAINT name CHECK (expression) ON MISMATCH DROP|FAIL}. */
public record Constraint(String name, String expression, OnMismatch onMismatch, Position position) {

  /**
   * Spark SQL that is true for a row breaking the rule: its expression false or NULL, as the local
   * engine reads a rule (docs/semantics.md; Fabric's documentation does not say) and as mlv counts
   * a Fabric refresh's drops.
   */
  public String brokenSql() {
    return "NOT coalesce((" + expression + "), false)";
  }
}
