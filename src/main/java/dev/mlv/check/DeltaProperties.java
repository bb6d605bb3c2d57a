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
    OTHER
  }

  /**
   * Fabric's own table properties, lower-case key to its spelling and kind: V-Order's switch,
   * documented by Microsoft ("Delta Lake table optimization and V-Order": TBLPROPERTIES
   * ("delta.parquet.vorder.enabled"), default false). Open-source Delta refuses them
   * ([DELTA_UNKNOWN_CONFIGURATION]); the local engine, which cannot V-Order, leaves them off.
   */
  private static final Map<String, Map.Entry<String, Kind>> FABRIC =
      Map.of(
          "delta.parquet.vorder.enabled", Map.entry("delta.parquet.vorder.enabled", Kind.BOOLEAN));

  /** Lower-case key to its spelling and kind: Delta's and Fabric's. */
  private static final Map<String, Map.Entry<String, Kind>> ALL = load();

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

  /** The property's kind; empty when Delta does not know the key. */
  static Optional<Kind> kind(String key) {
    return Optional.ofNullable(ALL.get(key.toLowerCase(Locale.ROOT))).map(Map.Entry::getValue);
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
    ALL.values().forEach(e -> keys.add(e.getKey()));
    return keys;
  }

  /**
   * Whether Delta may take {@code value} as an interval: some amount of weeks, days, hours,
   * minutes, seconds or smaller, as '30 days' or 'interval 1 week 2 hours' (measured: 'forever' and
   * 'interval 1 fortnight' are refused with [DELTA_INVALID_INTERVAL]). Lenient: any digits and
   * symbols pass, only words outside those units (months, years, typos) fail.
   */
  static boolean mayBeInterval(String value) {
    if (value.chars().noneMatch(Character::isDigit)) {
      return false;
    }
    for (String word : value.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
      if (!word.isEmpty() && !INTERVAL_UNITS.contains(word)) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, Map.Entry<String, Kind>> load() {
    InputStream in = DeltaProperties.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IllegalStateException("missing resource dev/mlv/check/" + RESOURCE);
    }
    Map<String, Map.Entry<String, Kind>> all = new TreeMap<>();
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      reader
          .lines()
          .map(String::strip)
          .filter(line -> !line.isEmpty())
          .forEach(
              line -> {
                String[] parts = line.split(" ");
                all.put(
                    parts[0].toLowerCase(Locale.ROOT),
                    Map.entry(parts[0], Kind.valueOf(parts[1].toUpperCase(Locale.ROOT))));
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    all.putAll(FABRIC);
    return Collections.unmodifiableMap(all);
  }
}
