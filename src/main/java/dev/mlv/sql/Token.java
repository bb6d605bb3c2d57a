package dev.mlv.sql;

import java.util.Locale;

/** One lexical unit of Spark SQL text, with its offset in the text it was read from. */
record Token(Kind kind, String text, int offset) {

  enum Kind {
    WORD,
    /** A backticked identifier; {@link #text} keeps the backticks. */
    QUOTED_IDENT,
    /** A '..' or ".." literal, quotes kept. */
    STRING,
    NUMBER,
    SYMBOL,
    COMMENT,
    WHITESPACE,
    /** An unterminated string, identifier or comment: the lexer's only error. */
    UNTERMINATED
  }

  int end() {
    return offset + text.length();
  }

  boolean isWord(String w) {
    return kind == Kind.WORD && text.equalsIgnoreCase(w);
  }

  boolean isSymbol(String s) {
    return kind == Kind.SYMBOL && text.equals(s);
  }

  boolean isTrivia() {
    return kind == Kind.COMMENT || kind == Kind.WHITESPACE;
  }

  /** The identifier this token names: backticks removed and doubled backticks undone. */
  String identifier() {
    if (kind == Kind.QUOTED_IDENT) {
      return text.substring(1, text.length() - 1).replace("``", "`");
    }
    return text;
  }

  /** The value of a string literal, with Spark's backslash escapes undone (none in r'...'). */
  String stringValue() {
    if (isRawString(text)) {
      return text.substring(2, text.length() - 1);
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < text.length() - 1; i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length() - 1) {
        char n = text.charAt(++i);
        sb.append(
            switch (n) {
              case 'n' -> '\n';
              case 't' -> '\t';
              case 'r' -> '\r';
              case '0' -> '\0';
              default -> n;
            });
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** Whether a string literal's text is a raw string: {@code r'...'} or {@code R"..."}. */
  static boolean isRawString(String text) {
    return text.length() >= 3 && (text.charAt(0) == 'r' || text.charAt(0) == 'R');
  }

  String lower() {
    return text.toLowerCase(Locale.ROOT);
  }
}
