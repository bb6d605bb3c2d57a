import dev.mlv.diag.Position;
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
import dev.mlv.sql.MlvParser;
import dev.mlv.target.local.LocalTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Incremental vs full refresh of the same views in one JVM, through LocalTarget as `mlv refresh`
 * runs them: a ROWS-row source with change data feed on, a filter/projection view and a
 * SUM/COUNT group-by view. Each repetition appends 1% new rows and refreshes (optimal: expected
 * incremental), then appends 1% again and refreshes with --full. Prints each view's medians and
 * the ratio incremental / full (target: <= 0.15).
 *
 * <p>One repetition runs first untimed: {@code apply} has already run the full refresh path once
 * (JIT, generated code), and the incremental path must be as warm before the two are compared.
 *
 * <p>Run with bench/incremental.sh, or: java --add-opens... -cp target/classes:target/lib/*
 * bench/IncrementalRefresh.java ROWS REPS DIR
 */
public class IncrementalRefresh {
  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path dir = Path.of(args.length > 2 ? args[2] : "/tmp/mlv-bench/incremental");
    Files.createDirectories(dir.resolve("views/silver"));
    Files.createDirectories(dir.resolve("views/gold"));
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: bench_incremental\nworkspace: bench_ws\nlakehouse: bench_lh\nschema: dbo\n"
            + "sources: [bronze.big]\n"
            + "defaults:\n  enable_cdf: true\n  parallelism: 1\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + sparkConf(System.getenv("MLV_BENCH_CONF")));
    Files.writeString(
        dir.resolve("views/silver/big_filtered.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.big_filtered\n"
            + "(CONSTRAINT positive CHECK (amount >= 0) ON MISMATCH DROP)\n"
            + "AS SELECT id, customer_id, amount, amount * 1.21 AS gross, event_date\n"
            + "FROM bronze.big WHERE event_date >= DATE'2026-01-01'\n");
    Files.writeString(
        dir.resolve("views/gold/by_customer.sql"),
        "CREATE MATERIALIZED LAKE VIEW gold.by_customer AS\n"
            + "SELECT customer_id, SUM(amount) AS total, COUNT(*) AS orders\n"
            + "FROM bronze.big GROUP BY customer_id\n");
    LoadResult loaded = ProjectLoader.load(dir);
    ProjectConfig config = loaded.orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    SparkTarget local = (SparkTarget) config.target("local").orElseThrow();
    try (LocalTarget target = new LocalTarget(config, local, false)) {
      long t0 = System.nanoTime();
      sql(target, project, "CREATE SCHEMA IF NOT EXISTS bench_lh.bronze");
      sql(
          target,
          project,
          "CREATE OR REPLACE TABLE bench_lh.bronze.big USING delta"
              + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true') AS "
              + source(0, rows));
      System.out.printf("bronze.big: %,d rows written in %.1f s%n", rows, secs(t0));
      t0 = System.nanoTime();
      var plan =
          new Planner(Clock.systemUTC())
              .plan(
                  project,
                  target.name(),
                  target.state(project),
                  new TreeSet<>(project.views().keySet()),
                  true,
                  false);
      RunReport applied = target.apply(project, plan, RunListener.NONE);
      System.out.printf("apply (two full refreshes): %s in %.1f s%n", applied.status(), secs(t0));

      long next = rows;
      long step = Math.max(1, rows / 100);
      Map<String, List<Double>> inc = new TreeMap<>();
      Map<String, List<Double>> full = new TreeMap<>();
      for (int i = 0; i <= reps; i++) {
        sql(target, project, "INSERT INTO bench_lh.bronze.big " + source(next, step));
        next += step;
        RunReport incremental = refresh(target, project, false);
        sql(target, project, "INSERT INTO bench_lh.bronze.big " + source(next, step));
        next += step;
        RunReport fullRun = refresh(target, project, true);
        if (i == 0) {
          print(incremental, "warm-up", 0);
          print(fullRun, "warm-up", 0);
          continue;
        }
        record(inc, incremental, "incremental", i);
        record(full, fullRun, "full", i);
      }
      for (String view : inc.keySet()) {
        double mi = median(inc.get(view));
        double mf = median(full.get(view));
        System.out.printf(
            "%-24s median of %d: incremental %.2f s, full %.2f s, ratio %.3f (target <= 0.15)%n",
            view, reps, mi, mf, mi / mf);
      }
    }
  }

  /** Extra Spark settings for a trial, {@code key=value;key=value}, as the target's conf map. */
  private static String sparkConf(String settings) {
    if (settings == null || settings.isBlank()) {
      return "";
    }
    StringBuilder yaml = new StringBuilder("    conf:\n");
    for (String kv : settings.split(";")) {
      int eq = kv.indexOf('=');
      String key = kv.substring(0, eq).trim();
      String value = kv.substring(eq + 1).trim();
      yaml.append("      \"").append(key).append("\": \"").append(value).append("\"\n");
    }
    System.out.println("# extra Spark conf: " + settings);
    return yaml.toString();
  }

  private static String source(long from, long count) {
    return "SELECT id, id % 10007 AS customer_id, CAST(id % 997 AS DOUBLE) - 3 AS amount,"
        + " date_add(DATE'2026-01-01', CAST(id % 365 AS INT)) AS event_date FROM range("
        + from
        + ", "
        + (from + count)
        + ")";
  }

  private static RunReport refresh(LocalTarget target, Project project, boolean full) {
    return target.refresh(
        project,
        new RefreshRequest(
            new TreeSet<>(project.views().keySet()), full, 1, Duration.ofHours(2), false, Map.of()),
        RunListener.NONE);
  }

  private static void record(Map<String, List<Double>> into, RunReport run, String label, int i) {
    print(run, label, i);
    for (ViewRun v : run.views()) {
      String name = v.id().schema() + "." + v.id().name();
      into.computeIfAbsent(name, k -> new ArrayList<>()).add(v.durationMs() / 1000.0);
    }
  }

  private static void print(RunReport run, String label, int i) {
    for (ViewRun v : run.views()) {
      String name = v.id().schema() + "." + v.id().name();
      System.out.printf(
          "run %d %-11s %-24s %-11s %7.2f s  rows %,d  %s%n",
          i,
          label,
          name,
          v.strategy(),
          v.durationMs() / 1000.0,
          v.rowsWritten(),
          v.reason());
    }
  }

  private static void sql(LocalTarget target, Project project, String sql) {
    target.sql(project, MlvParser.parse(Position.start(null), sql).statements().get(0));
  }

  private static double secs(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
