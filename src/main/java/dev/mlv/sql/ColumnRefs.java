package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The columns a SELECT reads by name where every table in scope is one read by its name, so that
 * the names Spark may resolve each to are known once the tables' columns are: {@code s.amount} is
 * column amount of the table whose alias or name is s, or (Spark tries it next) a field amount of a
 * column s of any table in scope. A reference is left out whenever something else could be what it
 * names: a subquery, CTE, table function or other FROM item whose columns are not a table's, a
 * select alias, a lambda parameter, a name of three parts or more where a table is unaliased (it
 * may be qualified by schema and table).
 */
public final class ColumnRefs {

  /**
   * One way Spark may resolve a reference: column {@code column} of {@code tables().get(table)};
   * {@code qualified} when the reference's qualifier names that table (the reading meant).
   */
  public record Reading(int table, String column, boolean qualified) {}

  /**
   * A column name as written ({@code text}) at {@code position}, the tables visible where it stands
   * (innermost first, enclosing queries' after) and the readings Spark may give it: unless one of
   * them holds, Spark cannot resolve it. {@code unseenAlias}: where it stands ({@code "WHERE"},
   * {@code "ON"}, {@code "a subquery"}) when it is named like an alias of a SELECT list that Spark
   * does not resolve there, null otherwise.
   */
  public record Ref(
      String text,
      Position position,
      List<Name> tables,
      List<Reading> readings,
      String unseenAlias) {
    public Ref {
      tables = List.copyOf(tables);
      readings = List.copyOf(readings);
    }
  }

  /** Datetime units, which Spark takes bare as a function's first argument (datediff(DAY, ...)). */
  private static final Set<String> UNITS =
      Set.of(
          "year",
          "years",
          "quarter",
          "month",
          "months",
          "week",
          "weeks",
          "day",
          "days",
          "dayofyear",
          "dayofweek",
          "hour",
          "hours",
          "minute",
          "minutes",
          "second",
          "seconds",
          "millisecond",
          "milliseconds",
          "microsecond",
          "microseconds",
          "nanosecond");

  private ColumnRefs() {}

  /**
   * The references of {@code sql}, whose Calcite tree is {@code root} (of the whole text, with no
   * part the rewriter took out: a caller with such parts passes nothing here).
   */
  static List<Ref> of(String sql, Position start, SqlNode root) {
    try {
      Walk walk = new Walk(sql, start, root);
      walk.query(root, List.of());
      return List.copyOf(walk.refs);
    } catch (RuntimeException e) { // a node shape not foreseen: claim nothing rather than fail
      return List.of();
    }
  }

  /** A FROM item read by name: {@code qualifier} is its alias, or else its name's last part. */
  private record Entry(Name table, String qualifier, boolean aliased) {}

  /**
   * The FROM of one SELECT: {@code known} when every item is a table read by name. {@code aliases}
   * are its SELECT list's, which Spark may take a name for where it stands; {@code unseen} those it
   * does not (null when none are unseen) and the clause that is, for messages.
   */
  private record Scope(
      List<Entry> entries, boolean known, Set<String> aliases, Set<String> unseen, String clause) {

    /** This scope where its SELECT list's aliases are not seen: in {@code clause}. */
    Scope blind(String clause) {
      Set<String> all = new HashSet<>(aliases);
      if (unseen != null) {
        all.addAll(unseen);
      }
      return new Scope(entries, known, Set.of(), all, clause);
    }
  }

  private static final class Walk {
    private final String sql;
    private final Position start;
    private final Set<String> ctes = new HashSet<>();
    private final Set<String> lambdaParameters = new HashSet<>();
    private final List<Ref> refs = new ArrayList<>();

    /**
     * Offset where each line of {@code sql} starts, lines ended as {@link Position} ends them: a
     * SELECT of 50,000 columns is not counted from its start 50,000 times.
     */
    private final int[] lineStarts;

