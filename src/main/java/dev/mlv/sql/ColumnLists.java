package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlStarExclude;
import org.apache.calcite.sql.SqlStarReplace;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The column lists that rename a FROM item's columns ({@code FROM t AS x(a, b)}, {@code (VALUES
 * ...) AS v(a)}) or a CTE's ({@code WITH c(a, b) AS (...)}), with the number of columns they rename
 * where the SQL itself tells it. Spark refuses a list whose length is not that number when it
 * analyses the view (ASSIGNMENT_ARITY_MISMATCH, or INVALID_INLINE_TABLE for a bare VALUES), which
 * apply only meets after it has replaced the views upstream.
 */
public final class ColumnLists {

  /** What a column list renames. */
  public enum Kind {
    /** A table or view read by name: its columns are the catalog's, or the project's. */
    TABLE,
    /** A parenthesised VALUES list: its rows' values. */
    VALUES,
    /** A bare {@code FROM VALUES ...}, Spark's inline table. */
    INLINE_TABLE,
    /** A subquery in FROM: its SELECT list. */
    SUBQUERY,
    /** A CTE read in FROM: its columns. */
    CTE,
    /** A CTE's own column list, {@code WITH c(a, b) AS (...)}: its query's SELECT list. */
    CTE_DEFINITION
  }

  /**
   * The column list {@code names} of alias or CTE {@code alias} at {@code position}; {@code
   * columns} is the number of columns it renames, -1 when only {@code table}'s columns tell (a
   * {@link Kind#TABLE}); {@code source} names the table or CTE it renames, null for VALUES and a
   * subquery.
   */
  public record ColumnList(
      Kind kind,
      String alias,
      List<String> names,
      Position position,
      int columns,
      Name table,
      String source) {
    public ColumnList {
      names = List.copyOf(names);
    }
  }

  /** A column count not told by the SQL: a {@code *}, a generator's columns, a table function. */
  static final int UNKNOWN = -1;

  private final String sql;
  private final Position start;
  private final Set<Integer> markers;
  private final Map<Integer, SqlNode> inlineTables;
  private final List<ColumnList> found = new ArrayList<>();

  private ColumnLists(
      String sql, Position start, Set<Integer> markers, Map<Integer, SqlNode> inlineTables) {
    this.sql = sql;
    this.start = start;
    this.markers = markers;
    this.inlineTables = inlineTables;
  }

  /**
   * The column lists of {@code sql}, whose Calcite tree is {@code root}. {@code markers}: where the
   * rewriter left its marker for a FROM item it took out (a table function, a bare VALUES list);
   * {@code inlineTables}: the parsed VALUES lists among them, by the marker's offset.
   */
  static List<ColumnList> of(
      String sql,
      Position start,
      SqlNode root,
      Set<Integer> markers,
      Map<Integer, SqlNode> inlineTables) {
    try {
      ColumnLists lists = new ColumnLists(sql, start, markers, inlineTables);
      lists.node(root, Map.of());
      return List.copyOf(lists.found);
    } catch (RuntimeException e) { // a node shape not foreseen: claim nothing rather than fail
      return List.of();
    }
  }

  /** {@code ctes}: the column count of each CTE in scope, by lower-case name. */
  private void node(SqlNode node, Map<String, Integer> ctes) {
    if (node == null) {
      return;
    }
    if (node instanceof SqlWith with) {
      node(with.body, with(with, ctes));
    } else if (node instanceof SqlSelect select) {
      from(select.getFrom(), ctes);
      for (SqlNode operand : select.getOperandList()) {
        if (operand != select.getFrom()) {
          node(operand, ctes);
        }
      }
    } else if (node instanceof SqlNodeList list) {
      for (SqlNode item : list) {
        node(item, ctes);
      }
    } else if (node instanceof SqlCall call) {
      for (SqlNode operand : call.getOperandList()) {
        node(operand, ctes);
      }
    }
  }

  /**
   * The CTEs in scope in the body of {@code with}, its items walked: each item sees the ones before
   * it (and itself, when RECURSIVE), as Spark scopes them.
   */
  private Map<String, Integer> with(SqlWith with, Map<String, Integer> outer) {
    Map<String, Integer> scope = new HashMap<>(outer);
    for (SqlNode node : with.withList) {
      SqlWithItem item = (SqlWithItem) node;
      String name = item.name.getSimple().toLowerCase(Locale.ROOT);
      SqlNodeList list = item.columnList;
      boolean recursive = item.recursive != null && item.recursive.booleanValue();
      if (recursive) {
        scope.put(name, list == null ? UNKNOWN : list.size());
      }
      node(item.query, Map.copyOf(scope));
      int columns = recursive ? UNKNOWN : count(item.query, scope);
      if (list != null && list.size() > 0) {
        add(Kind.CTE_DEFINITION, item.name, list, columns, null, item.name.getSimple());
        columns = list.size();
      }
      scope.put(name, columns);
    }
    return scope;
  }

