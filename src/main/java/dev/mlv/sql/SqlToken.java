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
   * The index of the nearest token at or before {@code from}, at that token's parenthesis depth,
   * that {@code stop} accepts; -1 when a '(' opened before it (the scan left its parentheses) or
   * none does. Tokens inside parentheses closed in between are passed over.
   */
  static int nearestBefore(
      List<SqlToken> tokens, int from, java.util.function.Predicate<SqlToken> stop) {
    int depth = 0;
    for (int j = from; j >= 0; j--) {
      SqlToken t = tokens.get(j);
      if (t.isSymbol(")")) {
        depth++;
      } else if (t.isSymbol("(")) {
        if (depth == 0) {
          return -1;
        }
        depth--;
      } else if (depth == 0 && stop.test(t)) {
        return j;
      }
    }
    return -1;
  }

  /** The index of the parenthesis in {@code tokens} that closes the one at {@code open}, or -1. */
  static int closingParen(List<SqlToken> tokens, int open) {
    int depth = 0;
    for (int j = open; j < tokens.size(); j++) {
      if (tokens.get(j).isSymbol("(")) {
        depth++;
      } else if (tokens.get(j).isSymbol(")") && --depth == 0) {
        return j;
      }
    }
    return -1;
  }

  /**
   * Tokens of {@code sql}, from the one lexer of the package with comments and whitespace left out.
   * Unterminated strings and identifiers run to the end of the text: the parser reports them, the
   * rewriter only has to stay out of their content.
   */
  static List<SqlToken> tokenize(String sql) {
    List<SqlToken> tokens = new ArrayList<>();
    for (Token t : Lexer.tokenize(sql)) {
      Kind kind =
          switch (t.kind()) {
            case WORD -> Kind.WORD;
            case QUOTED_IDENT -> Kind.QUOTED_IDENTIFIER;
            case STRING -> Kind.STRING;
            case NUMBER -> Kind.NUMBER;
            case SYMBOL -> Kind.SYMBOL;
            case UNTERMINATED ->
                t.text().startsWith("`")
                    ? Kind.QUOTED_IDENTIFIER
                    : t.text().startsWith("/*") ? null : Kind.STRING;
            case COMMENT, WHITESPACE -> null;
          };
      if (kind != null) {
        tokens.add(new SqlToken(kind, t.offset(), t.end(), t.text()));
      }
    }
    return tokens;
  }

  static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
