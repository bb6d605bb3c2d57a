package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlOperator;

/**
 * A {@code >>} or {@code >>>} shift that Spark's lexer splits into {@code >} tokens. To close
 * {@code ARRAY<ARRAY<INT>>} twice, the lexer counts every ARRAY, MAP and STRUCT keyword as a type
 * whose {@code <} is open, each {@code >} closing one, and reads a shift only while none is open. A
 * call {@code array(1)}, {@code map(k, v)} or {@code struct(x)} opens one that no {@code >} closes,
 * so every later shift of the statement becomes {@code > >}, which Spark's parser refuses at the
 * second {@code >}, while Calcite and the rewriter read a shift.
 */
final class ShiftOperators {
  private ShiftOperators() {}

  /**
   * The error at the first shift of {@code rewritten} that Spark's lexer splits, if there is one.
   */
  static Optional<Diagnostic> split(
      String sql, Position start, SparkSyntaxRewriter.Result rewritten) {
    TreeMap<Integer, String> shifts = new TreeMap<>();
    for (Map.Entry<Integer, SqlOperator> e : rewritten.operators().entrySet()) {
      if (e.getValue() == SparkSyntaxRewriter.SHIFT_RIGHT) {
        shifts.put(e.getKey(), ">>");
      } else if (e.getValue() == SparkSyntaxRewriter.SHIFT_RIGHT_UNSIGNED) {
        shifts.put(e.getKey(), ">>>");
      }
    }
    if (shifts.isEmpty()) {
      return Optional.empty();
    }
    Map<Integer, String> sparkTokens = new HashMap<>();
    Map<Integer, SqlToken> openAt = new HashMap<>();
    lex(rewritten, sparkTokens, openAt);
    for (Map.Entry<Integer, String> shift : shifts.entrySet()) {
      int at = shift.getKey();
      if (shift.getValue().equals(sparkTokens.get(at))) {
        continue;
      }
      SqlToken opener = openAt.get(at);
      String near = sparkTokens.getOrDefault(at + 1, ">");
      String written = shift.getValue();
      return Optional.of(
          Diagnostic.error(
              TableExtractor.PARSE_RULE,
              start.advance(sql, at + 1),
              "syntax error at or near '"
                  + near
                  + "': Spark's lexer reads this "
                  + written
                  + (written.length() == 2 || near.equals(">")
                      ? " as separate '>'"
                      : " as '>' and '>>'")
                  + ", not a shift: it counts "
                  + (opener == null
                      ? "an ARRAY, MAP or STRUCT before it"
                      : "the " + opener.text() + " at " + place(start.advance(sql, opener.start())))
                  + " as a type whose '<' is still open, and reads a shift only when none is"
                  + " ([PARSE_SYNTAX_ERROR])",
              "write the shift as a call: "
                  + (written.length() == 2 ? "shiftright(a, n)" : "shiftrightunsigned(a, n)")));
    }
    return Optional.empty();
  }

  private static String place(Position p) {
    return p.line() + ":" + p.column();
  }

  /**
   * Spark's lexing of each run of adjacent {@code >}: {@code sparkTokens} gets the token that
   * starts at each of their offsets, {@code openAt} the ARRAY, MAP or STRUCT keyword still open
   * there, the last one.
   */
  private static void lex(
      SparkSyntaxRewriter.Result rewritten,
      Map<Integer, String> sparkTokens,
      Map<Integer, SqlToken> openAt) {
    Deque<SqlToken> open = new ArrayDeque<>();
    var tokens = rewritten.tokens();
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      if (t.isWord("ARRAY") || t.isWord("MAP") || t.isWord("STRUCT")) {
        open.push(t);
        continue;
      }
      if (!t.isSymbol(">")) {
        continue;
      }
      int run = 1;
      while (i + run < tokens.size()
          && tokens.get(i + run).isSymbol(">")
          && tokens.get(i + run).start() == tokens.get(i + run - 1).end()) {
        run++;
      }
      int offset = t.start();
      int left = run;
      while (left > 0) {
        String token =
            open.isEmpty() && left >= 3 ? ">>>" : open.isEmpty() && left >= 2 ? ">>" : ">";
        sparkTokens.put(offset, token);
        if (!open.isEmpty()) {
          openAt.put(offset, open.peek());
          if (token.equals(">")) {
            open.pop();
          }
        }
        offset += token.length();
        left -= token.length();
      }
      i += run - 1;
    }
  }
}
