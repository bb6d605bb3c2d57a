package dev.mlv.check;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The table properties Delta 4.2.0 knows ({@code delta.appendOnly}, ...), with the kind of value
 * each takes, read from a checked-in list so that validate tells a typo from a property without
 * loading Spark. A test regenerates the list from Delta's DeltaConfigs and fails when it drifts.
 * Also the {@code delta.} properties Fabric's Delta adds, which the same .sql file may set.
 */
public final class DeltaProperties {
  static final String RESOURCE = "delta-table-properties.txt";

  /** The kind of value a property takes, as far as mlv checks it. */
  enum Kind {
    BOOLEAN,
    INTERVAL,
    /** A whole number between {@link Property#min} and {@link Property#max}, as Java parses it. */
    INTEGER,
    /** One of {@link Property#choices}, compared with or without case. */
    CHOICE,
    OTHER
  }

  /**
   * A property as Delta spells it, the kind of value it takes and, for a number or a choice, which
   * values Delta takes (probed from Delta's own validators when the list is regenerated).
   */
  record Property(String key, Kind kind, long min, long max, Set<String> choices, boolean anyCase) {
    Property(String key, Kind kind) {
      this(key, kind, Long.MIN_VALUE, Long.MAX_VALUE, Set.of(), false);
    }

    /** Whether Delta takes {@code value}, as written (Delta strips no space from a number). */
    boolean takes(String value) {
      return switch (kind) {
        // Delta strips no blank: ' true' is refused (For input string: " true"; found by QA).
        case BOOLEAN -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
        case INTERVAL -> mayBeInterval(value);
        case INTEGER -> {
          try {
            long n = Long.parseLong(value);
            yield n >= min && n <= max;
          } catch (NumberFormatException e) {
            yield false;
          }
        }
        case CHOICE ->
            choices.stream().anyMatch(c -> anyCase ? c.equalsIgnoreCase(value) : c.equals(value));
        case OTHER -> true;
      };
    }

    /** What a value must be, for a message: "a whole number from 1 to 3", "one of none, name". */
    String expected() {
      return switch (kind) {
        case BOOLEAN -> "'true' or 'false'";
        case INTERVAL -> "an interval of weeks, days, hours or smaller units";
        case INTEGER ->
            min == Long.MIN_VALUE
                ? "a whole number"
                : max > Integer.MAX_VALUE - 1L
                    ? "a whole number of at least " + min
                    : "a whole number from " + min + " to " + max;
        case CHOICE ->
            "one of "
                + String.join(", ", choices.stream().sorted().map(c -> "'" + c + "'").toList())
                + (anyCase ? "" : " (with that case)");
        case OTHER -> "a value Delta takes";
      };
    }
  }

  /**
   * Fabric's own table properties, lower-case key to its spelling and kind: V-Order's switch,
   * documented by Microsoft ("Delta Lake table optimization and V-Order": TBLPROPERTIES
   * ("delta.parquet.vorder.enabled"), default false). Open-source Delta refuses them
   * ([DELTA_UNKNOWN_CONFIGURATION]); the local engine, which cannot V-Order, leaves them off.
   */
  private static final Map<String, Property> FABRIC =
      Map.of(
          "delta.parquet.vorder.enabled",
          new Property("delta.parquet.vorder.enabled", Kind.BOOLEAN));

  /** Lower-case key to the property: Delta's and Fabric's. */
  private static final Map<String, Property> ALL = load();

  /** Words an interval value may hold: Delta takes weeks down to microseconds. */
  private static final Set<String> INTERVAL_UNITS =
      Set.of(
          "interval",
          "week",
          "weeks",
          "day",
          "days",
          "hour",
          "hours",
          "minute",
          "minutes",
          "second",
          "seconds",
          "millisecond",
          "milliseconds",
          "microsecond",
          "microseconds");

  private DeltaProperties() {}

  /** The property; empty when Delta does not know the key. */
  static Optional<Property> property(String key) {
    return Optional.ofNullable(ALL.get(key.toLowerCase(Locale.ROOT)));
  }

  /**
   * Whether {@code key} is a property of Fabric's Delta only, which the local engine's Delta
   * refuses: the local engine does not set it.
   */
  public static boolean fabricOnly(String key) {
    return FABRIC.containsKey(key.toLowerCase(Locale.ROOT));
  }

  /** Every key as Delta (or Fabric) spells it. */
  static Set<String> keys() {
    Set<String> keys = new java.util.TreeSet<>();
    ALL.values().forEach(p -> keys.add(p.key()));
    return keys;
  }

