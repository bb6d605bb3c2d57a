package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What Spark's parser refuses in a statement's tokens, comments included, that Calcite reads as
 * something else or not at all, so the analysis never sees it: a hint that does not follow SELECT
 * (Calcite and mlv read it as a comment), a parameter marker, which nothing binds in a view, and a
 * typed numeric literal out of its type's range (Calcite reads 128Y as 128).
 */
final class LexicalRules {

  /** Spark's integral literal suffixes, with the type each makes and its range. */
  private record Integral(String type, BigInteger min, BigInteger max) {}

  private static final Map<String, Integral> INTEGRALS =
      Map.of(
          "Y", integral("TINYINT", Byte.MIN_VALUE, Byte.MAX_VALUE),
          "S", integral("SMALLINT", Short.MIN_VALUE, Short.MAX_VALUE),
          "L", integral("BIGINT", Long.MIN_VALUE, Long.MAX_VALUE));

  /**
   * Symbols after which an expression starts, so {@code :name} there is a parameter marker (after a
   * name or {@code )} it is the variant path {@code v:a}, in a type {@code STRUCT<a: INT>} a
   * field's type) and {@code -} a sign.
   */
  private static final Set<String> OPERATORS =
      Set.of(
          "(", ",", "=", "==", "<>", "!=", "<", ">", "<=", ">=", "<=>", "+", "-", "*", "/", "%",
          "||", "&", "|", "^", "~", "!", "&&", "=>");

  /** Words after which an expression starts. */
  private static final Set<String> EXPRESSION_WORDS =
      Set.of(
          "SELECT",
          "WHERE",
          "AND",
          "OR",
          "NOT",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "ON",
          "BY",
          "HAVING",
          "LIMIT",
          "OFFSET",
          "IN",
          "BETWEEN",
          "LIKE",
          "ILIKE",
          "RLIKE",
          "REGEXP",
          "DISTINCT",
          "QUALIFY");

  private LexicalRules() {}

  private static Integral integral(String type, long min, long max) {
    return new Integral(type, BigInteger.valueOf(min), BigInteger.valueOf(max));
  }

  /** The error at token {@code i} of a file's tokens (trivia included), if there is one. */
  static Optional<Diagnostic> at(Position start, String text, List<Token> tokens, int i) {
    Token t = tokens.get(i);
    if (t.kind() == Token.Kind.COMMENT && t.text().startsWith("/*+")) {
      return misplacedHint(
          start, text, t, token(tokens, before(tokens, i)), token(tokens, after(tokens, i)));
    }
    if (t.isSymbol("?")
        || t.isSymbol(":")
            && i + 1 < tokens.size()
            && (tokens.get(i + 1).kind() == Token.Kind.WORD
                || tokens.get(i + 1).kind() == Token.Kind.QUOTED_IDENT)
            && startsExpression(token(tokens, before(tokens, i)))) {
      return Optional.of(parameter(start, text, tokens, i));
    }
    if (isTypedIntegral(tokens, i)) {
      return outOfRange(start, text, tokens, i);
    }
    return Optional.empty();
  }

  /** The index of the last token before {@code i} that is no comment or blank, or -1. */
  private static int before(List<Token> tokens, int i) {
    int j = i - 1;
    while (j >= 0 && tokens.get(j).isTrivia()) {
      j--;
    }
    return j;
  }

  /** The index of the first token after {@code i} that is no comment or blank, or -1. */
  private static int after(List<Token> tokens, int i) {
    int j = i + 1;
    while (j < tokens.size() && tokens.get(j).isTrivia()) {
      j++;
    }
    return j < tokens.size() ? j : -1;
  }

  private static Token token(List<Token> tokens, int i) {
    return i >= 0 ? tokens.get(i) : null;
  }

  private static boolean startsExpression(Token before) {
    return before != null
        && (before.kind() == Token.Kind.SYMBOL && OPERATORS.contains(before.text())
            || before.kind() == Token.Kind.WORD
                && EXPRESSION_WORDS.contains(before.text().toUpperCase(Locale.ROOT)));
  }

