package dev.mlv.diag;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What an engine's error message (Spark, Delta, Hadoop) explains, as one paragraph for a
 * diagnostic. Their messages run over several lines: Delta breaks its sentences across lines
 * ("...as change data was not\nrecorded for version [7]..."), and Spark follows its message with
 * blocks that are not explanation, which are left out: the query context ("== SQL (line 1, position
 * 8) ==" and the SQL excerpt under it), the logical plan after an analysis error, and stack frames
 * quoted from a task.
 */
public final class EngineMessage {
  private EngineMessage() {}

  /** "== SQL ==" (a syntax error), "== SQL (line 1, position 8) ==", "== DataFrame ==". */
  private static final Pattern CONTEXT = Pattern.compile("== .*==");

  /** A frame of a stack trace quoted in a message: a task's failure, reported on the driver. */
  private static final Pattern FRAME = Pattern.compile("at [\\w$./]+\\(.*\\)");

  /** The first line of a logical plan: 'Project ['nope], Aggregate [...], OneRowRelation. */
  private static final Pattern PLAN_NODE = Pattern.compile("'?[A-Z][A-Za-z]+(?:[ \\[(,].*)?");

  /** The lines of {@code message} up to the first that is not explanation, joined with spaces. */
  public static String explanation(String message) {
    String[] lines = message.split("\\R", -1);
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        // Spark 4 starts a syntax error with a line break.
        continue;
      }
      if (CONTEXT.matcher(line).matches()
          || FRAME.matcher(line).matches()
          || line.startsWith("Caused by: ")
          || line.equals("Driver stacktrace:")) {
        break;
      }
      kept.add(line);
      // Spark ends its message with the SQLSTATE (and its place); what follows is context.
      if (line.contains("SQLSTATE: ") || (line.endsWith(";") && planFollows(lines, i + 1))) {
        break;
      }
    }
    return kept.isEmpty() ? message.strip() : String.join(" ", kept);
  }

  /**
   * Whether a plan starts at line {@code i}: an analysis error without a SQLSTATE ends its text
   * with ';' and prints the plan under it, one node a line, its children indented under "+- ".
   */
  private static boolean planFollows(String[] lines, int i) {
    if (i >= lines.length || !PLAN_NODE.matcher(lines[i]).matches()) {
      return false;
    }
    if (lines[i].startsWith("'")
        || (i + 1 < lines.length && lines[i + 1].stripLeading().matches("[+:]- .*"))) {
      return true;
    }
    // A plan of one node: its name alone, or with its output in brackets.
    return lines[i].matches("[A-Z][A-Za-z]+(?: \\[.*)?");
  }
}
