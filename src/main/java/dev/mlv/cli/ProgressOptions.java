package dev.mlv.cli;

import picocli.CommandLine.Option;

/** {@code --no-progress} and {@code --color}: how a long run shows its progress on stderr. */
public final class ProgressOptions {
  /** When to colour: on a terminal unless NO_COLOR is set, always, or never. */
  enum ColorMode {
    auto,
    always,
    never
  }

  @Option(
      names = "--no-progress",
      description =
          "One line per view as it starts and ends, instead of the live view a terminal gets.")
  boolean noProgress;

  @Option(
      names = "--color",
      paramLabel = "WHEN",
      description =
          "Colour the progress: auto (on a terminal, unless NO_COLOR is set), always or never"
              + " (default: auto).")
  ColorMode color; // null: not given, which is auto

  @Option(names = "--no-color", description = "Same as --color=never.")
  boolean noColor;

  /** Refuses options that contradict each other, whether or not progress is shown. */
  void check() {
    if (noColor && color != null && color != ColorMode.never) {
      throw new dev.mlv.diag.UsageException(
          "OPTION_CONFLICT", "--no-color and --color=" + color + " ask for two things; use one");
    }
  }

  /**
   * @param terminal whether stderr goes to a terminal
   * @param noColor the value of the NO_COLOR environment variable, or null
   */
  boolean colored(boolean terminal, String noColor) {
    check();
    if (this.noColor) {
      return false;
    }
    return switch (color == null ? ColorMode.auto : color) {
      case always -> true;
      case never -> false;
      case auto -> terminal && (noColor == null || noColor.isEmpty());
    };
  }
}
