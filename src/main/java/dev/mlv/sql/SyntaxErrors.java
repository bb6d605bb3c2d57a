package dev.mlv.sql;

import dev.mlv.diag.Suggestions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A syntax error of a SELECT told in words its author acts on, from the tokens around the place
 * where a parser stopped rather than from the parser's grammar: a parenthesis never closed or
 * closing nothing, a misspelt keyword ({@code FORM}, {@code WHER}, {@code GROUPBY}), {@code GROUP}
 * without {@code BY}, a comma too many or missing, a JOIN without ON, a SELECT that ends too early.
 * Read only once the parsers have refused the text.
 */
final class SyntaxErrors {

  /** What is wrong: at {@code offset} of the SELECT's text, in a message and a hint. */
  record Told(int offset, String message, String hint) {}

  /** Keywords a misspelt word is compared with; each of four letters or more. */
  private static final List<String> KEYWORDS =
      List.of(
          "SELECT",
          "FROM",
          "WHERE",
          "GROUP",
          "ORDER",
          "HAVING",
          "JOIN",
          "INNER",
          "LEFT",
          "RIGHT",
          "FULL",
          "OUTER",
          "CROSS",
          "UNION",
          "INTERSECT",
          "EXCEPT",
          "LIMIT",
          "OFFSET",
          "DISTINCT",
          "PARTITION",
          "WINDOW",
          "BETWEEN",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "USING",
          "LATERAL",
          "OVER",
          "NATURAL",
          "VALUES",
          "WITH",
          "SEMI",
          "ANTI",
          "EXISTS",
          "LIKE",
          "ROWS",
          "RANGE",
          "PRECEDING",
          "FOLLOWING",
          "UNBOUNDED",
          "CURRENT",
          "DISTRIBUTE",
          "CLUSTER",
          "SORT",
          "CAST");

  /** Second words a keyword is run into: {@code GROUPBY}, {@code UNIONALL}, {@code LEFTJOIN}. */
  private static final List<String> SECOND_WORDS = List.of("BY", "ALL", "JOIN", "OUTER");

  /** Keywords that Spark takes only before BY. */
  private static final Set<String> BEFORE_BY =
      Set.of("GROUP", "ORDER", "PARTITION", "CLUSTER", "DISTRIBUTE", "SORT");

  /** Words that start a clause, ending a list of columns or tables before them. */
  private static final Set<String> CLAUSES =
      Set.of(
          "FROM",
          "WHERE",
          "GROUP",
          "ORDER",
          "HAVING",
          "JOIN",
          "INNER",
          "LEFT",
          "RIGHT",
          "FULL",
          "CROSS",
          "UNION",
          "INTERSECT",
          "EXCEPT",
          "LIMIT",
          "WINDOW",
          "ON",
          "USING",
          "LATERAL",
          "NATURAL",
          "SORT",
          "CLUSTER",
          "DISTRIBUTE",
          "QUALIFY");

  /** Words that need something after them, and what. */
  private static final List<List<String>> NEEDS =
      List.of(
          List.of("a condition", "WHERE", "HAVING", "WHEN", "QUALIFY", "ON"),
          List.of("a table", "FROM", "JOIN"),
          List.of("a list of columns or expressions", "BY", "SELECT", "DISTINCT"),
          List.of(
              "an operand",
              "AND",
              "OR",
              "NOT",
              "LIKE",
              "RLIKE",
              "IN",
              "IS",
              "BETWEEN",
              "=",
              "==",
              "<",
              ">",
              "<=",
              ">=",
              "<>",
              "!=",
              "<=>",
              "+",
              "-",
              "*",
              "/",
              "%",
              "||",
              "&",
              "|",
              "^",
              "THEN",
              "ELSE",
              "CASE",
              "DIV"),
          List.of("another item, or no comma", ","),
          List.of("a name", "AS", "."));

  /** Words Spark takes only before a parenthesised list here. */
  private static final Set<String> BEFORE_PARENTHESIS = Set.of("USING", "IN", "EXISTS");

  /** Words that start a query. */
  private static final Set<String> QUERY_STARTS =
      Set.of("SELECT", "WITH", "VALUES", "FROM", "TABLE");

  private SyntaxErrors() {}

