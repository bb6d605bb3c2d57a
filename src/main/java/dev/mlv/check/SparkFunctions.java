package dev.mlv.check;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names of the functions Spark 4.1.1 knows without any user registration (scalar, aggregate,
 * window, generator and table-valued), read from a checked-in list so that lint rules can tell a
 * built-in from a user function without loading Spark. A test regenerates the list from Spark's
 * registries and fails when it drifts.
 */
public final class SparkFunctions {
  static final String RESOURCE = "spark-functions.txt";

  private static final Set<String> ALL = load();

  private SparkFunctions() {}

  public static boolean isBuiltin(String name) {
    return ALL.contains(name.toLowerCase(Locale.ROOT));
  }

  /** Every built-in name, lower case, sorted. */
  public static Set<String> all() {
    return ALL;
  }

  private static Set<String> load() {
    InputStream in = SparkFunctions.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IllegalStateException("missing resource dev/mlv/check/" + RESOURCE);
    }
    Set<String> names = new TreeSet<>();
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      reader.lines().map(String::strip).filter(line -> !line.isEmpty()).forEach(names::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Collections.unmodifiableSortedSet((TreeSet<String>) names);
  }
}
