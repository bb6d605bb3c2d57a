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

  /** Offset in {@code text} of a 1-based line and column counted as {@link #advance} counts. */
  public static int offsetOf(CharSequence text, int line, int column) {
    int offset = 0;
    for (int l = 1; l < line && offset < text.length(); offset++) {
      if (lineEndAt(text, offset)) {
        l++;
      }
    }
    return Math.min(text.length(), offset + Math.max(0, column - 1));
  }

  /** Position of {@code offset} in {@code text}, relative to where {@code text} itself starts. */
  public Position advance(CharSequence text, int offset) {
    int l = line;
    int c = column;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (lineEndAt(text, i)) {
        l++;
        c = 1;
      } else {
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
