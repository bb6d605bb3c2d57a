package dev.mlv.cli;

/** The few ANSI escapes progress output uses: colours, and moving up to redraw lines in place. */
final class Ansi {
  private Ansi() {}

  static final String CLEAR_TO_END = "\033[J";

  static String up(int lines) {
    return lines <= 0 ? "\r" : "\r\033[" + lines + "A";
  }

  static String green(String s, boolean on) {
    return on ? "\033[32m" + s + "\033[0m" : s;
  }

  static String red(String s, boolean on) {
    return on ? "\033[31m" + s + "\033[0m" : s;
  }

  static String yellow(String s, boolean on) {
    return on ? "\033[33m" + s + "\033[0m" : s;
  }

  static String cyan(String s, boolean on) {
    return on ? "\033[36m" + s + "\033[0m" : s;
  }

  static String bold(String s, boolean on) {
    return on ? "\033[1m" + s + "\033[0m" : s;
  }

  /**
   * {@code s} cut to {@code width} visible characters, escapes kept, so a redrawn line never wraps
   * (a wrapped line would break the count of lines to move up).
   */
  static String cut(String s, int width) {
    if (width <= 0 || visibleLength(s) <= width) {
      return s;
    }
    StringBuilder sb = new StringBuilder();
    int visible = 0;
    for (int i = 0; i < s.length() && visible < width - 1; i++) {
      int end = escapeEnd(s, i);
      if (end > i) {
        sb.append(s, i, end);
        i = end - 1;
      } else {
        sb.append(s.charAt(i));
        visible++;
      }
    }
    return sb.append(s.indexOf('\033') >= 0 ? "\033[0m~" : "~").toString();
  }

  static int visibleLength(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      int end = escapeEnd(s, i);
      if (end > i) {
        i = end - 1;
      } else {
        n++;
      }
    }
    return n;
  }

  /** The index after the colour escape starting at {@code i}, or {@code i} when none starts. */
  private static int escapeEnd(String s, int i) {
    if (s.charAt(i) != '\033') {
      return i;
    }
    int m = s.indexOf('m', i);
    return m < 0 ? s.length() : m + 1;
  }
}