  private void from(SqlNode node, Map<String, Integer> ctes) {
    if (node == null) {
      return;
    }
    if (node instanceof SqlJoin join) {
      from(join.getLeft(), ctes);
      from(join.getRight(), ctes);
      node(join.getCondition(), ctes);
      return;
    }
    if (node instanceof SqlCall call && call.getKind() == SqlKind.AS) {
      SqlNode item = call.operand(0);
      if (call.operandCount() > 2 && call.operand(1) instanceof SqlIdentifier alias) {
        List<SqlNode> names = call.getOperandList().subList(2, call.operandCount());
        renamed(item, alias, names, ctes);
      }
      from(item, ctes);
      return;
    }
    if (node instanceof SqlCall call && call.getKind() == SqlKind.LATERAL) {
      from(call.operand(0), ctes);
      return;
    }
    if (!(node instanceof SqlIdentifier)) {
      node(node, ctes);
    }
  }

  /**
   * Records the column list {@code names} of {@code alias}, which renames FROM item {@code item}.
   */
  private void renamed(
      SqlNode item, SqlIdentifier alias, List<SqlNode> names, Map<String, Integer> ctes) {
    SqlNode inner =
        item instanceof SqlCall call && call.getKind() == SqlKind.LATERAL ? call.operand(0) : item;
    if (inner instanceof SqlIdentifier id) {
      if (id.isStar()) {
        return;
      }
      int offset = offset(id);
      if (markers.contains(offset)) {
        // A table function's columns are its own (range's id); a bare VALUES list's are told.
        if (inlineTables.containsKey(offset)) {
          add(Kind.INLINE_TABLE, alias, names, count(inlineTables.get(offset), ctes), null, null);
        }
        return;
      }
      String first = id.names.get(0).toLowerCase(Locale.ROOT);
      if (id.names.size() == 1 && ctes.containsKey(first)) {
        add(Kind.CTE, alias, names, ctes.get(first), null, id.getSimple());
        return;
      }
      List<String> parts = id.names.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
      if (parts.size() > 4 || TableExtractor.isPathTable(parts) || parts.contains("")) {
        return;
      }
      String text = String.join(".", id.names);
      add(Kind.TABLE, alias, names, UNKNOWN, new Name(parts, text, position(id)), text);
    } else if (inner.getKind() == SqlKind.VALUES) {
      add(Kind.VALUES, alias, names, count(inner, ctes), null, null);
    } else if (TableExtractor.isQuery(inner)) {
      add(Kind.SUBQUERY, alias, names, count(inner, ctes), null, null);
    }
  }

  private void add(
      Kind kind, SqlIdentifier alias, List<SqlNode> names, int columns, Name table, String source) {
    if (kind != Kind.TABLE && columns == UNKNOWN) {
      return;
    }
    List<String> written = new ArrayList<>();
    for (SqlNode n : names) {
      written.add(n instanceof SqlIdentifier id ? id.getSimple() : n.toString());
    }
    found.add(
        new ColumnList(kind, alias.getSimple(), written, position(alias), columns, table, source));
  }

  /** The number of columns {@code query} gives, {@link #UNKNOWN} when its SQL does not tell. */
  static int width(SqlNode query) {
    return count(query, Map.of());
  }

  /** As {@link #width}, with the column counts of the CTEs in scope. */
  private static int count(SqlNode query, Map<String, Integer> ctes) {
    if (query instanceof SqlWith with) {
      Map<String, Integer> scope = new HashMap<>(ctes);
      for (SqlNode node : with.withList) {
        SqlWithItem item = (SqlWithItem) node;
        int columns =
            item.columnList != null && item.columnList.size() > 0
                ? item.columnList.size()
                : count(item.query, scope);
        scope.put(item.name.getSimple().toLowerCase(Locale.ROOT), columns);
      }
      return count(with.body, scope);
    }
    if (query instanceof SqlOrderBy orderBy) {
      return count(orderBy.query, ctes);
    }
    if (query instanceof SqlSelect select) {
      for (SqlNode item : select.getSelectList()) {
        if (!oneColumn(item)) {
          return UNKNOWN;
        }
      }
      return select.getSelectList().size();
    }
    if (query instanceof SqlCall call && call.getOperator() instanceof SqlSetOperator) {
      // Spark takes a set operation's columns from its first query, and refuses one whose
      // queries differ in number.
      return count(call.operand(0), ctes);
    }
    if (query instanceof SqlCall call && call.getKind() == SqlKind.VALUES) {
      SqlNode row = call.operand(0);
      return row instanceof SqlCall r && r.getKind() == SqlKind.ROW ? r.operandCount() : 1;
    }
    return UNKNOWN;
  }

  /** Whether a SELECT item is one column: not a {@code *} nor a generator's columns. */
  private static boolean oneColumn(SqlNode item) {
    SqlNode value = item;
    if (item instanceof SqlCall call && call.getKind() == SqlKind.AS) {
      if (call.operandCount() != 2) {
        return false;
      }
      value = call.operand(0);
    }
    if (value instanceof SqlIdentifier id) {
      return !id.isStar();
    }
    if (value instanceof SqlStarExclude || value instanceof SqlStarReplace) {
      return false;
    }
    return !(value instanceof SqlCall call
        && OutputNames.GENERATORS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT)));
  }

  private int offset(SqlNode node) {
    SqlParserPos pos = node.getParserPosition();
    return TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
  }

  private Position position(SqlNode node) {
    return start.advance(sql, offset(node));
  }
}
