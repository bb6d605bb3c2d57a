package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Where something sits in a SELECT's text, for the diagnostics about it. */
public final class Places {
  private static final List<String> TIME_TRAVEL =
      List.of("VERSION", "SYSTEM_VERSION", "TIMESTAMP", "SYSTEM_TIME");

  private Places() {}

  /**
   * The position of the first call of {@code function} (its last name part, any case) in {@code
   * sql}, which starts at {@code start}: a name followed by {@code (}, outside strings and
   * comments. {@code start} itself when the text has no such call.
   */
  public static Position call(String sql, Position start, String function) {
    return findCall(sql, start, function).orElse(start);
  }

  /**
   * Where a view calls {@code function}: at the call in its SELECT, else at the call in the first
   * CHECK that calls it, else at the SELECT's start.
   */
  public static Position call(
      String sql, Position start, List<Constraint> constraints, String function) {
    Optional<Position> inSelect = findCall(sql, start, function);
    if (inSelect.isPresent()) {
      return inSelect.get();
    }
    for (Constraint c : constraints) {
      if (c.expressionPosition() != null) {
        Optional<Position> inCheck = findCall(c.expression(), c.expressionPosition(), function);
        if (inCheck.isPresent()) {
          return inCheck.get();
        }
      }
    }
    return start;
  }

  /**
   * The position of {@code offset} in the CHECK expression of {@code c}; the constraint's own
   * position when its expression's is not known.
   */
  public static Position inConstraint(Constraint c, int offset) {
    return c.expressionPosition() == null
        ? c.position()
        : c.expressionPosition().advance(c.expression(), offset);
  }

  private static Optional<Position> findCall(String sql, Position start, String function) {
    List<Token> tokens = significant(sql);
    // A qualified name (my_schema.f) is found part by part, at its first part.
    String[] wanted = function.toLowerCase(Locale.ROOT).split("\\.", -1);
    for (int i = 0; i + 2 * wanted.length - 1 < tokens.size(); i++) {
      if (namesCall(tokens, i, wanted)) {
        return Optional.of(start.advance(sql, tokens.get(i).offset()));
      }
    }
    return Optional.empty();
  }

  private static boolean namesCall(List<Token> tokens, int i, String[] parts) {
    for (int p = 0; p < parts.length; p++) {
      Token t = tokens.get(i + 2 * p);
      if (!(t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.QUOTED_IDENT)
          || !t.identifier().toLowerCase(Locale.ROOT).equals(parts[p])) {
        return false;
      }
      Token after = tokens.get(i + 2 * p + 1);
      if (!after.isSymbol(p == parts.length - 1 ? "(" : ".")) {
        return false;
      }
    }
    return true;
  }

  /**
   * The position of the first {@code [FOR] VERSION|SYSTEM_VERSION|TIMESTAMP|SYSTEM_TIME AS OF} in
   * {@code sql}, which starts at {@code start}; {@code start} itself when there is none.
   */
  public static Position timeTravel(String sql, Position start) {
    List<Token> tokens = significant(sql);
    for (int i = 0; i + 2 < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (TIME_TRAVEL.stream().anyMatch(t::isWord)
          && tokens.get(i + 1).isWord("AS")
          && tokens.get(i + 2).isWord("OF")) {
        Token from = i > 0 && tokens.get(i - 1).isWord("FOR") ? tokens.get(i - 1) : t;
        return start.advance(sql, from.offset());
      }
    }
    return start;
  }

  /**
   * The position of the first table read by path, {@code format.`path`}, in {@code sql}, which
   * starts at {@code start}; {@code start} itself when there is none.
   */
  public static Position pathTable(String sql, Position start) {
    List<Token> tokens = significant(sql);
    for (int i = 0; i + 2 < tokens.size(); i++) {
      Token t = tokens.get(i);
      Token path = tokens.get(i + 2);
      if (t.kind() == Token.Kind.WORD
          && tokens.get(i + 1).isSymbol(".")
          && path.kind() == Token.Kind.QUOTED_IDENT
          && TableExtractor.isPathTable(List.of(t.identifier(), path.identifier()))) {
        return start.advance(sql, t.offset());
      }
    }
    return start;
  }

  /** The tokens of {@code sql} without comments and whitespace. */
  private static List<Token> significant(String sql) {
    return Lexer.tokenize(sql).stream().filter(t -> !t.isTrivia()).toList();
  }
}
