package dev.mlv.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * Positions in GROUP BY and ORDER BY ({@code GROUP BY 1}, {@code ORDER BY 2 DESC}), which Spark
 * reads as the SELECT list's items (spark.sql.groupByOrdinal and orderByOrdinal, both on by
 * default). Measured on Spark 4.1.1: a position below 1 or past the list's end is refused
 * ([GROUP_BY_POS_OUT_OF_RANGE], [ORDER_BY_POS_OUT_OF_RANGE]), also in parentheses, negative, and
 * inside ROLLUP, CUBE, GROUPING SETS and Hive's WITH ROLLUP; a GROUP BY position naming an
 * aggregate is refused too ([GROUP_BY_POS_AGGREGATE]). Only a plain integer literal of INT range is
 * a position: {@code 1 + 1}, {@code 2L}, {@code 2.0}, {@code '2'} and {@code 2147483648} are
 * constants Spark sorts or groups by.
 */
final class Ordinals {

  private Ordinals() {}

  /** The literals of a GROUP BY item that may be positions: itself, or inside ROLLUP and sets. */
  static List<SqlNode> inGroupBy(SqlNode item) {
    List<SqlNode> out = new ArrayList<>();
    collect(item, out);
    return out;
  }

  private static void collect(SqlNode node, List<SqlNode> out) {
    if (node instanceof SqlNodeList list) {
      list.forEach(n -> collect(n, out));
    } else if (node instanceof SqlCall call
        && (call.getKind() == SqlKind.ROLLUP
            || call.getKind() == SqlKind.CUBE
            || call.getKind() == SqlKind.GROUPING_SETS
            || call.getKind() == SqlKind.ROW)) {
      call.getOperandList().forEach(n -> collect(n, out));
    } else if (isLiteral(node)) {
      out.add(node);
    }
  }

  /** The literal an ORDER BY item sorts by, DESC and NULLS FIRST/LAST taken off, or null. */
  static SqlNode inOrderBy(SqlNode item) {
    SqlNode key = item;
    while (key instanceof SqlCall c
        && (c.getKind() == SqlKind.DESCENDING
            || c.getKind() == SqlKind.NULLS_FIRST
            || c.getKind() == SqlKind.NULLS_LAST)) {
      key = c.operand(0);
    }
    return isLiteral(key) ? key : null;
  }

  /** A number, or minus one: Calcite keeps the minus of {@code -1} as a call. */
  private static boolean isLiteral(SqlNode node) {
    return node instanceof SqlNumericLiteral
        || (node instanceof SqlCall c
            && c.getKind() == SqlKind.MINUS_PREFIX
            && c.operand(0) instanceof SqlNumericLiteral);
  }

  /**
   * The position a literal written as {@code text} stands for: an integer of INT range, as Spark
   * types it, with no suffix nor decimal point; empty for any other constant.
   */
  static OptionalInt position(String text) {
    if (!text.matches("-?[0-9]{1,10}")) {
      return OptionalInt.empty();
    }
    long value = Long.parseLong(text);
    return value < Integer.MIN_VALUE || value > Integer.MAX_VALUE
        ? OptionalInt.empty()
        : OptionalInt.of((int) value);
  }
}
