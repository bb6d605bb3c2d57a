package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The columns a view's SELECT names, as its table will name them: an alias, a column's own name,
 * or, for an expression without an alias, none (Spark then names the column after the expression's
 * text, {@code sum(amt)}). Read from the first SELECT of a set operation, as Spark does. A {@code
 * *} names the columns of tables, which only the project knows: what is kept of it is which tables
 * it expands, when they are all tables read by name.
 */
public final class OutputNames {

  /** One output column: its name, null when Spark names it after the expression's {@code text}. */
  public record OutputName(String name, String text, Position position) {}

  /**
   * The columns the SELECT list shows by name, and its {@code *} items; {@code opaque} when an item
   * is neither (a generator, a literal other than a string), whose columns are not told here.
   */
  public record Columns(List<OutputName> names, List<Star> stars, boolean opaque) {
    public Columns {
      names = List.copyOf(names);
      stars = List.copyOf(stars);
    }

    /** When the names are all the columns: no {@code *}, whose columns only the tables know. */
    public boolean complete() {
      return stars.isEmpty() && !opaque;
    }
  }

  /**
   * A {@code *} or {@code x.*} of the SELECT list, after the first {@code index} names: it expands
   * to the columns of {@code tables}, in order, when Spark's {@code *} is just that. {@code tables}
   * is empty when that is not known: a FROM item other than a table read by name (subquery, CTE,
   * table function, LATERAL VIEW), the right side of a semi or anti join (whose columns Spark does
   * not show: a {@code *} over the join is its left side's), a bare {@code *} over a USING or
   * NATURAL join whose right side is itself a join, a qualifier that names no table (a struct's
   * fields) or is not a single name, or an {@code EXCEPT} list that names more than plain columns.
   * {@code except}: the columns of {@code * EXCEPT (a, b)} that Spark leaves out, as written.
   */
  public record Star(
      int index, String text, Position position, List<Source> tables, List<String> except) {
    public Star {
      tables = List.copyOf(tables);
      except = List.copyOf(except);
    }
  }

  /**
   * A table a {@code *} expands: its name, its alias (null when it has none) and, in a bare {@code
   * *}, the columns of USING it is joined by to the tables before it (empty for none), or {@code
   * natural} when it is NATURAL JOINed to them: on the columns both sides name exactly alike, which
   * only the tables' columns tell (Spark compares the names case-sensitively there, even with
   * spark.sql.caseSensitive off: Id and id are no join column, measured on Spark 4.1.1). Spark
   * shows such a join's columns once, first (USING's order, or the left side's), then the other
   * columns of the left side, then those of the right; a qualified {@code x.*} shows all of x's.
   */
  public record Source(
      Name table, String alias, List<String> using, boolean natural, Derived derived) {
    public Source {
      using = List.copyOf(using);
    }

    public Source(Name table, String alias) {
      this(table, alias, List.of(), false, null);
    }

    /** This table, joined to the ones before it by {@code using} or NATURALly. */
    Source joined(List<String> using, boolean natural) {
      return new Source(table, alias, using, natural, derived);
    }
  }

  /**
   * A FROM item that is a CTE ({@code kind} "CTE") or an aliased subquery ("subquery") named {@code
   * name}, whose output {@code columns} its SELECT list (or a column list after its name) tells.
   * Spark resolves a column read from it, and expands a {@code *} over it, against that output
   * alone, as a table's. A {@link Source} of one has only its name as {@code table}.
   */
  public record Derived(String kind, String name, Columns columns) {}

  /**
   * Spark's generators: functions whose columns Spark names itself (explode's {@code col}, stack's
   * {@code col0}), and which only a SELECT list may call.
   */
  static final Set<String> GENERATORS =
      Set.of(
          "explode",
          "explode_outer",
          "posexplode",
          "posexplode_outer",
          "inline",
          "inline_outer",
          "stack",
          "json_tuple");

  /** A date or timestamp literal as written: its type, then its value in quotes. */
  private static final Pattern TYPED_LITERAL =
      Pattern.compile("(?i)^(DATE|TIMESTAMP(_NTZ|_LTZ)?)\\s*'");

  private OutputNames() {}

