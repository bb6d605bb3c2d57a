package dev.mlv.target.local;

import dev.mlv.diag.EngineMessage;
import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.QueryContext;
import org.apache.spark.QueryContextType;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.catalyst.trees.SQLQueryContext;

/**
 * What mlv shows of a Spark, Delta or Hadoop error: the explanation of the exception that says what
 * went wrong, as one paragraph ({@link EngineMessage}), and where in a view's file it is.
 */
final class SparkMessages {
  private SparkMessages() {}

  static String explanation(Throwable e) {
    Throwable t = telling(e);
    if (isEngineFault(t)) {
      // A JVM exception thrown out of Spark's own planning or execution names Spark's classes and
      // no fault of the SQL (found by QA: a ClassCastException between two catalyst classes for
      // listagg beside two count(DISTINCT ...), which each ran alone).
      String m =
          t.getMessage() == null ? "" : t.getMessage().replaceAll("\\s*\\(.* loader .*\\)$", "");
      return "Spark failed inside its own code ("
          + t.getClass().getSimpleName()
          + (m.isBlank() ? "" : ": " + m)
          + "): an engine error, not an error in the SQL; the same query written another way (an"
          + " aggregate moved into a CTE, or split over two views) usually avoids it";
    }
    // An analysis error's simple message is its message without the logical plan under it.
    String m = t instanceof AnalysisException a ? a.getSimpleMessage() : t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : EngineMessage.explanation(m);
  }

  /** A JVM runtime fault raised by Spark's code itself, not an error Spark reports on the SQL. */
  private static boolean isEngineFault(Throwable t) {
    if (t instanceof org.apache.spark.SparkThrowable) {
      return false;
    }
    if (!(t instanceof ClassCastException
        || t instanceof NullPointerException
        || t instanceof IndexOutOfBoundsException
        || t instanceof scala.MatchError)) {
      return false;
    }
    StackTraceElement[] at = t.getStackTrace();
    return at.length > 0 && at[0].getClassName().startsWith("org.apache.spark.");
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
    // "Exception thrown in awaitResult:": a subquery or broadcast run on another thread.
    return m != null
        && (m.startsWith("Job aborted")
            || m.contains("[TASK_WRITE_FAILED]")
            || m.startsWith("Exception thrown in awaitResult"));
  }

  /**
   * The first line with text of a message that is matched line by line (a CSV record, a Delta
   * Kernel error): Spark 4 starts some messages with a line break.
   */
  static String firstLine(String message) {
    return message
        .lines()
        .map(String::strip)
        .filter(line -> !line.isEmpty())
        .findFirst()
        .orElse(message.strip());
  }

  /** Spark's own place, appended to analysis errors: relative to the text it was given. */
  // "; line 1 pos 18" after analysis errors, "(line 1, pos 18)" after syntax errors.
  private static final Pattern SPARK_PLACE =
      Pattern.compile(";?\\s*\\(?line (\\d+),? pos (\\d+)\\)?;?");

  /**
   * Where in a file the error Spark raised for {@code sql} is, when {@code sql} was read from that
   * file starting at {@code start}: Spark counts lines and positions from the start of the text it
   * was given, which is a SELECT cut out of the view's file. Its query context is preferred (a
   * character offset checked against the fragment it quotes); the "line L pos P" of the message is
   * the fallback.
   */
  static Optional<Position> place(Throwable e, String sql, Position start) {
    for (QueryContext c : sqlContexts(e)) {
      if (quotes(sql, c)) {
        return Optional.of(start.advance(sql, Position.afterCodePoints(sql, 0, c.startIndex())));
      }
    }
    Matcher m = SPARK_PLACE.matcher(explanation(e));
    if (!m.find()) {
      return Optional.empty();
    }
    int line = Integer.parseInt(m.group(1));
    int pos = Integer.parseInt(m.group(2));
    String[] lines = sql.split("\n", -1);
    if (line < 1
        || line > lines.length
        || pos > lines[line - 1].codePointCount(0, lines[line - 1].length())) {
      return Optional.empty();
    }
    int offset = 0;
    for (int i = 0; i < line - 1; i++) {
      offset += lines[i].length() + 1;
    }
    return Optional.of(start.advance(sql, Position.afterCodePoints(sql, offset, pos)));
  }

  /**
   * Where the expression Spark's error quotes is written in {@code sql}, when it is written there
   * exactly once: for an error raised while running SQL mlv generated around the view's SELECT (a
   * bad CAST, a division by zero), whose offsets are not the SELECT's.
   */
  static Optional<Position> placeByFragment(Throwable e, String sql, Position start) {
    for (QueryContext c : sqlContexts(e)) {
      String fragment = written(c).orElse(c.fragment());
      if (fragment != null && !fragment.isBlank()) {
        int at = sql.indexOf(fragment);
        if (at >= 0 && sql.indexOf(fragment, at + 1) < 0) {
          return Optional.of(start.advance(sql, at));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The text a context points at, cut from the SQL Spark ran by its code point indexes: Spark's own
   * {@code fragment()} cuts them as UTF-16 offsets, which lands early after an emoji (found by QA:
   * a division by zero below a comment with emoji was placed columns to the left).
   */
  private static Optional<String> written(QueryContext c) {
    if (c instanceof SQLQueryContext q && q.sqlText().isDefined()) {
      String text = q.sqlText().get();
      int from = c.startIndex();
      int to = c.stopIndex();
      if (from >= 0 && to >= from && to < text.codePointCount(0, text.length())) {
        int at = Position.afterCodePoints(text, 0, from);
        return Optional.of(text.substring(at, Position.afterCodePoints(text, at, to - from + 1)));
      }
    }
    return Optional.empty();
  }

  /** The SQL query contexts of {@code e} and its causes, outermost first. */
  private static List<QueryContext> sqlContexts(Throwable e) {
    List<QueryContext> out = new ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SparkThrowable s) {
        for (QueryContext c : s.getQueryContext()) {
          if (c.contextType() == QueryContextType.SQL) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  /**
   * Whether the context is of {@code sql}: Spark's indexes count code points, but its fragment is
   * cut from the text as if they counted UTF-16 units, so it is compared as Spark cuts it.
   */
  private static boolean quotes(String sql, QueryContext c) {
    int from = c.startIndex();
    int to = c.stopIndex();
    return from >= 0
        && to >= from
        && to < sql.length()
        && c.fragment() != null
        && sql.substring(from, to + 1).equals(c.fragment());
  }

  /** The message without Spark's "line 2 pos 20", once the place is given as file:line:column. */
  static String withoutSparkPlace(String message) {
    return SPARK_PLACE.matcher(message).replaceFirst("").strip();
  }
}
