package dev.mlv.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits Spark SQL into tokens, aware of the places where a {@code ;}, a quote or a keyword does
 * not mean what it seems: strings with backslash escapes and doubled quotes, backticked
 * identifiers, line comments and nested block comments. It never fails; an unterminated construct
 * becomes an {@link Token.Kind#UNTERMINATED} token that callers report.
 */
final class Lexer {
  /** Symbols of more than one character; {@code >>} is deliberately absent (nested types). */
  private static final List<String> LONG_SYMBOLS =
      List.of("<=>", "::", "->", "=>", "==", "!=", "<>", "<=", ">=", "||", "&&");

  private Lexer() {}

  /**
   * Whether a character outside the BMP (an emoji, a rare ideograph) starts at {@code i}: read as
   * part of a name, as é is, so that both halves of its surrogate pair stay together and it is
   * reported as a name Spark reads only between backticks.
   */
  private static boolean supplementary(String s, int i) {
    return Character.isHighSurrogate(s.charAt(i))
        && i + 1 < s.length()
        && Character.isLowSurrogate(s.charAt(i + 1));
  }

  /** Digits, a fraction and an exponent; Spark's type suffixes (1L, 2.5BD) are separate words. */
  private static int endOfNumber(String sql, int i) {
    int n = sql.length();
    int j = i;
    while (j < n && (Character.isDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
      j++;
    }
    if (j < n && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
      int k = j + 1;
      if (k < n && (sql.charAt(k) == '+' || sql.charAt(k) == '-')) {
        k++;
      }
      if (k < n && Character.isDigit(sql.charAt(k))) {
        j = k;
        while (j < n && Character.isDigit(sql.charAt(j))) {
          j++;
        }
      }
    }
    return j;
  }

  static List<Token> tokenize(String s) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      int start = i;
      Token.Kind kind;
      if (Character.isWhitespace(c)) {
        while (i < n && Character.isWhitespace(s.charAt(i))) {
          i++;
        }
        kind = Token.Kind.WHITESPACE;
      } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
        // As Spark's SIMPLE_COMMENT: it ends at a line feed or a carriage return (a file with
        // old Mac line ends), and a backslash right before a line feed carries it on.
        i += 2;
        while (i < n && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
          i += s.charAt(i) == '\\' && i + 1 < n && s.charAt(i + 1) == '\n' ? 2 : 1;
        }
        kind = Token.Kind.COMMENT;
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        // Spark's grammar allows nested bracketed comments.
        int depth = 0;
        kind = Token.Kind.UNTERMINATED;
        while (i < n) {
          if (s.startsWith("/*", i)) {
            depth++;
            i += 2;
          } else if (s.startsWith("*/", i)) {
            depth--;
            i += 2;
            if (depth == 0) {
              kind = Token.Kind.COMMENT;
              break;
            }
          } else {
            i++;
          }
        }
      } else if ((c == 'r' || c == 'R')
          && i + 1 < n
          && (s.charAt(i + 1) == '\'' || s.charAt(i + 1) == '"')) {
        // Spark's raw string r'...': no escapes, it ends at the next quote of its kind.
        char quote = s.charAt(i + 1);
        int close = s.indexOf(quote, i + 2);
        i = close < 0 ? n : close + 1;
        kind = close < 0 ? Token.Kind.UNTERMINATED : Token.Kind.STRING;
      } else if (c == '\'' || c == '"') {
        // As in Spark's lexer: a backslash escapes, and a doubled quote ends this literal and
        // starts the next one ('a''b' is 'a' 'b', which Spark concatenates).
        i++;
        kind = Token.Kind.UNTERMINATED;
        while (i < n) {
          char d = s.charAt(i);
          if (d == '\\') {
            i += 2;
          } else if (d == c) {
            i++;
            kind = Token.Kind.STRING;
            break;
          } else {
            i++;
          }
        }
        i = Math.min(i, n);
      } else if (c == '`') {
        i++;
        kind = Token.Kind.UNTERMINATED;
        while (i < n) {
          if (s.charAt(i) == '`') {
            if (i + 1 < n && s.charAt(i + 1) == '`') {
              i += 2;
            } else {
              i++;
              kind = Token.Kind.QUOTED_IDENT;
              break;
            }
          } else {
            i++;
          }
        }
      } else if (Character.isLetter(c) || c == '_' || c == '$' || supplementary(s, i)) {
        while (i < n) {
          if (supplementary(s, i)) {
            i += 2;
          } else if (Character.isLetterOrDigit(s.charAt(i))
              || s.charAt(i) == '_'
              || s.charAt(i) == '$') {
            i++;
          } else {
            break;
          }
        }
        kind = Token.Kind.WORD;
      } else if (Character.isDigit(c)
          || (c == '.' && i + 1 < n && Character.isDigit(s.charAt(i + 1)))) {
        i = endOfNumber(s, i);
        kind = Token.Kind.NUMBER;
      } else {
        int length = 1;
        for (String symbol : LONG_SYMBOLS) {
          if (s.startsWith(symbol, i)) {
            length = symbol.length();
            break;
          }
        }
        i += length;
        kind = Token.Kind.SYMBOL;
      }
      out.add(new Token(kind, s.substring(start, i), start));
    }
    return out;
  }
}
