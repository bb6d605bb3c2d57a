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
      defaultValue = "auto",
      description =
          "Colour the progress: auto (on a terminal, unless NO_COLOR is set), always or never"
              + " (default: ${DEFAULT-VALUE}).")
  ColorMode color = ColorMode.auto;

  @Option(names = "--no-color", description = "Same as --color=never.")
  boolean noColor;

  /**
   * @param terminal whether stderr goes to a terminal
   * @param noColor the value of the NO_COLOR environment variable, or null
   */
  boolean colored(boolean terminal, String noColor) {
    if (this.noColor) {
      return false;
    }
    return switch (color) {
      case always -> true;
      case never -> false;
      case auto -> terminal && (noColor == null || noColor.isEmpty());
    };
  }
}
