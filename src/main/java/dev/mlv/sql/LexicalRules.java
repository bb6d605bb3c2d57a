package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What Spark's parser refuses in a statement's tokens, comments included, that Calcite reads as
 * something else or not at all, so the analysis never sees it: a hint that does not follow SELECT
 * (Calcite and mlv read it as a comment), a parameter marker, which nothing binds in a view, and a
 * numeric literal out of its type's range (Calcite reads 128Y as 128, 1e400D as a number).
 */
final class LexicalRules {

  /** A type a Spark numeric literal's spelling makes, and the range Spark's parser allows it. */
  private record Range(String type, BigDecimal min, BigDecimal max) {}

  /** Suffixes that take digits only (1.5Y is no literal). */
  private static final Map<String, Range> INTEGRALS =
      Map.of(
          "Y", range("TINYINT", Byte.MIN_VALUE, Byte.MAX_VALUE),
          "S", range("SMALLINT", Short.MIN_VALUE, Short.MAX_VALUE),
          "L", range("BIGINT", Long.MIN_VALUE, Long.MAX_VALUE));

  /**
   * A DOUBLE: suffix D, or an exponent and no suffix (1e400), unless the legacy
   * exponentLiteralAsDecimal is set. Spark compares the literal with Double.MaxValue as a decimal.
   */
  private static final Range DOUBLE =
      new Range(
          "DOUBLE", BigDecimal.valueOf(-Double.MAX_VALUE), BigDecimal.valueOf(Double.MAX_VALUE));

  /** Spark's bounds for F are Float.MaxValue widened to a double, so 3.4028235e38F is beyond. */
  private static final Range FLOAT =
      new Range(
          "FLOAT",
          BigDecimal.valueOf(-(double) Float.MAX_VALUE),
          BigDecimal.valueOf((double) Float.MAX_VALUE));

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

  private static Range range(String type, long min, long max) {
    return new Range(type, BigDecimal.valueOf(min), BigDecimal.valueOf(max));
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
    if (range(tokens, i).isPresent()) {
      return outOfRange(start, text, tokens, i);
    }
    if (t.kind() == Token.Kind.NUMBER || t.kind() == Token.Kind.STRING) {
      return fractionalInterval(start, text, tokens, i);
    }
    return Optional.empty();
  }

  /**
   * The units an interval literal takes no fraction of (Spark takes one of seconds only), each with
   * the next smaller unit and how many of it make one, for the hint; MONTH and MICROSECOND have
   * none.
   */
  private static final Map<String, Map.Entry<String, Integer>> WHOLE_UNITS =
      Map.of(
          "YEAR", Map.entry("MONTHS", 12),
          "MONTH", Map.entry("", 0),
          "WEEK", Map.entry("DAYS", 7),
          "DAY", Map.entry("HOURS", 24),
          "HOUR", Map.entry("MINUTES", 60),
          "MINUTE", Map.entry("SECONDS", 60),
          "MILLISECOND", Map.entry("MICROSECONDS", 1000),
          "MICROSECOND", Map.entry("", 0));

  private static final java.util.regex.Pattern FRACTION =
      java.util.regex.Pattern.compile("[+-]?(\\d+\\.\\d*|\\.\\d+)");

  /** In a string literal: a fractional number and a unit, {@code '1.5 days'}. */
  private static final java.util.regex.Pattern FRACTION_IN_TEXT =
      java.util.regex.Pattern.compile(
          "(?i)(?<![\\w.])([+-]?(?:\\d+\\.\\d*|\\.\\d+))\\s*(years?|months?|weeks?|days?|hours?"
              + "|minutes?|milliseconds?|microseconds?)\\b");

