package dev.mlv.target.local;

/**
 * The one line of a Spark, Delta or Hadoop error that mlv shows: its first line with text. Spark 4
 * starts some messages with a line break ({@code PARSE_SYNTAX_ERROR}), so "the first line" alone
 * would print nothing.
 */
final class SparkMessages {
  private SparkMessages() {}

  static String firstLine(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : firstLine(m);
  }

  static String firstLine(String message) {
    return message
        .lines()
        .map(String::strip)
        .filter(line -> !line.isEmpty())
        .findFirst()
        .orElse(message.strip());
  }
}
