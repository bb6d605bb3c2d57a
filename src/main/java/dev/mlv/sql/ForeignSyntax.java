package dev.mlv.sql;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * SQL that Calcite's Babel parser accepts from other dialects but Spark 4.1 (Fabric Runtime 2.0)
 * rejects. Calcite is mlv's first parser, so without this check such a view passes {@code mlv
 * validate} and fails only when {@code apply} runs it. Found on tokens, so strings, quoted names
 * and comments never match.
 */
final class ForeignSyntax {

  /** One construct Spark does not parse: where it starts, what it is, and the Spark spelling. */
  record Finding(int offset, String construct, String hint) {}

  private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");

  private ForeignSyntax() {}

  /** The first construct of a SELECT, given as its tokens, that Spark would refuse to parse. */
  static Optional<Finding> find(List<SqlToken> t) {
    for (int i = 0; i < t.size(); i++) {
      Optional<Finding> f = at(t, i);
      if (f.isPresent()) {
        return f;
      }
    }
    return Optional.empty();
  }

  private static Optional<Finding> at(List<SqlToken> t, int i) {
    SqlToken token = t.get(i);
    int at = token.start();
    if (token.isWord("QUALIFY") && clauseKeyword(t, i)) {
      return found(
          at,
          "QUALIFY",
          "filter on the window function's result in an outer SELECT (or a CTE) instead");
    }
    if (token.kind() == SqlToken.Kind.STRING
        && token.text().startsWith("\"")
        && (symbol(t, i + 1, ".")
            || symbol(t, i - 1, ".")
            || word(t, i - 1, "FROM")
            || word(t, i - 1, "JOIN"))) {
      return found(
          at,
          "a double-quoted name (" + token.text() + ")",
          "Spark reads \"...\" as a string: quote names with backticks, `like this`");
    }
    if (token.isWord("FETCH") && (word(t, i + 1, "FIRST") || word(t, i + 1, "NEXT"))) {
      return found(at, "FETCH FIRST ... ROWS ONLY", "write LIMIT n");
    }
    if (token.isWord("OFFSET")
        && kind(t, i + 1, SqlToken.Kind.NUMBER)
        && (word(t, i + 2, "ROWS") || word(t, i + 2, "ROW"))) {
      return found(at, "OFFSET n ROWS", "write OFFSET n, without ROWS");
    }
    if (token.isWord("LIMIT")
        && kind(t, i + 1, SqlToken.Kind.NUMBER)
        && symbol(t, i + 2, ",")
        && kind(t, i + 3, SqlToken.Kind.NUMBER)) {
      return found(at, "LIMIT offset, count", "write LIMIT count OFFSET offset");
    }
    if (token.isWord("ARRAY") && symbol(t, i + 1, "[")) {
      return found(at, "ARRAY[...]", "write array(...)");
    }
    if (token.isWord("SIMILAR") && word(t, i + 1, "TO")) {
      return found(at, "SIMILAR TO", "write RLIKE with a regular expression");
    }
    if ((token.isWord("CROSS") || token.isWord("OUTER")) && word(t, i + 1, "APPLY")) {
      return found(
          at, token.upper() + " APPLY", "write a LATERAL subquery or LATERAL VIEW explode(...)");
    }
    if (token.isWord("UNNEST") && symbol(t, i + 1, "(")) {
      return found(at, "UNNEST(...)", "write LATERAL VIEW explode(...) or explode(...) in FROM");
    }
    if (token.kind() == SqlToken.Kind.SYMBOL
        && COMPARISONS.contains(token.text())
        && (word(t, i + 1, "ANY") || word(t, i + 1, "SOME") || word(t, i + 1, "ALL"))
        && symbol(t, i + 2, "(")
        && (word(t, i + 3, "SELECT") || word(t, i + 3, "WITH"))) {
      return found(
          at,
          token.text() + " " + t.get(i + 1).upper() + " (subquery)",
          "write IN (subquery), or compare with MIN/MAX of the subquery");
    }
    if (token.isWord("TOP")
        && (word(t, i - 1, "SELECT") || word(t, i - 1, "DISTINCT"))
        && (kind(t, i + 1, SqlToken.Kind.NUMBER) || symbol(t, i + 1, "("))) {
      return found(at, "SELECT TOP n", "write LIMIT n at the end of the SELECT");
    }
    if (token.isSymbol("@")
        && i > 0
        && t.get(i - 1).isIdentifier()
        && i + 1 < t.size()
        && t.get(i + 1).text().matches("(?i)v\\d+|\\d{8,}")) {
      return found(
          at,
          "Delta's table@" + t.get(i + 1).text() + " time travel",
          "a materialized lake view reads its sources as they are: remove @" + t.get(i + 1).text());
    }
    if (token.isWord("TABLESAMPLE") && (word(t, i + 1, "SYSTEM") || word(t, i + 1, "BERNOULLI"))) {
      return found(at, "TABLESAMPLE " + t.get(i + 1).upper(), "write TABLESAMPLE (n PERCENT)");
    }
    return Optional.empty();
  }

  /**
   * QUALIFY is not a reserved word in Spark: it is the clause only after a FROM item or WHERE /
   * GROUP BY / HAVING / WINDOW text and before an expression, never as a column name.
   */
  private static boolean clauseKeyword(List<SqlToken> t, int i) {
    SqlToken before = i > 0 ? t.get(i - 1) : null;
    SqlToken after = i + 1 < t.size() ? t.get(i + 1) : null;
    if (before == null || after == null) {
      return false;
    }
    boolean afterName =
        before.isIdentifier() && !before.isWord("SELECT") && !before.isWord("DISTINCT")
            || before.isSymbol(")")
            || before.kind() == SqlToken.Kind.NUMBER
            || before.kind() == SqlToken.Kind.STRING;
    boolean beforeExpression =
        !(after.kind() == SqlToken.Kind.WORD
                && SparkSyntaxRewriter.CLAUSE_WORDS.contains(after.upper())
            || after.isSymbol(",")
            || after.isSymbol(")")
            || after.isSymbol(".")
            || after.isWord("FROM")
            || after.isWord("AS"));
    return afterName && beforeExpression;
  }

  private static Optional<Finding> found(int offset, String construct, String hint) {
    return Optional.of(new Finding(offset, construct, hint));
  }

  private static boolean word(List<SqlToken> t, int i, String word) {
    return i >= 0 && i < t.size() && t.get(i).isWord(word);
  }

  private static boolean symbol(List<SqlToken> t, int i, String symbol) {
    return i >= 0 && i < t.size() && t.get(i).isSymbol(symbol);
  }

  private static boolean kind(List<SqlToken> t, int i, SqlToken.Kind kind) {
    return i >= 0 && i < t.size() && t.get(i).kind() == kind;
  }
}
