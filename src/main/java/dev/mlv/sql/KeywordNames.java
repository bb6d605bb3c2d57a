package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * A keyword the parser read as a name, found from the parse so that a word starting a real clause
 * is never taken for one.
 *
 * <p>A clause word right after a table is the table's alias: Spark takes {@code SELECT a FROM t
 * WHERE} as {@code FROM t AS WHERE}, a view with no WHERE clause that keeps every row, and the same
 * for HAVING, GROUP, ORDER, LIMIT and the other clause words at the end of the SELECT or before
 * another clause. A warning: Spark runs the view, only not as written. A doubled word ({@code FROM
 * t WHERE WHERE a > 1}), a word that stands elsewhere as a name ({@code SELECT where.a}, {@code
 * SELECT qualify, a}) or an alias written after AS is meant, and left alone.
 *
 * <p>AS or FROM right before a FROM clause is a column's name: {@code SELECT a AS FROM t} names the
 * column AS, {@code SELECT a FROM FROM t} names it FROM; warnings too. A table named FROM or JOIN
 * ({@code FROM t JOIN JOIN u}, {@code SELECT a AS x FROM FROM t}) is a keyword written twice, which
 * Spark's analyzer refuses (TABLE_OR_VIEW_NOT_FOUND): an error.
 */
final class KeywordNames {

  static final String RULE = "CLAUSE_READ_AS_ALIAS";

  /** Rule of AS or FROM read as the name of the column before it. */
  static final String COLUMN_RULE = "KEYWORD_READ_AS_COLUMN_NAME";

  /** Clause words Spark's grammar lets stand as a table's alias, with what their loss means. */
  private static final List<List<String>> CLAUSE_WORDS =
      List.of(
          List.of("keeps every row", "WHERE", "HAVING", "QUALIFY", "LIMIT", "OFFSET"),
          List.of("groups no rows", "GROUP"),
          List.of("sorts no rows", "ORDER", "SORT"),
          List.of("defines no window", "WINDOW"),
          List.of("partitions no rows", "CLUSTER", "DISTRIBUTE"));

  /** Clause words that Spark takes only before BY. */
  private static final Set<String> BY_WORDS =
      Set.of("GROUP", "ORDER", "SORT", "CLUSTER", "DISTRIBUTE");

  private KeywordNames() {}