  /**
   * The columns of {@code sql}, whose Calcite tree is {@code root} (of the whole text: a caller
   * with text Calcite did not see passes nothing here); empty when they cannot be told. {@code
   * wholeFrom}: whether the tree holds the whole FROM (text the rewriter took out, a LATERAL VIEW
   * say, may add columns to {@code *}); when not, no {@code *} tells its tables. {@code tokens}:
   * those of {@code sql} as written, where a {@code * EXCEPT (...)} list still stands (the rewriter
   * took it out of the text Calcite read).
   */
  static Optional<Columns> of(
      String sql, Position start, SqlNode root, boolean wholeFrom, List<SqlToken> tokens) {
    if (wholeFrom) {
      return new Statement(sql, start, root, tokens).columns(root);
    }
    SqlSelect select = firstSelect(root);
    if (select == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(columns(sql, start, select, null, tokens));
    } catch (RuntimeException e) { // a node shape not foreseen: claim nothing rather than fail
      return Optional.empty();
    }
  }

  /**
   * A whole statement (its tree holds the whole FROM of every query), in which the columns of a
   * query, a CTE or a subquery are told: {@code tokens} are those of its text as written, where a
   * {@code * EXCEPT (...)} list still stands.
   */
  static final class Statement {
    private final String sql;
    private final Position start;
    private final List<SqlToken> tokens;
    private final Set<String> ctes;

    /** The CTEs by name, each defined once in the statement; one defined twice is not here. */
    private final Map<String, SqlWithItem> items = new HashMap<>();

    /** The CTEs whose columns are being told: one reached again (a cycle) tells none. */
    private final Set<String> telling = new HashSet<>();

