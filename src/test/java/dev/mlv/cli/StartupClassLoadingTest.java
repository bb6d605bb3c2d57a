package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands that must start in well under a second load no Spark class at all: each runs the
 * whole CLI in a fresh class loader that records every class it is asked for, so classes other
 * tests already loaded cannot hide a load.
 */
class StartupClassLoadingTest {
  private static final class RecordingLoader extends URLClassLoader {
    final Set<String> requested = ConcurrentHashMap.newKeySet();

    RecordingLoader(URL[] urls) {
      super(urls, ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      requested.add(name);
      return super.loadClass(name, resolve);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"--version", "validate", "lineage --dot", "plan"})
  void noSparkClassLoads(String command) throws Exception {
    String example = Path.of("examples/medallion").toAbsolutePath().toString();
    String[] args =
        command.equals("--version")
            ? new String[] {"--version"}
            : (command + " -p " + example).split(" ");
    assertNoSparkClassLoads(args, ExitCodes.OK, ExitCodes.CHANGES);
  }

  /** Plan reads the columns of the sources in the warehouse from their Delta logs, not Spark's. */
  @Test
  void planCheckingTheColumnsOfSourcesLoadsNoSparkClass(@TempDir Path dir) throws Exception {
    SourceColumnsPlanTest.project(dir, "SELECT id, amout FROM silver.s\n");
    String err =
        assertNoSparkClassLoads(new String[] {"plan", "-p", dir.toString()}, ExitCodes.ERROR);
    assertThat(err).contains("error[UNRESOLVED_COLUMN]: column amout cannot be resolved");
  }

  /**
   * {@code mlv runs} reads the history table Spark wrote with Delta Kernel: listing runs starts no
   * Spark (found by QA: 20 s to a minute on two cores), and reads back what the run recorded.
   */
  @Test
  void runsReadsTheHistoryTableWithoutSpark(@TempDir Path dir) throws Exception {
    java.nio.file.Files.createDirectories(dir.resolve("views"));
    java.nio.file.Files.writeString(
        dir.resolve("mlv.yml"),
        "name: hk\nworkspace: hk_ws\nlakehouse: hk_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.readings\n"
            + "targets:\n  local: {type: spark, warehouse: .mlv/warehouse, master: \"local[2]\"}\n");
    java.nio.file.Files.writeString(
        dir.resolve("views/positive.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.positive\n"
            + "(CONSTRAINT positive CHECK (reading > 0) ON MISMATCH DROP)\n"
            + "AS SELECT device_id, reading FROM bronze.readings\n");
    for (String[] args :
        List.of(
            new String[] {"sql", "CREATE SCHEMA IF NOT EXISTS bronze"},
            new String[] {
              "sql", "CREATE TABLE bronze.readings (device_id STRING, reading INT) USING delta"
            },
            new String[] {"sql", "INSERT INTO bronze.readings VALUES ('d1', 1), ('d2', -2)"},
            new String[] {"apply", "--auto-approve", "--quiet"})) {
      CliRun r = CliRun.inProject(dir, args);
      assertThat(r.exitCode()).as(r.toString()).isZero();
    }
    StringWriter out = new StringWriter();
    assertNoSparkClassLoads(
        out, new String[] {"runs", "--format", "json", "-p", dir.toString()}, ExitCodes.OK);
    com.fasterxml.jackson.databind.JsonNode run =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(out.toString())
            .path("runs")
            .get(0);
    assertThat(run.path("run").path("status").asText()).as(out.toString()).isEqualTo("Completed");
    com.fasterxml.jackson.databind.JsonNode view = run.path("views").get(0);
    assertThat(view.path("id").asText()).as(out.toString()).endsWith("silver.positive");
    assertThat(view.path("rowsWritten").asLong()).isEqualTo(1);
    assertThat(view.path("rowsDropped").asLong()).isEqualTo(1);
    assertThat(view.path("violations").toString()).isEqualTo("{\"positive\":1}");
  }

  private static String assertNoSparkClassLoads(String[] args, Integer... codes) throws Exception {
    return assertNoSparkClassLoads(new StringWriter(), args, codes);
  }

  /** Runs the CLI in a recording class loader; returns what it printed on stderr. */
  private static String assertNoSparkClassLoads(StringWriter out, String[] args, Integer... codes)
      throws Exception {
    String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
    URL[] urls = new URL[entries.length];
    for (int i = 0; i < entries.length; i++) {
      urls[i] = Path.of(entries[i]).toUri().toURL();
    }
    // Left open: Delta Kernel's Hadoop registers a shutdown hook whose classes come from it.
    RecordingLoader loader = new RecordingLoader(urls);
    Class<?> main = loader.loadClass(Main.class.getName());
    Method run = main.getMethod("run", PrintWriter.class, PrintWriter.class, String[].class);
    StringWriter err = new StringWriter();
    // As in a real launch, the context class loader is the one that loaded mlv: Hadoop (under
    // Delta Kernel) loads its classes through it and fails when it is another.
    Thread self = Thread.currentThread();
    ClassLoader before = self.getContextClassLoader();
    Object code;
    self.setContextClassLoader(loader);
    try {
      code = run.invoke(null, new PrintWriter(out), new PrintWriter(err), args);
    } finally {
      self.setContextClassLoader(before);
    }
    assertThat(code).as(out + "\n" + err).isIn((Object[]) codes);
    assertThat(loader.requested).contains(Main.class.getName());
    assertThat(loader.requested)
        .as("Spark classes loaded by 'mlv %s'", String.join(" ", args))
        .noneMatch(name -> name.startsWith("org.apache.spark") || name.startsWith("scala."));
    return err.toString();
  }
}