    Walk(String sql, Position start, SqlNode root) {
      this.sql = sql;
      this.start = start;
      List<Integer> starts = new ArrayList<>(List.of(0));
      for (int i = 0; i < sql.length(); i++) {
        if (Position.lineEndAt(sql, i)) {
          starts.add(i + 1);
        }
      }
      this.lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
      // Any CTE name hides a table of that name, and any lambda parameter a column, anywhere: a
      // name so hidden is never taken for the table's or the column's.
      ctes.addAll(OutputNames.ctes(root));
      root.accept(
          new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
              if (call instanceof SqlLambda lambda) {
                for (SqlNode p : lambda.getParameters()) {
                  if (p instanceof SqlIdentifier id) {
                    lambdaParameters.add(lower(id.getSimple()));
                  }
                }
              }
              return super.visit(call);
            }
          });
    }

    void query(SqlNode node, List<Scope> outer) {
      if (node instanceof SqlWith with) {
        for (SqlNode item : with.withList) {
          query(((SqlWithItem) item).query, outer);
        }
        query(with.body, outer);
      } else if (node instanceof SqlOrderBy orderBy) {
        if (orderBy.query instanceof SqlSelect select) {
          select(select, outer, orderBy.orderList);
        } else {
          // ORDER BY after a set operation reads its output columns, which no table has.
          query(orderBy.query, outer);
        }
      } else if (node instanceof SqlSelect select) {
        select(select, outer, null);
      } else if (node instanceof SqlCall call && call.getOperator() instanceof SqlSetOperator) {
        for (SqlNode operand : call.getOperandList()) {
          query(operand, outer);
        }
      }
    }

    private void select(SqlSelect select, List<Scope> outer, SqlNodeList orderBy) {
      List<Entry> entries = new ArrayList<>();
      List<SqlNode> conditions = new ArrayList<>();
      boolean known = from(select.getFrom(), entries, conditions, outer);
      Set<String> aliases = new HashSet<>();
      for (SqlNode item : select.getSelectList()) {
        if (item instanceof SqlCall as && as.getKind() == SqlKind.AS) {
          for (SqlNode alias : as.getOperandList().subList(1, as.operandCount())) {
            if (alias instanceof SqlIdentifier id) {
              aliases.add(lower(id.getSimple()));
            }
          }
        }
      }
      Scope scope = new Scope(entries, known, aliases, null, null);
      List<Scope> chain = new ArrayList<>();
      chain.add(scope);
      chain.addAll(outer);
      // Spark resolves no select alias in ON or WHERE, nor in a subquery of them or of the SELECT
      // list (each measured: UNRESOLVED_COLUMN); the SELECT list itself (lateral aliases), GROUP
      // BY, HAVING and ORDER BY take them.
      List<Scope> on = blind(scope.blind("ON"), outer);
      List<Scope> where = blind(scope.blind("WHERE"), outer);
      List<Scope> subquery = blind(scope.blind("a subquery"), outer);
      conditions.forEach(c -> expression(c, on, subquery));
      expression(select.getSelectList(), chain, subquery);
      expression(select.getWhere(), where, subquery);
      expression(select.getGroup(), chain);
      expression(select.getHaving(), chain);
      expression(select.getQualify(), chain);
      expression(select.getWindowList(), chain);
      expression(select.getOrderList(), chain);
      expression(orderBy, chain);
    }

    private static List<Scope> blind(Scope first, List<Scope> outer) {
      List<Scope> chain = new ArrayList<>();
      chain.add(first);
      chain.addAll(outer);
      return chain;
    }

    /** Adds the FROM items to {@code entries}; whether every one is a table read by name. */
    private boolean from(
        SqlNode node, List<Entry> entries, List<SqlNode> conditions, List<Scope> outer) {
      if (node == null) {
        return true;
      }
      if (node instanceof SqlIdentifier id) {
        return table(id, null, entries);
      }
      if (node instanceof SqlJoin join) {
        boolean left = from(join.getLeft(), entries, conditions, outer);
        boolean right = from(join.getRight(), entries, conditions, outer);
        if (join.getConditionType() == JoinConditionType.ON) {
          conditions.add(join.getCondition());
        }
        return left && right;
      }
      if (node instanceof SqlCall call
          && call.getKind() == SqlKind.AS
          && call.operandCount() == 2
          && call.operand(0) instanceof SqlIdentifier id
          && call.operand(1) instanceof SqlIdentifier alias) {
        return table(id, lower(alias.getSimple()), entries);
      }
      SqlNode inner =
          node instanceof SqlCall call && call.getKind() == SqlKind.AS ? call.operand(0) : node;
      if (TableExtractor.isQuery(inner)) {
        // A derived table's own columns are checked against its own FROM and, inside a subquery,
        // the enclosing queries' (Spark lets it correlate); outside it, the columns it shows are
        // not a table's.
        query(inner, outer);
      }
      return false;
    }

    private boolean table(SqlIdentifier id, String alias, List<Entry> entries) {
      List<String> parts = id.names.stream().map(Walk::lower).toList();
      if (id.isStar()
          || parts.isEmpty()
          || parts.size() > 4
          || (parts.size() == 1 && ctes.contains(parts.get(0)))
          || TableExtractor.isPathTable(parts)) {
        return false;
      }
      Name name = new Name(parts, String.join(".", id.names), position(id));
      entries.add(
          new Entry(name, alias != null ? alias : parts.get(parts.size() - 1), alias != null));
      return true;
    }

    private void expression(SqlNode node, List<Scope> chain) {
      expression(node, chain, chain);
    }

    /** {@code subqueries}: the scopes a subquery within {@code node} sees around its own. */
    private void expression(SqlNode node, List<Scope> chain, List<Scope> subqueries) {
      if (node == null) {
        return;
      }
      if (node instanceof SqlNodeList list) {
        for (SqlNode item : list) {
          expression(item, chain, subqueries);
        }
      } else if (TableExtractor.isQuery(node)) {
        query(node, subqueries);
      } else if (node instanceof SqlIdentifier id) {
        reference(id, chain);
      } else if (node instanceof SqlWindow window) {
        // Its name and the window it refines are names of windows, not columns.
        expression(window.getPartitionList(), chain, subqueries);
        expression(window.getOrderList(), chain, subqueries);
      } else if (node instanceof SqlLambda lambda) {
        expression(lambda.getExpression(), chain, subqueries);
      } else if (node instanceof SqlCall call) {
        switch (call.getKind()) {
          // An alias, a field's name and a named argument's name are not columns.
          case AS, DOT, ARGUMENT_ASSIGNMENT -> expression(call.operand(0), chain, subqueries);
          case OVER -> {
            expression(call.operand(0), chain, subqueries);
            if (call.operand(1) instanceof SqlWindow window) {
              expression(window, chain, subqueries);
            }
          }
          default -> {
            for (SqlNode operand : call.getOperandList()) {
              expression(operand, chain, subqueries);
            }
          }
        }
      }
    }

    private void reference(SqlIdentifier id, List<Scope> chain) {
      if (id.isStar() || id.names.isEmpty()) {
        return;
      }
      List<String> parts = id.names.stream().map(Walk::lower).toList();
      String head = parts.get(0);
      // ORDER BY ALL and GROUP BY ALL name no column; _metadata is the hidden column of every
      // Delta table's file details.
      if (lambdaParameters.contains(head)
          || head.equals("_metadata")
          || (parts.size() == 1
              && (TableExtractor.NILADIC.contains(head)
                  || UNITS.contains(head)
                  || head.equals("all")))) {
        return;
      }
      List<Entry> entries = new ArrayList<>();
      String unseenAlias = null;
      for (Scope s : chain) {
        // Spark resolves a name that no column has as a select alias of its own query (lateral
        // aliases, GROUP BY and HAVING by alias): one that may be an alias is not checked.
        if (!s.known() || s.aliases().contains(head)) {
          return;
        }
        if (unseenAlias == null && parts.size() == 1 && s.unseen() != null) {
          unseenAlias = s.unseen().contains(head) ? s.clause() : null;
        }
        entries.addAll(s.entries());
      }
      if (parts.size() >= 3 && entries.stream().anyMatch(e -> !e.aliased())) {
        return; // silver.s.amount: an unaliased table is also qualified by schema and table
      }
      List<Reading> readings = new ArrayList<>();
      for (int i = 0; i < entries.size(); i++) {
        if (parts.size() >= 2 && entries.get(i).qualifier().equals(head)) {
          readings.add(new Reading(i, parts.get(1), true));
        }
        readings.add(new Reading(i, head, false));
      }
      refs.add(
          new Ref(
              text(id),
              position(id),
              entries.stream().map(Entry::table).toList(),
              readings,
              unseenAlias));
    }

    private int offset(SqlNode node) {
      SqlParserPos pos = node.getParserPosition();
      return offsetOf(pos.getLineNum(), pos.getColumnNum());
    }

    /** As {@link Position#offsetOf}, from the table of line starts. */
    private int offsetOf(int line, int column) {
      int l = Math.min(Math.max(line, 1), lineStarts.length) - 1;
      return Math.min(sql.length(), lineStarts[l] + Math.max(0, column - 1));
    }

    /** As {@code start.advance(sql, offset)}, from the table of line starts. */
    private Position position(SqlNode node) {
      int offset = offset(node);
      int index = java.util.Arrays.binarySearch(lineStarts, offset);
      int l = index >= 0 ? index : -index - 2;
      int column = offset - lineStarts[l] + (l == 0 ? start.column() : 1);
      return new Position(start.file(), start.line() + l, column);
    }

    private String text(SqlIdentifier id) {
      SqlParserPos pos = id.getParserPosition();
      int from = offset(id);
      int to = offsetOf(pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
      return from < to && to <= sql.length() ? sql.substring(from, to) : String.join(".", id.names);
    }

    private static String lower(String s) {
      return s.toLowerCase(Locale.ROOT);
    }
  }
}
