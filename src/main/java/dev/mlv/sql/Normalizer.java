package dev.mlv.sql;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The normalised text of SQL: comments dropped (not hints, which Spark reads), whitespace collapsed
 * to single spaces, and everything outside string literals lower-cased (Spark identifiers and
 * keywords are case-insensitive). Two definitions that differ only in formatting normalise to the
 * same text, so their fingerprints match and {@code plan} shows no change.
 *
 * <p>One exception: the identifier that names a select-list column keeps its case: an alias, with
 * or without {@code AS}, and the last part of a bare column reference ({@code a}, {@code t.a}).
 * Spark resolves names case-insensitively but names the column as the query writes it, and a table
 * keeps its column names as written, so {@code AS Total} instead of {@code AS total}, or {@code
 * SELECT Amount} instead of {@code SELECT amount}, changes the view's schema and must be applied.
 */
public final class Normalizer {
  private Normalizer() {}

  public static String normalize(String sql) {
    StringBuilder sb = new StringBuilder();
    Token prev = null;
    // Per parenthesis depth: inside a select list, and opened by CAST (where AS names a type).
    Deque<Boolean> selectList = new ArrayDeque<>(List.of(false));
    Deque<Boolean> castArgs = new ArrayDeque<>(List.of(false));
    // A hint (/*+ ... */) is read by Spark's planner, so it is part of the definition.
    List<Token> tokens =
        Lexer.tokenize(sql).stream()
            .filter(t -> (!t.isTrivia() || isHint(t)) && !t.isSymbol(";"))
            .toList();
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isWord("as") && selectList.peek() && !castArgs.peek() && namesItem(tokens, i + 1)) {
        // "expr AS alias" and "expr alias" are the same column: AS is formatting.
        continue;
      }
      if (prev != null && needsSpace(prev, t)) {
        sb.append(' ');
      }
      boolean names =
          selectList.peek()
              && !castArgs.peek()
              && (t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.QUOTED_IDENT)
              && ((prev != null && prev.isWord("as"))
                  || endsSelectItem(i + 1 < tokens.size() ? tokens.get(i + 1) : null)
                      && !NOT_NAMES.contains(t.lower()));
      sb.append(render(t, names));
      if (t.isSymbol("(")) {
        castArgs.push(prev != null && (prev.isWord("cast") || prev.isWord("try_cast")));
        selectList.push(false);
      } else if (t.isSymbol(")") && selectList.size() > 1) {
        castArgs.pop();
        selectList.pop();
      } else if (t.isWord("select")) {
        selectList.pop();
        selectList.push(true);
      } else if (t.kind() == Token.Kind.WORD && ENDS_SELECT_LIST.contains(t.lower())) {
        selectList.pop();
        selectList.push(false);
      }
      prev = t;
    }
    return sb.toString();
  }

  /** Whether token {@code i} is an identifier that ends its select item, so it names it. */
  private static boolean namesItem(List<Token> tokens, int i) {
    return i < tokens.size()
        && (tokens.get(i).kind() == Token.Kind.WORD
            || tokens.get(i).kind() == Token.Kind.QUOTED_IDENT)
        && endsSelectItem(i + 1 < tokens.size() ? tokens.get(i + 1) : null);
  }

  /** Whether the token after an identifier ends its select item, so the identifier names it. */
  private static boolean endsSelectItem(Token next) {
    return next == null
        || next.isSymbol(",")
        || next.isSymbol(")")
        || next.kind() == Token.Kind.WORD && ENDS_SELECT_LIST.contains(next.lower());
  }

  /** Words that end a select item without naming it: literals and the end of a CASE. */
  private static final Set<String> NOT_NAMES = Set.of("end", "null", "true", "false", "distinct");

  /** Keywords after which a select list has ended (a SELECT may have no FROM). */
  private static final Set<String> ENDS_SELECT_LIST =
      Set.of(
          "from",
          "where",
          "group",
          "having",
          "order",
          "limit",
          "union",
          "intersect",
          "except",
          "minus",
          "window",
          "qualify",
          "cluster",
          "distribute",
          "sort",
          "lateral");

  private static boolean isHint(Token t) {
    return t.kind() == Token.Kind.COMMENT && t.text().startsWith("/*+");
  }

  private static String render(Token t, boolean keepCase) {
    if (isHint(t)) {
      String inside = t.text().substring(3, Math.max(3, t.text().length() - 2));
      // Spaces around a hint's parentheses and commas are formatting, as in the SQL around it.
      String words = inside.strip().replaceAll("\\s+", " ").replaceAll(" ?([(),]) ?", "$1");
      return "/*+ " + words.toLowerCase(Locale.ROOT) + " */";
    }
    return switch (t.kind()) {
      case STRING, UNTERMINATED -> t.text();
      case QUOTED_IDENT -> {
        String id = keepCase ? t.identifier() : t.identifier().toLowerCase(Locale.ROOT);
        yield id.matches("[A-Za-z_][A-Za-z0-9_]*") ? id : "`" + id.replace("`", "``") + "`";
      }
      default -> keepCase && t.kind() == Token.Kind.WORD ? t.text() : t.lower();
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
