package dev.mlv.target.local;

import java.nio.file.Path;
import java.util.Map;

/**
 * Runs {@link DeltaState#scan} in a child JVM whose class path has no Spark jar, printing one line
 * per table; proves that reading state needs no Spark class.
 */
public final class KernelProbe {

  private KernelProbe() {}

  public static void main(String[] args) {
    if (KernelProbe.class.getClassLoader().getResource("org/apache/spark/sql/SparkSession.class")
        != null) {
      System.out.println("SPARK ON CLASS PATH");
      System.exit(2);
    }
    for (TableState t : new DeltaState(Map.of(), args[1]).scan(Path.of(args[0]))) {
      System.out.println(
          t.id() + " v" + t.version() + " " + new java.util.TreeMap<>(t.properties()));
    }
  }

  /** Starts the probe on the test class path minus Spark's and Delta-Spark's jars. */
  static String run(Path warehouse, String defaultWorkspace) throws Exception {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String withoutSpark =
        java.util.Arrays.stream(classPath.split(java.io.File.pathSeparator))
            .filter(e -> !e.contains("/org/apache/spark/") && !e.contains("delta-spark"))
            .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
    Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                javaBin.toString(),
                "-cp",
                withoutSpark,
                KernelProbe.class.getName(),
                warehouse.toString(),
                defaultWorkspace)
            .redirectErrorStream(true)
            .start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new AssertionError("probe failed:\n" + out);
    }
    return out;
  }
}
