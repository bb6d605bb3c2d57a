package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
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
 * column s of any table in scope. A CTE or an aliased subquery in the FROM counts as a table when
 * its SELECT list names its columns ({@link OutputNames.Derived}). A reference is left out whenever
 * something else could be what it names: a table function or other FROM item whose columns are not
 * told, a select alias, a lambda parameter, a name of three parts or more where a table is
 * unaliased (it may be qualified by schema and table).
 */
public final class ColumnRefs {

  /**
   * One way Spark may resolve a reference: column {@code column} of {@code tables().get(table)};
   * {@code qualified} when the reference's qualifier names that table (the reading meant); {@code
   * fields}: the names after the column, lower case, which read a struct's fields ({@code s.a.b}
   * read as column s is fields a, b).
   */
  public record Reading(int table, String column, boolean qualified, List<String> fields) {
    public Reading {
      fields = List.copyOf(fields);
    }
  }

  /**
   * A column name as written ({@code text}) at {@code position}, the tables visible where it stands
   * (innermost first, enclosing queries' after) and the readings Spark may give it: unless one of
   * them holds, Spark cannot resolve it. {@code unseenAlias}: where it stands ({@code "WHERE"},
   * {@code "ON"}, {@code "a subquery"}) when it is named like an alias of a SELECT list that Spark
   * does not resolve there, null otherwise. {@code semiJoin}: when its qualifier names no table in
   * scope but the right side of a semi or anti join, that join as written ({@code "LEFT SEMI
   * JOIN"}), whose right side Spark resolves only in the join's own ON; null otherwise. {@code
   * scopes}: for each of {@code tables}, where it stands and its qualifier. {@code fromOnly}: the
   * name stands where Spark resolves it against the FROM items first (the SELECT list, WHERE and
   * GROUP BY, and an ON against its join's two sides; not HAVING or ORDER BY, which may take the
   * SELECT list's columns), so that two tables having it make it ambiguous. {@code derived}: by
   * index in {@code tables}, those that are a CTE or subquery of the statement, whose {@code
   * tables} entry is only its name there. {@code using}: for a column of a {@code JOIN ... USING
   * (...)} list, the side of the join whose FROM items are {@code tables} ({@code "left"}, {@code
   * "right"}), which Spark resolves it against alone; null for any other name. {@code unselected}:
   * a bare name in ORDER BY that no item of its SELECT list outputs (the list fully named, no
   * {@code *}, no DISTINCT), which Spark then resolves against the FROM alone. {@code alias}: a
   * bare name in GROUP BY that is also an alias of its SELECT list, which Spark takes only when no
   * FROM item has such a column: it can only be ambiguous, never unresolved.
   */
  public record Ref(
      String text,
      Position position,
      List<Name> tables,
      List<Reading> readings,
      String unseenAlias,
      String semiJoin,
      List<Scoped> scopes,
      boolean fromOnly,
      Map<Integer, OutputNames.Derived> derived,
      String lateral,
      String using,
      boolean unselected,
      boolean alias) {
    public Ref {
      tables = List.copyOf(tables);
      readings = List.copyOf(readings);
      scopes = List.copyOf(scopes);
      derived = Map.copyOf(derived);
    }
  }

  /**
   * A table in scope of a reference: {@code level} 0 for the reference's own query, 1 for the one
   * around it, ...; {@code qualifier} its alias or name; {@code joined} when the name is a USING
   * column of that query's FROM or that FROM has a NATURAL join, where Spark shows the column once.
   */
  public record Scoped(int level, String qualifier, boolean joined) {}

