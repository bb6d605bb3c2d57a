package dev.mlv.target.local;

/** Starts the test JVM's one Spark session, for test packages other than this one. */
public final class SharedSpark {
  private SharedSpark() {}

  public static void start() {
    LocalSparkTestSupport.runtime();
  }

  /** Loads source rows through any target's {@code sql}, as the local contract test does. */
  public static void load(
      dev.mlv.target.Target target,
      dev.mlv.project.Project project,
      dev.mlv.lineage.ObjectId table,
      String columns,
      java.util.List<java.util.List<Object>> rows,
      boolean append) {
    LocalTargetContractTest.load(target, project, table, columns, rows, append);
  }
}
