package dev.mlv.project;

import dev.mlv.diag.Position;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A local Spark + Delta target; {@code warehouse} is absolute and inside the project root. {@code
 * conf} is extra Spark configuration, in file order, and {@code confAt} the place of each value in
 * mlv.yml (none for a target not read from it). {@code files} maps OneLake folders ({@code
 * abfss://...} URLs, as file-ingesting views name them) to absolute local folders.
 */
public record SparkTarget(
    String name,
    Path warehouse,
    String master,
    Map<String, String> conf,
    Map<String, Path> files,
    Map<String, Position> confAt)
    implements TargetConfig {

  public static final String DEFAULT_WAREHOUSE = ".mlv/warehouse";
  public static final String DEFAULT_MASTER = "local[*]";

  public SparkTarget {
    conf = Collections.unmodifiableMap(new LinkedHashMap<>(conf));
    files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
    confAt = Map.copyOf(confAt);
  }

  public SparkTarget(
      String name,
      Path warehouse,
      String master,
      Map<String, String> conf,
      Map<String, Path> files) {
    this(name, warehouse, master, conf, files, Map.of());
  }

  public SparkTarget(String name, Path warehouse, String master, Map<String, String> conf) {
    this(name, warehouse, master, conf, Map.of());
  }

  /**
   * Whether Spark runs this target's SQL with {@code spark.sql.ansi.enabled} false, told without
   * starting it: the target's {@code conf} first, else a {@code -Dspark.sql.ansi.enabled} the JVM
   * was given (Spark's conf reads those), else Spark 4's default, on unless the environment sets
   * {@code SPARK_ANSI_SQL_MODE=false}.
   */
  public boolean ansiOff() {
    return ansiOffBy().isPresent();
  }

  /**
   * What turns ANSI mode off for this target, said for a reason ("target local's conf", "the
   * environment variable SPARK_ANSI_SQL_MODE"); empty when it is on.
   */
  public java.util.Optional<String> ansiOffBy() {
    String set = null;
    for (var e : conf.entrySet()) {
      if (e.getKey().trim().equalsIgnoreCase(ANSI)) {
        set = e.getValue();
      }
    }
    String by = "spark.sql.ansi.enabled in target " + name + "'s conf";
    if (set == null) {
      set = System.getProperty(ANSI);
      by = "the JVM option -D" + ANSI;
    }
    if (set == null) {
      set = System.getenv("SPARK_ANSI_SQL_MODE");
      by = "the environment variable SPARK_ANSI_SQL_MODE";
    }
    return set != null && "false".equalsIgnoreCase(set.trim())
        ? java.util.Optional.of(by)
        : java.util.Optional.empty();
  }

  private static final String ANSI = "spark.sql.ansi.enabled";

  /** The target every project has even when mlv.yml declares none. */
  public static SparkTarget implicitLocal(Path root) {
    return new SparkTarget(
        "local", root.resolve(DEFAULT_WAREHOUSE).normalize(), DEFAULT_MASTER, Map.of());
  }

  // Conf values may be storage keys interpolated from ${env:...}, so only keys are shown.
  @Override
  public String toString() {
    String keys =
        conf.keySet().stream().map(k -> k + "=****").collect(Collectors.joining(", ", "{", "}"));
    return "SparkTarget[name="
        + name
        + ", warehouse="
        + warehouse
        + ", master="
        + master
        + ", conf="
        + keys
        + ", files="
        + files
        + "]";
  }
}
