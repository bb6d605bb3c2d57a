import dev.mlv.plan.Planner;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.project.SparkTarget;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.ViewRun;
import dev.mlv.target.local.LocalTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Incremental file ingestion against a full re-read, in one JVM: a file view (CSV, APPEND_ONLY)
 * over a folder of FILES files is created, then REPS times ADD new files are dropped and the view
 * is refreshed (only the new files are read), and the same view is refreshed with FULL (the whole
 * folder is read again). Prints each refresh and the medians.
 *
 * <p>Run with bench/files.sh, or: java --add-opens... -cp target/classes:target/lib/*
 * bench/FileIngest.java FILES ROWS_PER_FILE ADD REPS PROJECT_DIR
 */
public class FileIngest {
  public static void main(String[] args) throws Exception {
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int add = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int reps = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Path root = Path.of(args.length > 4 ? args[4] : "/tmp/mlv-bench/files-project");
    Files.createDirectories(root.resolve("views"));
    Files.writeString(
        root.resolve("mlv.yml"),
        "name: bench\nworkspace: bench_ws\nlakehouse: bench_lh\nschema: dbo\n"
            + "defaults: {enable_cdf: false}\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n    files:\n      \"abfss://bench_ws@onelake.dfs.fabric"
            + ".microsoft.com/bench_lh.Lakehouse/Files/drops/\": landing\n");
    Files.writeString(
        root.resolve("views/raw.sql"),
        "CREATE MATERIALIZED LAKE VIEW bronze.raw USING OneLake_Files OPTIONS ('format' = 'csv',"
            + " 'header' = 'true', 'path' = 'abfss://bench_ws@onelake.dfs.fabric.microsoft.com/"
            + "bench_lh.Lakehouse/Files/drops/') TBLPROPERTIES ('refresh_mode' = 'APPEND_ONLY')\n");
    long t0 = System.nanoTime();
    int next = 0;
    for (; next < files; next++) {
      drop(root, next, rows);
    }
    System.out.printf(
        "%d files of %d rows written in %.1f s%n", files, rows, (System.nanoTime() - t0) / 1e9);

    LoadResult loaded = ProjectLoader.load(root, Map.of());
    ProjectConfig config = loaded.orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    SparkTarget local = (SparkTarget) config.target("local").orElseThrow();
    try (LocalTarget target = new LocalTarget(config, local, false)) {
      var plan =
          new Planner(Clock.systemUTC())
              .plan(project, "local", target.state(project), new TreeSet<>(project.views().keySet()), true, false);
      print("create", target.apply(project, plan, RunListener.NONE));
      List<Double> incremental = new ArrayList<>();
      List<Double> full = new ArrayList<>();
      for (int i = 1; i <= reps; i++) {
        for (int k = 0; k < add; k++) {
          drop(root, next++, rows);
        }
        incremental.add(print("+" + add + " files, incremental", refresh(target, project, false)));
        full.add(print("FULL refresh", refresh(target, project, true)));
      }
      System.out.printf(
          "median over %d runs: incremental %.2f s, full %.2f s, full/incremental %.1fx%n",
          reps, median(incremental), median(full), median(full) / median(incremental));
    }
  }

  private static RunReport refresh(LocalTarget target, Project project, boolean full) {
    return target.refresh(
        project,
        new RefreshRequest(
            new TreeSet<>(project.views().keySet()), full, 1, Duration.ofHours(1), false, Map.of()),
        RunListener.NONE);
  }

  private static double print(String what, RunReport run) {
    ViewRun v = run.views().get(0);
    double s = v.durationMs() / 1000.0;
    System.out.printf(
        "%-28s %-11s %7.2f s  files %s  rows %,d  (%s)%n",
        what,
        v.strategy(),
        s,
        v.files().map(f -> String.valueOf(f.ingested())).orElse("-"),
        v.rowsWritten(),
        v.error().orElse(v.reason()));
    return s;
  }

  private static void drop(Path root, int n, int rows) throws IOException {
    Path f = root.resolve(String.format("landing/day%03d/file%05d.csv", n / 100, n));
    Files.createDirectories(f.getParent());
    StringBuilder sb = new StringBuilder("id,customer,amount,event_date\n");
    for (int r = 0; r < rows; r++) {
      long id = (long) n * rows + r;
      sb.append(id).append(",c").append(id % 997).append(',').append(id % 1000 / 10.0)
          .append(",2026-09-").append(String.format("%02d", 1 + id % 28)).append('\n');
    }
    Files.writeString(f, sb);
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
