package dev.mlv.target.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * One Spark session for the whole test JVM (starting Spark costs seconds). Each test class works in
 * lakehouses of its own, registered with {@link #lakehouse}, inside one temporary warehouse.
 */
final class LocalSparkTestSupport {

  static final String WORKSPACE = "ws_test";
  static final String DEFAULT_LAKEHOUSE = "lh_default";

  private static SparkRuntime runtime;

  private LocalSparkTestSupport() {}

  static synchronized SparkRuntime runtime() {
    if (runtime == null) {
      Path warehouse;
      try {
        warehouse = Files.createTempDirectory("mlv-warehouse-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      SparkRuntime started =
          new SparkRuntime(
              SparkRuntime.Settings.of(warehouse, WORKSPACE, DEFAULT_LAKEHOUSE, "dbo"));
      started.session();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    started.close();
                    Warehouse.deleteTree(warehouse);
                  }));
      runtime = started;
    }
    return runtime;
  }

  static SparkSession spark() {
    return runtime().session();
  }

  /** Registers a lakehouse in {@code workspace} and returns its lower-case name. */
  static String lakehouse(String workspace, String lakehouse) {
    runtime().registerLakehouse(workspace, lakehouse);
    return lakehouse.toLowerCase(java.util.Locale.ROOT);
  }
}
