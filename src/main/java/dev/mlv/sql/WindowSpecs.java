package dev.mlv.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlWindow;

/**
 * A window specification Spark's analyzer refuses for the function it is applied to, or on its own,
 * found in the parse tree so that validate reports it instead of the view's first refresh. Each
 * case was measured on Spark 4.1.1:
 *
 * <ul>
 *   <li>ranking and offset functions without ORDER BY ("requires window to be ordered");
 *   <li>lag and lead with a frame ("Cannot specify window frame");
 *   <li>a ranking function with a frame other than its own ("must match the required frame"):
 *       {@code ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW}, or {@code RANGE} for cume_dist;
 *   <li>a frame starting at UNBOUNDED FOLLOWING or ending at UNBOUNDED PRECEDING
 *       ([DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND]), or from a later row to an
 *       earlier one ([DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON]);
 *   <li>a RANGE frame in a window without ORDER BY, unless unbounded at both ends
 *       ([DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER]), or with an offset and more than one ORDER
 *       BY expression ([DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER]).
 * </ul>
 */
final class WindowSpecs {

  /**
   * What is refused, Spark's error class (or its message where it has none, or empty where its
   * message names internals), and a hint.
   */
  record Found(String what, String sparkError, String hint) {}

  /** Functions Spark computes over an ordered window only. */
  private static final Set<String> NEED_ORDER =
      Set.of(
          "row_number",
          "rank",
          "dense_rank",
          "percent_rank",
          "ntile",
          "cume_dist",
          "lag",
          "lead",
          "nth_value");

  /** Ranking functions whose frame is fixed to ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW. */
  private static final Set<String> ROWS_TO_CURRENT =
      Set.of("row_number", "rank", "dense_rank", "percent_rank", "ntile");

  private WindowSpecs() {}

  /**
   * The first call of a function Spark computes over a window only ({@link #NEED_ORDER}) that is
   * not the function of an OVER, in {@code node} outside nested queries: Spark refuses it
   * ([WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE], measured on Spark 4.1.1 for each, also inside a
   * windowed aggregate as {@code max(lag(x)) OVER (...)}). first_value and last_value are
   * aggregates as well, and run without a window.
   */
  static Optional<SqlCall> withoutOver(SqlNode node) {
    if (!(node instanceof SqlCall call) || TableExtractor.isQuery(call)) {
      if (node instanceof org.apache.calcite.sql.SqlNodeList list) {
        for (SqlNode item : list) {
          Optional<SqlCall> found = withoutOver(item);
          if (found.isPresent()) {
            return found;
          }
        }
      }
      return Optional.empty();
    }
    if (call.getKind() == SqlKind.OVER) {
      // The windowed function itself is fine; what it reads, and the window, are not exempt.
      List<SqlNode> inside = new ArrayList<>();
      if (windowed(call) instanceof SqlCall windowed) {
        inside.addAll(windowed.getOperandList());
      }
      inside.addAll(call.getOperandList().subList(1, call.operandCount()));
      return first(inside);
    }
    if (NEED_ORDER.contains(SparkSyntaxRewriter.functionName(call))) {
      return Optional.of(call);
    }
    return first(call.getOperandList());
  }