  /**
   * Whether Delta may take {@code value} as an interval: some amount of weeks, days, hours,
   * minutes, seconds or smaller, as '30 days' or 'interval 1 week 2 hours' (measured: 'forever' and
   * 'interval 1 fortnight' are refused with [DELTA_INVALID_INTERVAL]). Months and years count only
   * when they do not add up to zero: Delta refuses an interval with months in it, and takes '30
   * days 0 months' (found by QA). Lenient: any digits and symbols pass, only words outside those
   * units (typos) fail, and months or years whose total this reading cannot tell.
   */
  static boolean mayBeInterval(String value) {
    if (value.chars().noneMatch(Character::isDigit)) {
      return false;
    }
    String lower = value.toLowerCase(Locale.ROOT);
    boolean months = false;
    for (String word : lower.split("[^a-z]+")) {
      if (MONTH_UNITS.containsKey(word.replaceFirst("s$", ""))) {
        months = true;
      } else if (!word.isEmpty() && !INTERVAL_UNITS.contains(word)) {
        return false;
      }
    }
    return !months || amounts(lower).map(a -> a.months() == 0).orElse(true);
  }

  /** Microseconds in each unit an interval property may use. */
  private static final Map<String, Long> MICROS =
      Map.ofEntries(
          Map.entry("week", 604_800_000_000L),
          Map.entry("day", 86_400_000_000L),
          Map.entry("hour", 3_600_000_000L),
          Map.entry("minute", 60_000_000L),
          Map.entry("second", 1_000_000L),
          Map.entry("millisecond", 1_000L),
          Map.entry("microsecond", 1L));

  /** Months in a month or year unit. */
  private static final Map<String, Long> MONTH_UNITS = Map.of("month", 1L, "year", 12L);

  /**
   * An interval written as {@code [interval] N unit N unit ...}: its months, its length below them
   * in microseconds, and whether it names a month or year unit at all.
   */
  private record Amounts(long months, long micros, boolean namesMonths) {}

  /**
   * {@code value} read as whole amounts of units (any sign, singular or plural), or empty when it
   * is written otherwise: then nothing is compared.
   */
  private static Optional<Amounts> amounts(String value) {
    String[] words =
        value.strip().toLowerCase(Locale.ROOT).replaceFirst("^interval\\s+", "").split("\\s+");
    if (words.length % 2 != 0) {
      return Optional.empty();
    }
    long months = 0;
    long micros = 0;
    boolean namesMonths = false;
    for (int i = 0; i < words.length; i += 2) {
      String unit = words[i + 1].replaceFirst("s$", "");
      if (!words[i].matches("[+-]?\\d{1,9}")
          || !MICROS.containsKey(unit) && !MONTH_UNITS.containsKey(unit)) {
        return Optional.empty();
      }
      long n = Long.parseLong(words[i]);
      if (MONTH_UNITS.containsKey(unit)) {
        months += n * MONTH_UNITS.get(unit);
        namesMonths = true;
      } else {
        micros += n * MICROS.get(unit);
      }
    }
    return Optional.of(new Amounts(months, micros, namesMonths));
  }

  /**
   * The length of {@code value} in microseconds when it is written as whole amounts of units from
   * weeks down, else empty (then nothing is compared).
   */
  static java.util.OptionalLong micros(String value) {
    return amounts(value)
        .filter(a -> !a.namesMonths())
        .map(a -> java.util.OptionalLong.of(a.micros()))
        .orElse(java.util.OptionalLong.empty());
  }

  private static Map<String, Property> load() {
    InputStream in = DeltaProperties.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IllegalStateException("missing resource dev/mlv/check/" + RESOURCE);
    }
    Map<String, Property> all = new TreeMap<>();
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      reader
          .lines()
          .map(String::strip)
          .filter(line -> !line.isEmpty())
          .forEach(
              line -> {
                Property p = parse(line);
                all.put(p.key().toLowerCase(Locale.ROOT), p);
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    all.putAll(FABRIC);
    return Collections.unmodifiableMap(all);
  }

  /**
   * One line of the list: {@code key boolean|interval|other}, {@code key integer MIN MAX} (either
   * may be {@code *}: no bound) or {@code key choice|choice-any-case A,B,...}.
   */
  static Property parse(String line) {
    String[] parts = line.split(" ");
    String key = parts[0];
    return switch (parts[1]) {
      case "integer" ->
          new Property(
              key,
              Kind.INTEGER,
              parts[2].equals("*") ? Long.MIN_VALUE : Long.parseLong(parts[2]),
              parts[3].equals("*") ? Long.MAX_VALUE : Long.parseLong(parts[3]),
              Set.of(),
              false);
      case "choice", "choice-any-case" ->
          new Property(
              key,
              Kind.CHOICE,
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              Set.of(parts[2].split(",")),
              parts[1].equals("choice-any-case"));
      default -> new Property(key, Kind.valueOf(parts[1].toUpperCase(Locale.ROOT)));
    };
  }
}
