package dev.mlv.diag;

import java.nio.file.Path;

/** A place in a source file, 1-based, that every diagnostic and parsed part carries. */
public record Position(Path file, int line, int column) {

  public static Position start(Path file) {
    return new Position(file, 1, 1);
  }

  /**
   * Whether a line ends at {@code i}: a line feed, or a carriage return not followed by one (old
   * Mac files), as an editor shows them and as Calcite and Spark's lexer end a {@code --} comment.
   */
  public static boolean lineEndAt(CharSequence text, int i) {
    char c = text.charAt(i);
    return c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'));
  }

  /**
   * Offset in {@code text} of a 1-based line and a column counted in UTF-16 units, as Calcite's
   * parser counts them. A {@link Position}'s own column counts characters: see {@link #offsetAt}.
   */
  public static int offsetOf(CharSequence text, int line, int column) {
    int offset = lineStart(text, line);
    return Math.min(text.length(), offset + Math.max(0, column - 1));
  }

  /**
   * Offset in {@code text} of a 1-based line and column counted as {@link #advance} counts them, in
   * characters (Unicode code points).
   */
  public static int offsetAt(CharSequence text, int line, int column) {
    int offset = lineStart(text, line);
    return afterCodePoints(text, offset, column - 1);
  }

  /**
   * The offset {@code codePoints} characters after {@code from}, at most the text's end: Spark's
   * parser (ANTLR) counts its indexes and positions in code points, Java's strings in UTF-16 units.
   */
  public static int afterCodePoints(CharSequence text, int from, int codePoints) {
    int at = Math.max(0, Math.min(from, text.length()));
    for (int n = 0; n < codePoints && at < text.length(); n++) {
      at +=
          Character.isHighSurrogate(text.charAt(at))
                  && at + 1 < text.length()
                  && Character.isLowSurrogate(text.charAt(at + 1))
              ? 2
              : 1;
    }
    return at;
  }

  private static int lineStart(CharSequence text, int line) {
    int offset = 0;
    for (int l = 1; l < line && offset < text.length(); offset++) {
      if (lineEndAt(text, offset)) {
        l++;
      }
    }
    return offset;
  }

  /**
   * Position of {@code offset} in {@code text}, relative to where {@code text} itself starts.
   * Columns count characters, so an emoji (two UTF-16 units) is one column, as Spark, YAML and
   * editors count.
   */
  public Position advance(CharSequence text, int offset) {
    int l = line;
    int c = column;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (lineEndAt(text, i)) {
        l++;
        c = 1;
      } else if (!(Character.isLowSurrogate(text.charAt(i))
          && i > 0
          && Character.isHighSurrogate(text.charAt(i - 1)))) {
        c++;
      }
    }
    return new Position(file, l, c);
  }

  @Override
  public String toString() {
    return (file == null ? "<input>" : file.toString()) + ":" + line + ":" + column;
  }
}
