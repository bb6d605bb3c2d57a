package dev.mlv.project;

import java.util.Optional;

/**
 * What a name must be to become a folder of a lakehouse: a table and its schema are each a folder
 * named after them, locally and in OneLake. The local warehouse refuses the rest when it builds a
 * path ({@code UNSAFE_NAME}); validate checks the same names here, at their position, so that a
 * project it passes does not fail at refresh or apply.
 */
public final class FolderName {
  private FolderName() {}

  /**
   * Why {@code name} cannot be one folder name, or empty: it would leave its parent folder ({@code
   * ..}, {@code a/b}), hide itself ({@code .x}, where mlv keeps its own files) or hold a character
   * no file name can.
   */
  public static Optional<String> problem(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.of("is empty");
    }
    if (name.startsWith(".")) {
      return Optional.of("starts with '.'");
    }
    return characterProblem(name);
  }

  /** A path separator or a control character (NUL included) in {@code name}, or empty. */
  public static Optional<String> characterProblem(String name) {
    if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
      return Optional.of("contains a path separator");
    }
    if (name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      return Optional.of("contains a control character");
    }
    return Optional.empty();
  }
}