    Statement(String sql, Position start, SqlNode root, List<SqlToken> tokens) {
      this.sql = sql;
      this.start = start;
      this.tokens = tokens;
      Set<String> twice = new HashSet<>();
      root.accept(
          new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
              if (call instanceof SqlWith with) {
                for (SqlNode item : with.withList) {
                  SqlWithItem w = (SqlWithItem) item;
                  if (items.put(lower(w.name.getSimple()), w) != null) {
                    twice.add(lower(w.name.getSimple()));
                  }
                }
              }
              return super.visit(call);
            }
          });
      this.ctes = Set.copyOf(items.keySet());
      items.keySet().removeAll(twice);
    }

    /** Every CTE name of the statement: one hides a table of its name wherever it is defined. */
    Set<String> ctes() {
      return ctes;
    }

    /** Whether {@code name} is a CTE of the statement defined once. */
    boolean isCte(String name) {
      return items.containsKey(lower(name));
    }

    /** The columns of {@code query}, a query of the statement. */
    Optional<Columns> columns(SqlNode query) {
      SqlSelect select = firstSelect(query);
      if (select == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(
            OutputNames.columns(sql, start, select, from(select.getFrom(), this), tokens));
      } catch (RuntimeException e) { // a node shape not foreseen: claim nothing rather than fail
        return Optional.empty();
      }
    }

    /** The columns of CTE {@code name} (defined once): its column list's, else its query's. */
    private Optional<Columns> cte(String name) {
      SqlWithItem item = items.get(lower(name));
      if (item == null || !telling.add(lower(name))) {
        return Optional.empty();
      }
      try {
        return item.columnList != null ? listed(item.columnList.getList()) : columns(item.query);
      } finally {
        telling.remove(lower(name));
      }
    }

    /** The columns a list after an alias names, {@code AS d(x, y)}; empty unless plain names. */
    private Optional<Columns> listed(List<SqlNode> names) {
      List<OutputName> out = new ArrayList<>();
      for (SqlNode n : names) {
        if (!(n instanceof SqlIdentifier id) || !id.isSimple()) {
          return Optional.empty();
        }
        SqlParserPos pos = id.getParserPosition();
        int offset = TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
        out.add(new OutputName(id.getSimple(), id.getSimple(), start.advance(sql, offset)));
      }
      return Optional.of(new Columns(out, List.of(), false));
    }

    /**
     * The CTE or subquery {@code node} of a FROM as a {@link Derived} named {@code name}, when its
     * columns are told (a name for each, no generator); null otherwise. {@code names}: the column
     * list after its alias, empty for none.
     */
    Derived derived(SqlNode node, String name, List<SqlNode> names) {
      boolean cte = node instanceof SqlIdentifier id && id.isSimple() && isCte(id.getSimple());
      Optional<Columns> columns =
          !names.isEmpty()
              ? listed(names)
              : cte ? cte(((SqlIdentifier) node).getSimple()) : columns(node);
      return columns.isEmpty() || columns.get().opaque()
          ? null
          : new Derived(cte ? "CTE" : "subquery", name, columns.get());
    }
  }

  /** {@code from}: the FROM's tables, or null when it is not only tables read by name. */
  private static Columns columns(
      String sql, Position start, SqlSelect select, From from, List<SqlToken> tokens) {
    List<OutputName> out = new ArrayList<>();
    List<Star> stars = new ArrayList<>();
    boolean opaque = false;
    // Items come in order: each position is counted on from the one before, not from the start,
    // so a SELECT of 50,000 items is not read 50,000 times.
    int counted = 0;
    Position reached = start;
    for (SqlNode item : select.getSelectList()) {
      SqlParserPos pos = start(item);
      int offset =
          pos.getLineNum() < 1
              ? 0
              : TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
      if (offset < counted) {
        counted = 0;
        reached = start;
      }
      Position at = reached.advance(sql.subSequence(counted, offset), offset - counted);
      counted = offset;
      reached = at;
      // A variant path is named by its key, not as the field access Calcite reads.
      VariantPaths.Naming path =
          item.getKind() == SqlKind.AS ? null : VariantPaths.naming(item, sql);
      if (item instanceof SqlCall call && call.getKind() == SqlKind.AS) {
        SqlNode alias = call.operand(1);
        if (alias instanceof SqlIdentifier id) {
          out.add(new OutputName(id.getSimple(), text(sql, offset, item), at));
        }
      } else if (item instanceof SqlIdentifier id) {
        if (id.isStar()) {
          String text = text(sql, offset, item);
          List<String> except = except(tokens, offset + text.length());
          // An EXCEPT of a struct's field or a qualified column leaves columns only Spark tells.
          List<Source> tables = except == null ? List.of() : expanded(id, from);
          stars.add(new Star(out.size(), text, at, tables, except == null ? List.of() : except));
        } else if (path != null) {
          opaque |= !path.known();
          out.add(new OutputName(path.key(), text(sql, offset, item), at));
        } else {
          out.add(new OutputName(id.names.get(id.names.size() - 1), text(sql, offset, item), at));
        }
      } else if (item instanceof SqlCall call
          && GENERATORS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT))) {
        opaque = true; // Spark names a generator's columns itself: col, pos, col0, ...
      } else if (item instanceof SqlCall call && path != null) {
        opaque |= !path.known();
        out.add(new OutputName(path.key(), text(sql, offset, item), at));
      } else if (item instanceof SqlCall call) {
        if (isCast(call) && call.operand(0) instanceof SqlIdentifier id && id.names.size() > 1) {
          // CAST(t.x AS ...) is named x, but CAST(s.f AS ...) of a struct's field is named after
          // its text: which one s is, only the catalog knows.
          opaque = true;
        }
        out.add(new OutputName(derivedName(call), text(sql, offset, item), at));
      } else if (item instanceof org.apache.calcite.sql.SqlCharStringLiteral literal) {
        // Spark names a string's column after its value: 'a b' is a column named a b. Calcite
        // leaves backslash escapes as written, which Spark reads ('x\\y' is x\y).
        String value = literal.getValueAs(String.class);
        opaque |= value.indexOf('\\') >= 0;
        out.add(new OutputName(value, text(sql, offset, item), at));
      } else if (item instanceof SqlLiteral
          && TYPED_LITERAL.matcher(text(sql, offset, item)).find()) {
        // Spark names DATE'2026-01-01' after its type and value, DATE '2026-01-01': a name with a
        // space, as an expression's is (measured on Spark 4.1.1, TIMESTAMP_NTZ'...' too).
        out.add(new OutputName(null, text(sql, offset, item), at));
      } else {
        opaque = true; // another literal: Spark names it after its value, not checked here
      }
    }
    return new Columns(out, stars, opaque);
  }

  /**
   * The columns of the {@code EXCEPT (a, b)} that follows a {@code *} ending at offset {@code end}:
   * empty when none follows, null when one names anything but plain columns ({@code s.f}).
   */
  private static List<String> except(List<SqlToken> tokens, int end) {
    int i = 0;
    int hi = tokens.size();
    while (i < hi) { // the first token at or after end
      int mid = (i + hi) >>> 1;
      if (tokens.get(mid).start() < end) {
        i = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (i + 1 >= tokens.size() || !tokens.get(i).isWord("EXCEPT")) {
      return List.of();
    }
    if (!tokens.get(i + 1).isSymbol("(")) {
      return List.of(); // SELECT * EXCEPT SELECT ...: the set operation, not a column list
    }
    int close = SqlToken.closingParen(tokens, i + 1);
    if (close < 0) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (int j = i + 2; j < close; j += 2) {
      SqlToken name = tokens.get(j);
      SqlToken after = tokens.get(j + 1);
      if (!name.isIdentifier() || !(after.isSymbol(",") || j + 1 == close)) {
        return null;
      }
      names.add(name.identifierValue());
    }
    return names.isEmpty() ? null : names;
  }

  /** The tables {@code star} expands, empty when not known. */
  private static List<Source> expanded(SqlIdentifier star, From from) {
    if (from == null) {
      return List.of();
    }
    if (star.names.size() == 1) {
      return from.merged() ? List.of() : from.tables();
    }
    // x.* shows all of x's columns, a USING join's too.
    if (star.names.size() != 2) {
      return List.of(); // silver.a.*: a table by its schema, or a struct's struct
    }
    String q = star.names.get(0).toLowerCase(Locale.ROOT);
    List<Source> named =
        from.tables().stream()
            .filter(s -> q.equals(s.alias() != null ? s.alias() : s.table().last()))
            .map(s -> new Source(s.table(), s.alias(), List.of(), false, s.derived()))
            .toList();
    // None: x is a struct column, whose fields Spark expands; two: Spark refuses it as ambiguous.
    return named.size() == 1 ? named : List.of();
  }

  /**
   * The tables of a FROM in order, when it is only tables read by name, joined so that each shows
   * all its columns (of a semi or anti join, its left side only), each with the USING columns
   * joining it to the ones before (or NATURAL); {@code merged} when a join merges columns otherwise
   * (a USING or NATURAL join with a join on its right), so that a bare {@code *} is not told (a
   * qualified one still shows its table's).
   */
  private record From(List<Source> tables, boolean merged) {}

  /**
   * The FROM {@code node} of a query of {@code statement}, or null when it is not only tables read
   * by name, CTEs and aliased subqueries whose columns are told.
   */
  private static From from(SqlNode node, Statement statement) {
    if (node instanceof SqlJoin join) {
      JoinType type = join.getJoinType();
      if (type == JoinType.LEFT_SEMI_JOIN || type == JoinType.LEFT_ANTI_JOIN) {
        // Spark shows only the left side's columns (measured on Spark 4.1.1: * over a LEFT SEMI
        // JOIN is the left's columns, and an x.* of its right side CANNOT_RESOLVE_STAR_EXPAND).
        return from(join.getLeft(), statement);
      }
      if (type != JoinType.INNER
          && type != JoinType.LEFT
          && type != JoinType.RIGHT
          && type != JoinType.FULL
          && type != JoinType.CROSS
          && type != JoinType.COMMA) {
        return null;
      }
      From left = from(join.getLeft(), statement);
      From right = from(join.getRight(), statement);
      if (left == null || right == null) {
        return null;
      }
      List<Source> both = new ArrayList<>(left.tables());
      boolean merged = left.merged() || right.merged();
      if (join.isNatural()) {
        if (right.tables().size() != 1) {
          merged = true;
          both.addAll(right.tables());
        } else {
          both.add(right.tables().get(0).joined(List.of(), true));
        }
      } else if (join.getConditionType() == JoinConditionType.USING) {
        List<String> using = usingColumns(join.getCondition());
        if (using == null || right.tables().size() != 1) {
          merged = true;
          both.addAll(right.tables());
        } else {
          both.add(right.tables().get(0).joined(using, false));
        }
      } else {
        both.addAll(right.tables());
      }
      return new From(both, merged);
    }
    SqlNode table = node;
    String alias = null;
    List<SqlNode> names = List.of();
    if (node instanceof SqlCall call && call.getKind() == SqlKind.AS) {
      if (!(call.operand(1) instanceof SqlIdentifier a)) {
        return null;
      }
      table = call.operand(0);
      alias = a.getSimple().toLowerCase(Locale.ROOT);
      names = call.getOperandList().subList(2, call.operandCount()); // AS x(a, b) renames them
    }
    boolean cte =
        table instanceof SqlIdentifier c && c.isSimple() && statement.isCte(c.getSimple());
    if (cte || (alias != null && TableExtractor.isQuery(table))) {
      String name = cte ? ((SqlIdentifier) table).getSimple() : alias;
      Derived derived = statement.derived(table, name, names);
      if (derived == null) {
        return null;
      }
      Name shown = new Name(List.of(name.toLowerCase(Locale.ROOT)), name, null);
      return new From(List.of(new Source(shown, alias, List.of(), false, derived)), false);
    }
    if (!names.isEmpty()
        || !(table instanceof SqlIdentifier id)
        || id.isStar()
        || id.names.size() > 4) {
      return null;
    }
    List<String> parts = id.names.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
    if ((parts.size() == 1 && statement.ctes().contains(parts.get(0)))
        || TableExtractor.isPathTable(parts)) {
      return null;
    }
    return new From(
        List.of(new Source(new Name(parts, String.join(".", id.names), null), alias)), false);
  }

  /** The columns of USING (a, b), null unless each is a plain name and none is named twice. */
  private static List<String> usingColumns(SqlNode condition) {
    if (!(condition instanceof SqlNodeList list) || list.size() == 0) {
      return null;
    }
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (SqlNode n : list) {
      if (!(n instanceof SqlIdentifier id) || !id.isSimple()) {
        return null;
      }
      if (!seen.add(id.getSimple().toLowerCase(Locale.ROOT))) {
        return null;
      }
      names.add(id.getSimple());
    }
    return names;
  }

  /**
   * The name Spark gives an expression without an alias when it is a plain name: {@code CAST(x AS
   * STRING)} is {@code x}, {@code s.f} is {@code f}, {@code a[0]} and {@code -1} are themselves;
   * null for the rest, which Spark names after their text ({@code sum(amt)}, {@code (a + 1)}).
   */
  private static String derivedName(SqlCall call) {
    SqlKind kind = call.getKind();
    if (isCast(call) && call.operand(0) instanceof SqlIdentifier id && !id.isStar()) {
      return id.names.get(id.names.size() - 1);
    }
    if (kind == SqlKind.ITEM || kind == SqlKind.DOT) {
      return call.toString();
    }
    if (kind == SqlKind.MINUS_PREFIX && call.operand(0) instanceof SqlLiteral literal) {
      return "-" + literal.toValue();
    }
    return null;
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  /** CAST and TRY_CAST, which Spark names alike (found by QA: try_cast(x AS INT) is named x). */
  static boolean isCast(SqlCall call) {
    return call.getKind() == SqlKind.CAST
        || call.getKind() == SqlKind.SAFE_CAST
        || call.getOperator().getName().equalsIgnoreCase("TRY_CAST");
  }

  private static SqlSelect firstSelect(SqlNode node) {
    while (true) {
      if (node instanceof SqlSelect s) {
        return s;
      } else if (node instanceof SqlOrderBy o) {
        node = o.query;
      } else if (node instanceof SqlWith w) {
        node = w.body;
      } else if (node instanceof SqlCall c && c.getKind().belongsTo(SqlKind.SET_QUERY)) {
        node = c.operand(0);
      } else {
        return null;
      }
    }
  }

  /**
   * Where {@code node} starts. Calcite starts an infix {@code x::T} at the token before it (the
   * comma, or SELECT [DISTINCT]), and a call it places by its first operand (x::T + 1, x::T AS y)
   * with it: such a call starts where its first operand does.
   */
  static SqlParserPos start(SqlNode node) {
    SqlParserPos pos = node.getParserPosition();
    if (pos != null
        && node instanceof SqlCall call
        && call.operandCount() > 0
        && call.operand(0) != null
        && call.operand(0).getParserPosition() != null) {
      SqlParserPos first = call.operand(0).getParserPosition();
      boolean infixCast =
          call.getKind() == SqlKind.CAST && call.getOperator().getName().equals("::");
      if (infixCast
          || (first.getLineNum() == pos.getLineNum()
              && first.getColumnNum() == pos.getColumnNum())) {
        return start(call.operand(0));
      }
    }
    return pos == null ? SqlParserPos.ZERO : pos;
  }

  /** The text of {@code node}, from offset {@code from} (where it starts) to its end. */
  private static String text(String sql, int from, SqlNode node) {
    SqlParserPos pos = node.getParserPosition();
    if (pos == null || pos.getLineNum() < 1 || pos.getEndLineNum() < 1) {
      return node.toString();
    }
    int to = TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
    return from < to && to <= sql.length() ? sql.substring(from, to) : node.toString();
  }
}
