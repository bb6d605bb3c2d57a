package dev.mlv.sql;

import dev.mlv.diag.Position;

/**
 * {@code CONSTRAINT name CHECK (expression) ON MISMATCH DROP|FAIL}, written at {@code position};
 * {@code expressionPosition} is where the expression's first character is in the file, so that a
 * finding inside it is placed where it is.
 */
public record Constraint(
    String name,
    String expression,
    OnMismatch onMismatch,
    Position position,
    Position expressionPosition) {

  /** A constraint whose expression's place is not known apart from its own (a PySpark check). */
  public Constraint(String name, String expression, OnMismatch onMismatch, Position position) {
    this(name, expression, onMismatch, position, position);
  }

  /**
   * Spark SQL that is true for a row breaking the rule: its expression false or NULL, as the local
   * engine reads a rule (docs/semantics.md; Fabric's documentation does not say) and as mlv counts
   * a Fabric refresh's drops.
   */
  public String brokenSql() {
    return "NOT coalesce((" + expression + "), false)";
  }
}
