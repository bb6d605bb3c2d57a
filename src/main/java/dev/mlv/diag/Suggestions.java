package dev.mlv.diag;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys and names, by edit distance. */
public final class Suggestions {
  private Suggestions() {}

  /** The closest candidate if it is near enough to be a plausible typo. */
  public static Optional<String> nearest(String typed, Collection<String> candidates) {
    String t = typed.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(t, c.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    // A third of the word may be wrong, but never more than 3 edits: past that it is a guess.
    int allowed = Math.min(3, Math.max(1, t.length() / 3));
    return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
  }

  /** A hint naming the nearest candidate, or listing all when none is near. */
  public static String hint(String typed, Collection<String> candidates) {
    return nearest(typed, candidates)
        .map(c -> "did you mean '" + c + "'?")
        .orElse("expected one of: " + String.join(", ", candidates));
  }

  /** Optimal string alignment distance: Levenshtein plus swapping two neighbours. */
  public static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