  private static Optional<SqlCall> first(List<SqlNode> nodes) {
    for (SqlNode n : nodes) {
      Optional<SqlCall> found = withoutOver(n);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** The finding for {@code function} called without OVER. */
  static Found withoutOver(String function) {
    return new Found(
        "window function " + function + " without OVER",
        "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE",
        "give it a window: "
            + function
            + "(...) OVER (PARTITION BY ... ORDER BY ...); it has no meaning on its own");
  }

  /**
   * The first refusal of {@code function} over {@code window}, if any.
   *
   * @param sorted the window's text sorts its rows in Spark's own words (SORT BY), which the
   *     rewriter takes out before Calcite reads it: its ORDER BY is then unknown here
   */
  static Optional<Found> check(String function, SqlWindow window, boolean sorted) {
    int orderBy = window.getOrderList() == null ? 0 : window.getOrderList().size();
    boolean ordered = orderBy > 0 || sorted;
    SqlNode lower = window.getLowerBound();
    // Spark's ROWS n PRECEDING is BETWEEN n PRECEDING AND CURRENT ROW, as Calcite's.
    SqlNode upper = lower != null && window.getUpperBound() == null ? null : window.getUpperBound();
    boolean framed = lower != null;
    if (!ordered && NEED_ORDER.contains(function)) {
      return Optional.of(
          new Found(
              "window function " + function + " without ORDER BY in its window",
              "",
              "add ORDER BY to its window: "
                  + function
                  + "(...) OVER (PARTITION BY ... ORDER BY"
                  + " ...)"));
    }
    if (framed && (function.equals("lag") || function.equals("lead"))) {
      return Optional.of(
          new Found(
              "window function " + function + " with a frame (ROWS/RANGE ...)",
              "Cannot specify window frame for " + function + " function",
              "remove the frame: "
                  + function
                  + " reads the row at its offset, whatever the"
                  + " frame"));
    }
    if (framed && (ROWS_TO_CURRENT.contains(function) || function.equals("cume_dist"))) {
      boolean rows = !function.equals("cume_dist");
      boolean own =
          window.isRows() == rows
              && SqlWindow.isUnboundedPreceding(lower)
              && (upper == null || SqlWindow.isCurrentRow(upper));
      if (!own) {
        String required =
            (rows ? "ROWS" : "RANGE") + " BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
        return Optional.of(
            new Found(
                "window function " + function + " with a frame other than " + required,
                "",
                "remove the frame: " + function + " always ranks over " + required));
      }
    }
    if (framed
        && (SqlWindow.isUnboundedFollowing(lower)
            || (upper != null && SqlWindow.isUnboundedPreceding(upper)))) {
      return Optional.of(
          new Found(
              "a window frame that starts at UNBOUNDED FOLLOWING or ends at UNBOUNDED PRECEDING",
              "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND",
              "write the frame from its first row to its last: BETWEEN UNBOUNDED PRECEDING AND"
                  + " ..., or BETWEEN ... AND UNBOUNDED FOLLOWING"));
    }
    Optional<BigDecimal> from = offset(lower);
    Optional<BigDecimal> to = offset(upper);
    if (from.isPresent() && to.isPresent() && from.get().compareTo(to.get()) > 0) {
      return Optional.of(
          new Found(
              "a window frame whose lower bound comes after its upper bound",
              "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON",
              "write the earlier row first: BETWEEN 2 PRECEDING AND 1 PRECEDING, not BETWEEN 1"
                  + " PRECEDING AND 2 PRECEDING"));
    }
    if (framed && !window.isRows()) {
      boolean unbounded =
          SqlWindow.isUnboundedPreceding(lower)
              && upper != null
              && SqlWindow.isUnboundedFollowing(upper);
      if (!ordered && !unbounded) {
        return Optional.of(
            new Found(
                "a RANGE frame in a window without ORDER BY",
                "DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER",
                "add ORDER BY to the window, or use a ROWS frame"));
      }
      if (!sorted && orderBy > 1 && (isValue(lower) || isValue(upper))) {
        return Optional.of(
            new Found(
                "a RANGE frame with an offset in a window ordered by " + orderBy + " expressions",
                "DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER",
                "order the window by one expression, or use a ROWS frame"));
      }
    }
    return Optional.empty();
  }

  /**
   * What Spark refuses in the function an OVER call applies, whatever its window (measured on Spark
   * 4.1.1): a DISTINCT aggregate ([DISTINCT_WINDOW_FUNCTION_UNSUPPORTED]) and an aggregate with
   * FILTER ("Window aggregate function with filter predicate is not supported yet").
   */
  static Optional<Found> refusedOverAWindow(SqlCall over, String function) {
    SqlNode f = windowed(over);
    if (f instanceof SqlCall filter && filter.getKind() == SqlKind.FILTER) {
      return Optional.of(
          new Found(
              "an aggregate with FILTER over a window",
              "Window aggregate function with filter predicate is not supported yet",
              "move the condition into the aggregate: sum(CASE WHEN cond THEN x END) OVER (...)"));
    }
    if (f instanceof SqlCall call && SparkSyntaxRewriter.isDistinct(call)) {
      return Optional.of(
          new Found(
              "window function " + function + "(DISTINCT ...)",
              "DISTINCT_WINDOW_FUNCTION_UNSUPPORTED",
              "count distinct values per window with size(collect_set(x) OVER (...))"));
    }
    return Optional.empty();
  }

  /** The name of the function an OVER call applies, as Spark reads it. */
  static String function(SqlCall over) {
    return windowed(over) instanceof SqlCall f ? SparkSyntaxRewriter.functionName(f) : "";
  }

  /**
   * The function an OVER call applies: {@code lag(x) IGNORE NULLS OVER (...)} is Calcite's
   * IGNORE_NULLS call around lag (found by QA: lag was taken for a call without OVER).
   */
  private static SqlNode windowed(SqlCall over) {
    SqlNode f = over.operand(0);
    while (f instanceof SqlCall c
        && (c.getKind() == SqlKind.IGNORE_NULLS || c.getKind() == SqlKind.RESPECT_NULLS)) {
      f = c.operand(0);
    }
    return f;
  }

  /** {@code n PRECEDING} or {@code n FOLLOWING}: a bound at an offset from the current row. */
  private static boolean isValue(SqlNode bound) {
    return bound instanceof SqlCall call
        && (call.getKind() == SqlKind.PRECEDING || call.getKind() == SqlKind.FOLLOWING);
  }

  /** A bound's offset as a number, preceding rows negative; empty unless a numeric literal. */
  private static Optional<BigDecimal> offset(SqlNode bound) {
    if (bound == null) {
      return Optional.empty();
    }
    if (SqlWindow.isCurrentRow(bound)) {
      return Optional.empty(); // Spark compares two offsets only, not an offset with CURRENT ROW
    }
    if (isValue(bound)
        && ((SqlCall) bound).operand(0) instanceof SqlNumericLiteral n
        && n.getValue() instanceof BigDecimal value) {
      return Optional.of(((SqlCall) bound).getKind() == SqlKind.PRECEDING ? value.negate() : value);
    }
    return Optional.empty();
  }
}