  /**
   * What is wrong in {@code sql}, given where a parser stopped: {@code errorOffset} (-1 when it did
   * not say), {@code atEnd} when it ran out of text, {@code wantedQuery} when it expected a query
   * there; empty when the tokens there tell nothing more than the parser did.
   */
  static Optional<Told> of(String sql, int errorOffset, boolean atEnd, boolean wantedQuery) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    Optional<Told> parenthesis = unbalanced(tokens);
    if (parenthesis.isPresent() || tokens.isEmpty() || errorOffset < 0) {
      return parenthesis;
    }
    int k = 0;
    while (k < tokens.size() && tokens.get(k).end() <= errorOffset) {
      k++;
    }
    if (atEnd) {
      k = tokens.size();
    }
    SqlToken t = k < tokens.size() ? tokens.get(k) : null;
    SqlToken p = k > 0 ? tokens.get(k - 1) : null;
    if (wantedQuery && t != null && !QUERY_STARTS.contains(t.upper()) && !t.isSymbol("(")) {
      return Optional.of(
          new Told(
              t.start(),
              "expected a query (SELECT, WITH, VALUES, FROM or TABLE) "
                  + (p == null ? "at the start of the view's query" : "after '" + p.text() + "'")
                  + ", found '"
                  + t.text()
                  + "'"
                  + misspelt(t).map(m -> "; did you mean " + m + "?").orElse(""),
              "a view's body is AS followed by its query: AS SELECT ... FROM ..."));
    }
    Optional<Told> typo = typo(t, p);
    if (typo.isPresent()) {
      return typo;
    }
    Optional<Told> caseEnd = unendedCase(tokens, k);
    if (caseEnd.isPresent()) {
      return caseEnd;
    }
    Optional<Told> noCondition = conditionLeftOut(tokens, errorOffset);
    if (noCondition.isPresent()) {
      return noCondition;
    }
    if (p != null && p.kind() == SqlToken.Kind.WORD && BEFORE_PARENTHESIS.contains(p.upper())) {
      if (t != null && !t.isSymbol("(")) {
        return Optional.of(
            new Told(
                t.start(),
                "expected '(' after " + p.upper() + ", found " + shown(t),
                p.isWord("USING")
                    ? "write the join columns in parentheses: USING (id)"
                    : "write the list in parentheses: " + p.upper() + " (...)"));
      }
    }
    for (SqlToken word : new SqlToken[] {p, t}) {
      if (word != null && word.kind() == SqlToken.Kind.WORD && BEFORE_BY.contains(word.upper())) {
        int next = tokens.indexOf(word) + 1;
        if (next >= tokens.size() || !tokens.get(next).isWord("BY")) {
          return Optional.of(
              new Told(
                  next < tokens.size() ? tokens.get(next).start() : word.start(),
                  "expected BY after "
                      + word.upper()
                      + ", found "
                      + (next < tokens.size() ? "'" + tokens.get(next).text() + "'" : "the end"),
                  "write " + word.upper() + " BY ..."));
        }
      }
    }
    // The text ends where more must come: the parser ran out of it, or stopped at a last word
    // that needs more (Spark stops at a trailing AND).
    boolean lastNeedsMore = t != null && k == tokens.size() - 1 && needs(t).isPresent();
    if (t == null || lastNeedsMore) {
      SqlToken last = t == null ? p : t;
      Optional<String> need = needs(last);
      return Optional.of(
          new Told(
              last.start(),
              "the SELECT ends right after '"
                  + last.text()
                  + "'"
                  + need.map(n -> ", which needs " + n + " after it").orElse(", cut short"),
              "complete the SELECT; a statement ends at ';' or at the end of its file"));
    }
    Optional<Told> comma = comma(tokens, k);
    if (comma.isPresent()) {
      return comma;
    }
    int stop = k;
    return joinCondition(tokens, stop).or(() -> missingComma(tokens, stop));
  }

  /**
   * The token where a parser stopped, as "unexpected 'x' after 'y'", for an error no rule of {@link
   * #of} tells more about; empty when there is no token there.
   */
  static Optional<Told> unexpected(String sql, int errorOffset) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    int k = 0;
    while (k < tokens.size() && tokens.get(k).end() <= errorOffset) {
      k++;
    }
    if (k >= tokens.size()) {
      return Optional.empty();
    }
    SqlToken t = tokens.get(k);
    return Optional.of(
        new Told(
            t.start(),
            "unexpected " + shown(t) + (k > 0 ? " after " + shown(tokens.get(k - 1)) : ""),
            null));
  }

  /** A token for a message: 'x', or the string 'x' for a string literal. */
  private static String shown(SqlToken t) {
    return t.kind() == SqlToken.Kind.STRING ? "string " + t.text() : "'" + t.text() + "'";
  }

  /** A CASE before token {@code k} whose END never comes. */
  private static Optional<Told> unendedCase(List<SqlToken> tokens, int k) {
    Deque<SqlToken> open = new ArrayDeque<>();
    for (SqlToken t : tokens) {
      if (t.isWord("CASE")) {
        open.push(t);
      } else if (t.isWord("END") && !open.isEmpty()) {
        open.pop();
      }
    }
    SqlToken unended = null;
    for (SqlToken c : open) {
      if (tokens.indexOf(c) < k) {
        unended = c;
        break;
      }
    }
    if (unended == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Told(
            unended.start(),
            "this CASE is never ended: END is missing",
            "close it after its last WHEN ... THEN or ELSE: CASE WHEN ... THEN ... ELSE ... END"));
  }

  /** Join words Spark reads as a column right after ON or AND ('Join Inner, 'LEFT). */
  private static final Set<String> JOIN_SIDES =
      Set.of("LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL");

  /**
   * An ON, AND or OR with a clause, a comma or a ')' right after it in place of its condition
   * ({@code JOIN u ON WHERE a > 1}, {@code a > 1 AND GROUP BY a}), which Spark refuses at the token
   * after the clause word, at the AND, or, inside parentheses, before them (at the IN of {@code a
   * IN (SELECT ... ON WHERE ...)}): told at the word whose condition is missing. Where Spark's
   * refusal lies after the clause word and what it takes, it read them otherwise.
   */
  private static Optional<Told> conditionLeftOut(List<SqlToken> tokens, int errorOffset) {
    for (int i = 1; i + 1 < tokens.size(); i++) {
      SqlToken word = tokens.get(i);
      SqlToken next = tokens.get(i + 1);
      boolean on = word.isWord("ON") && joinBefore(tokens, i);
      boolean andOr =
          (word.isWord("AND") || word.isWord("OR"))
              && endsAnOperand(tokens.get(i - 1))
              && !betweensAnd(tokens, i);
      if (!on && !andOr
          || i + 2 < tokens.size() && errorOffset > tokens.get(i + 2).start()
          || errorOffset < word.start() && !enclosedAfter(tokens, errorOffset, i)) {
        continue;
      }
      boolean missing =
          next.isSymbol(",")
              || next.isSymbol(")")
              || next.isSymbol(";")
              || andOr && (next.isWord("THEN") || next.isWord("END") || next.isWord("ELSE"))
              || !JOIN_SIDES.contains(next.upper()) && startsAClause(tokens, i + 1);
      if (missing) {
        return Optional.of(
            new Told(
                word.start(),
                "this "
                    + word.upper()
                    + " has no condition: "
                    + (next.kind() == SqlToken.Kind.SYMBOL ? shown(next) : next.text())
                    + " follows it",
                on
                    ? "write the join condition after ON (ON t.id = u.id), or write CROSS JOIN"
                        + " for a join with none"
                    : "write the condition after " + word.upper() + ", or remove " + word.upper()));
      }
    }
    return Optional.empty();
  }

  /** Whether a JOIN comes before the ON at {@code i}, after the table or alias right before it. */
  private static boolean joinBefore(List<SqlToken> tokens, int i) {
    SqlToken before = tokens.get(i - 1);
    if (!(before.isIdentifier() || before.isSymbol(")"))) {
      return false;
    }
    for (int j = i - 2; j >= 0; j--) {
      if (tokens.get(j).isWord("JOIN")) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code t} can end an operand, so that an AND after it joins two conditions. */
  private static boolean endsAnOperand(SqlToken t) {
    return t.kind() != SqlToken.Kind.SYMBOL || t.isSymbol(")");
  }

  /** Whether the AND at {@code i} is the one of a BETWEEN before it in the same condition. */
  private static boolean betweensAnd(List<SqlToken> tokens, int i) {
    int j =
        SqlToken.nearestBefore(
            tokens,
            i - 1,
            t ->
                t.isWord("BETWEEN")
                    || t.isWord("AND")
                    || t.isWord("OR")
                    || t.isSymbol(",")
                    || CONDITION_STARTS.contains(t.upper()));
    return j >= 0 && tokens.get(j).isWord("BETWEEN");
  }

  /**
   * Whether a '(' opened at or after {@code offset} is still open at token {@code i}, or {@code
   * offset} lies in the WHEN condition {@code i} is in: Spark places an error inside parentheses at
   * or before where they open, and one in a WHEN's condition at its start.
   */
  private static boolean enclosedAfter(List<SqlToken> tokens, int offset, int i) {
    int depth = 0;
    for (int j = i - 1; j >= 0 && tokens.get(j).end() > offset; j--) {
      SqlToken t = tokens.get(j);
      if (t.isSymbol(")")) {
        depth++;
      } else if (t.isSymbol("(") && --depth < 0) {
        return true;
      } else if (depth == 0 && j > 0 && t.start() == offset && tokens.get(j - 1).isWord("WHEN")) {
        return true;
      }
    }
    return false;
  }

  /** The first ')' that closes nothing, else the innermost '(' never closed. */
  private static Optional<Told> unbalanced(List<SqlToken> tokens) {
    Deque<SqlToken> open = new ArrayDeque<>();
    for (SqlToken t : tokens) {
      if (t.isSymbol("(")) {
        open.push(t);
      } else if (t.isSymbol(")")) {
        if (open.isEmpty()) {
          return Optional.of(
              new Told(
                  t.start(),
                  "this ')' closes no '('",
                  "remove it, or add the '(' it should close"));
        }
        open.pop();
      }
    }
    if (open.isEmpty()) {
      return Optional.empty();
    }
    SqlToken unclosed = open.peek();
    return Optional.of(
        new Told(
            unclosed.start(),
            "this '(' is never closed",
            "add the ')' that closes it, or remove it"));
  }

  /** A misspelt keyword at the error, or just before it, where it was read as a name. */
  private static Optional<Told> typo(SqlToken t, SqlToken p) {
    for (SqlToken word : new SqlToken[] {t, p}) {
      Optional<String> meant = word == null ? Optional.empty() : misspelt(word);
      if (meant.isPresent()) {
        return Optional.of(
            new Told(
                word.start(),
                "'" + word.text() + "' is not a keyword; did you mean " + meant.get() + "?",
                "Spark reads a misspelt keyword as a name (an alias), and then fails at what"
                    + " follows it"));
      }
    }
    return Optional.empty();
  }

  /** The keyword (or two) an unquoted word is a near miss of: FORM is FROM, GROUPBY GROUP BY. */
  static Optional<String> misspelt(SqlToken word) {
    if (word.kind() != SqlToken.Kind.WORD || word.text().length() < 4) {
      return Optional.empty();
    }
    String w = word.upper();
    if (KEYWORDS.contains(w) || SECOND_WORDS.contains(w)) {
      return Optional.empty();
    }
    for (String k : KEYWORDS) {
      for (String second : SECOND_WORDS) {
        if (w.equals(k + second)) {
          return Optional.of(k + " " + second);
        }
      }
    }
    String best = null;
    for (String k : KEYWORDS) {
      int limit = k.length() >= 6 ? 2 : 1;
      if (Math.abs(k.length() - w.length()) <= limit && Suggestions.distance(w, k) <= limit) {
        if (best == null || Suggestions.distance(w, k) < Suggestions.distance(w, best)) {
          best = k;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** What must follow {@code t}, when it is a word or symbol that cannot end a SELECT. */
  private static Optional<String> needs(SqlToken t) {
    if (t.kind() != SqlToken.Kind.WORD && t.kind() != SqlToken.Kind.SYMBOL) {
      return Optional.empty();
    }
    for (List<String> need : NEEDS) {
      if (need.subList(1, need.size()).contains(t.upper())) {
        return Optional.of(need.get(0));
      }
    }
    return Optional.empty();
  }

  /** A comma before a clause or ')' (a list ending in a comma), or two commas in a row. */
  private static Optional<Told> comma(List<SqlToken> tokens, int k) {
    for (int i = Math.max(0, k - 1); i <= k && i + 1 < tokens.size(); i++) {
      SqlToken c = tokens.get(i);
      SqlToken next = tokens.get(i + 1);
      if (!c.isSymbol(",")) {
        continue;
      }
      if (next.isSymbol(",")) {
        return Optional.of(
            new Told(
                next.start(),
                "two commas in a row: an item is missing between them",
                "remove one comma, or write the missing item between them"));
      }
      if (next.isSymbol(")")
          || next.kind() == SqlToken.Kind.WORD && CLAUSES.contains(next.upper())) {
        return Optional.of(listEndsInComma(c, next));
      }
    }
    return Optional.empty();
  }

  private static Told listEndsInComma(SqlToken comma, SqlToken next) {
    return new Told(
        comma.start(),
        "a comma right before "
            + (next.isSymbol(")") ? "')'" : next.upper())
            + ": the list before it ends with a comma, which Spark refuses",
        "remove the comma after the last item");
  }

  /**
   * A comma before {@code FROM t} that the parsers accept: they read FROM as a column and the
   * one-part table name after it as its alias, a select list with no FROM clause, which Spark's
   * analyzer then refuses (TRAILING_COMMA_IN_SELECT). A column named from ({@code a, from FROM t})
   * is left alone.
   */
  static Optional<Told> commaReadAsColumnFrom(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    for (int i = 0; i + 2 < tokens.size(); i++) {
      SqlToken alias = tokens.get(i + 2);
      if (tokens.get(i).isSymbol(",")
          && tokens.get(i + 1).isWord("FROM")
          && alias.isIdentifier()
          && !alias.isWord("AS")
          && !alias.isWord("FROM")) {
        return Optional.of(listEndsInComma(tokens.get(i), tokens.get(i + 1)));
      }
    }
    return Optional.empty();
  }

  /**
   * A query that ends right after FROM: Spark's parser reads the FROM as the last column's alias
   * ({@code SELECT id FROM} selects a column named FROM, {@code SELECT * FROM} is refused when it
   * runs), so neither parser stops at it. {@code AS FROM} and {@code AS `FROM`} say the alias.
   */
  static Optional<Told> fromAtEnd(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    int n = tokens.size();
    if (n < 2 || !tokens.get(n - 1).isWord("FROM") || tokens.get(n - 2).isWord("AS")) {
      return Optional.empty();
    }
    return Optional.of(
        new Told(
            tokens.get(n - 1).start(),
            "the SELECT ends right after 'FROM', which needs a table after it",
            "complete the FROM clause; a column really named FROM is written AS `FROM`"));
  }

  /**
   * {@code SELECT FROM t} (or {@code SELECT DISTINCT FROM t}): a select list left out, which the
   * parsers accept as a column FROM aliased t and no FROM clause, and Spark's analyzer then refuses
   * (UNRESOLVED_COLUMN, FROM). A column named from is left alone where a FROM clause follows it
   * ({@code SELECT from FROM t}, {@code SELECT FROM x, y FROM t}).
   */
  static Optional<Told> emptySelectList(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    for (int i = 0; i + 1 < tokens.size(); i++) {
      SqlToken before = i > 0 ? tokens.get(i - 1) : null;
      if (!tokens.get(i).isWord("SELECT")
          || before != null
              && (before.isWord("SELECT")
                  || before.kind() == SqlToken.Kind.SYMBOL
                      && !before.isSymbol("(")
                      && !before.isSymbol(")"))) {
        // SELECT select FROM t reads a column named select.
        continue;
      }
      int f = i + 1;
      if (tokens.get(f).isWord("DISTINCT") || tokens.get(f).isWord("ALL")) {
        f++;
      }
      if (f + 1 >= tokens.size()
          || !tokens.get(f).isWord("FROM")
          || !tokens.get(f + 1).isIdentifier()
          || tokens.get(f + 1).isWord("AS")
          || tokens.get(f + 1).isWord("FROM")
          || fromFollows(tokens, f + 1)) {
        continue;
      }
      // SELECT FROM s.t: Spark's parser reads FROM s the same way, then stops at the '.'.
      boolean dotted = f + 2 < tokens.size() && tokens.get(f + 2).isSymbol(".");
      String table = dotted ? "s.t" : tokens.get(f + 1).text();
      return Optional.of(
          new Told(
              tokens.get(f).start(),
              "the SELECT list is empty: Spark reads FROM here as a column named FROM, aliased "
                  + tokens.get(f + 1).text()
                  + (dotted
                      ? ", and then refuses the '.' after it"
                      : ", in a SELECT with no FROM clause, which its analyzer refuses"
                          + " (UNRESOLVED_COLUMN)"),
              "list what to select before FROM: SELECT a, b FROM "
                  + table
                  + ", or SELECT * FROM "
                  + table));
    }
    return Optional.empty();
  }

  /**
   * {@code JOIN JOIN u}: Spark's parser reads the second JOIN as the name of the table joined
   * (aliased u), which its analyzer does not find (TABLE_OR_VIEW_NOT_FOUND); before a two-part name
   * it stops at the '.'.
   */
  static Optional<Told> doubledJoin(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    for (int i = 0; i + 1 < tokens.size(); i++) {
      if (tokens.get(i).isWord("JOIN") && tokens.get(i + 1).isWord("JOIN")) {
        return Optional.of(
            new Told(
                tokens.get(i + 1).start(),
                "JOIN is written twice: Spark reads the second as the name of a table, which its"
                    + " analyzer does not find (TABLE_OR_VIEW_NOT_FOUND)",
                "remove one JOIN; a table named join is written in backticks"));
      }
    }
    return Optional.empty();
  }

  /** Operators whose operands are values, never a condition NOT applies to. */
  private static final Set<String> VALUE_OPERATORS =
      Set.of(
          "=", "==", "<", ">", "<=", ">=", "<>", "!=", "<=>", "+", "-", "*", "/", "%", "||", "&",
          "|", "^", "DIV", "LIKE", "RLIKE", "ILIKE");

  /** Words that start a join, which Spark reads as a column's name right after NOT. */
  private static final Set<String> JOIN_WORDS =
      Set.of("LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL");

  /** Words after which a condition starts. */
  private static final Set<String> CONDITION_STARTS =
      Set.of("WHERE", "HAVING", "QUALIFY", "ON", "AND", "OR", "NOT", "WHEN", "(");

  /**
   * A NOT that Spark's parser reads as a column named NOT, which the analyzer then refuses
   * (UNRESOLVED_COLUMN): one with no condition after it ({@code WHERE NOT}, {@code AND NOT)}); or a
   * NOT right after an operator of values ({@code a = NOT 1}), which Spark's parser refuses at the
   * operand after it. Calcite reads both. {@code a = NOT(b)} is Spark's function not, and left
   * alone.
   */
  static Optional<Told> misplacedNot(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    if (unbalanced(tokens).isPresent()) {
      // WHERE NOT) is told by its parenthesis.
      return Optional.empty();
    }
    for (int i = 1; i < tokens.size(); i++) {
      SqlToken not = tokens.get(i);
      SqlToken before = tokens.get(i - 1);
      SqlToken after = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
      if (!not.isWord("NOT") || after != null && after.isSymbol("(")) {
        continue;
      }
      boolean operator =
          (before.kind() == SqlToken.Kind.SYMBOL || before.kind() == SqlToken.Kind.WORD)
              && VALUE_OPERATORS.contains(before.upper());
      if (operator) {
        return Optional.of(
            new Told(
                not.start(),
                "NOT right after '"
                    + before.text()
                    + "': Spark applies NOT to a whole condition, never to an operand, and"
                    + " refuses it here",
                "negate the whole comparison, NOT (a = 1), or put a negated condition in"
                    + " parentheses: a = (NOT b)"));
      }
      boolean conditionExpected =
          (before.kind() == SqlToken.Kind.SYMBOL || before.kind() == SqlToken.Kind.WORD)
              && CONDITION_STARTS.contains(before.upper());
      boolean nothingAfter =
          after == null
              || after.isSymbol(")")
              || after.isSymbol(",")
              || after.isWord("THEN")
              || after.isWord("END")
              || startsAClause(tokens, i + 1)
                  // NOT LEFT JOIN is NOT of a column named left, told by KeywordNames.
                  && !JOIN_WORDS.contains(after.upper());
      if (conditionExpected && nothingAfter) {
        return Optional.of(
            new Told(
                not.start(),
                "NOT with no condition after it: Spark reads it as a column named NOT, which its"
                    + " analyzer refuses (UNRESOLVED_COLUMN)",
                "write the condition NOT negates, WHERE NOT a = 1, or remove NOT; a column named"
                    + " not is written `not`"));
      }
    }
    return Optional.empty();
  }

  /**
   * Two CTEs of one WITH with the same name, {@code WITH t AS (...), t AS (...)}: Spark's parser
   * refuses it ([DUPLICATED_CTE_NAMES]), even when the query reads neither. Names are compared as
   * Spark's parser compares them, case-sensitively after backticks are removed (measured on Spark
   * 4.1.1: {@code t} and {@code `t`} clash, {@code t} and {@code T} do not). A WITH nested in a CTE
   * or subquery may reuse an outer name: only the names of one WITH are compared.
   */
  static Optional<Told> duplicateCteNames(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    for (int i = 0; i < tokens.size(); i++) {
      if (!tokens.get(i).isWord("WITH")) {
        continue;
      }
      Set<String> seen = new HashSet<>();
      int j = i + 1;
      if (j < tokens.size() && tokens.get(j).isWord("RECURSIVE")) {
        j++;
      }
      while (j < tokens.size() && tokens.get(j).isIdentifier()) {
        SqlToken name = tokens.get(j++);
        if (j < tokens.size() && tokens.get(j).isSymbol("(")) {
          j = SqlToken.closingParen(tokens, j) + 1; // the CTE's column list
          if (j == 0) {
            break;
          }
        }
        if (j < tokens.size() && tokens.get(j).isWord("AS")) {
          j++;
        }
        if (j >= tokens.size() || !tokens.get(j).isSymbol("(")) {
          break; // not a CTE list: WITH in another role
        }
        int close = SqlToken.closingParen(tokens, j);
        if (close < 0) {
          break;
        }
        if (!seen.add(name.identifierValue())) {
          return Optional.of(
              new Told(
                  name.start(),
                  "the CTE "
                      + name.identifierValue()
                      + " is defined twice in one WITH: Spark refuses the view"
                      + " ([DUPLICATED_CTE_NAMES])",
                  "give each CTE of a WITH its own name, or remove the one not meant"));
        }
        j = close + 1;
        if (j >= tokens.size() || !tokens.get(j).isSymbol(",")) {
          break;
        }
        j++;
      }
    }
    return Optional.empty();
  }

  /**
   * {@code SELECT SELECT a FROM t}: Spark's parser reads the second SELECT as a column named SELECT
   * aliased a (or, before {@code * FROM}, as a product), which its analyzer then refuses
   * (UNRESOLVED_COLUMN). Left alone where select is a name elsewhere in the text ({@code SELECT
   * select a FROM (SELECT 1 AS select)}) or is read as a whole select item ({@code SELECT select
   * FROM t}).
   */
  static Optional<Told> doubledSelect(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    for (int i = 0; i + 2 < tokens.size(); i++) {
      SqlToken second = tokens.get(i + 1);
      SqlToken next = tokens.get(i + 2);
      boolean item =
          next.isIdentifier() && !next.isWord("FROM") && !next.isWord("AS")
              || next.isSymbol("*") && i + 3 < tokens.size() && tokens.get(i + 3).isWord("FROM");
      if (tokens.get(i).isWord("SELECT")
          && (i == 0 || !tokens.get(i - 1).isWord("SELECT"))
          && second.isWord("SELECT")
          && item
          && !namedSelect(tokens, i + 1)) {
        return Optional.of(
            new Told(
                second.start(),
                "SELECT is written twice: Spark reads the second as a column named SELECT, which"
                    + " its analyzer does not find (UNRESOLVED_COLUMN)",
                "remove one SELECT; a column named select is written `select`"));
      }
    }
    return Optional.empty();
  }

  /** Whether select stands as a name anywhere but at {@code k}: after AS or '.', or backticked. */
  private static boolean namedSelect(List<SqlToken> tokens, int k) {
    for (int j = 0; j < tokens.size(); j++) {
      SqlToken t = tokens.get(j);
      if (j == k || !t.identifierValue().equalsIgnoreCase("select") || !t.isIdentifier()) {
        continue;
      }
      if (t.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
          || j > 0 && (tokens.get(j - 1).isWord("AS") || tokens.get(j - 1).isSymbol("."))
          || j + 1 < tokens.size() && tokens.get(j + 1).isSymbol(".")) {
        return true;
      }
    }
    return false;
  }

  /** SQL Server's abbreviations of DATEPART's fields, with Spark's name of the field. */
  private static final java.util.Map<String, String> SQL_SERVER_DATEPARTS =
      java.util.Map.ofEntries(
          java.util.Map.entry("yy", "year"),
          java.util.Map.entry("yyyy", "year"),
          java.util.Map.entry("qq", "quarter"),
          java.util.Map.entry("q", "quarter"),
          java.util.Map.entry("mm", "month"),
          java.util.Map.entry("m", "month"),
          java.util.Map.entry("dd", "day"),
          java.util.Map.entry("d", "day"),
          java.util.Map.entry("dy", "doy"),
          java.util.Map.entry("wk", "week"),
          java.util.Map.entry("ww", "week"),
          java.util.Map.entry("dw", "dow"),
          java.util.Map.entry("hh", "hour"),
          java.util.Map.entry("mi", "minute"),
          java.util.Map.entry("n", "minute"),
          java.util.Map.entry("ss", "second"),
          java.util.Map.entry("s", "second"));

  /**
   * The Spark name of SQL Server's abbreviation of a date part ({@code dd}: day), if it has one.
   */
  static java.util.Optional<String> sqlServerDatePart(String abbreviation) {
    return java.util.Optional.ofNullable(
        SQL_SERVER_DATEPARTS.get(abbreviation.toLowerCase(java.util.Locale.ROOT)));
  }

  /**
   * {@code datepart(year, d)}, SQL Server's spelling: Spark's date_part and datepart take the field
   * as a string literal, and read a bare word there as a column, which they refuse (measured on
   * Spark 4.1.1: UNRESOLVED_COLUMN for year; a column of that name is no constant either).
   */
  static List<Told> unquotedDateParts(String sql) {
    List<SqlToken> t = SqlToken.tokenize(sql);
    List<Told> out = new ArrayList<>();
    for (int i = 0; i + 3 < t.size(); i++) {
      if ((t.get(i).isWord("DATEPART") || t.get(i).isWord("DATE_PART"))
          && t.get(i + 1).isSymbol("(")
          && t.get(i + 2).kind() == SqlToken.Kind.WORD
          && t.get(i + 3).isSymbol(",")
          && (i == 0 || !t.get(i - 1).isSymbol("."))) {
        String fn = t.get(i).text();
        String field = t.get(i + 2).text();
        String spark =
            SQL_SERVER_DATEPARTS.getOrDefault(
                field.toLowerCase(java.util.Locale.ROOT), field.toLowerCase(java.util.Locale.ROOT));
        out.add(
            new Told(
                t.get(i + 2).start(),
                fn
                    + "("
                    + field
                    + ", ...) reads "
                    + field
                    + " as a column: Spark's "
                    + fn.toLowerCase(java.util.Locale.ROOT)
                    + " takes its field as a string, and refuses the view ([UNRESOLVED_COLUMN])",
                "quote the field: "
                    + fn
                    + "('"
                    + spark
                    + "', ...), or write EXTRACT("
                    + spark.toUpperCase(java.util.Locale.ROOT)
                    + " FROM ...)"));
      }
    }
    return out;
  }

  /** Generators, and range, that Spark calls as table functions in a FROM clause. */
  private static final Set<String> FROM_GENERATORS =
      Set.of(
          "EXPLODE",
          "EXPLODE_OUTER",
          "POSEXPLODE",
          "POSEXPLODE_OUTER",
          "INLINE",
          "INLINE_OUTER",
          "STACK",
          "JSON_TUPLE",
          "VARIANT_EXPLODE",
          "VARIANT_EXPLODE_OUTER",
          "RANGE");

  /** Words that end a FROM clause at its depth. */
  private static final Set<String> AFTER_FROM =
      Set.of(
          "WHERE",
          "GROUP",
          "HAVING",
          "ORDER",
          "LIMIT",
          "OFFSET",
          "WINDOW",
          "QUALIFY",
          "UNION",
          "EXCEPT",
          "INTERSECT",
          "MINUS",
          "CLUSTER",
          "DISTRIBUTE",
          "SORT",
          "SELECT");

  /**
   * A table function joined after another FROM item without LATERAL ({@code FROM orders o,
   * explode(o.tags) AS t(tag)}) whose arguments read a column by a qualified name: Spark resolves
   * such a function's arguments on their own, so the column is UNRESOLVED_COLUMN (measured on Spark
   * 4.1.1; with LATERAL, or as LATERAL VIEW, it is read). A qualified name followed by a {@code (}
   * is a function of a schema, not a column.
   */
  static List<Told> unlateralReads(String sql) {
    List<SqlToken> t = SqlToken.tokenize(sql);
    List<Told> out = new ArrayList<>();
    // The depth of each open FROM clause, innermost last.
    java.util.ArrayDeque<Integer> froms = new java.util.ArrayDeque<>();
    int depth = 0;
    for (int i = 0; i < t.size(); i++) {
      SqlToken u = t.get(i);
      if (u.isSymbol("(")) {
        depth++;
      } else if (u.isSymbol(")")) {
        while (!froms.isEmpty() && froms.peekLast() >= depth) {
          froms.removeLast();
        }
        depth--;
      } else if (u.isWord("FROM")) {
        froms.addLast(depth);
      } else if (u.kind() == SqlToken.Kind.WORD
          && AFTER_FROM.contains(u.upper())
          && !froms.isEmpty()
          && froms.peekLast() == depth) {
        froms.removeLast();
      } else if (!froms.isEmpty()
          && froms.peekLast() == depth
          && (u.isSymbol(",") || u.isWord("JOIN"))
          && i + 2 < t.size()
          && t.get(i + 1).kind() == SqlToken.Kind.WORD
          && FROM_GENERATORS.contains(t.get(i + 1).upper())
          && t.get(i + 2).isSymbol("(")) {
        int close = SqlToken.closingParen(t, i + 2);
        // A lambda's parameter (e -> e.a) is no column, and a subquery's names are its own.
        Set<String> lambda = new java.util.HashSet<>();
        boolean subquery = false;
        for (int j = i + 3; j < close; j++) {
          subquery |= t.get(j).isWord("SELECT");
          if (t.get(j).isSymbol("->")) {
            int k = j - 1;
            if (t.get(k).isIdentifier()) { // e -> ...
              lambda.add(t.get(k).identifierValue().toLowerCase(java.util.Locale.ROOT));
            } else if (t.get(k).isSymbol(")")) { // (acc, x) -> ...
              for (k--; k > i + 2 && !t.get(k).isSymbol("("); k--) {
                if (t.get(k).isIdentifier()) {
                  lambda.add(t.get(k).identifierValue().toLowerCase(java.util.Locale.ROOT));
                }
              }
            }
          }
        }
        for (int j = i + 3; !subquery && j + 2 < close; j++) {
          if (lambda.contains(t.get(j).identifierValue().toLowerCase(java.util.Locale.ROOT))) {
            continue;
          }
          if (t.get(j).isIdentifier()
              && t.get(j + 1).isSymbol(".")
              && t.get(j + 2).isIdentifier()
              && !(j + 3 < t.size() && t.get(j + 3).isSymbol("("))
              && !(j > 0 && t.get(j - 1).isSymbol("."))) {
            String name = sql.substring(t.get(j).start(), t.get(j + 2).end());
            String fn = t.get(i + 1).text();
            out.add(
                new Told(
                    t.get(j).start(),
                    "column "
                        + name
                        + " cannot be resolved in the arguments of "
                        + fn
                        + "(...), a table function joined without LATERAL: Spark resolves its"
                        + " arguments on their own, not against the FROM items before it"
                        + " ([UNRESOLVED_COLUMN])",
                    "write LATERAL before it (FROM t, LATERAL "
                        + fn
                        + "(t.x) AS e(v)), or use LATERAL VIEW "
                        + fn
                        + "(...)"));
            break;
          }
        }
      }
    }
    return out;
  }

  /**
   * Words that continue or end a condition, so that a clause word before them is its operand
   * ({@code CASE WHEN NOT limit THEN}).
   */
  private static final Set<String> OPERATOR_WORDS =
      Set.of(
          "AND", "OR", "IS", "IN", "LIKE", "RLIKE", "ILIKE", "REGEXP", "BETWEEN", "DIV", "COLLATE",
          "WHEN", "THEN", "ELSE", "END");

  /** How many clause words in a row are weighed, beyond which a word is taken as a column. */
  private static final int MAX_CLAUSE_RUN = 8;

  /**
   * Whether token {@code k} starts a clause rather than naming a column: {@code ORDER BY} but not
   * {@code cluster} alone, {@code LEFT JOIN} but not {@code left(a, 1)}, {@code LIMIT 1} but not
   * {@code limit} alone or before an operator or another clause ({@code NOT limit = 1}, {@code NOT
   * limit ORDER BY a}), which Spark 4.1.1 reads as a column.
   */
  private static boolean startsAClause(List<SqlToken> tokens, int k) {
    return startsAClause(tokens, k, 0);
  }

  private static boolean startsAClause(List<SqlToken> tokens, int k, int run) {
    SqlToken t = tokens.get(k);
    if (t.kind() != SqlToken.Kind.WORD
        || !CLAUSES.contains(t.upper()) && !t.isWord("MINUS") && !t.isWord("OFFSET")) {
      return false;
    }
    SqlToken next = k + 1 < tokens.size() ? tokens.get(k + 1) : null;
    if (BEFORE_BY.contains(t.upper())) {
      return next != null && next.isWord("BY");
    }
    if (Set.of("LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL").contains(t.upper())) {
      return next != null
          && (next.isWord("JOIN")
              || next.isWord("OUTER")
              || next.isWord("SEMI")
              || next.isWord("ANTI")
              || next.isWord("LEFT")
              || next.isWord("RIGHT")
              || next.isWord("FULL")
              || next.isWord("INNER"));
    }
    // The clause takes what follows: a value, a name, a query; alone it is a column.
    boolean taken =
        next != null
            && (next.kind() == SqlToken.Kind.NUMBER
                || next.kind() == SqlToken.Kind.STRING
                || next.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
                || next.kind() == SqlToken.Kind.WORD
                    && !OPERATOR_WORDS.contains(next.upper())
                    && !(next.isWord("NOT")
                        && k + 2 < tokens.size()
                        && OPERATOR_WORDS.contains(tokens.get(k + 2).upper())));
    return taken && (run >= MAX_CLAUSE_RUN || !startsAClause(tokens, k + 1, run + 1));
  }

  /** Whether a FROM follows token {@code k} in its query, at the same parenthesis depth. */
  private static boolean fromFollows(List<SqlToken> tokens, int k) {
    int depth = 0;
    for (int i = k + 1; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        if (--depth < 0) {
          return false;
        }
      } else if (depth == 0 && t.kind() == SqlToken.Kind.WORD) {
        if (t.isWord("FROM")) {
          return true;
        }
        if (t.isWord("UNION") || t.isWord("INTERSECT") || t.isWord("EXCEPT")) {
          return false;
        }
      }
    }
    return false;
  }

  /** A table joined with nothing after it where Spark expects ON or USING. */
  private static Optional<Told> joinCondition(List<SqlToken> tokens, int k) {
    if (k >= tokens.size()) {
      return Optional.empty();
    }
    SqlToken t = tokens.get(k);
    SqlToken clause = clauseBefore(tokens, k);
    if (clause == null
        || !clause.isWord("JOIN")
        || t.isWord("ON")
        || t.isWord("USING")
        || t.kind() == SqlToken.Kind.WORD && CLAUSES.contains(t.upper())) {
      return Optional.empty();
    }
    boolean cross = false;
    int at = tokens.indexOf(clause);
    for (int i = Math.max(0, at - 3); i < at; i++) {
      cross |= tokens.get(i).isWord("CROSS") || tokens.get(i).isWord("NATURAL");
    }
    if (cross) {
      return Optional.empty();
    }
    return Optional.of(
        new Told(
            t.start(),
            "expected ON or USING after the table JOIN reads, found '" + t.text() + "'",
            "write the join condition: JOIN t AS b ON a.id = b.id, or JOIN t USING (id)"));
  }

  /**
   * Two names after a value, {@code a b c}: Spark reads b as the alias of a, and then needs a comma
   * or a keyword where c stands.
   */
  private static Optional<Told> missingComma(List<SqlToken> tokens, int k) {
    if (k < 2 || k >= tokens.size()) {
      return Optional.empty();
    }
    SqlToken t = tokens.get(k);
    SqlToken alias = tokens.get(k - 1);
    SqlToken value = tokens.get(k - 2);
    SqlToken clause = clauseBefore(tokens, k);
    boolean list = clause != null && (clause.isWord("SELECT") || clause.isWord("FROM"));
    if (!list
        || !(t.isIdentifier()
            || t.kind() == SqlToken.Kind.NUMBER
            || t.kind() == SqlToken.Kind.STRING)
        || !alias.isIdentifier()
        || (alias.kind() == SqlToken.Kind.WORD && KEYWORDS.contains(alias.upper()))
        || !(value.isIdentifier()
            || value.kind() == SqlToken.Kind.NUMBER
            || value.kind() == SqlToken.Kind.STRING
            || value.isSymbol(")"))) {
      return Optional.empty();
    }
    return Optional.of(
        new Told(
            t.start(),
            "unexpected '"
                + t.text()
                + "' after '"
                + alias.text()
                + "': is a comma missing before it? Spark reads '"
                + alias.text()
                + "' as the alias of what precedes it, and then expects a comma or a keyword",
            "separate the items with commas: ..., " + alias.text() + ", " + t.text()));
  }

  /** The nearest clause word before token {@code k} at the same parenthesis depth, or null. */
  private static SqlToken clauseBefore(List<SqlToken> tokens, int k) {
    int j =
        SqlToken.nearestBefore(
            tokens,
            k - 1,
            t ->
                t.kind() == SqlToken.Kind.WORD
                    && (t.isWord("SELECT") || CLAUSES.contains(t.upper())));
    return j < 0 ? null : tokens.get(j);
  }
}
