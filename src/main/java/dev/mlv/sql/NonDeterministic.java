package dev.mlv.sql;

import java.util.List;
import java.util.Locale;
import java.util.Map;
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
          "try_reflect",
          // Deterministic to Spark within one query, but the identity running the refresh is
          // not fixed (a schedule, then a person), so appended rows would keep the old one.
          "current_user",
          "user",
          "session_user");

  /** A call; group 2 is set when its parentheses are empty. */
  private static final Pattern CALL = Pattern.compile("(?i)\\b([a-z_]+)\\s*\\(\\s*(\\))?");

  /** The current time written without parentheses, as Spark allows: a word, not a column. */
  private static final Set<String> BARE_TIME =
      Set.of("current_timestamp", "current_date", "current_time", "localtimestamp");

  /**
   * The running user written without parentheses, as Spark reads them; {@code user} is left out, as
   * it is far more often a column, which Spark resolves first.
   */
  private static final Set<String> BARE_USER = Set.of("current_user", "session_user");

  private static final Pattern BARE_TIME_WORD =
      Pattern.compile(
          "(?i)\\b(" + String.join("|", BARE_TIME) + "|" + String.join("|", BARE_USER) + ")\\b");

  /**
   * Spark's special date and time values (any case, blanks around): read as the time of the query,
   * like {@code current_timestamp()}, where a string becomes a date or timestamp in the text
   * itself. {@code 'epoch'}, the fifth, is a constant.
   */
  private static final Set<String> SPECIAL_VALUES = Set.of("now", "today", "yesterday", "tomorrow");

  /** The types of a typed literal or cast that reads a special value. */
  private static final Set<String> DATETIME_TYPES =
      Set.of("date", "timestamp", "timestamp_ltz", "timestamp_ntz");

  /** The functions that cast their one string argument as CAST does, with the type they give. */
  private static final Map<String, String> CASTING_FUNCTIONS =
      Map.of(
          "date", "DATE",
          "timestamp", "TIMESTAMP",
          "to_date", "DATE",
          "to_timestamp", "TIMESTAMP",
          "to_timestamp_ltz", "TIMESTAMP_LTZ",
          "to_timestamp_ntz", "TIMESTAMP_NTZ");

  private NonDeterministic() {}

  /**
   * The literal's name, as {@code TIMESTAMP'now'}, when a string literal ({@code value}, quotes
   * kept) read as {@code type} is the time of the run: {@code TIMESTAMP 'now'}, {@code CAST('today'
   * AS DATE)}, {@code 'today'::date}.
   */
  public static Optional<String> specialDatetime(String type, String value) {
    String t = type.toLowerCase(Locale.ROOT);
    if (!DATETIME_TYPES.contains(t) || value.length() < 2) {
      return Optional.empty();
    }
    char q = value.charAt(0);
    if ((q != '\'' && q != '"') || value.charAt(value.length() - 1) != q) {
      return Optional.empty();
    }
    String v = value.substring(1, value.length() - 1).strip().toLowerCase(Locale.ROOT);
    return SPECIAL_VALUES.contains(v)
        ? Optional.of(t.toUpperCase(Locale.ROOT) + "'" + v + "'")
        : Optional.empty();
  }

  /** The type {@code fn(string)} casts its one string argument to, if it casts like CAST. */
  public static Optional<String> castingFunction(String fn) {
    return Optional.ofNullable(CASTING_FUNCTIONS.get(fn.toLowerCase(Locale.ROOT)));
  }

  /** A special date or time value found in a text, and where it starts in the text. */
  public record SpecialDatetime(String name, int offset) {}

  /**
   * The special date and time values of a text that are the time of the run, in order, read from
   * its tokens: typed literals, CAST and TRY_CAST of a string, {@code 'now'::timestamp} and the
   * casting functions of one string.
   */
  public static List<SpecialDatetime> specialDatetimes(String sql) {
    List<Token> t = Lexer.tokenize(sql).stream().filter(x -> !x.isTrivia()).toList();
    List<SpecialDatetime> found = new java.util.ArrayList<>();
    for (int i = 0; i + 1 < t.size(); i++) {
      Token a = t.get(i);
      Token b = t.get(i + 1);
      Optional<String> name = Optional.empty();
      if (a.kind() == Token.Kind.WORD && b.kind() == Token.Kind.STRING) {
        name = specialDatetime(a.text(), b.text());
      } else if (a.kind() == Token.Kind.STRING && b.isSymbol("::") && i + 2 < t.size()) {
        name = specialDatetime(t.get(i + 2).text(), a.text());
      } else if (a.kind() == Token.Kind.WORD && b.isSymbol("(") && i + 3 < t.size()) {
        Token arg = t.get(i + 2);
        Token after = t.get(i + 3);
        String fn = a.text().toLowerCase(Locale.ROOT);
        if (arg.kind() == Token.Kind.STRING) {
          if ((fn.equals("cast") || fn.equals("try_cast"))
              && after.isWord("AS")
              && i + 4 < t.size()) {
            name = specialDatetime(t.get(i + 4).text(), arg.text());
          } else if (after.isSymbol(")") && castingFunction(fn).isPresent()) {
            name = specialDatetime(castingFunction(fn).get(), arg.text());
          }
        }
      }
      name.ifPresent(n -> found.add(new SpecialDatetime(n, a.offset())));
    }
    return found;
  }

  /** Whether {@code fn} (lower case) gives another result on each run, whatever its arguments. */
  public static boolean is(String fn) {
    return FUNCTIONS.contains(fn);
  }

  /**
   * What the unquoted word {@code word} (any case), standing alone where a column could, reads when
   * Spark takes it for a function without parentheses, {@code current_date} or {@code
   * current_user}: the current time, or the user running the refresh.
   */
  public static Optional<String> bareCall(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    if (BARE_TIME.contains(w)) {
      return Optional.of("the current time");
    }
    return BARE_USER.contains(w)
        ? Optional.of("the user running the refresh changes from one run to the next")
        : Optional.empty();
  }

  /**
   * Spark's functions that a bare name stands for, quoted or not, when no column of its FROM has
   * that name (Spark 4.1.1 resolves the column first, then these; {@code localtimestamp} bare is a
   * column or an error, never the function), with what each reads.
   */
  private static final Map<String, String> LITERAL_FUNCTIONS =
      Map.of(
          "current_date", "the current time",
          "current_timestamp", "the current time",
          "current_time", "the current time",
          "current_user", "the user running the refresh, which changes from one run to the next",
          "session_user", "the user running the refresh, which changes from one run to the next",
          "user", "the user running the refresh, which changes from one run to the next");

  /**
   * What the name {@code word} (any case, backticked or not) reads when it stands alone where a
   * column could and no column of its FROM has that name: Spark then reads the function.
   */
  public static Optional<String> literalFunction(String word) {
    return Optional.ofNullable(LITERAL_FUNCTIONS.get(word.toLowerCase(Locale.ROOT)));
  }

  /**
   * Whether a call of {@code fn} may: {@code unix_timestamp()} without arguments is the time, and
   * {@code aes_encrypt} without an IV draws one at random.
   */
  public static boolean mayBe(String fn) {
    return is(fn) || fn.equals("unix_timestamp") || fn.equals("aes_encrypt");
  }

  /**
   * Whether {@code aes_encrypt(input, key[, mode[, padding[, iv[, aad]]]])} encrypts with a random
   * IV, as Spark does in its default GCM mode and in CBC when no IV (or an empty one) is given.
   * Only ECB, which takes no IV, or an IV written as a non-empty literal or any expression, is the
   * same each run; a mode that is not a literal may be either, so it counts as random.
   */
  static boolean randomIv(org.apache.calcite.sql.SqlCall call) {
    List<org.apache.calcite.sql.SqlNode> args = call.getOperandList();
    if (args.size() >= 3
        && args.get(2) instanceof org.apache.calcite.sql.SqlCharStringLiteral mode
        && mode.getValueAs(String.class).strip().equalsIgnoreCase("ECB")) {
      return false;
    }
    if (args.size() < 5) {
      return true;
    }
    return args.get(4) instanceof org.apache.calcite.sql.SqlCharStringLiteral iv
        && iv.getValueAs(String.class).isEmpty();
  }

  /**
   * The first such function a CHECK expression calls or names, or else its first special date or
   * time value ({@code DATE'today'}), read from its text (a check is one short expression; the
   * SELECT is analysed from its parse tree instead).
   */
  public static Optional<String> inExpression(String expression) {
    return firstIn(expression).map(Found::name);
  }

  /** A function, word or value {@link #inExpression} finds, and where it starts in the text. */
  public record Found(String name, int offset) {}

  /** As {@link #inExpression}, with where the name starts in {@code expression}. */
  public static Optional<Found> firstIn(String expression) {
    Matcher m = CALL.matcher(expression);
    while (m.find()) {
      String fn = m.group(1).toLowerCase(Locale.ROOT);
      if (is(fn) || (fn.equals("unix_timestamp") && m.group(2) != null)) {
        return Optional.of(new Found(fn, m.start(1)));
      }
    }
    Matcher bare = BARE_TIME_WORD.matcher(expression);
    if (bare.find()) {
      return Optional.of(new Found(bare.group(1).toLowerCase(Locale.ROOT), bare.start(1)));
    }
    return specialDatetimes(expression).stream()
        .findFirst()
        .map(d -> new Found(d.name(), d.offset()));
  }
}
