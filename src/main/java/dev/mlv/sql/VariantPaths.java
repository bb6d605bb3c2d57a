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
import org.apache.calcite.sql.fun.SqlCase;
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

  /** A use Spark refuses: the path, what the query does with it, Spark's error, a cast to try. */
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
   * Functions of numbers that take no VARIANT in any argument (each measured on Spark 4.1.1, log(2,
   * v:a) too: UNEXPECTED_INPUT_TYPE).
   */
  private static final Set<String> NUMERIC_FUNCTIONS =
      Set.of(
          "ABS",
          "ROUND",
          "BROUND",
          "CEIL",
          "CEILING",
          "FLOOR",
          "SQRT",
          "CBRT",
          "EXP",
          "LN",
          "LOG",
          "LOG10",
          "LOG2",
          "POW",
          "POWER",
          "SIGN",
          "SIGNUM",
          "PERCENTILE",
          "PERCENTILE_APPROX",
          "APPROX_PERCENTILE");

  /** Functions that order their arguments: every one ({@code greatest}), or the second. */
  private static final Set<String> ORDERING_FUNCTIONS = Set.of("GREATEST", "LEAST");

  private static final Set<String> ORDERING_BY_SECOND = Set.of("MAX_BY", "MIN_BY");

  /**
   * Whether {@code node} is a variant path as written in {@code sql}: a field or item access whose
   * text is a base, a colon outside parentheses and path parts only ({@code v:a}, {@code e.v:['a
   * b'][0]}, {@code f(x):a}); not {@code (v:a::struct<...>).f}, whose field is a struct's.
   */
  static boolean isPath(SqlNode node, String sql) {
    return pathColon(tokens(node, sql)) >= 0;
  }

  /**
   * A path whose value is a VARIANT where it stands: not followed by {@code ::}. Calcite gives an
   * infix cast the lowest precedence ({@code a AND v:x::T} reads as {@code (a AND v:x)::T}), where
   * Spark's binds tightest, so the tree can hold the path outside the cast written after it (found
   * by QA: {@code id > 0 AND v:amount::double > 1} was reported uncast).
   */
  static boolean isUncastPath(SqlNode node, String sql) {
    if (!isPath(node, sql)) {
      return false;
    }
    SqlParserPos end = node.getParserPosition();
    int at = TableExtractor.offsetOf(sql, end.getEndLineNum(), end.getEndColumnNum()) + 1;
    while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
      at++;
    }
    return !sql.startsWith("::", at);
  }

  /**
   * How Spark names a variant path without an alias, cast or not: by its last key ({@code
   * v:customer.id::int} is id, {@code v:['a b'][0]} is a b), by its text when no key names it
   * ({@code v:[0]} is variant_get(v, $[0]), so {@code key} is null), or in a way not told here
   * ({@code known} false, {@code key} the last key as written: a backticked key with a dot or a
   * backtick in it). Null when {@code node} is no path.
   */
  static Naming naming(SqlNode node, String sql) {
    while (node instanceof SqlCall c && OutputNames.isCast(c)) {
      node = c.operand(0);
    }
    List<SqlToken> tokens = tokens(node, sql);
    int colon = pathColon(tokens);
    if (colon < 0) {
      return null;
    }
    String key = null;
    boolean known = true;
    for (int i = colon + 1; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (t.isIdentifier()) {
        known &=
            !tokens.get(i - 1).isIdentifier()
                && !(t.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
                    && (t.identifierValue().contains(".") || t.identifierValue().contains("`")));
        key = t.identifierValue();
      } else if (t.kind() == SqlToken.Kind.STRING) {
        key = t.text().substring(1, t.text().length() - 1);
      }
    }
    return new Naming(key, known);
  }

  /** What {@link #naming} tells of a path's name. */
  record Naming(String key, boolean known) {}

  /**
   * The index of the colon that starts the path when {@code tokens} are a base, a colon and path
   * parts only; -1 otherwise.
   */
  static int pathColon(List<SqlToken> tokens) {
    int colon = lastColon(tokens);
    if (colon < 0) {
      return -1;
    }
    for (int i = colon + 1; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (!(t.isIdentifier()
          || t.isSymbol(".")
          || t.isSymbol("[")
          || t.isSymbol("]")
          || t.kind() == SqlToken.Kind.STRING
          || t.kind() == SqlToken.Kind.NUMBER)) {
        return -1;
      }
    }
    return colon;
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
    List<SqlToken> tokens =
        from < to && to <= sql.length() ? SqlToken.tokenize(sql.substring(from, to)) : List.of();
    // (v:a): Calcite's node may span the parentheses around it.
    while (tokens.size() > 2
        && tokens.get(0).isSymbol("(")
        && SqlToken.closingParen(tokens, 0) == tokens.size() - 1) {
      tokens = tokens.subList(1, tokens.size() - 1);
    }
    return tokens;
  }

  private static int lastColon(List<SqlToken> tokens) {
    int colon = -1;
    int depth = 0;
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
      if (depth < 0) {
        return -1; // the text closes a parenthesis it did not open: not the node's own
      }
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
      if (select.isDistinct() && isUncastPath(value, sql)) {
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

  /**
   * The uncast paths an ORDER BY sorts by: a key that is one, or the item of {@code select} (null
   * for a set operation's) that an ordinal or an alias names.
   */
  static List<Misuse> orderedBy(SqlNodeList orderList, SqlSelect select, String sql) {
    List<Misuse> out = new ArrayList<>();
    Uses uses = new Uses(sql, out);
    for (SqlNode item : orderList) {
      SqlNode key = sortKey(item);
      List<SqlNode> sorted =
          isUncastPath(key, sql)
              ? List.of(key)
              : select == null || key instanceof SqlNodeList ? List.of() : named(key, select, sql);
      for (SqlNode path : sorted) {
        out.add(
            new Misuse(path, "sort by it", "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", "::string"));
      }
      uses.expression(item);
    }
    return out;
  }

  /**
   * The uncast paths a set operation that compares rows (UNION, INTERSECT, EXCEPT; not UNION ALL)
   * selects in the SELECTs it joins, nested set operations' too: Spark refuses a VARIANT column
   * there (measured: SET_OPERATION_ON_VARIANT_TYPE).
   */
  static List<Misuse> setOperation(SqlCall call, String sql) {
    List<Misuse> out = new ArrayList<>();
    String op = call.getOperator().getName().toUpperCase(Locale.ROOT);
    if (op.equals("UNION ALL")) {
      return out;
    }
    List<SqlSelect> selects = new ArrayList<>();
    branches(call, selects);
    for (SqlSelect select : selects) {
      for (SqlNode item : select.getSelectList()) {
        SqlNode value = unaliased(item);
        if (isUncastPath(value, sql)) {
          out.add(
              new Misuse(
                  value,
                  "compare the rows of a " + op + " that holds it",
                  "UNSUPPORTED_FEATURE.SET_OPERATION_ON_VARIANT_TYPE",
                  "::string"));
        }
      }
    }
    return out;
  }

  /**
   * The SELECT whose items name a query's columns: itself, or a set operation's first branch (a
   * UNION ALL ... ORDER BY k sorts by the column its first SELECT names k); null for another.
   */
  static SqlSelect first(SqlNode query) {
    List<SqlSelect> selects = new ArrayList<>();
    branches(query, selects);
    return selects.isEmpty() ? null : selects.get(0);
  }

  private static void branches(SqlNode node, List<SqlSelect> out) {
    if (node instanceof SqlSelect select) {
      out.add(select);
    } else if (node instanceof SqlCall call && call.getKind().belongsTo(SqlKind.SET_QUERY)) {
      call.getOperandList().forEach(operand -> branches(operand, out));
    }
  }

  /**
   * The paths a GROUP BY key groups by: the key itself, the SELECT item an ordinal or an alias
   * names, or for GROUP BY ALL (written ALL, read as ()) every item outside an aggregate.
   */
  private static List<SqlNode> grouped(SqlNode key, SqlSelect select, String sql) {
    if (isUncastPath(key, sql)) {
      return List.of(key);
    }
    List<SqlNode> named = named(key, select, sql);
    if (!named.isEmpty()) {
      return named;
    }
    if (key instanceof SqlNodeList list && list.isEmpty()) {
      SqlParserPos p = key.getParserPosition();
      boolean all =
          p.getLineNum() >= 1
              && sql.regionMatches(
                  true,
                  TableExtractor.offsetOf(sql, p.getLineNum(), p.getColumnNum()),
                  "ALL",
                  0,
                  3);
      return all
          ? select.getSelectList().stream()
              .map(VariantPaths::unaliased)
              .filter(item -> isUncastPath(item, sql))
              .toList()
          : List.of();
    }
    // ROLLUP (v:a), CUBE (...), GROUPING SETS ((v:a), ()): each key inside (found by QA).
    List<SqlNode> inside =
        key instanceof SqlNodeList list
            ? list.getList()
            : key instanceof SqlCall c && isGroupingCall(c) ? c.getOperandList() : List.of();
    List<SqlNode> out = new ArrayList<>();
    for (SqlNode k : inside) {
      if (k != null) {
        out.addAll(grouped(k, select, sql));
      }
    }
    return out;
  }

  private static boolean isGroupingCall(SqlCall call) {
    return call.getKind() == SqlKind.ROLLUP
        || call.getKind() == SqlKind.CUBE
        || call.getKind() == SqlKind.GROUPING_SETS
        || call.getKind() == SqlKind.ROW;
  }

  /** The uncast path of the SELECT item an ordinal ({@code 1}) or an alias names. */
  private static List<SqlNode> named(SqlNode key, SqlSelect select, String sql) {
    List<SqlNode> items = select.getSelectList().getList();
    if (key instanceof SqlNumericLiteral n && n.isInteger()) {
      int i = n.intValue(false) - 1;
      return i >= 0 && i < items.size() && isUncastPath(unaliased(items.get(i)), sql)
          ? List.of(unaliased(items.get(i)))
          : List.of();
    }
    if (key instanceof SqlIdentifier id && id.isSimple()) {
      for (SqlNode item : items) {
        if (item.getKind() == SqlKind.AS
            && ((SqlCall) item).operand(1) instanceof SqlIdentifier alias
            && alias.getSimple().equalsIgnoreCase(id.getSimple())
            && isUncastPath(unaliased(item), sql)) {
          return List.of(unaliased(item));
        }
      }
      return List.of();
    }
    return List.of();
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
      if (isUncastPath(condition, sql)) {
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
      String name =
          SparkSyntaxRewriter.unhide(call.getOperator().getName()).toUpperCase(Locale.ROOT);
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
      } else if (ORDERING_AGGREGATES.contains(name) || ORDERING_FUNCTIONS.contains(name)) {
        paths(operands, "pass it to " + name, "DATATYPE_MISMATCH", "::string");
      } else if (ORDERING_BY_SECOND.contains(name) && operands.size() == 2) {
        paths(operands.subList(1, 2), "order " + name + " by it", "DATATYPE_MISMATCH", "::string");
      } else if (NUMERIC_FUNCTIONS.contains(name)) {
        paths(operands, "pass it to " + name, "DATATYPE_MISMATCH", "::double");
      } else if (name.equals("IF") && !operands.isEmpty()) {
        paths(
            operands.subList(0, 1),
            "take it as the condition of IF",
            "DATATYPE_MISMATCH",
            "::boolean");
      } else if (call instanceof SqlCase c && c.getValueOperand() == null) {
        paths(
            c.getWhenOperands().getList(),
            "take it as a condition of CASE WHEN",
            "DATATYPE_MISMATCH",
            "::boolean");
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
      if (isUncastPath(key, sql)) {
        out.add(
            new Misuse(
                key, "partition a window by it", "EXPRESSION_TYPE_IS_NOT_ORDERABLE", "::string"));
      }
      expression(key);
    }

    private void order(SqlNode item) {
      SqlNode key = sortKey(item);
      if (isUncastPath(key, sql)) {
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
          if (value != null && isUncastPath(value, sql)) {
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
