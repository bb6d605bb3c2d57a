package dev.mlv.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Spark 4's variant paths ({@code v:customer.id}), which the rewriter hands Calcite as field and
 * item access ({@code v.customer.id}, {@code v['a b']}): told apart by the colon still in the text
 * as written. A path's value is a VARIANT whatever it holds, and Spark 4.1.1 refuses a VARIANT
 * where it must compare, order, group or compute (each use below measured): the path must be cast
 * first ({@code v:kind::string}).
 */
final class VariantPaths {
  static final String RULE = "VARIANT_UNCAST";

  private VariantPaths() {}

  /** A use Spark refuses: the path, what the query does with it, Spark's error. */
  record Misuse(SqlNode path, String use, String sparkError, String cast) {}

  private static final Set<SqlKind> COMPARISONS =
      Set.of(
          SqlKind.EQUALS,
          SqlKind.NOT_EQUALS,
          SqlKind.LESS_THAN,
          SqlKind.GREATER_THAN,
          SqlKind.LESS_THAN_OR_EQUAL,
          SqlKind.GREATER_THAN_OR_EQUAL,
          SqlKind.IS_DISTINCT_FROM,
          SqlKind.IS_NOT_DISTINCT_FROM,
          SqlKind.BETWEEN,
          SqlKind.IN,
          SqlKind.NOT_IN);

  private static final Set<SqlKind> ARITHMETIC =
      Set.of(
          SqlKind.PLUS,
          SqlKind.MINUS,
          SqlKind.TIMES,
          SqlKind.DIVIDE,
          SqlKind.MOD,
          SqlKind.MINUS_PREFIX,
          SqlKind.PLUS_PREFIX);

  private static final Set<String> NUMERIC_AGGREGATES =
      Set.of(
          "SUM",
          "AVG",
          "MEAN",
          "STDDEV",
          "STDDEV_POP",
          "STDDEV_SAMP",
          "STD",
          "VARIANCE",
          "VAR_POP",
          "VAR_SAMP",
          "MEDIAN");

  private static final Set<String> ORDERING_AGGREGATES = Set.of("MIN", "MAX");

  /**
   * Whether {@code node} is a variant path as written in {@code sql}: a field or item access whose
   * text holds a colon outside parentheses ({@code v:a}, {@code e.v:['a b'][0]}, {@code f(x):a}).
   */
  static boolean isPath(SqlNode node, String sql) {
    return lastColon(tokens(node, sql)) >= 0;
  }

  /**
   * The name Spark gives a variant path without an alias, cast or not: its last key ({@code
   * v:customer.id::int} is id, {@code v:['a b'][0]} is a b); null when {@code node} is no path, or
   * its last key is a string with escapes.
   */
  static String lastKey(SqlNode node, String sql) {
    while (node instanceof SqlCall c && OutputNames.isCast(c)) {
      node = c.operand(0);
    }
    List<SqlToken> tokens = tokens(node, sql);
    int colon = lastColon(tokens);
    String key = null;
    for (int i = colon + 1; colon >= 0 && i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (t.isIdentifier() && (i == colon + 1 || tokens.get(i - 1).isSymbol("."))) {
        key = t.identifierValue();
      } else if (t.kind() == SqlToken.Kind.STRING && tokens.get(i - 1).isSymbol("[")) {
        String quoted = t.text();
        if (quoted.length() < 2
            || quoted.indexOf('\\') >= 0
            || quoted.indexOf(quoted.charAt(0), 1) < quoted.length() - 1) {
          return null;
        }
        key = quoted.substring(1, quoted.length() - 1);
      } else if (!(t.isSymbol(".")
          || t.isSymbol("[")
          || t.isSymbol("]")
          || t.kind() == SqlToken.Kind.NUMBER)) {
        break;
      }
    }
    return key;
  }

  /** The tokens of a field or item access as written; none for another node. */
  private static List<SqlToken> tokens(SqlNode node, String sql) {
    if (!(node instanceof SqlIdentifier
        || node.getKind() == SqlKind.ITEM
        || node.getKind() == SqlKind.DOT)) {
      return List.of();
    }
    SqlParserPos pos = OutputNames.start(node);
    SqlParserPos end = node.getParserPosition();
    if (pos.getLineNum() < 1 || end.getEndLineNum() < 1) {
      return List.of();
    }
    int from = TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
    int to = TableExtractor.offsetOf(sql, end.getEndLineNum(), end.getEndColumnNum()) + 1;
    return from < to && to <= sql.length() ? SqlToken.tokenize(sql.substring(from, to)) : List.of();
  }

