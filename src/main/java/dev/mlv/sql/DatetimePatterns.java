package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A constant datetime pattern with a week-based letter ({@code Y}, {@code w}, {@code W}, {@code u},
 * {@code e}, {@code c}), which Spark 3 and later refuse in the functions that format or parse
 * dates: {@code date_format(d, 'YYYY-MM')} passed validate, and Spark 4.1.1 refused the view when
 * it ran, over an empty source too, as it builds the formatter before reading a row. Found on
 * tokens, so it holds whichever parser read the SELECT.
 */
public final class DatetimePatterns {
  public static final String RULE = "DATETIME_PATTERN";

  /**
   * The functions whose second argument is a datetime pattern, each measured on Spark 4.1.1 with
   * 'YYYY-MM-dd' (to_timestamp_ntz refuses it with another error, and is left to Spark).
   */
  private static final Set<String> FUNCTIONS =
      Set.of(
          "date_format",
          "to_date",
          "try_to_date",
          "to_timestamp",
          "try_to_timestamp",
          "unix_timestamp",
          "to_unix_timestamp",
          "from_unixtime");

  /** Spark's week-based pattern letters, refused since Spark 3.0. */
  private static final String WEEK_BASED = "YwWuec";

  /**
   * The letters Java's SimpleDateFormat (Spark 2's formatter) knows: Spark names a pattern it reads
   * DATETIME_PATTERN_RECOGNITION (it would have run on Spark 2), any other DATETIME_WEEK_BASED_
   * PATTERN (measured: 'YYYY-MM' and 'u' the one, 'e', 'c' and 'YYYY-QQ' the other).
   */
  private static final String SPARK2_LETTERS = "GyYMLwWDdFEuaHkKhmsSzZX";

  private DatetimePatterns() {}

  /** The findings in {@code sql}, a view's SELECT whose first character is at {@code start}. */
  public static List<Diagnostic> check(String sql, Position start) {
    List<SqlToken> t = SqlToken.tokenize(sql);
    List<Diagnostic> out = new ArrayList<>();
    for (int i = 0; i + 5 < t.size(); i++) {
      SqlToken name = t.get(i);
      if (name.kind() != SqlToken.Kind.WORD
          || !FUNCTIONS.contains(name.text().toLowerCase(Locale.ROOT))
          || !t.get(i + 1).isSymbol("(")
          || i > 0 && t.get(i - 1).isSymbol(".")) {
        continue;
      }
      // The second argument: the token after the first comma at the call's own depth.
      int depth = 0;
      int comma = -1;
      for (int j = i + 2; j < t.size() && comma < 0; j++) {
        SqlToken u = t.get(j);
        if (u.isSymbol("(")) {
          depth++;
        } else if (u.isSymbol(")")) {
          if (depth-- == 0) {
            break;
          }
        } else if (depth == 0 && u.isSymbol(",")) {
          comma = j;
        }
      }
      if (comma < 0 || comma + 2 >= t.size()) {
        continue;
      }
      SqlToken literal = t.get(comma + 1);
      if (literal.kind() != SqlToken.Kind.STRING || !t.get(comma + 2).isSymbol(")")) {
        continue;
      }
      String pattern = value(literal.text());
      if (pattern == null) {
        continue;
      }
      char letter = weekBased(pattern);
      if (letter == 0) {
        continue;
      }
      out.add(
          Diagnostic.error(
              RULE,
              start.advance(sql, literal.start()),
              name.text().toLowerCase(Locale.ROOT)
                  + "'s pattern "
                  + literal.text()
                  + " has the week-based letter "
                  + letter
                  + ", which Spark 3 and later refuse in a datetime pattern: Spark refuses the"
                  + " view when it runs ([INCONSISTENT_BEHAVIOR_CROSS_VERSION."
                  + (spark2Reads(pattern)
                      ? "DATETIME_PATTERN_RECOGNITION"
                      : "DATETIME_WEEK_BASED_PATTERN")
                  + "])",
              hint(letter)));
    }
    return out;
  }

  private static String hint(char letter) {
    return switch (letter) {
      case 'Y' -> "write 'yyyy': 'yyyy' is the calendar year, 'YYYY' was the week-based year";
      case 'w', 'W' ->
          "compute the week with weekofyear(d) or extract(WEEK FROM d), and concat it to a"
              + " pattern without week letters";
      default -> "write 'E' for the day of the week's name, or use dayofweek(d) for its number";
    };
  }

  /**
   * The string a literal token holds; null when backslash escapes or a raw string leave it to
   * Spark.
   */
  private static String value(String text) {
    if (text.length() < 2 || text.indexOf('\\') >= 0 || Token.isRawString(text)) {
      return null;
    }
    char quote = text.charAt(0);
    if ((quote != '\'' && quote != '"') || text.charAt(text.length() - 1) != quote) {
      return null;
    }
    String q = String.valueOf(quote);
    return text.substring(1, text.length() - 1).replace(q + q, q);
  }

  /**
   * The first week-based letter outside the pattern's quoted text ('...' in a pattern is text; a
   * doubled quote is a quote), or 0 for none.
   */
  static char weekBased(String pattern) {
    boolean text = false;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\'') {
        text = !text;
      } else if (!text && WEEK_BASED.indexOf(c) >= 0) {
        return c;
      }
    }
    return 0;
  }

  /** Whether every letter outside the pattern's quoted text is one Spark 2's formatter knows. */
  private static boolean spark2Reads(String pattern) {
    boolean text = false;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\'') {
        text = !text;
      } else if (!text
          && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
          && SPARK2_LETTERS.indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }
}
