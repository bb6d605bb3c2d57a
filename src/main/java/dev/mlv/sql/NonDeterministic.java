package dev.mlv.sql;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The functions whose result changes from one run to the next, which rule out incremental refresh:
 * one list for {@code mlv validate}, {@code mlv explain} and the refresh decision.
 */
public final class NonDeterministic {
  private static final Set<String> FUNCTIONS =
      Set.of(
          "rand",
          "randn",
          "random",
          "uuid",
          "shuffle",
          "uniform",
          "randstr",
          "now",
          "current_timestamp",
          "current_date",
          "current_time",
          "localtimestamp",
          "curdate",
          "monotonically_increasing_id",
          "spark_partition_id",
          "input_file_name",
          "input_file_block_start",
          "input_file_block_length",
          "reflect",
          "java_method",
          "try_reflect");

  /** A call; group 2 is set when its parentheses are empty. */
  private static final Pattern CALL = Pattern.compile("(?i)\\b([a-z_]+)\\s*\\(\\s*(\\))?");

  /** The current time written without parentheses, as Spark allows: a word, not a column. */
  private static final Set<String> BARE_TIME =
      Set.of("current_timestamp", "current_date", "current_time", "localtimestamp");

  private static final Pattern BARE_TIME_WORD =
      Pattern.compile("(?i)\\b(" + String.join("|", BARE_TIME) + ")\\b");

  private NonDeterministic() {}

  /** Whether {@code fn} (lower case) gives another result on each run, whatever its arguments. */
  public static boolean is(String fn) {
    return FUNCTIONS.contains(fn);
  }

  /**
   * Whether the unquoted word {@code word} (any case), standing alone where a column could, is the
   * current time: Spark reads {@code current_date} without parentheses as the function.
   */
  public static boolean isBareTime(String word) {
    return BARE_TIME.contains(word.toLowerCase(Locale.ROOT));
  }

  /** Whether a call of {@code fn} may: {@code unix_timestamp()} without arguments is the time. */
  public static boolean mayBe(String fn) {
    return is(fn) || fn.equals("unix_timestamp");
  }

  /**
   * The first such function a CHECK expression calls or names, read from its text (a check is one
   * short expression; the SELECT is analysed from its parse tree instead).
   */
  public static Optional<String> inExpression(String expression) {
    Matcher m = CALL.matcher(expression);
    while (m.find()) {
      String fn = m.group(1).toLowerCase(Locale.ROOT);
      if (is(fn) || (fn.equals("unix_timestamp") && m.group(2) != null)) {
        return Optional.of(fn);
      }
    }
    Matcher bare = BARE_TIME_WORD.matcher(expression);
    return bare.find() ? Optional.of(bare.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
  }
}