  private static int lastColon(List<SqlToken> tokens) {
    int colon = -1;
    int depth = 0;
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
      if (depth == 0 && t.isSymbol(":")) {
        colon = i;
      }
    }
    return colon;
  }

  /**
   * The uses Spark refuses of an uncast variant path in one SELECT (not in the queries nested in
   * it, which are walked on their own): compared, computed with, summed, grouped, made DISTINCT,
   * ordered or partitioned by in a window, or taken as a condition.
   */
  static List<Misuse> misuses(SqlSelect select, String sql) {
    List<Misuse> out = new ArrayList<>();
    Uses uses = new Uses(sql, out);
    for (SqlNode item : select.getSelectList()) {
      uses.expression(item);
      SqlNode value = unaliased(item);
      if (select.isDistinct() && isPath(value, sql)) {
        out.add(
            new Misuse(
                value,
                "make it DISTINCT",
                "UNSUPPORTED_FEATURE.SET_OPERATION_ON_VARIANT_TYPE",
                "::string"));
      }
    }
    uses.condition(select.getWhere(), "WHERE", "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN");
    uses.condition(select.getHaving(), "HAVING", "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN");
    uses.condition(select.getQualify(), "QUALIFY", "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN");
    uses.joins(select.getFrom());
    if (select.getGroup() != null) {
      for (SqlNode key : select.getGroup()) {
        for (SqlNode grouped : grouped(key, select, sql)) {
          out.add(
              new Misuse(
                  grouped, "group by it", "GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE", "::string"));
        }
        uses.expression(key);
      }
    }
    if (select.getWindowList() != null) {
      select.getWindowList().forEach(uses::expression);
    }
    return out;
  }

  /** The uncast paths an ORDER BY sorts by. */
  static List<Misuse> orderedBy(SqlNodeList orderList, String sql) {
    List<Misuse> out = new ArrayList<>();
    Uses uses = new Uses(sql, out);
    for (SqlNode item : orderList) {
      SqlNode key = sortKey(item);
      if (isPath(key, sql)) {
        out.add(
            new Misuse(key, "sort by it", "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", "::string"));
      }
      uses.expression(item);
    }
    return out;
  }

  /**
   * The paths a GROUP BY key groups by: the key itself, the SELECT item an ordinal or an alias
   * names, or for GROUP BY ALL (written ALL, read as ()) every item outside an aggregate.
   */
  private static List<SqlNode> grouped(SqlNode key, SqlSelect select, String sql) {
    if (isPath(key, sql)) {
      return List.of(key);
    }
    List<SqlNode> items = select.getSelectList().getList();
    if (key instanceof SqlNumericLiteral n && n.isInteger()) {
      int i = n.intValue(false) - 1;
      return i >= 0 && i < items.size() && isPath(unaliased(items.get(i)), sql)
          ? List.of(unaliased(items.get(i)))
          : List.of();
    }
    if (key instanceof SqlIdentifier id && id.isSimple()) {
      for (SqlNode item : items) {
        if (item.getKind() == SqlKind.AS
            && ((SqlCall) item).operand(1) instanceof SqlIdentifier alias
            && alias.getSimple().equalsIgnoreCase(id.getSimple())
            && isPath(unaliased(item), sql)) {
          return List.of(unaliased(item));
        }
      }
      return List.of();
    }
    SqlParserPos p = key.getParserPosition();
    boolean all =
        key instanceof SqlNodeList empty
            && empty.isEmpty()
            && p.getLineNum() >= 1
            && sql.regionMatches(
                true, TableExtractor.offsetOf(sql, p.getLineNum(), p.getColumnNum()), "ALL", 0, 3);
    if (!all) {
      return List.of();
    }
    return items.stream().map(VariantPaths::unaliased).filter(item -> isPath(item, sql)).toList();
  }

  private static SqlNode unaliased(SqlNode item) {
    return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
  }

  private static SqlNode sortKey(SqlNode item) {
    while (item instanceof SqlCall c
        && (c.getKind() == SqlKind.DESCENDING
            || c.getKind() == SqlKind.NULLS_FIRST
            || c.getKind() == SqlKind.NULLS_LAST)) {
      item = c.operand(0);
    }
    return item;
  }

  /** Walks the expressions of one query, stopping at nested queries. */
  private record Uses(String sql, List<Misuse> out) {
    void joins(SqlNode from) {
      if (from instanceof SqlJoin join) {
        joins(join.getLeft());
        joins(join.getRight());
        condition(join.getCondition(), "ON", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
      }
    }

    void condition(SqlNode condition, String clause, String sparkError) {
      if (condition == null) {
        return;
      }
      if (isPath(condition, sql)) {
        out.add(
            new Misuse(
                condition, "take it as the condition of " + clause, sparkError, "::boolean"));
      }
      expression(condition);
    }

    void expression(SqlNode node) {
      if (!(node instanceof SqlCall call) || node instanceof SqlSelect) {
        return;
      }
      if (node instanceof SqlWindow window) {
        window.getPartitionList().forEach(p -> partition(p));
        window.getOrderList().forEach(o -> order(o));
        return;
      }
      SqlKind kind = call.getKind();
      String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
      List<SqlNode> operands = call.getOperandList();
      if (COMPARISONS.contains(kind) || name.equals("<=>")) {
        String shown = kind == SqlKind.IN || kind == SqlKind.NOT_IN ? "IN" : name;
        String cast = castFor(operands);
        paths(operands, "compare it (" + shown + ")", "DATATYPE_MISMATCH", cast);
      } else if (ARITHMETIC.contains(kind) || name.equals("DIV")) {
        paths(operands, "compute with it (" + name + ")", "DATATYPE_MISMATCH", "::double");
      } else if (kind == SqlKind.AND || kind == SqlKind.OR || kind == SqlKind.NOT) {
        paths(operands, "take it as an operand of " + name, "DATATYPE_MISMATCH", "::boolean");
      } else if (call instanceof SqlBasicCall basic
          && basic.getFunctionQuantifier() != null
          && basic.getFunctionQuantifier().getValue() == SqlSelectKeyword.DISTINCT) {
        paths(operands, "pass it to " + name + "(DISTINCT ...)", "INTERNAL_ERROR", "::string");
      } else if (NUMERIC_AGGREGATES.contains(name)) {
        paths(operands, "pass it to " + name, "DATATYPE_MISMATCH", "::double");
      } else if (ORDERING_AGGREGATES.contains(name)) {
        paths(operands, "pass it to " + name, "DATATYPE_MISMATCH", "::string");
      }
      for (SqlNode operand : operands) {
        if (operand instanceof SqlNodeList list) {
          list.forEach(this::expression);
        } else {
          expression(operand);
        }
      }
    }

    private void partition(SqlNode key) {
      if (isPath(key, sql)) {
        out.add(
            new Misuse(
                key, "partition a window by it", "EXPRESSION_TYPE_IS_NOT_ORDERABLE", "::string"));
      }
      expression(key);
    }

    private void order(SqlNode item) {
      SqlNode key = sortKey(item);
      if (isPath(key, sql)) {
        out.add(
            new Misuse(
                key, "sort a window by it", "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", "::string"));
      }
      expression(item);
    }

    /** Each operand (and each value of an IN list) that is a path. */
    private void paths(List<SqlNode> operands, String use, String sparkError, String cast) {
      for (SqlNode operand : operands) {
        List<SqlNode> values =
            operand instanceof SqlNodeList list ? list.getList() : List.of(operand);
        for (SqlNode value : values) {
          if (value != null && isPath(value, sql)) {
            out.add(new Misuse(value, use, sparkError, cast));
          }
        }
      }
    }

    /** The cast a comparison suggests: to a number against a number, else to a string. */
    private static String castFor(List<SqlNode> operands) {
      for (SqlNode operand : operands) {
        List<SqlNode> values =
            operand instanceof SqlNodeList list ? list.getList() : List.of(operand);
        for (SqlNode value : values) {
          if (value instanceof SqlNumericLiteral n) {
            return n.isInteger() ? "::bigint" : "::double";
          }
        }
      }
      return "::string";
    }
  }
}
