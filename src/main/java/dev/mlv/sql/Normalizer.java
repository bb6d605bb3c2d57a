package dev.mlv.sql;

import java.util.Locale;

/**
 * The normalised text of SQL: comments dropped, whitespace collapsed to single spaces, and
 * everything outside string literals lower-cased (Spark identifiers and keywords are
 * case-insensitive). Two definitions that differ only in formatting normalise to the same text, so
 * their fingerprints match and {@code plan} shows no change.
 */
public final class Normalizer {
  private Normalizer() {}

  public static String normalize(String sql) {
    StringBuilder sb = new StringBuilder();
    Token prev = null;
    for (Token t : Lexer.tokenize(sql)) {
      if (t.isTrivia()) {
        continue;
      }
      if (t.isSymbol(";")) {
        continue;
      }
      if (prev != null && needsSpace(prev, t)) {
        sb.append(' ');
      }
      sb.append(render(t));
      prev = t;
    }
    return sb.toString();
  }

  private static String render(Token t) {
    return switch (t.kind()) {
      case STRING, UNTERMINATED -> t.text();
      case QUOTED_IDENT -> {
        String id = t.identifier().toLowerCase(Locale.ROOT);
        yield id.matches("[a-z_][a-z0-9_]*") ? id : "`" + id.replace("`", "``") + "`";
      }
      default -> t.lower();
    };
  }

  /** Spaces only between two word-like tokens, so {@code a , b} and {@code a,b} agree. */
  private static boolean needsSpace(Token a, Token b) {
    return wordLike(a) && wordLike(b);
  }

  private static boolean wordLike(Token t) {
    return t.kind() != Token.Kind.SYMBOL;
  }
}
