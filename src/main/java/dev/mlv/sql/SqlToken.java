package dev.mlv.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One lexical token of Spark SQL text, as far as rewriting and name splitting need: words,
 * backticked identifiers, string literals, numbers and symbols, with their character range.
 * Comments and whitespace are never tokens, so code that walks tokens cannot touch them.
 */
record SqlToken(Kind kind, int start, int end, String text) {

  enum Kind {
    WORD,
    QUOTED_IDENTIFIER,
    STRING,
    NUMBER,
    SYMBOL
  }

  /** Symbols of more than one character; {@code >>} is deliberately absent (nested types). */
  private static final List<String> LONG_SYMBOLS =
      List.of("<=>", "::", "->", "=>", "==", "!=", "<>", "<=", ">=", "||", "&&");

  boolean isWord(String word) {
    return kind == Kind.WORD && text.equalsIgnoreCase(word);
  }

  boolean isSymbol(String symbol) {
    return kind == Kind.SYMBOL && text.equals(symbol);
  }

  boolean isIdentifier() {
    return kind == Kind.WORD || kind == Kind.QUOTED_IDENTIFIER;
  }

  String upper() {
    return text.toUpperCase(Locale.ROOT);
  }

  /** The identifier's value: backticks removed and doubled backticks collapsed. */
  String identifierValue() {
    if (kind != Kind.QUOTED_IDENTIFIER) {
      return text;
    }
    return text.substring(1, text.length() - 1).replace("``", "`");
  }

  /**
   * Tokens of {@code sql}. Unterminated strings, identifiers and comments run to the end of the
   * text: the parser reports them, the lexer only has to stay out of their content.
   */
  static List<SqlToken> tokenize(String sql) {
    List<SqlToken> tokens = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        i = endOfLineComment(sql, i);
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        i = endOfBlockComment(sql, i);
      } else if (c == '\'' || c == '"') {
        int end = endOfString(sql, i, c);
        tokens.add(new SqlToken(Kind.STRING, i, end, sql.substring(i, end)));
        i = end;
      } else if (c == '`') {
        int end = endOfQuotedIdentifier(sql, i);
        tokens.add(new SqlToken(Kind.QUOTED_IDENTIFIER, i, end, sql.substring(i, end)));
        i = end;
      } else if (Character.isDigit(c)
          || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
        int end = endOfNumber(sql, i);
        tokens.add(new SqlToken(Kind.NUMBER, i, end, sql.substring(i, end)));
        i = end;
      } else if (Character.isLetter(c) || c == '_' || c == '$') {
        int end = i + 1;
        while (end < n && isWordPart(sql.charAt(end))) {
          end++;
        }
        tokens.add(new SqlToken(Kind.WORD, i, end, sql.substring(i, end)));
        i = end;
      } else {
        int length = 1;
        for (String symbol : LONG_SYMBOLS) {
          if (sql.startsWith(symbol, i)) {
            length = symbol.length();
            break;
          }
        }
        tokens.add(new SqlToken(Kind.SYMBOL, i, i + length, sql.substring(i, i + length)));
        i += length;
      }
    }
    return tokens;
  }

  static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private static int endOfLineComment(String sql, int i) {
    int end = sql.indexOf('\n', i);
    return end < 0 ? sql.length() : end;
  }

  private static int endOfBlockComment(String sql, int i) {
    int end = sql.indexOf("*/", i + 2);
    return end < 0 ? sql.length() : end + 2;
  }

  /** Spark strings escape with a backslash; a doubled quote ends one literal and starts another. */
  private static int endOfString(String sql, int i, char quote) {
    int j = i + 1;
    while (j < sql.length()) {
      char c = sql.charAt(j);
      if (c == '\\') {
        j += 2;
      } else if (c == quote) {
        return j + 1;
      } else {
        j++;
      }
    }
    return sql.length();
  }

  private static int endOfQuotedIdentifier(String sql, int i) {
    int j = i + 1;
    while (j < sql.length()) {
      if (sql.charAt(j) == '`') {
        if (j + 1 < sql.length() && sql.charAt(j + 1) == '`') {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return sql.length();
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
}
