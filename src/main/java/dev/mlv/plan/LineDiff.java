package dev.mlv.plan;

import java.util.ArrayList;
import java.util.List;

/** A unified diff of two texts, by lines, with three lines of context. */
final class LineDiff {
  private static final int CONTEXT = 3;

  private LineDiff() {}

  static String unified(String before, String after, String beforeName, String afterName) {
    List<String> a = before.lines().toList();
    List<String> b = after.lines().toList();
    // Longest common subsequence table; definitions are small, so O(n*m) is fine.
    int[][] lcs = new int[a.size() + 1][b.size() + 1];
    for (int i = a.size() - 1; i >= 0; i--) {
      for (int j = b.size() - 1; j >= 0; j--) {
        lcs[i][j] =
            a.get(i).equals(b.get(j))
                ? lcs[i + 1][j + 1] + 1
                : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    record Line(char op, String text, int aLine, int bLine) {}
    List<Line> script = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < a.size() || j < b.size()) {
      if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
        script.add(new Line(' ', a.get(i), i++, j++));
      } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
        // On a tie the old line goes first: a changed line reads as "-old" then "+new".
        script.add(new Line('-', a.get(i), i++, j));
      } else {
        script.add(new Line('+', b.get(j), i, j++));
      }
    }
    StringBuilder out = new StringBuilder();
    out.append("--- ").append(beforeName).append('\n');
    out.append("+++ ").append(afterName).append('\n');
    int k = 0;
    while (k < script.size()) {
      if (script.get(k).op() == ' ') {
        k++;
        continue;
      }
      int start = Math.max(0, k - CONTEXT);
      int end = k;
      // Extend the hunk while changes are closer than two contexts apart.
      int lastChange = k;
      while (end < script.size()) {
        if (script.get(end).op() != ' ') {
          lastChange = end;
        } else if (end - lastChange > 2 * CONTEXT) {
          break;
        }
        end++;
      }
      end = Math.min(script.size(), lastChange + CONTEXT + 1);
      int aStart = script.get(start).aLine();
      int bStart = script.get(start).bLine();
      int aCount = 0;
      int bCount = 0;
      for (int m = start; m < end; m++) {
        char op = script.get(m).op();
        if (op != '+') {
          aCount++;
        }
        if (op != '-') {
          bCount++;
        }
      }
      out.append("@@ -")
          .append(aStart + 1)
          .append(',')
          .append(aCount)
          .append(" +")
          .append(bStart + 1)
          .append(',')
          .append(bCount)
          .append(" @@\n");
      for (int m = start; m < end; m++) {
        out.append(script.get(m).op()).append(script.get(m).text()).append('\n');
      }
      k = end;
    }
    return out.toString();
  }
}
