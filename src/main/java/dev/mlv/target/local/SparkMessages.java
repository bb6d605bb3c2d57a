package dev.mlv.target.local;

/**
 * The one line of a Spark, Delta or Hadoop error that mlv shows: its first line with text. Spark 4
 * starts some messages with a line break ({@code PARSE_SYNTAX_ERROR}), so "the first line" alone
 * would print nothing.
 */
final class SparkMessages {
  private SparkMessages() {}

  static String firstLine(Throwable e) {
    Throwable t = telling(e);
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : firstLine(m);
  }

  /** Spark's wrappers around a task's failure; what failed is in their cause. */
  private static final java.util.Set<String> WRAPPERS =
      java.util.Set.of("TASK_WRITE_FAILED", "FAILED_EXECUTE_UDF");

  /**
   * The exception that says what went wrong: a write that failed in a task is reported by Spark as
   * {@code TASK_WRITE_FAILED} ("Task failed while writing rows to ..."), with the cast or division
   * that failed as its cause.
   */
  static Throwable telling(Throwable e) {
    Throwable t = e;
    for (int depth = 0; depth < 10 && isWrapper(t) && t.getCause() != null; depth++) {
      t = t.getCause();
    }
    return t;
  }

  private static boolean isWrapper(Throwable t) {
    if (t instanceof org.apache.spark.SparkThrowable s && s.getCondition() != null) {
      return WRAPPERS.contains(s.getCondition());
    }
    String m = t.getMessage();
    return m != null && (m.startsWith("Job aborted") || m.contains("[TASK_WRITE_FAILED]"));
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
