package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.List;
import java.util.Locale;

/** Where a SELECT calls a function, for diagnostics about that call. */
public final class Calls {
  private Calls() {}

  /**
   * The position of the first call of {@code function} (its last name part, any case) in {@code
   * sql}, which starts at {@code start}: a name followed by {@code (}, outside strings and
   * comments. {@code start} itself when the text has no such call.
   */
  public static Position first(String sql, Position start, String function) {
    List<Token> tokens = Lexer.tokenize(sql);
    String wanted = function.toLowerCase(Locale.ROOT);
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if ((t.kind() != Token.Kind.WORD && t.kind() != Token.Kind.QUOTED_IDENT)
          || !t.identifier().toLowerCase(Locale.ROOT).equals(wanted)) {
        continue;
      }
      int j = i + 1;
      while (j < tokens.size() && tokens.get(j).isTrivia()) {
        j++;
      }
      if (j < tokens.size() && tokens.get(j).isSymbol("(")) {
        return start.advance(sql, t.offset());
      }
    }
    return start;
  }
}
