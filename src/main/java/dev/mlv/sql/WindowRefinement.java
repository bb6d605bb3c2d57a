package dev.mlv.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A named window refined in place, {@code OVER (w ROWS BETWEEN ...)} or {@code WINDOW w2 AS (w
 * ORDER BY y)}: standard SQL, which Calcite reads, but Spark's grammar takes a window's name only
 * alone ({@code OVER w}, {@code OVER (w)}, {@code WINDOW w2 AS w}) and refuses the rest as a syntax
 * error (measured on Spark 4.1.1: at the {@code (} after OVER, at the WINDOW of the clause). Found
 * on tokens; Spark's own parser then tells whether and where it refuses the text.
 */
final class WindowRefinement {

  /**
   * One refinement: what is written ({@code OVER (w ROWS ...)}) and the offsets of the text Spark's
   * refusal is expected in, from the {@code (} after OVER, or the WINDOW of the clause, to the
   * {@code )} that closes the specification.
   */
  record Found(String construct, int from, int to) {}

  /**
   * The words a window specification of Spark's may start with, and those of a query (a CTE after a
   * WINDOW clause, WITH ... , d AS (SELECT ...)): any other name is a window's.
   */
  private static final Set<String> NOT_NAMES =
      Set.of(
          "PARTITION",
          "DISTRIBUTE",
          "ORDER",
          "SORT",
          "CLUSTER",
          "ROWS",
          "RANGE",
          "SELECT",
          "WITH",
          "VALUES",
          "FROM",
          "TABLE");

  private WindowRefinement() {}

  /**
   * The refinements in {@code t}, the tokens of a SELECT, in order: candidates, since only Spark's
   * parser tells for certain that a name after WINDOW is a clause's.
   */
  static List<Found> find(List<SqlToken> t) {
    List<Found> found = new ArrayList<>();
    int window = -1;
    for (int i = 0; i + 3 < t.size(); i++) {
      SqlToken token = t.get(i);
      if (token.isWord("WINDOW") && (i == 0 || !t.get(i - 1).isSymbol("."))) {
        window = i;
      }
      boolean over = token.isWord("OVER");
      // WINDOW w AS (...), w2 AS (...): each definition is a name, AS and a specification.
      boolean definition =
          window >= 0
              && token.isWord("AS")
              && i >= 2
              && t.get(i - 1).isIdentifier()
              && (t.get(i - 2).isSymbol(",") || i - 2 == window);
      if ((over || definition) && refined(t, i + 1)) {
        int close = SqlToken.closingParen(t, i + 1);
        if (close < 0) {
          break;
        }
        String name = t.get(i + 2).text();
        String next = t.get(i + 3).upper();
        String construct =
            over
                ? "OVER (" + name + " " + next + " ...)"
                : "WINDOW " + t.get(i - 1).text() + " AS (" + name + " " + next + " ...)";
        found.add(
            new Found(
                construct,
                over ? t.get(i + 1).start() : t.get(window).start(),
                t.get(close).start()));
      }
      if (token.isWord("SELECT")) {
        window = -1; // a WINDOW clause belongs to one SELECT; a later one starts afresh
      }
    }
    return found;
  }

  /** Whether a specification opens at {@code open} with a window's name and more after it. */
  private static boolean refined(List<SqlToken> t, int open) {
    if (open + 2 >= t.size() || !t.get(open).isSymbol("(")) {
      return false;
    }
    SqlToken name = t.get(open + 1);
    SqlToken after = t.get(open + 2);
    return name.isIdentifier()
        && !(name.kind() == SqlToken.Kind.WORD && NOT_NAMES.contains(name.upper()))
        && !after.isSymbol(")");
  }
}