  /**
   * Start offsets in {@code sql} of the aliases Calcite gave a FROM item, written with or without
   * AS.
   */
  static Set<Integer> calciteAliases(String sql, SqlNode root) {
    Set<Integer> starts = new HashSet<>();
    root.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (call instanceof SqlSelect select && select.getFrom() != null) {
              fromItem(sql, select.getFrom(), starts);
            }
            return super.visit(call);
          }
        });
    return starts;
  }

  private static void fromItem(String sql, SqlNode item, Set<Integer> starts) {
    if (item instanceof SqlJoin join) {
      fromItem(sql, join.getLeft(), starts);
      fromItem(sql, join.getRight(), starts);
    } else if (item instanceof SqlCall call && call.getKind() == SqlKind.AS) {
      if (call.operand(1) instanceof SqlIdentifier alias) {
        SqlParserPos pos = alias.getParserPosition();
        starts.add(Position.offsetOf(sql, pos.getLineNum(), pos.getColumnNum()));
      }
      fromItem(sql, call.operand(0), starts);
    }
  }

  /**
   * Start offsets of the aliases Spark's parser gave, from the offsets just past them: the start of
   * the token that ends there.
   */
  static Set<Integer> startsOf(List<SqlToken> tokens, Set<Integer> ends) {
    Set<Integer> starts = new HashSet<>();
    for (SqlToken t : tokens) {
      if (ends.contains(t.end())) {
        starts.add(t.start());
      }
    }
    return starts;
  }

  /**
   * Spark's strict non-reserved keywords: its grammar takes none of them as a table's alias, with
   * or without AS, where Calcite reads ANTI, SEMI and MINUS as one.
   */
  private static final Set<String> NEVER_ALIASES =
      Set.of(
          "ANTI",
          "CROSS",
          "EXCEPT",
          "FULL",
          "INNER",
          "INTERSECT",
          "JOIN",
          "LATERAL",
          "LEFT",
          "MINUS",
          "NATURAL",
          "ON",
          "RIGHT",
          "SEMI",
          "UNION",
          "USING");

  /**
   * One warning per clause word read as an alias, at the word; an error per alias Spark's parser
   * refuses.
   */
  static List<Diagnostic> warnings(
      String sql, Position start, List<SqlToken> tokens, Set<Integer> aliasStarts) {
    List<Diagnostic> found = new ArrayList<>();
    for (int i = 1; i < tokens.size(); i++) {
      SqlToken word = tokens.get(i);
      if (word.kind() == SqlToken.Kind.WORD
          && NEVER_ALIASES.contains(word.upper())
          && aliasStarts.contains(word.start())
          && !(joinAfter(tokens, i) && !tokens.get(i - 1).isWord("AS"))) {
        found.add(
            Diagnostic.error(
                TableExtractor.PARSE_RULE,
                start.advance(sql, word.start()),
                "syntax error: "
                    + word.upper()
                    + " cannot be a table's alias in Spark, which refuses it here"
                    + (word.isWord("ANTI") || word.isWord("SEMI")
                        ? " ("
                            + (word.isWord("ANTI") ? "an " : "a ")
                            + word.upper()
                            + " join is written "
                            + word.upper()
                            + " JOIN)"
                        : ""),
                word.isWord("ANTI") || word.isWord("SEMI")
                    ? "complete the join, FROM t LEFT "
                        + word.upper()
                        + " JOIN u ON t.id = u.id, or remove the word"
                    : "remove the word, or name the alias in backticks: `"
                        + word.text().toLowerCase(java.util.Locale.ROOT)
                        + "`"));
        continue;
      }
      String lost = lost(word);
      if (lost == null
          || !aliasStarts.contains(word.start())
          || tokens.get(i - 1).isWord("AS")
          || (i + 1 < tokens.size() && tokens.get(i + 1).isWord(word.text()))
          || namedElsewhere(tokens, i)) {
        continue;
      }
      String clause = word.upper();
      String named = BY_WORDS.contains(clause) ? clause + " BY" : clause;
      String written =
          switch (clause) {
            case "WINDOW" -> "WINDOW w AS (...)";
            case "LIMIT", "OFFSET" -> clause + " n";
            case "WHERE", "HAVING", "QUALIFY" -> clause + " <condition>";
            default -> named + " ...";
          };
      found.add(
          Diagnostic.warning(
              RULE,
              start.advance(sql, word.start()),
              "Spark reads "
                  + clause
                  + " here as the alias of "
                  + relation(tokens, i)
                  + ", not as a clause: the view has no "
                  + named
                  + " clause and "
                  + lost,
              "write the clause in full ("
                  + written
                  + ") or remove the word; an alias meant to be "
                  + word.text()
                  + " is written AS "
                  + word.text()));
    }
    return found;
  }

  /**
   * A warning at AS or FROM where Spark reads it as the name of the column before it, right before
   * the FROM clause; an error at a table named FROM or JOIN, a keyword written twice.
   */
  static List<Diagnostic> columnsAndTables(
      String sql, Position start, List<SqlToken> tokens, List<Name> tables) {
    List<Diagnostic> found = new ArrayList<>();
    for (Name table : tables) {
      if (table.parts().size() == 1
          && (table.text().equalsIgnoreCase("FROM") || table.text().equalsIgnoreCase("JOIN"))) {
        found.add(
            Diagnostic.error(
                TableExtractor.PARSE_RULE,
                table.position(),
                "syntax error: "
                    + table.text().toUpperCase(java.util.Locale.ROOT)
                    + " is written twice: Spark reads the second as the name of a table, which"
                    + " its analyzer does not find (TABLE_OR_VIEW_NOT_FOUND)",
                "remove one "
                    + table.text().toUpperCase(java.util.Locale.ROOT)
                    + "; a table named "
                    + table.text().toLowerCase(java.util.Locale.ROOT)
                    + " is written in backticks"));
      }
    }
    if (!found.isEmpty()) {
      return found;
    }
    for (int i = 1; i + 2 < tokens.size(); i++) {
      SqlToken word = tokens.get(i);
      SqlToken before = tokens.get(i - 1);
      SqlToken from = tokens.get(i + 1);
      SqlToken next = tokens.get(i + 2);
      if (!(word.isWord("AS") || word.isWord("FROM"))
          || !from.isWord("FROM")
          || !(next.isIdentifier() || next.isSymbol("("))
          || next.isWord("AS")
          || next.isWord("FROM")
          || !(endsAValue(before) || before.isSymbol("*"))) {
        continue;
      }
      String column = word.upper();
      if (before.isSymbol("*")) {
        found.add(
            Diagnostic.error(
                TableExtractor.PARSE_RULE,
                start.advance(sql, word.start()),
                "syntax error: Spark reads "
                    + column
                    + " here as the alias of *, which its analyzer refuses"
                    + " (INVALID_USAGE_OF_STAR_OR_REGEX)",
                column.equals("AS") ? "remove AS: * takes no alias" : "remove one FROM"));
        continue;
      }
      found.add(
          Diagnostic.warning(
              COLUMN_RULE,
              start.advance(sql, word.start()),
              "Spark reads "
                  + column
                  + " here as the name of the column before it, not as "
                  + (column.equals("AS")
                      ? "the start of its alias"
                      : "the start of the FROM clause")
                  + ": the view gets a column named "
                  + column,
              column.equals("AS")
                  ? "write the alias after AS (... AS total FROM ...), or remove AS"
                  : "remove one FROM; a column meant to be named from is written AS `from`"));
    }
    return found;
  }

  /** Words whose clause takes an expression, which a clause word alone after them becomes. */
  private static final Set<String> TAKE_AN_EXPRESSION =
      Set.of("WHERE", "HAVING", "ON", "QUALIFY", "LIMIT", "OFFSET");

  /** Clause words Spark's grammar takes as a column's name. */
  static final Set<String> CLAUSE_NAMES =
      Set.of(
          "WHERE",
          "HAVING",
          "QUALIFY",
          "LIMIT",
          "OFFSET",
          "GROUP",
          "ORDER",
          "SORT",
          "CLUSTER",
          "DISTRIBUTE",
          "WINDOW");

  /**
   * A warning at a clause word that is, alone, the condition of a WHERE, HAVING, ON or QUALIFY or
   * the value of a LIMIT or OFFSET right before it ({@code WHERE LIMIT}, {@code LIMIT WHERE}):
   * Spark reads it as a column of that name, which its analyzer refuses unless a table has one. The
   * same after a NOT that is the whole condition ({@code WHERE NOT limit}: NOT of a column limit).
   * A word written in backticks, or standing elsewhere as a name, is a column meant.
   */
  static List<Diagnostic> clauseWordsAsOperands(String sql, Position start, List<SqlToken> tokens) {
    List<Diagnostic> found = new ArrayList<>();
    for (int i = 1; i < tokens.size(); i++) {
      SqlToken word = tokens.get(i);
      int c = i - 1;
      while (c > 0 && tokens.get(c).isWord("NOT")) {
        c--;
      }
      boolean negated = c < i - 1;
      SqlToken clause = tokens.get(c);
      SqlToken next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
      if (word.kind() != SqlToken.Kind.WORD
          || !CLAUSE_NAMES.contains(word.upper())
          || clause.kind() != SqlToken.Kind.WORD
          || !TAKE_AN_EXPRESSION.contains(clause.upper())
          || negated && (clause.isWord("LIMIT") || clause.isWord("OFFSET"))
          || !(c >= 1 && endsAnOperand(tokens.get(c - 1)))
          || !(next == null
              || next.isSymbol(")")
              || next.isSymbol(";")
              || startsAClause(tokens, i + 1))
          || namedElsewhere(tokens, i)) {
        continue;
      }
      String what =
          clause.isWord("LIMIT") || clause.isWord("OFFSET")
              ? "the value of " + clause.upper()
              : (negated ? "negated as " : "") + "the whole condition of " + clause.upper();
      found.add(
          Diagnostic.warning(
              COLUMN_RULE,
              start.advance(sql, word.start()),
              "Spark reads "
                  + word.upper()
                  + " here as a column named "
                  + word.text().toLowerCase(java.util.Locale.ROOT)
                  + ", "
                  + what
                  + ", not as a clause: its analyzer refuses the view (UNRESOLVED_COLUMN) unless"
                  + " a table has such a column",
              "write the "
                  + (what.startsWith("the value") ? "value" : "condition")
                  + " after "
                  + clause.upper()
                  + " or remove "
                  + clause.upper()
                  + "; a column named "
                  + word.text().toLowerCase(java.util.Locale.ROOT)
                  + " is written in backticks: `"
                  + word.text().toLowerCase(java.util.Locale.ROOT)
                  + "`"));
    }
    return found;
  }

  /**
   * A warning at a WHERE or HAVING right after a table's name and followed by names in parentheses
   * alone ({@code FROM t WHERE (flag)}, {@code FROM s.t WHERE (a, b) ORDER BY a}): Spark reads the
   * word as the table's alias and the names as its column list, so the view has no such clause;
   * Calcite reads a condition.
   */
  static List<Diagnostic> clauseReadAsAliasWithColumns(
      String sql, Position start, List<SqlToken> tokens) {
    List<Diagnostic> found = new ArrayList<>();
    for (int i = 1; i + 2 < tokens.size(); i++) {
      SqlToken word = tokens.get(i);
      if (!(word.isWord("WHERE") || word.isWord("HAVING"))
          || !tokens.get(i + 1).isSymbol("(")
          || !afterATableName(tokens, i)) {
        continue;
      }
      int j = i + 2;
      while (j + 1 < tokens.size()
          && tokens.get(j).isIdentifier()
          && tokens.get(j + 1).isSymbol(",")) {
        j += 2;
      }
      if (j + 1 >= tokens.size()
          || !tokens.get(j).isIdentifier()
          || !tokens.get(j + 1).isSymbol(")")) {
        continue;
      }
      SqlToken next = j + 2 < tokens.size() ? tokens.get(j + 2) : null;
      if (!(next == null
          || next.isSymbol(")")
          || next.isSymbol(";")
          || startsAClause(tokens, j + 2))) {
        continue;
      }
      String names = sql.substring(tokens.get(i + 1).start(), tokens.get(j + 1).end());
      found.add(
          Diagnostic.warning(
              RULE,
              start.advance(sql, word.start()),
              "Spark reads "
                  + word.upper()
                  + " here as the alias of "
                  + relation(tokens, i)
                  + " and "
                  + names
                  + " as its column names, not as a clause: the view has no "
                  + word.upper()
                  + " clause and keeps every row (or fails when the table has another number of"
                  + " columns: ASSIGNMENT_ARITY_MISMATCH)",
              (j == i + 2
                      ? "write the condition without the parentheses ("
                          + word.upper()
                          + " "
                          + names.substring(1, names.length() - 1)
                          + ")"
                      : "write the condition in full")
                  + ", or give the table an alias first (FROM t x "
                  + word.upper()
                  + " ...)"));
    }
    return found;
  }

  /** Whether token {@code i} right follows the name of a table in FROM, a JOIN or a FROM list. */
  private static boolean afterATableName(List<SqlToken> tokens, int i) {
    int k = i - 1;
    if (!tokens.get(k).isIdentifier()
        || tokens.get(k).kind() == SqlToken.Kind.WORD
            && NEED_AN_OPERAND.contains(tokens.get(k).upper())) {
      return false;
    }
    while (k >= 2 && tokens.get(k - 1).isSymbol(".") && tokens.get(k - 2).isIdentifier()) {
      k -= 2;
    }
    if (k == 0) {
      return false;
    }
    SqlToken before = tokens.get(k - 1);
    if (before.isWord("FROM") || before.isWord("JOIN")) {
      return true;
    }
    if (!before.isSymbol(",")) {
      return false;
    }
    // t, u WHERE (...): a FROM list, if the nearest FROM or SELECT at this depth is a FROM.
    int j = SqlToken.nearestBefore(tokens, k - 2, t -> t.isWord("FROM") || t.isWord("SELECT"));
    return j >= 0 && tokens.get(j).isWord("FROM");
  }

  /** Words that start a join, which Spark's grammar takes as a column's name in a condition. */
  private static final Set<String> JOIN_NAMES =
      Set.of("LEFT", "RIGHT", "FULL", "CROSS", "INNER", "NATURAL", "LATERAL");

  /**
   * A warning at a join word that is the whole condition of the ON before it, or an operand of AND,
   * OR or NOT in it, and before the next JOIN ({@code ON LEFT JOIN v}, {@code ON x = y AND CROSS
   * JOIN v}, {@code ON NOT LEFT JOIN v}): Spark reads it as a column of that name, so the ON has no
   * comparison and the join after it is an inner one, and its analyzer refuses the view unless a
   * table has such a column. After a complete condition ({@code ON x = y LEFT JOIN v}) the word
   * starts the join.
   */
  static List<Diagnostic> joinWordsAsOperands(String sql, Position start, List<SqlToken> tokens) {
    List<Diagnostic> found = new ArrayList<>();
    for (int i = 2; i < tokens.size(); i++) {
      SqlToken word = tokens.get(i);
      SqlToken before = tokens.get(i - 1);
      if (word.kind() != SqlToken.Kind.WORD
          || !JOIN_NAMES.contains(word.upper())
          || !(before.isWord("ON") && endsAnOperand(tokens.get(i - 2))
              || (before.isWord("AND") || before.isWord("OR") || before.isWord("NOT"))
                  && inAnOnCondition(tokens, i - 1))
          || !endsTheCondition(tokens, i)
          || namedElsewhere(tokens, i)) {
        continue;
      }
      String name = word.text().toLowerCase(java.util.Locale.ROOT);
      String what =
          before.isWord("ON")
              ? "the whole condition of ON"
              : "an operand of " + before.upper() + " in the condition of ON";
      found.add(
          Diagnostic.warning(
              COLUMN_RULE,
              start.advance(sql, word.start()),
              "Spark reads "
                  + word.upper()
                  + " here as a column named "
                  + name
                  + ", "
                  + what
                  + ", not as the start of a join: its analyzer refuses the view"
                  + " (UNRESOLVED_COLUMN) unless a table has such a column",
              "finish the condition before "
                  + word.upper()
                  + " or remove "
                  + before.upper()
                  + "; a column named "
                  + name
                  + " is written in backticks: `"
                  + name
                  + "`"));
    }
    return found;
  }

  /**
   * A warning at USING written right after a join's ON ({@code JOIN u ON USING (a)}): Spark reads
   * {@code USING (a)} as a call of a function named using, the whole condition, and its analyzer
   * refuses the view (UNRESOLVED_ROUTINE) unless such a function exists.
   */
  static List<Diagnostic> usingAfterOn(String sql, Position start, List<SqlToken> tokens) {
    List<Diagnostic> found = new ArrayList<>();
    for (int i = 2; i + 1 < tokens.size(); i++) {
      if (!tokens.get(i).isWord("USING")
          || !tokens.get(i - 1).isWord("ON")
          || !endsAnOperand(tokens.get(i - 2))
          || !tokens.get(i + 1).isSymbol("(")) {
        continue;
      }
      int close = SqlToken.closingParen(tokens, i + 1);
      if (close < 0 || !endsTheCondition(tokens, close)) {
        continue;
      }
      found.add(
          Diagnostic.warning(
              COLUMN_RULE,
              start.advance(sql, tokens.get(i).start()),
              "Spark reads USING (...) here as a call of a function named using, the whole"
                  + " condition of ON, not as the join's USING: its analyzer refuses the view"
                  + " (UNRESOLVED_ROUTINE)",
              "remove ON: JOIN ... USING (...) joins on those columns"));
    }
    return found;
  }

  /** Whether the AND or OR at {@code i} is in the condition of a join's ON, at its depth. */
  private static boolean inAnOnCondition(List<SqlToken> tokens, int i) {
    int j =
        SqlToken.nearestBefore(
            tokens,
            i - 1,
            t ->
                t.isWord("ON")
                    || t.isSymbol(",")
                    || t.kind() == SqlToken.Kind.WORD && NOT_IN_AN_ON.contains(t.upper()));
    return j > 0 && tokens.get(j).isWord("ON") && endsAnOperand(tokens.get(j - 1));
  }

  /** Words at the depth of an AND or OR that put it outside any join's condition. */
  private static final Set<String> NOT_IN_AN_ON =
      Set.of("SELECT", "FROM", "JOIN", "WHERE", "HAVING", "QUALIFY", "CASE");

  /**
   * Whether the word at {@code i} ends the condition it stands in: the next JOIN ({@code LEFT SEMI
   * JOIN} too), a clause, a closing parenthesis or the end.
   */
  private static boolean endsTheCondition(List<SqlToken> tokens, int i) {
    SqlToken next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
    return next == null
        || next.isSymbol(")")
        || next.isSymbol(";")
        || next.isWord("JOIN")
        || tokens.get(i).isWord("LEFT")
            && (next.isWord("SEMI") || next.isWord("ANTI"))
            && joinAfter(tokens, i + 1)
        || startsAClause(tokens, i + 1);
  }

  /** Words an operand follows, so that a clause word after them is that operand. */
  private static final Set<String> NEED_AN_OPERAND =
      Set.of(
          "BY",
          "SELECT",
          "DISTINCT",
          "AND",
          "OR",
          "NOT",
          "WHERE",
          "HAVING",
          "ON",
          "QUALIFY",
          "LIMIT",
          "OFFSET",
          "IS",
          "IN",
          "LIKE",
          "BETWEEN",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "AS");

  /**
   * Whether {@code t} ends a table, a join or an expression, so that a clause word after it starts
   * a clause rather than being a name in a list ({@code GROUP BY a, limit}).
   */
  private static boolean endsAnOperand(SqlToken t) {
    return t.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
        || t.kind() == SqlToken.Kind.WORD && !NEED_AN_OPERAND.contains(t.upper())
        || t.kind() == SqlToken.Kind.NUMBER
        || t.kind() == SqlToken.Kind.STRING
        || t.isSymbol(")")
        || t.isSymbol("*");
  }

  /** Whether the token at {@code i} starts a clause: LIMIT, ORDER BY, UNION, ... */
  private static boolean startsAClause(List<SqlToken> tokens, int i) {
    SqlToken t = tokens.get(i);
    if (t.kind() != SqlToken.Kind.WORD) {
      return false;
    }
    if (BY_WORDS.contains(t.upper())) {
      return i + 1 < tokens.size() && tokens.get(i + 1).isWord("BY");
    }
    return CLAUSE_NAMES.contains(t.upper())
        || t.isWord("UNION")
        || t.isWord("EXCEPT")
        || t.isWord("INTERSECT");
  }

  /** Whether {@code t} can end a select item, so that a name after it is the item's alias. */
  private static boolean endsAValue(SqlToken t) {
    return t.kind() == SqlToken.Kind.NUMBER
        || t.kind() == SqlToken.Kind.STRING
        || t.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
        || t.isSymbol(")")
        || t.kind() == SqlToken.Kind.WORD
            && !t.isWord("SELECT")
            && !t.isWord("DISTINCT")
            && !t.isWord("ALL")
            && !t.isWord("AS");
  }

  /**
   * Whether an alias read is SEMI or ANTI right before JOIN: Spark's left semi or anti join written
   * without LEFT, which Calcite reads as an inner join of a table aliased SEMI.
   */
  static boolean joinReadAsAlias(List<SqlToken> tokens, Set<Integer> aliasStarts) {
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if ((t.isWord("SEMI") || t.isWord("ANTI"))
          && aliasStarts.contains(t.start())
          && joinAfter(tokens, i)
          && !(i > 0 && tokens.get(i - 1).isWord("AS"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean joinAfter(List<SqlToken> tokens, int i) {
    return i + 1 < tokens.size() && tokens.get(i + 1).isWord("JOIN");
  }

  /** What the view loses without the clause {@code word} starts, or null for no clause word. */
  private static String lost(SqlToken word) {
    if (word.kind() != SqlToken.Kind.WORD) {
      return null;
    }
    for (List<String> words : CLAUSE_WORDS) {
      if (words.subList(1, words.size()).contains(word.upper())) {
        return words.get(0);
      }
    }
    return null;
  }

  /** Symbols that put a name next to them, where a clause word cannot stand. */
  private static final Set<String> BESIDE_A_NAME =
      Set.of(",", ".", "=", "==", "<", ">", "<=", ">=", "<>", "!=", "<=>", "||");

  /**
   * Whether the word of the alias at {@code i} stands elsewhere as a name: a qualifier ({@code
   * where.a}), a select item or an operand ({@code SELECT qualify, a}). Then its author knows it as
   * one.
   */
  private static boolean namedElsewhere(List<SqlToken> tokens, int i) {
    String alias = tokens.get(i).identifierValue();
    for (int j = 0; j < tokens.size(); j++) {
      SqlToken t = tokens.get(j);
      if (j == i || !t.isIdentifier() || !t.identifierValue().equalsIgnoreCase(alias)) {
        continue;
      }
      SqlToken before = j > 0 ? tokens.get(j - 1) : null;
      SqlToken after = j + 1 < tokens.size() ? tokens.get(j + 1) : null;
      if (t.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
          || before != null
              && (before.isWord("SELECT")
                  || before.isWord("DISTINCT")
                  || before.isSymbol("(")
                  || before.kind() == SqlToken.Kind.SYMBOL && BESIDE_A_NAME.contains(before.text()))
          || after != null
              && (after.isSymbol(")")
                  || after.kind() == SqlToken.Kind.SYMBOL
                      && BESIDE_A_NAME.contains(after.text()))) {
        return true;
      }
    }
    return false;
  }

  /** The table the alias at {@code i} names, as written, or "the FROM item before it". */
  private static String relation(List<SqlToken> tokens, int i) {
    int first = i - 1;
    if (!tokens.get(first).isIdentifier()) {
      return "the FROM item before it";
    }
    while (first >= 2
        && tokens.get(first - 1).isSymbol(".")
        && tokens.get(first - 2).isIdentifier()) {
      first -= 2;
    }
    StringBuilder name = new StringBuilder();
    for (int j = first; j < i; j++) {
      name.append(tokens.get(j).text());
    }
    return "'" + name + "'";
  }
}
