package dev.mlv.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Calls of Spark's built-in functions with a number of arguments Spark's analyzer refuses
 * (WRONG_NUM_ARGS): {@code isnull(qty, 0)}, {@code substr(s)}, {@code coalesce()}. Read from the
 * tokens, as Calcite may refuse or rewrite such a call (and some statements reach only Spark's
 * parser), against the counts {@link FunctionArity} tells. A call whose count the table does not
 * settle is left alone: one with special syntax inside its parentheses (CAST's AS, EXTRACT's FROM,
 * TRIM's BOTH, POSITION's IN, SUBSTRING's FOR, OVERLAY's PLACING), DISTINCT, named arguments
 * ({@code =>}), a {@code *}, a {@code ::} cast, or WITHIN GROUP after it.
 */
final class ArgumentCounts {
  private ArgumentCounts() {}

  /**
   * Words before a function's name where Spark reads it as a call; after any other word the name is
   * an alias ({@code FROM events e(a, b)}), a type ({@code AS decimal(10, 2)}) or an operand.
   */
  private static final Set<String> BEFORE_A_CALL =
      Set.of(
          "SELECT",
          "DISTINCT",
          "ALL",
          "WHERE",
          "HAVING",
          "QUALIFY",
          "ON",
          "AND",
          "OR",
          "NOT",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "BY",
          "BETWEEN",
          "FROM",
          "JOIN",
          "LATERAL",
          "VIEW",
          "OUTER",
          "LIMIT",
          "OFFSET");

  /** Symbols after which a name with parentheses is no call: a qualifier, a type, an alias. */
  private static final Set<String> NOT_BEFORE_A_CALL = Set.of(")", ".", "::", ":", "]");

  /**
   * Names Spark's parser reads as an operator or as syntax of its own before a parenthesis ({@code
   * NOT (a, b) IN ...}, {@code CAST(a AS INT)}), and type names with a precision ({@code
   * decimal(10, 2)} inside {@code ARRAY<...>}).
   */
  private static final Set<String> NOT_CALLS =
      Set.of(
          "NOT",
          "AND",
          "OR",
          "IN",
          "LIKE",
          "ILIKE",
          "RLIKE",
          "REGEXP",
          "BETWEEN",
          "DIV",
          "IS",
          "CAST",
          "TRY_CAST");

  private static final Set<String> TYPES_WITH_SIZE =
      Set.of("DECIMAL", "DEC", "NUMERIC", "CHAR", "CHARACTER", "VARCHAR");

  /**
   * Words inside the parentheses that make them more than a list of arguments: special syntax
   * (EXTRACT's FROM, SUBSTRING's FOR, TRIM's BOTH, OVERLAY's PLACING, CAST's or STRUCT's AS), a set
   * quantifier, an ordering, FIRST's IGNORE NULLS.
   */
  private static final Set<String> SPECIAL_INSIDE =
      Set.of(
          "AS",
          "FROM",
          "FOR",
          "PLACING",
          "BOTH",
          "LEADING",
          "TRAILING",
          "DISTINCT",
          "ALL",
          "ORDER",
          "IGNORE",
          "RESPECT",
          "USING",
          "SEPARATOR");

  /** Spark's parser takes these with a unit first: {@code datediff(DAY, a, b)}. */
  private static final Set<String> UNIT_FIRST =
      Set.of("DATE_ADD", "DATEADD", "DATE_DIFF", "DATEDIFF", "TIMESTAMPADD", "TIMESTAMPDIFF");

  /**
   * The units Spark's parser takes bare before a three-argument datediff and the like, as its error
   * lists them (measured on 4.1.1: DAYS, dd, a backticked `DAY` or the string 'DAY' are refused).
   */
  private static final List<String> DATETIME_UNITS =
      List.of(
          "YEAR",
          "QUARTER",
          "MONTH",
          "WEEK",
          "DAY",
          "DAYOFYEAR",
          "HOUR",
          "MINUTE",
          "SECOND",
          "MILLISECOND",
          "MICROSECOND");

