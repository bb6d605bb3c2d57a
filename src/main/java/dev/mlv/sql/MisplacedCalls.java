package dev.mlv.sql;

import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;

/**
 * Calls Spark's analyzer refuses where they stand, found in the parse tree so that validate reports
 * them instead of the view's first refresh: an aggregate, window function or generator in WHERE
 * ([INVALID_WHERE_CONDITION], a message, [UNSUPPORTED_GENERATOR.OUTSIDE_SELECT]), an aggregate or
 * window function in GROUP BY ([GROUP_BY_AGGREGATE]), and an aggregate in the argument of another
 * ([NESTED_AGGREGATE_FUNCTION]), and a generator inside another call of a SELECT item
 * ([UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS]), and a window function in HAVING or ORDER BY.
 * Subqueries are not entered: they are walked as queries of their own.
 */
final class MisplacedCalls {

  /**
   * The offending call, what it is and where ("aggregate function sum in WHERE"), and Spark's error
   * class.
   */
  record Found(SqlCall call, String what, String sparkError) {}

  private MisplacedCalls() {}

  /**
   * The first aggregate, window function or generator in a WHERE condition. Spark refuses a window
   * function there with a message of no error class (measured on Spark 4.1.1, ranking and aggregate
   * windows alike), quoted here.
   */
  static Optional<Found> inWhere(SqlNode where) {
    return first(
        where,
        " in WHERE",
        "INVALID_WHERE_CONDITION",
        "It is not allowed to use window functions inside WHERE clause");
  }

  /** The first aggregate or window function in a GROUP BY item. */
  static Optional<Found> inGroupBy(SqlNode item) {
    return first(item, " in GROUP BY", "GROUP_BY_AGGREGATE", "UNSUPPORTED_EXPR_FOR_OPERATOR");
  }

  /**
   * The first window function in a HAVING condition: Spark's analyzer refuses it with a message of
   * no error class (measured on Spark 4.1.1), quoted here.
   */
  static Optional<Found> windowInHaving(SqlNode having) {
    return window(
        having, " in HAVING", "It is not allowed to use window functions inside HAVING clause");
  }

  /**
   * The first window function in an ORDER BY item. Spark refuses it even when the same window is
   * also a select item (measured on Spark 4.1.1); ordering by the item's alias is fine.
   */
  static Optional<Found> windowInOrderBy(SqlNode item) {
    return window(item, " in ORDER BY", "UNSUPPORTED_EXPR_FOR_OPERATOR");
  }

  private static Optional<Found> window(SqlNode node, String clause, String sparkError) {
    if (!(node instanceof SqlCall call) || TableExtractor.isQuery(call)) {
      return Optional.empty();
    }
    if (call.getKind() == SqlKind.OVER) {
      String fn = call.operand(0) instanceof SqlCall f ? name(f) : "window";
      return Optional.of(new Found(call, "window function " + fn + clause, sparkError));
    }
    for (SqlNode operand : call.getOperandList()) {
      Optional<Found> found = window(operand, clause, sparkError);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** Generators are looked for only in WHERE: GROUP BY has no generator error of its own. */
  private static Optional<Found> first(
      SqlNode node, String clause, String aggregateError, String windowError) {
    if (!(node instanceof SqlCall call) || TableExtractor.isQuery(call)) {
      return Optional.empty();
    }
    if (call.getKind() == SqlKind.OVER) {
      String fn = call.operand(0) instanceof SqlCall f ? name(f) : "window";
      return Optional.of(new Found(call, "window function " + fn + clause, windowError));
    }
    if (isAggregate(call)) {
      return Optional.of(
          new Found(call, "aggregate function " + name(call) + clause, aggregateError));
    }
    if (clause.equals(" in WHERE")
        && isNamedCall(call)
        && OutputNames.GENERATORS.contains(name(call))) {
      return Optional.of(
          new Found(
              call, "generator " + name(call) + clause, "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT"));
    }
    for (SqlNode operand : call.getOperandList()) {
      Optional<Found> found = first(operand, clause, aggregateError, windowError);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** The first aggregate call outside a window and a subquery: it makes a SELECT aggregate. */
  static Optional<SqlCall> aggregate(SqlNode node) {
    if (!(node instanceof SqlCall call)
        || TableExtractor.isQuery(call)
        || call.getKind() == SqlKind.OVER) {
      return Optional.empty();
    }
    if (isAggregate(call)) {
      return Optional.of(call);
    }
    for (SqlNode operand : call.getOperandList()) {
      Optional<SqlCall> found = aggregate(operand);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /**
   * The first aggregate called in the argument of another, as in {@code SUM(COUNT(x))}. A window
   * over an aggregate ({@code SUM(COUNT(x)) OVER (...)}) is Spark's way to write that and is fine.
   */
  static Optional<Found> nestedAggregate(SqlNode node) {
    return nested(node, null);
  }

  private static Optional<Found> nested(SqlNode node, SqlCall outer) {
    if (!(node instanceof SqlCall call) || TableExtractor.isQuery(call)) {
      return Optional.empty();
    }
    if (call.getKind() == SqlKind.OVER) {
      // The window's own function is not an enclosing aggregate of what it reads.
      return call.operand(0) instanceof SqlCall windowed
          ? operands(windowed, outer)
          : Optional.empty();
    }
    if (isAggregate(call)) {
      if (outer != null) {
        return Optional.of(
            new Found(
                call,
                "aggregate function " + name(call) + " inside " + name(outer),
                "NESTED_AGGREGATE_FUNCTION"));
      }
      return operands(call, call);
    }
    return operands(call, outer);
  }

  /**
   * The first generator called inside another call of a SELECT item, as in {@code
   * upper(explode(tags))}: Spark takes a generator only as a whole item (or in LATERAL VIEW).
   */
  static Optional<Found> nestedGenerator(SqlNode item) {
    SqlNode value = item instanceof SqlCall as && as.getKind() == SqlKind.AS ? as.operand(0) : item;
    return value instanceof SqlCall call && !TableExtractor.isQuery(call)
        ? generatorIn(call.getOperandList(), call)
        : Optional.empty();
  }

  private static Optional<Found> generatorIn(java.util.List<SqlNode> operands, SqlCall outer) {
    for (SqlNode operand : operands) {
      if (!(operand instanceof SqlCall call) || TableExtractor.isQuery(call)) {
        continue;
      }
      if (isNamedCall(call) && OutputNames.GENERATORS.contains(name(call))) {
        String around = isNamedCall(outer) ? name(outer) : outer.getOperator().getName();
        return Optional.of(
            new Found(
                call,
                "generator " + name(call) + " inside " + around.toLowerCase(Locale.ROOT),
                "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS"));
      }
      Optional<Found> found = generatorIn(call.getOperandList(), call);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<Found> operands(SqlCall call, SqlCall outer) {
    for (SqlNode operand : call.getOperandList()) {
      Optional<Found> found = nested(operand, outer);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /**
   * A call of an aggregate by name: Calcite's own aggregates or a function it does not know. Not
   * {@code x = ANY (SELECT ...)}, whose operator Calcite also names SOME.
   */
  static boolean isAggregate(SqlCall call) {
    return isNamedCall(call) && RefreshAnalyzer.isAggregateName(name(call));
  }

  private static boolean isNamedCall(SqlCall call) {
    return call.getOperator() instanceof SqlAggFunction
        || call.getOperator() instanceof SqlUnresolvedFunction;
  }

  private static String name(SqlCall call) {
    return SparkSyntaxRewriter.functionName(call);
  }
}