  /**
   * A hint anywhere but right after SELECT: Spark's lexer reads {@code /*+} as a hint wherever it
   * stands, and its parser takes one only there. One before or after all of a statement's tokens is
   * outside the statement's text, which is all that Spark is given.
   */
  private static Optional<Diagnostic> misplacedHint(
      Position start, String text, Token hint, Token before, Token after) {
    if (before == null
        || before.isWord("SELECT")
        || before.isSymbol(";")
        || after == null
        || after.isSymbol(";")) {
      return Optional.empty();
    }
    return Optional.of(
        Diagnostic.error(
            TableExtractor.PARSE_RULE,
            start.advance(text, hint.offset()),
            "syntax error at or near '/*+': Spark takes a hint only right after SELECT",
            "move it right after SELECT (SELECT /*+ BROADCAST(t) */ ...), or write /* ... */"
                + " for a comment"));
  }

  /**
   * Where the typed integral literal at token {@code i} (digits, then its suffix) starts, its sign
   * included, when its value is beyond its type's range; else -1.
   */
  private static int beyondRange(List<Token> tokens, int i) {
    Token digits = tokens.get(i);
    Integral type = INTEGRALS.get(tokens.get(i + 1).text().toUpperCase(Locale.ROOT));
    BigInteger value = new BigInteger(digits.text());
    int sign = before(tokens, i);
    int at = digits.offset();
    if (sign >= 0
        && tokens.get(sign).isSymbol("-")
        && startsExpression(token(tokens, before(tokens, sign)))) {
      // Spark's literal takes its sign: -128Y is a TINYINT.
      value = value.negate();
      at = tokens.get(sign).offset();
    }
    return value.compareTo(type.min()) >= 0 && value.compareTo(type.max()) <= 0 ? -1 : at;
  }

  /**
   * {@code sql} with the suffix of each typed literal beyond its type's range blanked, so that 128Y
   * reads as the INT 128. Spark's parser refuses the whole text at such a literal, which {@link
   * #at} already reports; what the rest of the text holds is still worth reading.
   */
  static String withLiteralsInRange(String sql) {
    List<Token> tokens = Lexer.tokenize(sql);
    StringBuilder out = new StringBuilder(sql);
    for (int i = 0; i + 1 < tokens.size(); i++) {
      if (isTypedIntegral(tokens, i) && beyondRange(tokens, i) >= 0) {
        Token suffix = tokens.get(i + 1);
        out.setCharAt(suffix.offset(), ' ');
      }
    }
    return out.toString();
  }

  private static boolean isTypedIntegral(List<Token> tokens, int i) {
    Token t = tokens.get(i);
    return t.kind() == Token.Kind.NUMBER
        && t.text().chars().allMatch(Character::isDigit)
        && i + 1 < tokens.size()
        && tokens.get(i + 1).kind() == Token.Kind.WORD
        && tokens.get(i + 1).offset() == t.end()
        && INTEGRALS.containsKey(tokens.get(i + 1).text().toUpperCase(Locale.ROOT));
  }

  /** {@code :name} or {@code ?}: Spark binds them only to the arguments of a spark.sql call. */
  private static Diagnostic parameter(Position start, String text, List<Token> tokens, int i) {
    String marker = tokens.get(i).isSymbol("?") ? "?" : ":" + tokens.get(i + 1).text();
    return Diagnostic.error(
        "SQL_PARAMETER",
        start.advance(text, tokens.get(i).offset()),
        "the parameter marker "
            + marker
            + " is never bound (a materialized lake view has no parameters, nor does mlv pass"
            + " any), so Spark refuses it ([UNBOUND_SQL_PARAMETER])",
        "write the value itself, or read it from a table");
  }

  /** A typed integral literal ({@code 128Y}, with a sign before it) beyond its type's range. */
  private static Optional<Diagnostic> outOfRange(
      Position start, String text, List<Token> tokens, int i) {
    Token suffix = tokens.get(i + 1);
    Integral type = INTEGRALS.get(suffix.text().toUpperCase(Locale.ROOT));
    int at = beyondRange(tokens, i);
    if (at < 0) {
      return Optional.empty();
    }
    return Optional.of(
        Diagnostic.error(
            TableExtractor.PARSE_RULE,
            start.advance(text, at),
            "the literal "
                + text.substring(at, suffix.end())
                + " is outside the range of "
                + type.type()
                + " ("
                + type.min()
                + " to "
                + type.max()
                + "): Spark refuses it ([INVALID_NUMERIC_LITERAL_RANGE])",
            suffix.text().equalsIgnoreCase("L")
                ? "write it without the L (a DECIMAL), or with BD"
                : "write it without the " + suffix.text() + " (an INT), or with S or L"));
  }
}
