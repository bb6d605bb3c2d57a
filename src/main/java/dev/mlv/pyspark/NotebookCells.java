package dev.mlv.pyspark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The code cells of a definition file in the order a notebook runs them, for deploying the file as
 * a notebook: each marked cell as written (magic cells without their export prefix), and a plain
 * module without markers split so that every {@code @fmlv.materialized_lake_view} function is a
 * cell of its own, since Fabric allows one view per cell.
 */
public final class NotebookCells {
  private NotebookCells() {}

  /** The cells' texts; empty when the file has no code (or is a notebook that is not JSON). */
  public static List<String> of(Path file, String text) {
    List<String> out = new ArrayList<>();
    for (Cell cell : Cells.of(file, text).cells()) {
      String code = cell.text();
      if (isMagic(code)) {
        // A cell read back from "# MAGIC" lines keeps their width as spaces; drop it again.
        code = dedent(code);
      }
      if (cell.explicit()) {
        add(out, code);
      } else {
        split(code).forEach(c -> add(out, c));
      }
    }
    return out;
  }

  /** Whether the cell starts with a {@code %%} magic line. */
  public static boolean isMagic(String cell) {
    for (String l : cell.split("\n", -1)) {
      if (!l.isBlank()) {
        return l.strip().startsWith("%%");
      }
    }
    return false;
  }

  private static String dedent(String code) {
    String[] lines = code.split("\n", -1);
    int min = Integer.MAX_VALUE;
    for (String l : lines) {
      if (!l.isBlank()) {
        min = Math.min(min, l.length() - l.stripLeading().length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      sb.append(lines[i].isBlank() ? "" : lines[i].substring(min));
      if (i < lines.length - 1) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  /** Cells that hold only comments and blank lines run nothing: they are left out. */
  private static void add(List<String> out, String code) {
    boolean any = false;
    for (String l : code.split("\n", -1)) {
      String s = l.strip();
      if (!s.isEmpty() && !s.startsWith("#")) {
        any = true;
        break;
      }
    }
    if (any) {
      out.add(code.strip() + "\n");
    }
  }

  /** Splits a module before each top-level view's decorators and after its function's body. */
  private static List<String> split(String code) {
    PyLexer.Result lexed = PyLexer.lex(code);
    if (lexed.failure().isPresent()) {
      return List.of(code);
    }
    List<PyToken> toks = lexed.tokens();
    List<PyToken> starts = new ArrayList<>();
    for (PyToken t : toks) {
      if (t.lineStart() && t.indent() == 0 && t.kind() != PyToken.Kind.END) {
        starts.add(t);
      }
    }
    TreeSet<Integer> cuts = new TreeSet<>();
    for (int i = 0; i < starts.size(); ) {
      if (!starts.get(i).is("@")) {
        i++;
        continue;
      }
      int j = i;
      boolean view = false;
      while (j < starts.size() && starts.get(j).is("@")) {
        view |= isViewDecorator(toks, starts.get(j));
        j++;
      }
      if (view) {
        cuts.add(starts.get(i).line());
        if (j + 1 < starts.size()) {
          cuts.add(starts.get(j + 1).line());
        }
      }
      i = j + 1;
    }
    String[] lines = code.split("\n", -1);
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int n = 1; n <= lines.length; n++) {
      if (cuts.contains(n) && cur.length() > 0) {
        out.add(cur.toString());
        cur.setLength(0);
      }
      cur.append(lines[n - 1]).append('\n');
    }
    out.add(cur.toString());
    return out;
  }

  private static boolean isViewDecorator(List<PyToken> toks, PyToken at) {
    int i = toks.indexOf(at);
    return i + 3 < toks.size()
        && toks.get(i + 1).isName("fmlv")
        && toks.get(i + 2).is(".")
        && toks.get(i + 3).isName("materialized_lake_view");
  }
}
