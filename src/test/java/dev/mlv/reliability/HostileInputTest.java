package dev.mlv.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input: at least 1,000 seeded broken variants of the example project's {@code .sql} files
 * and {@code mlv.yml}, each run through {@code validate}, {@code lineage} and {@code plan} (against
 * its empty local target). Every run must end within the time bound with success or an error (exit
 * 1) that is positioned or names what is wrong, print no stack trace and no internal error, and
 * write nothing outside the project's {@code .mlv/} folder.
 */
class HostileInputTest {
  static final int VARIANTS = Integer.getInteger("mlv.mutants", 1000);
  static final long SEED = Long.getLong("mlv.seed", 20261129L);
  static final long BOUND_MS = 30_000;
  static final String[] COMMANDS = {"validate", "lineage", "plan"};

  enum Outcome {
    OK,
    POSITIONED_ERROR,
    UNPOSITIONED_ERROR,
    INTERNAL_ERROR,
    STACK_TRACE,
    TIMEOUT,
    WROTE_OUTSIDE
  }

  private static final Pattern POSITION = Pattern.compile("[^\\s:]+:\\d+:\\d+: ");
  private static final Pattern STACK =
      Pattern.compile("(?m)^\\s+at [\\w$.]+\\(|Exception in thread|^Caused by: ");

  @TempDir Path tmp;