  /**
   * Every three-argument datediff, dateadd, timestampdiff (and their spellings) whose first
   * argument is no unit Spark's parser takes. Spark then reads the call as the two-argument
   * function (or, for timestampdiff, as a function it does not have) with the first argument a
   * column or a value, and refuses the view: [UNRESOLVED_COLUMN] for {@code datediff(DAYS, a, b)}
   * or SQL Server's {@code dd}, [INVALID_PARAMETER_VALUE.DATETIME_UNIT] for {@code 'DAY'}.
   */
  static List<SyntaxErrors.Told> unknownUnits(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    List<SyntaxErrors.Told> found = new ArrayList<>();
    for (int i = 1; i + 3 < tokens.size(); i++) {
      SqlToken name = tokens.get(i);
      if (name.kind() != SqlToken.Kind.WORD
          || !UNIT_FIRST.contains(name.upper())
          || !tokens.get(i + 1).isSymbol("(")) {
        continue;
      }
      int close = SqlToken.closingParen(tokens, i + 1);
      if (close < 0 || !readAsCall(tokens, i, close)) {
        continue;
      }
      OptionalInt count = count(tokens, i, close);
      SqlToken first = tokens.get(i + 2);
      boolean bare = tokens.get(i + 3).isSymbol(",");
      // DAYOFYEAR adds, but is no unit to count a difference in (measured on Spark 4.1.1:
      // datediff(DAYOFYEAR, ...) is INVALID_PARAMETER_VALUE.DATETIME_UNIT; found by QA).
      boolean diff = name.upper().contains("DIFF");
      if (count.isEmpty()
          || count.getAsInt() != 3
          || bare
              && first.kind() == SqlToken.Kind.WORD
              && DATETIME_UNITS.contains(first.upper())
              && !(diff && first.upper().equals("DAYOFYEAR"))) {
        continue;
      }
      found.add(unknownUnit(name.text(), first, bare));
    }
    return found;
  }

  private static SyntaxErrors.Told unknownUnit(String fn, SqlToken first, boolean bare) {
    String lower = fn.toLowerCase(Locale.ROOT);
    String units = String.join(", ", DATETIME_UNITS);
    boolean string = first.kind() == SqlToken.Kind.STRING;
    if (bare && (string || first.kind() == SqlToken.Kind.QUOTED_IDENTIFIER)) {
      String unit = first.text().substring(1, first.text().length() - 1);
      return new SyntaxErrors.Told(
          first.start(),
          fn
              + "("
              + first.text()
              + (string
                  ? ", ...) gives its unit as a string, and Spark takes it only bare: Spark refuses"
                      + " the view ([INVALID_PARAMETER_VALUE.DATETIME_UNIT])"
                  : ", ...) gives its unit in backticks, and Spark takes it only bare: Spark reads"
                      + " it as a column instead, and refuses the view"),
          "write the unit without "
              + (string ? "quotes" : "backticks")
              + unitHint(lower, unit)
              + "; Spark's units are "
              + units);
    }
    if (bare && first.upper().equals("DAYOFYEAR")) {
      return new SyntaxErrors.Told(
          first.start(),
          first.text()
              + " is a unit Spark's "
              + lower
              + " does not count a difference in (dateadd and timestampadd take it): Spark refuses"
              + " the view ([INVALID_PARAMETER_VALUE.DATETIME_UNIT])",
          "count days: "
              + lower
              + "(DAY, ...); Spark's units for a difference are "
              + String.join(
                  ", ", DATETIME_UNITS.stream().filter(u -> !u.equals("DAYOFYEAR")).toList()));
    }
    String word = bare ? first.text() : null;
    return new SyntaxErrors.Told(
        first.start(),
        bare
            ? word
                + " is no datetime unit Spark's "
                + lower
                + " takes: Spark reads it as a column instead, and refuses the view"
            : fn
                + "(...) with three arguments takes a datetime unit first, and Spark refuses the"
                + " view with this one",
        (bare ? "write" + unitHint(lower, word).replaceFirst("^:", "") : "write a unit first")
            + "; Spark's units are "
            + units);
  }

  /** ": datediff(DAY, ...)" when {@code written} is a plural, SQL Server's or a quoted unit. */
  private static String unitHint(String fn, String written) {
    String upper = written.toUpperCase(Locale.ROOT);
    String unit =
        DATETIME_UNITS.contains(upper)
            ? upper
            : upper.endsWith("S") && DATETIME_UNITS.contains(upper.substring(0, upper.length() - 1))
                ? upper.substring(0, upper.length() - 1)
                : SyntaxErrors.sqlServerDatePart(written)
                    .map(u -> u.toUpperCase(Locale.ROOT))
                    .filter(DATETIME_UNITS::contains)
                    .orElse(null);
    return unit == null ? " a unit" : ": " + fn + "(" + unit + ", ...)";
  }

  /** Every call in {@code sql} whose argument count Spark refuses, in the order of the text. */
  static List<SyntaxErrors.Told> refused(String sql) {
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    List<SyntaxErrors.Told> found = new ArrayList<>();
    for (int i = 1; i + 1 < tokens.size(); i++) {
      SqlToken name = tokens.get(i);
      if (name.kind() != SqlToken.Kind.WORD || !tokens.get(i + 1).isSymbol("(")) {
        continue;
      }
      Optional<FunctionArity> arity = FunctionArity.of(name.text());
      int close = SqlToken.closingParen(tokens, i + 1);
      if (arity.isEmpty() || close < 0 || !readAsCall(tokens, i, close)) {
        continue;
      }
      OptionalInt count = count(tokens, i, close);
      if (count.isEmpty()
          || !arity.get().refuses(count.getAsInt())
          || count.getAsInt() == 3 && UNIT_FIRST.contains(name.upper())) {
        continue;
      }
      found.add(told(name, count.getAsInt(), arity.get()));
    }
    return found;
  }

