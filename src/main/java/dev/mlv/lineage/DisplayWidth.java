package dev.mlv.lineage;

import org.jline.utils.WCWidth;

/**
 * Columns a terminal gives a name, so that text tables of views line up when a name is written in
 * CJK (two columns a character) or carries combining marks (none). It lives next to {@link
 * NameResolver#display}, whose names are what the plan, run, explain and seed tables pad; the SQL
 * result table measures its cells with it too.
 */
public final class DisplayWidth {
  private DisplayWidth() {}

  /** Terminal columns of the text; a control character counts as none, like in wcwidth. */
  public static int of(String text) {
    return text.codePoints().map(cp -> Math.max(0, WCWidth.wcwidth(cp))).sum();
  }

  /**
   * The text followed by spaces up to {@code columns} display columns, never cut: what {@code %-Ns}
   * does for ASCII, for every script.
   */
  public static String padRight(String text, int columns) {
    return text + " ".repeat(Math.max(0, columns - of(text)));
  }
}