  @Test
  void everyMutantEndsInTimeWithSuccessOrAnErrorAndWritesOnlyUnderMlv() throws Exception {
    Map<String, byte[]> base = readProject(Path.of("examples/medallion"));
    Path escaped = tmp.resolve("escaped-absolute");
    List<Mutator.Variant> variants = new Mutator(SEED, base, escaped.toString()).variants(VARIANTS);
    Path root = Files.createDirectories(tmp.resolve("variants"));
    Set<String> cwdBefore = listing(Path.of(""));

    Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
    Map<String, Map<Outcome, Integer>> byOperator = new TreeMap<>();
    Map<String, Long> msByOperator = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    long slowest = 0;
    String slowestWhat = "";
    ExecutorService pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "hostile-mlv");
              t.setDaemon(true);
              return t;
            });
    PrintStream realErr = System.err;
    PrintStream realOut = System.out;
    ByteArrayOutputStream stray = new ByteArrayOutputStream();
    long t0 = System.nanoTime();
    try {
      PrintStream strayStream = new PrintStream(stray, true, StandardCharsets.UTF_8);
      System.setErr(strayStream);
      System.setOut(strayStream);
      for (Mutator.Variant v : variants) {
        Path dir = root.resolve(String.format("v%04d", v.index()));
        Map<String, byte[]> written = write(dir, v.files());
        for (String cmd : COMMANDS) {
          stray.reset();
          long start = System.nanoTime();
          Outcome o;
          String detail;
          Future<String[]> f =
              pool.submit(
                  () -> {
                    StringWriter out = new StringWriter();
                    StringWriter err = new StringWriter();
                    int code =
                        Main.run(
                            new PrintWriter(out), new PrintWriter(err), cmd, "-p", dir.toString());
                    return new String[] {String.valueOf(code), out.toString(), err.toString()};
                  });
          try {
            String[] r = f.get(BOUND_MS, TimeUnit.MILLISECONDS);
            int code = Integer.parseInt(r[0]);
            String all = r[1] + r[2] + stray.toString(StandardCharsets.UTF_8);
            detail = "exit " + code + ": " + firstLines(r[2].isBlank() ? r[1] : r[2]);
            if (STACK.matcher(all).find()) {
              o = Outcome.STACK_TRACE;
              detail += "\n" + firstLines(all);
            } else if (all.contains("internal error")) {
              o = Outcome.INTERNAL_ERROR;
            } else if (code == 0) {
              o = Outcome.OK;
            } else if (code != 1) {
              o = Outcome.INTERNAL_ERROR;
              detail = "unexpected " + detail;
            } else if (POSITION.matcher(r[2] + r[1]).find()) {
              o = Outcome.POSITIONED_ERROR;
            } else {
              o = Outcome.UNPOSITIONED_ERROR;
            }
          } catch (TimeoutException e) {
            f.cancel(true);
            o = Outcome.TIMEOUT;
            detail = "no result after " + BOUND_MS + " ms";
          }
          long ms = (System.nanoTime() - start) / 1_000_000;
          msByOperator.merge(v.operator(), ms, Long::sum);
          if (ms > slowest) {
            slowest = ms;
            slowestWhat = v.operator() + " " + cmd;
          }
          List<String> outside = writtenOutsideMlv(dir, written);
          if (!outside.isEmpty()) {
            o = Outcome.WROTE_OUTSIDE;
            detail = outside.toString();
          }
          counts.merge(o, 1, Integer::sum);
          byOperator
              .computeIfAbsent(v.operator(), k -> new EnumMap<>(Outcome.class))
              .merge(o, 1, Integer::sum);
          if (o != Outcome.OK && o != Outcome.POSITIONED_ERROR && o != Outcome.UNPOSITIONED_ERROR) {
            problems.add(
                dir.getFileName() + " " + v.operator() + " " + cmd + ": " + o + " " + detail);
          }
          if (o == Outcome.UNPOSITIONED_ERROR) {
            unpositioned.add(v.operator() + " " + cmd + ": " + detail);
          }
        }
      }
    } finally {
      System.setErr(realErr);
      System.setOut(realOut);
      pool.shutdownNow();
    }
    long totalMs = (System.nanoTime() - t0) / 1_000_000;
    Set<String> rootNow = listing(root);
    rootNow.removeIf(n -> n.matches("v\\d{4}"));
    if (!rootNow.isEmpty()) {
      problems.add("written next to the variants: " + rootNow);
    }
    if (Files.exists(escaped) || Files.exists(tmp.resolve("escaped-warehouse"))) {
      problems.add("a hostile warehouse path was created");
    }
    Set<String> cwdNow = listing(Path.of(""));
    cwdNow.removeAll(cwdBefore);
    if (!cwdNow.isEmpty()) {
      problems.add("written to the working directory: " + cwdNow);
    }

    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            "seed=%d variants=%d runs=%d totalMs=%d slowestMs=%d (%s)%n",
            SEED,
            variants.size(),
            variants.size() * COMMANDS.length,
            totalMs,
            slowest,
            slowestWhat));
    report.append("outcomes ").append(counts).append('\n');
    byOperator.forEach(
        (op, c) ->
            report
                .append("  ")
                .append(op)
                .append(' ')
                .append(c)
                .append(' ')
                .append(msByOperator.get(op))
                .append(" ms\n"));
    new TreeSet<>(unpositioned)
        .stream().limit(40).forEach(u -> report.append("  unpositioned: ").append(u).append('\n'));
    System.out.print(report);
    Path out = Files.createDirectories(Path.of("target", "reliability"));
    Files.writeString(out.resolve("hostile.txt"), report + String.join("\n", problems));

    assertThat(variants.size()).isGreaterThanOrEqualTo(Math.min(VARIANTS, 1000));
    assertThat(problems).as(report.toString()).isEmpty();
  }

  private final List<String> unpositioned = new ArrayList<>();

  /**
   * {@code plan} against an empty local target must not start Spark: run in a class loader that
   * records every class asked for, over a sample of variants, no SparkContext may be loaded.
   */
  @Test
  void planOnMutantsNeverStartsSpark() throws Exception {
    Map<String, byte[]> base = readProject(Path.of("examples/medallion"));
    List<Mutator.Variant> variants =
        new Mutator(SEED + 1, base, tmp.resolve("x").toString())
            .variants(3 * Mutator.OPERATORS.length);
    Set<String> requested = ConcurrentHashMap.newKeySet();
    String[] entries =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
            .split(File.pathSeparator);
    URL[] urls = new URL[entries.length];
    for (int i = 0; i < entries.length; i++) {
      urls[i] = Path.of(entries[i]).toUri().toURL();
    }
    try (URLClassLoader loader =
        new URLClassLoader(urls, ClassLoader.getPlatformClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            requested.add(name);
            return super.loadClass(name, resolve);
          }
        }) {
      Method run =
          loader
              .loadClass(Main.class.getName())
              .getMethod("run", PrintWriter.class, PrintWriter.class, String[].class);
      int plans = 0;
      for (Mutator.Variant v : variants) {
        Path dir = tmp.resolve(String.format("p%04d", v.index()));
        write(dir, v.files());
        StringWriter sink = new StringWriter();
        run.invoke(
            null,
            new PrintWriter(sink),
            new PrintWriter(sink),
            new String[] {"plan", "-p", dir.toString()});
        plans++;
      }
      assertThat(plans).isEqualTo(variants.size());
      // SQLConf names SparkContext and DAGScheduler (to look for an active context), so the
      // fallback parser loads those classes; only a started context creates a task scheduler,
      // its local backend and an executor.
    }
    assertThat(requested).contains(Main.class.getName());
    assertThat(requested)
        .doesNotContain(
            "org.apache.spark.scheduler.TaskSchedulerImpl",
            "org.apache.spark.scheduler.local.LocalSchedulerBackend",
            "org.apache.spark.executor.Executor");
  }

  static Map<String, byte[]> readProject(Path dir) throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted()::iterator) {
        String rel = dir.relativize(p).toString();
        if (Files.isRegularFile(p) && !rel.startsWith(".mlv") && !rel.endsWith(".sh")) {
          files.put(rel, Files.readAllBytes(p));
        }
      }
    }
    return files;
  }

  /** Writes the files (a name the file system refuses is skipped) and returns what was written. */
  private static Map<String, byte[]> write(Path dir, Map<String, byte[]> files) throws IOException {
    Map<String, byte[]> written = new LinkedHashMap<>();
    for (var e : files.entrySet()) {
      try {
        Path f = dir.resolve(e.getKey()).normalize();
        if (!f.startsWith(dir)) {
          continue;
        }
        Files.createDirectories(f.getParent());
        Files.write(f, e.getValue());
        written.put(dir.relativize(f).toString(), e.getValue());
      } catch (java.nio.file.InvalidPathException ex) {
        // not a possible file name here
      }
    }
    return written;
  }

  /** Files in the variant's folder that we did not write, or changed, outside {@code .mlv/}. */
  private static List<String> writtenOutsideMlv(Path dir, Map<String, byte[]> written)
      throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        String rel = dir.relativize(p).toString();
        if (rel.isEmpty() || rel.equals(".mlv") || rel.startsWith(".mlv" + File.separator)) {
          continue;
        }
        if (Files.isDirectory(p)) {
          boolean ours =
              written.keySet().stream().anyMatch(w -> w.startsWith(rel + File.separator));
          if (!ours) {
            out.add(rel + "/");
          }
        } else if (!written.containsKey(rel)
            || !Arrays.equals(written.get(rel), Files.readAllBytes(p))) {
          out.add(rel);
        }
      }
    }
    return out;
  }

  private static Set<String> listing(Path dir) throws IOException {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> names.add(p.getFileName().toString()));
    }
    return names;
  }

  private static String firstLines(String s) {
    String[] lines = s.strip().split("\n");
    String joined = String.join(" | ", Arrays.copyOf(lines, Math.min(3, lines.length)));
    return joined.length() > 300 ? joined.substring(0, 300) + "..." : joined;
  }
}
