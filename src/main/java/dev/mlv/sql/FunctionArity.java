package dev.mlv.sql;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The argument counts Spark 4.1.1 accepts for one of its built-in functions, read from a checked-in
 * table so that validate can tell a call Spark refuses with WRONG_NUM_ARGS without loading Spark. A
 * test regenerates the table from Spark's function registries and fails when it drifts.
 *
 * <p>A line of the table is a name and its accepted counts: {@code substr 2-3}, {@code coalesce 1+}
 * (one or more), {@code map 0,2,4,...,?}. Every count up to {@link #TOLD} is told; above it a count
 * is accepted when the list ends in {@code n+}, refused when the list ends otherwise, and not known
 * when it ends in {@code ?}.
 */
record FunctionArity(String name, BitSet accepted, boolean andMore, boolean unknownAbove) {
  static final String RESOURCE = "spark-function-arities.txt";

  /** The largest argument count the table tells one by one. */
  static final int TOLD = 20;

  private static final Map<String, FunctionArity> ALL = load();

  /** The arity of the built-in {@code name} (any case), if Spark has one of that name. */
  static Optional<FunctionArity> of(String name) {
    return Optional.ofNullable(ALL.get(name.toLowerCase(Locale.ROOT)));
  }

  /** Every built-in's arity, by lower-case name. */
  static Map<String, FunctionArity> all() {
    return ALL;
  }

  /** Whether the table says Spark refuses {@code count} arguments (WRONG_NUM_ARGS). */
  boolean refuses(int count) {
    if (count <= TOLD) {
      return !accepted.get(count);
    }
    return !andMore && !unknownAbove;
  }

  /** The table's spelling of these counts: {@code 2-3}, {@code 1+}, {@code 0,2,4,?}. */
  String spec() {
    List<String> items = new ArrayList<>();
    int n = accepted.nextSetBit(0);
    while (n >= 0) {
      int end = accepted.nextClearBit(n) - 1;
      if (andMore && end == TOLD) {
        items.add(n + "+");
      } else if (end == n) {
        items.add(String.valueOf(n));
      } else {
        items.add(n + "-" + end);
      }
      n = accepted.nextSetBit(end + 1);
    }
    if (unknownAbove) {
      items.add("?");
    }
    return items.isEmpty() ? "none" : String.join(",", items);
  }

  /** The counts in words, for a message: "2 or 3 parameters", "at least 1 parameter". */
  String inWords() {
    List<Integer> counts = accepted.stream().boxed().toList();
    if (counts.isEmpty()) {
      return "no call";
    }
    int first = counts.get(0);
    int last = counts.get(counts.size() - 1);
    boolean run = last - first + 1 == counts.size();
    if (andMore && run) {
      return "at least " + parameters(first);
    }
    if (counts.size() > 3 && counts.stream().allMatch(c -> c % 2 == 0)) {
      return "an even number of parameters";
    }
    if (run && counts.size() > 2) {
      return first + " to " + last + " parameters";
    }
    if (counts.size() == 1) {
      return parameters(first);
    }
    List<String> each = counts.stream().map(String::valueOf).toList();
    return String.join(", ", each.subList(0, each.size() - 1))
        + " or "
        + each.get(each.size() - 1)
        + " parameters"
        + (andMore ? " or more" : "");
  }

  private static String parameters(int n) {
    return n + (n == 1 ? " parameter" : " parameters");
  }

  /** Reads one line's counts; the inverse of {@link #spec()}. */
  static FunctionArity parse(String name, String spec) {
    BitSet accepted = new BitSet();
    boolean andMore = false;
    boolean unknown = false;
    if (!spec.equals("none")) {
      for (String item : spec.split(",")) {
        if (item.equals("?")) {
          unknown = true;
        } else if (item.endsWith("+")) {
          accepted.set(Integer.parseInt(item.substring(0, item.length() - 1)), TOLD + 1);
          andMore = true;
        } else if (item.contains("-")) {
          String[] range = item.split("-");
          accepted.set(Integer.parseInt(range[0]), Integer.parseInt(range[1]) + 1);
        } else {
          accepted.set(Integer.parseInt(item));
        }
      }
    }
    return new FunctionArity(name, accepted, andMore, unknown);
  }

  private static Map<String, FunctionArity> load() {
    InputStream in = FunctionArity.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IllegalStateException("missing resource dev/mlv/sql/" + RESOURCE);
    }
    Map<String, FunctionArity> arities = new TreeMap<>();
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      reader
          .lines()
          .map(String::strip)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .forEach(
              line -> {
                int space = line.lastIndexOf(' ');
                String name = line.substring(0, space);
                arities.put(name, parse(name, line.substring(space + 1)));
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Collections.unmodifiableMap(arities);
  }
}
