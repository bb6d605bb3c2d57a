package dev.mlv.diag;

import java.nio.file.Path;

/** A place in a source file, 1-based, that every diagnostic and parsed part carries. */
public record Position(Path file, int line, int column) {

  public static Position start(Path file) {
    return new Position(file, 1, 1);
  }

  /** Position of {@code offset} in {@code text}, relative to where {@code text} itself starts. */
  public Position advance(CharSequence text, int offset) {
    int l = line;
    int c = column;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
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
