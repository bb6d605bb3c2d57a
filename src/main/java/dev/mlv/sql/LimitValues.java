package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A LIMIT or OFFSET whose value Spark refuses ([INVALID_LIMIT_LIKE_EXPRESSION]): a negative integer
 * ({@code LIMIT -1}), a literal of another type than INT ({@code LIMIT 1.5}, {@code LIMIT 'a'},
 * {@code LIMIT 1L}, {@code LIMIT 3000000000}, {@code LIMIT NULL}), or a column ({@code LIMIT qty}).
 * Found on tokens, as Calcite does not read all of them (the Spark parser then read the SELECT),
 * and only where the value is one of these alone, in parentheses or not, up to the end of its
 * query: {@code LIMIT 2 - 3} and {@code LIMIT +1} are left to Spark.
 */
public final class LimitValues {
  public static final String RULE = "LIMIT_VALUE";

  /** Spark's suffixes of a number literal, each of a type other than INT. */
  private static final Set<String> SUFFIXES = Set.of("L", "S", "Y", "BD", "D", "F");

  /** Words that end a LIMIT's value: the clauses after it, and the set operations. */
  private static final Set<String> ENDS =
      Set.of("OFFSET", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "MINUS", "WINDOW");

  private LimitValues() {}

  /** The findings in {@code sql}, a view's SELECT whose first character is at {@code start}. */
  public static List<Diagnostic> check(String sql, Position start) {
    List<SqlToken> t = SqlToken.tokenize(sql);
    List<Diagnostic> out = new ArrayList<>();
    for (int i = 0; i + 1 < t.size(); i++) {
      SqlToken clause = t.get(i);
      if (!(clause.isWord("LIMIT") || clause.isWord("OFFSET"))
          || i == 0
          || !endsAnOperand(t.get(i - 1))) {
        continue; // a column or an alias named limit, not the clause
      }
      // The value: its tokens up to the end of the query, a ';', a ')' closing an outer '(' or
      // the next clause, with the parentheses around it taken off.
      int from = i + 1;
      int to = from;
      int depth = 0;
      while (to < t.size()) {
        SqlToken u = t.get(to);
        if (u.isSymbol("(")) {
          depth++;
        } else if (u.isSymbol(")")) {
          if (depth == 0) {
            break;
          }
          depth--;
        } else if (depth == 0 && (u.isSymbol(";") || ENDS.contains(u.upper()))) {
          break;
        }
        to++;
      }
      while (to - from >= 3
          && t.get(from).isSymbol("(")
          && SqlToken.closingParen(t, from) == to - 1) {
        from++;
        to--;
      }
      String refusal = refusal(t, from, to);
      if (refusal == null) {
        continue;
      }
      String value = sql.substring(t.get(from).start(), t.get(to - 1).end());
      String what = clause.upper();
      out.add(
          Diagnostic.error(
              RULE,
              start.advance(sql, t.get(from).start()),
              what
                  + " "
                  + value
                  + ": Spark takes only a constant integer of 0 or more as "
                  + what
                  + ", and refuses the view at its first refresh ("
                  + refusal
                  + ")",
              hint(refusal, what)));
    }
    return out;
  }

  /**
   * Words after which an operand or a name follows, so a LIMIT there is a column's name ({@code
   * ORDER BY limit DESC}); the clause follows what ends one (a name, a literal, ')', DESC, ...).
   */
  private static final Set<String> BEFORE_AN_OPERAND =
      Set.of(
          "BY",
          "SELECT",
          "DISTINCT",
          "ALL",
          "AS",
          "ON",
          "WHERE",
          "AND",
          "OR",
          "NOT",
          "HAVING",
          "WHEN",
          "THEN",
          "ELSE",
          "IN",
          "IS",
          "LIKE",
          "ILIKE",
          "RLIKE",
          "BETWEEN",
          "CASE",
          "FROM",
          "JOIN",
          "USING",
          "OVER",
          "PARTITION",
          "EXISTS",
          "INTERVAL",
          "LIMIT",
          "OFFSET",
          "DIV");

  private static boolean endsAnOperand(SqlToken before) {
    if (before.kind() == SqlToken.Kind.SYMBOL) {
      return before.isSymbol(")");
    }
    return before.kind() != SqlToken.Kind.WORD || !BEFORE_AN_OPERAND.contains(before.upper());
  }

  /** Spark's error for the value {@code t[from, to)}, or null when it is none of the above. */
  private static String refusal(List<SqlToken> t, int from, int to) {
    int n = to - from;
    if (n <= 0) {
      return null;
    }
    SqlToken first = t.get(from);
    if (n == 1 && first.kind() == SqlToken.Kind.STRING) {
      return "[INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE]";
    }
    if (n == 1 && (first.isWord("NULL") || first.isWord("TRUE") || first.isWord("FALSE"))) {
      return "[INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE]";
    }
    if (n == 1 && first.isIdentifier() && !first.isWord("ALL")) {
      if (first.kind() == SqlToken.Kind.WORD
          && NonDeterministic.bareCall(first.text()).isPresent()) {
        return null; // current_date: a call, not a column
      }
      return "[INVALID_LIMIT_LIKE_EXPRESSION.IS_UNFOLDABLE], or [UNRESOLVED_COLUMN] where the"
          + " SELECT list does not have it";
    }
    boolean negative = first.isSymbol("-");
    int number = negative ? from + 1 : from;
    if (number >= to || t.get(number).kind() != SqlToken.Kind.NUMBER) {
      return null;
    }
    SqlToken digits = t.get(number);
    String suffix = "";
    if (number + 1 < to) {
      SqlToken next = t.get(number + 1);
      if (number + 2 != to
          || next.kind() != SqlToken.Kind.WORD
          || next.start() != digits.end()
          || !SUFFIXES.contains(next.upper())) {
        return null;
      }
      suffix = next.upper();
    }
    if (!suffix.isEmpty() || !digits.text().chars().allMatch(Character::isDigit)) {
      return "[INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE]";
    }
    String plain = digits.text().replaceFirst("^0+(?=.)", "");
    // Spark types an integer literal beyond INT's range as BIGINT.
    boolean inRange =
        plain.length() < 10
            || plain.length() == 10 && plain.compareTo(negative ? "2147483648" : "2147483647") <= 0;
    if (!inRange) {
      return "[INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE]";
    }
    return negative && !plain.equals("0") ? "[INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE]" : null;
  }

  private static String hint(String refusal, String clause) {
    if (refusal.contains("IS_NEGATIVE")) {
      return clause.equals("LIMIT")
          ? "write 0 or more; to keep every row, remove the LIMIT"
          : "write 0 or more; to skip no row, remove the OFFSET";
    }
    if (refusal.contains("DATA_TYPE")) {
      return "write an integer literal of type INT: no decimals, quotes or suffix, at most"
          + " 2147483647 ("
          + clause
          + " 10)";
    }
    return "write a constant integer; to keep the first rows of each group, filter on"
        + " row_number() OVER (PARTITION BY ... ORDER BY ...) in an outer query";
  }
}