  /**
   * {@code INTERVAL 1.5 DAYS}, {@code INTERVAL 1 DAY 2.5 HOURS}, {@code INTERVAL '1.5 days'}: a
   * fraction of a unit other than seconds, which Spark 4.1.1 refuses as it parses the view
   * ([INVALID_INTERVAL_FORMAT.INVALID_FRACTION], for the string form [INVALID_TYPED_LITERAL];
   * measured), and Calcite reads without a word.
   */
  private static Optional<Diagnostic> fractionalInterval(
      Position start, String text, List<Token> tokens, int i) {
    Token t = tokens.get(i);
    String value =
        t.kind() == Token.Kind.STRING
            ? t.text().substring(1, t.text().length() - 1).strip()
            : t.text();
    Token unit = token(tokens, after(tokens, i));
    boolean unitAfter =
        unit != null
            && unit.kind() == Token.Kind.WORD
            && CertainTypes.UNITS.containsKey(unit.text().toUpperCase(Locale.ROOT));
    if (!unitAfter) {
      // INTERVAL '1.5 days': the units are inside the string.
      Token interval = token(tokens, before(tokens, i));
      java.util.regex.Matcher m = FRACTION_IN_TEXT.matcher(value);
      if (t.kind() != Token.Kind.STRING
          || interval == null
          || !interval.isWord("INTERVAL")
          || !m.find()) {
        return Optional.empty();
      }
      return Optional.of(
          fraction(
              start, text, t.offset(), t.text(), m.group(1), m.group(2), "INVALID_TYPED_LITERAL"));
    }
    Token next = token(tokens, after(tokens, after(tokens, i)));
    if (!FRACTION.matcher(value).matches()
        || !WHOLE_UNITS.containsKey(unit.text().toUpperCase(Locale.ROOT).replaceAll("S$", ""))
        || (next != null && next.isWord("TO"))) {
      return Optional.empty();
    }
    // Back over the literal's earlier number-unit pairs to its INTERVAL.
    int b = before(tokens, i);
    int from = t.offset();
    while (true) {
      Token w = token(tokens, b);
      if (w != null && (w.isSymbol("-") || w.isSymbol("+")) && b == before(tokens, i)) {
        from = w.offset();
        b = before(tokens, b);
        continue;
      }
      if (w == null || w.kind() != Token.Kind.WORD) {
        return Optional.empty();
      }
      if (w.isWord("INTERVAL")) {
        break;
      }
      Token n = token(tokens, before(tokens, b));
      if (!CertainTypes.UNITS.containsKey(w.text().toUpperCase(Locale.ROOT))
          || n == null
          || !(n.kind() == Token.Kind.NUMBER || n.kind() == Token.Kind.STRING)) {
        return Optional.empty();
      }
      b = before(tokens, before(tokens, b));
      Token sign = token(tokens, b);
      if (sign != null && (sign.isSymbol("-") || sign.isSymbol("+"))) {
        b = before(tokens, b);
      }
    }
    String written = text.substring(from, unit.offset() + unit.text().length());
    value = text.substring(from, t.offset()).strip() + value; // with its sign: -2.5
    return Optional.of(
        fraction(
            start,
            text,
            from,
            written,
            value,
            unit.text(),
            "INVALID_INTERVAL_FORMAT.INVALID_FRACTION"));
  }