  private static boolean readAsCall(List<SqlToken> tokens, int i, int close) {
    SqlToken name = tokens.get(i);
    SqlToken before = tokens.get(i - 1);
    if (NOT_CALLS.contains(name.upper())) {
      return false;
    }
    boolean after =
        before.kind() == SqlToken.Kind.SYMBOL
            ? !NOT_BEFORE_A_CALL.contains(before.text())
            : before.kind() == SqlToken.Kind.WORD && BEFORE_A_CALL.contains(before.upper());
    if (!after
        || TYPES_WITH_SIZE.contains(name.upper())
            && (before.isSymbol("<") || before.isSymbol(","))) {
      return false;
    }
    SqlToken first = tokens.get(i + 2);
    if (first.isWord("SELECT")
        || first.isWord("WITH")
        || first.isWord("VALUES")
        || first.isWord("FROM")
        || first.isWord("TABLE")
        || name.isWord("EXISTS") && first.isSymbol("(")) {
      // EXISTS (SELECT ...), ANY (SELECT ...): a subquery, not arguments.
      return false;
    }
    if (close + 1 < tokens.size()) {
      SqlToken next = tokens.get(close + 1);
      // listagg(a) WITHIN GROUP (ORDER BY b); SELECT TRANSFORM(a, b) USING 'cat'; a CTE's
      // column list, WITH e(a, b) AS (...).
      if (next.isWord("WITHIN")
          || next.isWord("USING")
          || next.isWord("ROW")
          || next.isWord("RECORDWRITER")
          || next.isWord("AS")
              && close + 2 < tokens.size()
              && tokens.get(close + 2).isSymbol("(")) {
        return false;
      }
    }
    return true;
  }

  /** The number of arguments between the parentheses, or empty when it is not a plain list. */
  private static OptionalInt count(List<SqlToken> tokens, int i, int close) {
    int open = i + 1;
    if (close == open + 1) {
      return OptionalInt.of(0);
    }
    boolean position = tokens.get(i).isWord("POSITION");
    int depth = 0;
    int arguments = 1;
    boolean empty = true;
    for (int j = open + 1; j < close; j++) {
      SqlToken t = tokens.get(j);
      if (t.isSymbol("(") || t.isSymbol("[")) {
        depth++;
      } else if (t.isSymbol(")") || t.isSymbol("]")) {
        depth--;
      }
      if (depth > 0 || t.isSymbol(")") || t.isSymbol("]")) {
        empty = false;
        continue;
      }
      if (t.isSymbol(",")) {
        if (empty) {
          return OptionalInt.empty();
        }
        arguments++;
        empty = true;
        continue;
      }
      boolean star =
          t.isSymbol("*")
              && (empty || tokens.get(j - 1).isSymbol("."))
              && (tokens.get(j + 1).isSymbol(",") || j + 1 == close);
      if (star
          || t.kind() == SqlToken.Kind.WORD && SPECIAL_INSIDE.contains(t.upper())
          || position && t.isWord("IN")
          || t.isSymbol("=>")
          || t.isSymbol("::")) {
        return OptionalInt.empty();
      }
      empty = false;
    }
    return empty ? OptionalInt.empty() : OptionalInt.of(arguments);
  }

  private static SyntaxErrors.Told told(SqlToken name, int count, FunctionArity arity) {
    String lower = name.text().toLowerCase(Locale.ROOT);
    String given =
        count == 0
            ? name.text() + "() has no argument"
            : name.text() + "(...) has " + count + (count == 1 ? " argument" : " arguments");
    return new SyntaxErrors.Told(
        name.start(),
        given
            + ", which Spark refuses (WRONG_NUM_ARGS: "
            + lower
            + " requires "
            + arity.inWords()
            + ")",
        hint(lower, count, arity));
  }

  private static String hint(String name, int count, FunctionArity arity) {
    if (name.equals("count") && count == 0) {
      return "count(*) counts the rows, count(a) the rows where a is not NULL";
    }
    if (name.equals("isnull") && count == 2) {
      return "Spark's isnull(a) tells whether a is NULL; SQL Server's ISNULL(a, b) is written"
          + " coalesce(a, b) in Spark";
    }
    return "call "
        + name
        + " with "
        + arity.inWords().replace("parameter", "argument")
        + "; Spark's reference: https://spark.apache.org/docs/latest/api/sql/index.html#"
        + name;
  }
}