  /** Datetime units, which Spark takes bare as a function's first argument (datediff(DAY, ...)). */
  static final Set<String> UNITS =
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
   * part the rewriter took out: a caller with such parts passes nothing here); {@code tokens} those
   * of {@code sql} as written, for the {@code * EXCEPT} lists Calcite did not read.
   */
  static List<Ref> of(String sql, Position start, SqlNode root, List<SqlToken> tokens) {
    try {
      Walk walk = new Walk(sql, start, root, tokens);
      walk.query(root, List.of());
      return List.copyOf(walk.refs);
    } catch (RuntimeException e) { // a node shape not foreseen: claim nothing rather than fail
      return List.of();
    }
  }

  /**
   * A FROM item read by name: {@code qualifier} is its alias, or else its name's last part; {@code
   * derived} when it is a CTE or subquery, null for a table.
   */
  private record Entry(
      Name table, String qualifier, boolean aliased, OutputNames.Derived derived) {}

  /**
   * The FROM of one SELECT: {@code known} when every item is a table read by name; {@code entries}
   * those in scope where the names stand, {@code hidden} the qualifiers of the right sides of semi
   * and anti joins that are not, each with its join as written. {@code aliases} are its SELECT
   * list's, which Spark may take a name for where it stands; {@code unseen} those it does not (null
   * when none are unseen) and the clause that is, for messages.
   */
  private record Scope(
      List<Entry> entries,
      Map<String, String> hidden,
      boolean known,
      Set<String> aliases,
      Set<String> unseen,
      String clause,
      Set<String> joinColumns) {

    /** This scope where its SELECT list's aliases are not seen: in {@code clause}. */
    Scope blind(String clause) {
      Set<String> all = new HashSet<>(aliases);
      if (unseen != null) {
        all.addAll(unseen);
      }
      return new Scope(entries, hidden, known, Set.of(), all, clause, joinColumns);
    }

    /** This scope with {@code entries} in it and the others of {@code hidden} out of it. */
    Scope with(List<Entry> entries, Map<String, String> hidden) {
      return new Scope(entries, hidden, known, aliases, unseen, clause, joinColumns);
    }
  }

  /**
   * The right side of a semi or anti join, written {@code join}: the FROM items from index {@code
   * from} to {@code to}, which Spark's semi join does not show. So its columns are in scope only in
   * the ON of that join and of the joins within its right side.
   */
  private record Semi(int from, int to, String join) {}

  /**
   * The ON {@code condition} of a join of the FROM items from index {@code from} to {@code to};
   * {@code semi}: the index of its {@link Semi} when it is one, else -1.
   */
  private record Condition(SqlNode condition, int from, int to, int semi) {}

  /** In {@link Scope#joinColumns()}: the FROM has a NATURAL join, whose columns are not told. */
  private static final String NATURAL = "*";

  private static final class Walk {
    private final String sql;
    private final Position start;
    private final Set<String> ctes = new HashSet<>();

    /** The statement, which tells the columns of its CTEs and subqueries. */
    private final OutputNames.Statement statement;

    private final Set<String> lambdaParameters = new HashSet<>();

    /**
     * Whether the names walked now stand where Spark resolves them against the FROM items only: the
     * SELECT list, WHERE, GROUP BY and an ON (against its join's two sides); HAVING and ORDER BY
     * may take the SELECT list's columns.
     */
    private boolean fromOnly;

    /** While a GROUP BY list is walked, not its subqueries. */
    private boolean inGroupBy;

    private final List<Ref> refs = new ArrayList<>();

    /**
     * While the ORDER BY of a SELECT is walked: the names its SELECT list outputs, lower case; null
     * elsewhere, and when they are not all known.
     */
    private Set<String> orderOutputs;

    /**
     * Where in its query's SELECT list the names walked now stand, when that is inside an aggregate
     * function or a window, which Spark reads no lateral column alias in: "an aggregate function",
     * "a window"; null elsewhere. {@code inSelectList} while the SELECT list is walked.
     */
    private String lateral;

    private boolean inSelectList;

    /** While the SELECT list is walked: the aliases of the items before the one walked now. */
    private Set<String> lateralAliases = Set.of();

    /**
     * Offset where each line of {@code sql} starts, lines ended as {@link Position} ends them: a
     * SELECT of 50,000 columns is not counted from its start 50,000 times.
     */
    private final int[] lineStarts;

    Walk(String sql, Position start, SqlNode root, List<SqlToken> tokens) {
      this.sql = sql;
      this.start = start;
      this.statement = new OutputNames.Statement(sql, start, root, tokens);
      List<Integer> starts = new ArrayList<>(List.of(0));
      for (int i = 0; i < sql.length(); i++) {
        if (Position.lineEndAt(sql, i)) {
          starts.add(i + 1);
        }
      }
      this.lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
      // Any CTE name hides a table of that name, and any lambda parameter a column, anywhere: a
      // name so hidden is never taken for the table's or the column's.
      ctes.addAll(statement.ctes());
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
      Set<String> aroundOutputs = orderOutputs;
      orderOutputs = null; // a subquery's names are not its enclosing ORDER BY's
      try {
        walkSelect(select, outer, orderBy);
      } finally {
        orderOutputs = aroundOutputs;
      }
    }

    /**
     * The names {@code select}'s list outputs, lower case: a column's last name part, an alias;
     * null when not all are known (a {@code *}), when it is DISTINCT (whose ORDER BY reads only its
     * own columns, another rule) or has a window. An item of another kind is named after its text,
     * which no bare name equals.
     */
    private static Set<String> outputs(SqlSelect select) {
      // A window carries the columns it orders by to the ORDER BY (measured on Spark 4.1.1:
      // SELECT amt, row_number() OVER (ORDER BY s.id) AS rn ... ORDER BY id is taken).
      if (select.isDistinct()
          || select.getQualify() != null
          || (select.getWindowList() != null && !select.getWindowList().isEmpty())
          || hasWindow(select.getSelectList())) {
        return null;
      }
      Set<String> names = new HashSet<>();
      for (SqlNode item : select.getSelectList()) {
        if (item instanceof SqlIdentifier id) {
          if (id.isStar()) {
            return null;
          }
          names.add(lower(id.names.get(id.names.size() - 1)));
        } else if (item instanceof SqlCall as && as.getKind() == SqlKind.AS) {
          for (SqlNode alias : as.getOperandList().subList(1, as.operandCount())) {
            if (alias instanceof SqlIdentifier id) {
              names.add(lower(id.getSimple()));
            }
          }
        } else if (!(item instanceof SqlCall call) || call.getKind() == SqlKind.DOT) {
          return null; // a literal ('x' is named x), a field (f(x).a is named a), ...
        }
      }
      return names;
    }

    private static boolean hasWindow(SqlNode node) {
      boolean[] found = {false};
      node.accept(
          new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
              if (call.getKind() == SqlKind.OVER) {
                found[0] = true;
                return null;
              }
              return super.visit(call);
            }
          });
      return found[0];
    }

    private void walkSelect(SqlSelect select, List<Scope> outer, SqlNodeList orderBy) {
      boolean aroundGroupBy = inGroupBy;
      inGroupBy = false;
      List<Entry> entries = new ArrayList<>();
      List<Condition> conditions = new ArrayList<>();
      List<Semi> semis = new ArrayList<>();
      Set<String> joinColumns = new HashSet<>();
      boolean known = from(select.getFrom(), entries, conditions, semis, joinColumns, outer);
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
      Scope all = new Scope(entries, Map.of(), known, aliases, null, null, joinColumns);
      Scope scope = in(all, entries, semis, null);
      List<Scope> chain = new ArrayList<>();
      chain.add(scope);
      chain.addAll(outer);
      // Spark resolves no select alias in ON or WHERE, nor in a subquery of them or of the SELECT
      // list (each measured: UNRESOLVED_COLUMN); the SELECT list itself (lateral aliases), GROUP
      // BY, HAVING and ORDER BY take them.
      List<Scope> where = blind(scope.blind("WHERE"), outer);
      List<Scope> subquery = blind(scope.blind("a subquery"), outer);
      boolean around = fromOnly;
      // An ON resolves names against the two sides of its join alone, as WHERE against the FROM.
      fromOnly = true;
      for (Condition c : conditions) {
        Scope on = in(all, entries, semis, c);
        expression(
            c.condition(), blind(on.blind("ON"), outer), blind(on.blind("a subquery"), outer));
      }
      fromOnly = true;
      inSelectList = true;
      // Spark's lateral aliases are those of the items before the one read.
      lateralAliases = new HashSet<>();
      for (SqlNode item : select.getSelectList()) {
        expression(item, chain, subquery);
        if (item instanceof SqlCall as && as.getKind() == SqlKind.AS) {
          for (SqlNode alias : as.getOperandList().subList(1, as.operandCount())) {
            if (alias instanceof SqlIdentifier id) {
              lateralAliases.add(lower(id.getSimple()));
            }
          }
        }
      }
      inSelectList = false;
      fromOnly = true;
      expression(select.getWhere(), where, subquery);
      // GROUP BY resolves a name against the FROM before the SELECT list's aliases, so two tables
      // having it make it ambiguous even where an item is named so (measured on Spark 4.1.1:
      // AMBIGUOUS_REFERENCE for GROUP BY id, GROUP BY ROLLUP(id), id + 1, under SELECT s.id and
      // SELECT s.id AS id alike); a name that may be an alias is still left alone below.
      fromOnly = true;
      inGroupBy = true;
      expression(select.getGroup(), chain);
      inGroupBy = false;
      fromOnly = false;
      expression(select.getHaving(), chain);
      expression(select.getQualify(), chain);
      expression(select.getWindowList(), chain);
      Set<String> aroundOutputs = orderOutputs;
      orderOutputs = outputs(select);
      expression(select.getOrderList(), chain);
      expression(orderBy, chain);
      orderOutputs = aroundOutputs;
      fromOnly = around;
      inGroupBy = aroundGroupBy;
    }

    /**
     * {@code all} with the FROM items in scope in the ON {@code at}, or elsewhere in the SELECT
     * when null. Spark's semi and anti joins show only their left side's columns (measured on Spark
     * 4.1.1: a column of the right side is UNRESOLVED_COLUMN in the SELECT list, WHERE, GROUP BY,
     * ORDER BY, a subquery of them and a later join's ON, and {@code *} shows only the left's), so
     * such a right side is in scope only in its own join's ON and in those of joins within it.
     */
    private static Scope in(Scope all, List<Entry> entries, List<Semi> semis, Condition at) {
      List<Entry> seen = new ArrayList<>();
      Map<String, String> hidden = new HashMap<>();
      for (int i = 0; i < entries.size(); i++) {
        if (at != null && (i < at.from() || i >= at.to())) {
          continue; // an ON sees only the two sides of its own join
        }
        Semi out = null;
        for (int s = 0; s < semis.size() && out == null; s++) {
          Semi semi = semis.get(s);
          boolean within =
              at != null && (s == at.semi() || (at.from() >= semi.from() && at.to() <= semi.to()));
          if (i >= semi.from() && i < semi.to() && !within) {
            out = semi;
          }
        }
        if (out == null) {
          seen.add(entries.get(i));
        } else {
          hidden.putIfAbsent(entries.get(i).qualifier(), out.join());
        }
      }
      return all.with(seen, hidden);
    }

    private static List<Scope> blind(Scope first, List<Scope> outer) {
      List<Scope> chain = new ArrayList<>();
      chain.add(first);
      chain.addAll(outer);
      return chain;
    }

    /**
     * Adds the FROM items to {@code entries}, its joins' ON to {@code conditions} and its semi and
     * anti joins to {@code semis}; whether every item is a table read by name.
     */
    private boolean from(
        SqlNode node,
        List<Entry> entries,
        List<Condition> conditions,
        List<Semi> semis,
        Set<String> joinColumns,
        List<Scope> outer) {
      if (node == null) {
        return true;
      }
      if (node instanceof SqlIdentifier id) {
        return table(id, null, entries);
      }
      if (node instanceof SqlJoin join) {
        int first = entries.size();
        boolean left = from(join.getLeft(), entries, conditions, semis, joinColumns, outer);
        int rightFirst = entries.size();
        boolean right = from(join.getRight(), entries, conditions, semis, joinColumns, outer);
        if (join.isNatural()) {
          joinColumns.add(NATURAL);
        } else if (join.getConditionType() == JoinConditionType.USING
            && join.getCondition() instanceof SqlNodeList using) {
          for (SqlNode column : using) {
            if (column instanceof SqlIdentifier id) {
              joinColumns.add(lower(id.names.get(id.names.size() - 1)));
              if (id.isSimple() && left) {
                usingColumn(id, entries.subList(first, rightFirst), "left");
              }
              if (id.isSimple() && right) {
                usingColumn(id, entries.subList(rightFirst, entries.size()), "right");
              }
            }
          }
        }
        int semi = -1;
        JoinType type = join.getJoinType();
        if (type == JoinType.LEFT_SEMI_JOIN || type == JoinType.LEFT_ANTI_JOIN) {
          semi = semis.size();
          semis.add(
              new Semi(
                  rightFirst,
                  entries.size(),
                  type == JoinType.LEFT_SEMI_JOIN ? "LEFT SEMI JOIN" : "LEFT ANTI JOIN"));
        }
        if (join.getConditionType() == JoinConditionType.ON) {
          conditions.add(new Condition(join.getCondition(), first, entries.size(), semi));
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
      if (node instanceof SqlCall call
          && call.getKind() == SqlKind.AS
          && call.operandCount() > 2
          && call.operand(0) instanceof SqlIdentifier id
          && call.operand(1) instanceof SqlIdentifier alias
          && id.isSimple()
          && statement.isCte(id.getSimple())) {
        // base AS b(x, y): the list renames the CTE's columns.
        return derived(
            statement.derived(
                id, id.getSimple(), call.getOperandList().subList(2, call.operandCount())),
            alias,
            entries);
      }
      SqlNode inner =
          node instanceof SqlCall call && call.getKind() == SqlKind.AS ? call.operand(0) : node;
      if (TableExtractor.isQuery(inner)) {
        // A derived table's own columns are checked against its own FROM and, inside a subquery,
        // the enclosing queries' (Spark lets it correlate); outside it, the columns it shows are
        // those of its SELECT list, or of the column list after its alias.
        query(inner, outer);
        if (node instanceof SqlCall call
            && call.getKind() == SqlKind.AS
            && call.operand(1) instanceof SqlIdentifier alias) {
          return derived(
              statement.derived(
                  inner, alias.getSimple(), call.getOperandList().subList(2, call.operandCount())),
              alias,
              entries);
        }
      }
      return false;
    }

    /**
     * A USING column as a reference to the FROM items of one side of its join: Spark resolves it
     * against that side's columns alone (no outer query's, no select alias), taking the first
     * column of that name there, so a side with two is no ambiguity (each measured on Spark 4.1.1:
     * UNRESOLVED_USING_COLUMN_FOR_JOIN when a side lacks it). The columns of a semi join's right
     * side within the side count too, though Spark hides them: a name no item of the side has is
     * missing whatever the side shows.
     */
    private void usingColumn(SqlIdentifier id, List<Entry> side, String which) {
      String column = lower(id.getSimple());
      List<Scoped> scopes = new ArrayList<>();
      List<Reading> readings = new ArrayList<>();
      Map<Integer, OutputNames.Derived> derived = new HashMap<>();
      for (int i = 0; i < side.size(); i++) {
        Entry e = side.get(i);
        scopes.add(new Scoped(0, e.qualifier(), false));
        readings.add(new Reading(i, column, false, List.of()));
        if (e.derived() != null) {
          derived.put(i, e.derived());
        }
      }
      refs.add(
          new Ref(
              text(id),
              position(id),
              side.stream().map(Entry::table).toList(),
              readings,
              null,
              null,
              scopes,
              false,
              derived,
              null,
              which,
              false,
              false));
    }

    /**
     * Adds a CTE or subquery, aliased {@code alias}, as a FROM item; whether its columns are told
     * ({@code derived} not null).
     */
    private boolean derived(OutputNames.Derived derived, SqlIdentifier alias, List<Entry> entries) {
      if (derived == null) {
        return false;
      }
      String qualifier = lower(alias.getSimple());
      Name shown = new Name(List.of(qualifier), alias.getSimple(), position(alias));
      entries.add(new Entry(shown, qualifier, true, derived));
      return true;
    }

    private boolean table(SqlIdentifier id, String alias, List<Entry> entries) {
      List<String> parts = id.names.stream().map(Walk::lower).toList();
      if (parts.size() == 1 && statement.isCte(parts.get(0)) && !id.isStar()) {
        SqlIdentifier shown = alias == null ? id : new SqlIdentifier(alias, id.getParserPosition());
        return derived(statement.derived(id, id.getSimple(), List.of()), shown, entries);
      }
      if (id.isStar()
          || parts.isEmpty()
          || parts.size() > 4
          || (parts.size() == 1 && ctes.contains(parts.get(0)))
          || TableExtractor.isPathTable(parts)) {
        return false;
      }
      Name name = new Name(parts, String.join(".", id.names), position(id));
      entries.add(
          new Entry(
              name, alias != null ? alias : parts.get(parts.size() - 1), alias != null, null));
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
        // A subquery has a SELECT list of its own, whose aliases are no lateral ones here.
        String aroundLateral = lateral;
        boolean aroundList = inSelectList;
        Set<String> aroundAliases = lateralAliases;
        lateral = null;
        inSelectList = false;
        query(node, subqueries);
        lateral = aroundLateral;
        inSelectList = aroundList;
        lateralAliases = aroundAliases;
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
            String around = lateral;
            lateral = "a window";
            expression(call.operand(0), chain, subqueries);
            if (call.operand(1) instanceof SqlWindow window) {
              expression(window, chain, subqueries);
            }
            lateral = around;
          }
          default -> {
            String around = lateral;
            if (around == null
                && (MisplacedCalls.isAggregate(call)
                    || call.getKind() == SqlKind.FILTER
                    || call.getKind() == SqlKind.WITHIN_GROUP)) {
              lateral = "an aggregate function";
            }
            for (SqlNode operand : call.getOperandList()) {
              expression(operand, chain, subqueries);
            }
            lateral = around;
          }
        }
      }
    }

    private void reference(SqlIdentifier id, List<Scope> chain) {
      if (id.names.isEmpty() || (id.isStar() && id.names.size() < 2)) {
        return;
      }
      // b.* is followed only where b may be a semi join's hidden right side (Spark:
      // CANNOT_RESOLVE_STAR_EXPAND); read as the name b, a struct column it would expand.
      boolean star = id.isStar();
      List<String> parts =
          id.names.subList(0, id.names.size() - (star ? 1 : 0)).stream().map(Walk::lower).toList();
      String head = parts.get(0);
      // ORDER BY ALL and GROUP BY ALL name no column; _metadata is the hidden column of every
      // Delta table's file details.
      // t._metadata.file_path too: the hidden column read through its table's alias.
      if (lambdaParameters.contains(head)
          || head.equals("_metadata")
          || (parts.size() >= 2 && parts.get(1).equals("_metadata"))
          || (parts.size() == 1
              && (TableExtractor.NILADIC.contains(head)
                  || UNITS.contains(head)
                  || head.equals("all")))) {
        return;
      }
      List<Entry> entries = new ArrayList<>();
      List<Scoped> scopes = new ArrayList<>();
      String unseenAlias = null;
      String semiJoin = null;
      boolean groupByAlias = false;
      // A name that may be a lateral alias where Spark reads none: checked as a column, which it
      // must be (measured on Spark 4.1.1: LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC, _IN_WINDOW).
      String lateralAt =
          inSelectList && lateral != null && !star && lateralAliases.contains(head)
              ? lateral
              : null;
      for (int level = 0; level < chain.size(); level++) {
        Scope s = chain.get(level);
        // Spark resolves a name that no column has as a select alias of its own query (lateral
        // aliases, GROUP BY and HAVING by alias): one that may be an alias is not checked.
        if (!s.known()) {
          return;
        }
        if (s.aliases().contains(head) && (level > 0 || lateralAt == null)) {
          // GROUP BY reads the FROM first (measured on Spark 4.1.1: GROUP BY id under SELECT a.id
          // AS id over two tables with id is AMBIGUOUS_REFERENCE): kept, for that check alone.
          if (level > 0 || !inGroupBy || parts.size() != 1 || star) {
            return;
          }
          groupByAlias = true;
        }
        if (unseenAlias == null && parts.size() == 1 && s.unseen() != null) {
          unseenAlias = s.unseen().contains(head) ? s.clause() : null;
        }
        entries.addAll(s.entries());
        boolean joined = s.joinColumns().contains(head) || s.joinColumns().contains(NATURAL);
        for (Entry e : s.entries()) {
          scopes.add(new Scoped(level, e.qualifier(), joined));
        }
        if (semiJoin == null && (parts.size() >= 2 || star)) {
          semiJoin = s.hidden().get(head);
        }
      }
      if (entries.stream().anyMatch(e -> e.qualifier().equals(head))) {
        semiJoin = null; // a table in scope has that name too: the qualifier is its
      }
      if (star && (semiJoin == null || parts.size() != 1)) {
        return;
      }
      // silver.s.amount, lh.silver.s.amount: an unaliased table s is also qualified by schema
      // (and lakehouse), so a name with such a table's name after its first part is not read
      // here; t.s.f over an unaliased t is field f of its column s (found by QA: unchecked).
      if (parts.size() >= 3
          && entries.stream()
              .anyMatch(
                  e ->
                      !e.aliased() && parts.subList(1, parts.size() - 1).contains(e.qualifier()))) {
        return;
      }
      Map<Integer, OutputNames.Derived> derived = new HashMap<>();
      List<Reading> readings = new ArrayList<>();
      for (int i = 0; i < entries.size(); i++) {
        if (entries.get(i).derived() != null) {
          derived.put(i, entries.get(i).derived());
        }
        if (parts.size() >= 2 && entries.get(i).qualifier().equals(head)) {
          readings.add(new Reading(i, parts.get(1), true, parts.subList(2, parts.size())));
        }
        readings.add(new Reading(i, head, false, parts.subList(1, parts.size())));
      }
      refs.add(
          new Ref(
              text(id),
              position(id),
              entries.stream().map(Entry::table).toList(),
              readings,
              unseenAlias,
              semiJoin,
              scopes,
              fromOnly,
              derived,
              lateralAt,
              null,
              orderOutputs != null && parts.size() == 1 && !orderOutputs.contains(head),
              groupByAlias));
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
      int column =
          Character.codePointCount(sql, lineStarts[l], Math.max(lineStarts[l], offset))
              + (l == 0 ? start.column() : 1);
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