  private static Diagnostic fraction(
      Position start,
      String text,
      int at,
      String written,
      String number,
      String unitText,
      String sparkError) {
    String unit = unitText.toUpperCase(Locale.ROOT).replaceAll("S$", "");
    Map.Entry<String, Integer> smaller = WHOLE_UNITS.get(unit);
    String hint = "write whole units, or a fraction of seconds (INTERVAL 90.5 SECONDS)";
    if (smaller != null && smaller.getValue() > 0) {
      BigDecimal scaled = new BigDecimal(number).multiply(BigDecimal.valueOf(smaller.getValue()));
      if (scaled.stripTrailingZeros().scale() <= 0) {
        hint =
            "write it in a smaller unit: "
                + scaled.setScale(0, java.math.RoundingMode.UNNECESSARY).toPlainString()
                + " "
                + smaller.getKey();
      }
    }
    return Diagnostic.error(
        TableExtractor.PARSE_RULE,
        start.advance(text, at),
        written
            + " has a fraction of "
            + (unit.equals("HOUR") ? "an " : "a ")
            + unit.toLowerCase(Locale.ROOT)
            + ": Spark takes a fraction only of seconds in an interval, and refuses it (["
            + sparkError
            + "])",
        hint);
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
   * Where the literal at token {@code i} (its number, then any suffix) starts, its sign included,
   * when its value is beyond the range of the type it makes; else -1.
   */
  private static int beyondRange(List<Token> tokens, int i) {
    Token digits = tokens.get(i);
    Range type = range(tokens, i).orElseThrow();
    BigDecimal value;
    try {
      value = new BigDecimal(digits.text());
    } catch (NumberFormatException e) {
      return -1; // 1.2.3: no literal, Spark's parser says what it is
    }
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
   * {@code sql} with each literal beyond its type's range made one in range, at the same length:
   * 128Y reads as the INT 128, 1e400D as 1D, 1e400 as 1e0. Spark's parser refuses the whole text at
   * such a literal, which {@link #at} already reports; what the rest of the text holds is still
   * worth reading.
   */
  static String withLiteralsInRange(String sql) {
    List<Token> tokens = Lexer.tokenize(sql);
    StringBuilder out = new StringBuilder(sql);
    for (int i = 0; i < tokens.size(); i++) {
      Optional<Range> type = range(tokens, i);
      if (type.isEmpty() || beyondRange(tokens, i) < 0) {
        continue;
      }
      Token number = tokens.get(i);
      if (INTEGRALS.containsValue(type.get())) {
        out.setCharAt(tokens.get(i + 1).offset(), ' ');
      } else {
        boolean suffixed = suffix(tokens, i).isPresent();
        int end = suffixed ? tokens.get(i + 1).end() : number.end();
        String inRange = suffixed ? "1" + tokens.get(i + 1).text() : "1e0";
        out.replace(
            number.offset(), end, inRange + " ".repeat(end - number.offset() - inRange.length()));
      }
    }
    return out.toString();
  }

  /** The word right after the number at token {@code i}, with no blank between: its suffix. */
  private static Optional<String> suffix(List<Token> tokens, int i) {
    return i + 1 < tokens.size()
            && tokens.get(i + 1).kind() == Token.Kind.WORD
            && tokens.get(i + 1).offset() == tokens.get(i).end()
        ? Optional.of(tokens.get(i + 1).text().toUpperCase(Locale.ROOT))
        : Optional.empty();
  }

  /**
   * The type whose range Spark's parser checks for the number at token {@code i}, by its spelling:
   * 1Y, 1S, 1L, 1.5F, 1.5D, 1e5; none for an INT, a DECIMAL (1.5, 1BD) or no number.
   */
  private static Optional<Range> range(List<Token> tokens, int i) {
    Token t = tokens.get(i);
    if (t.kind() != Token.Kind.NUMBER) {
      return Optional.empty();
    }
    Optional<String> suffix = suffix(tokens, i);
    if (suffix.isEmpty()) {
      return t.text().chars().anyMatch(c -> c == 'e' || c == 'E')
          ? Optional.of(DOUBLE)
          : Optional.empty();
    }
    return switch (suffix.get()) {
      case "D" -> Optional.of(DOUBLE);
      case "F" -> Optional.of(FLOAT);
      default ->
          t.text().chars().allMatch(Character::isDigit)
              ? Optional.ofNullable(INTEGRALS.get(suffix.get()))
              : Optional.empty();
    };
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

  /** A literal ({@code 128Y}, {@code 1e400D}, with a sign before it) beyond its type's range. */
  private static Optional<Diagnostic> outOfRange(
      Position start, String text, List<Token> tokens, int i) {
    Range type = range(tokens, i).orElseThrow();
    int at = beyondRange(tokens, i);
    if (at < 0) {
      return Optional.empty();
    }
    Optional<String> suffix = suffix(tokens, i);
    int end = suffix.isPresent() ? tokens.get(i + 1).end() : tokens.get(i).end();
    return Optional.of(
        Diagnostic.error(
            TableExtractor.PARSE_RULE,
            start.advance(text, at),
            "the literal "
                + text.substring(at, end)
                + " is outside the range of "
                + type.type()
                + " ("
                + type.min()
                + " to "
                + type.max()
                + "): Spark refuses it ([INVALID_NUMERIC_LITERAL_RANGE])",
            hint(
                type,
                new BigDecimal(tokens.get(i).text()),
                at < tokens.get(i).offset(),
                suffix.isPresent() ? tokens.get(i + 1).text() : "")));
  }

  /**
   * {@code magnitude}: the number without its sign, {@code negative}: whether a minus is its sign.
   */
  private static String hint(Range type, BigDecimal magnitude, boolean negative, String suffix) {
    if (type == FLOAT && magnitude.compareTo(DOUBLE.max()) <= 0) {
      return "write it with D, a DOUBLE (up to " + DOUBLE.max() + ")";
    }
    if (type != FLOAT && type != DOUBLE) {
      return suffix.equalsIgnoreCase("L")
          ? "write it without the L (a DECIMAL), or with BD"
          : "write it without the " + suffix + " (an INT), or with S or L";
    }
    return "no DOUBLE is further from 0; for infinity write CAST('"
        + (negative ? "-" : "")
        + "Infinity' AS DOUBLE)";
  }
}
