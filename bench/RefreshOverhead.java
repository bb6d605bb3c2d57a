import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OnMismatch;
import dev.mlv.target.local.MaterializeRequest;
import dev.mlv.target.local.MaterializeResult;
import dev.mlv.target.local.SparkRuntime;
import dev.mlv.target.local.ViewMaterializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Same-JVM comparison of a view refresh (mlv's ViewMaterializer: constraints counted with
 * accumulators, one Delta commit) against a plain Spark CTAS of the same SELECT on the same
 * SparkRuntime. Runs the two alternately REPS times after one warm-up each and prints the median
 * of each and their ratio (target: <= 1.15).
 *
 * <p>Run with bench/refresh.sh, or: java --add-opens... -cp target/classes:target/lib/*
 * bench/RefreshOverhead.java ROWS REPS WAREHOUSE_DIR
 */
public class RefreshOverhead {
  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path warehouse = Path.of(args.length > 2 ? args[2] : "/tmp/mlv-bench/refresh-wh");
    Files.createDirectories(warehouse);
    String ws = "bench_ws";
    String lh = "bench_lh";
    try (SparkRuntime runtime =
        new SparkRuntime(SparkRuntime.Settings.of(warehouse, ws, lh, "dbo"))) {
      var spark = runtime.session();
      runtime.use(lh, "bronze");
      runtime.use(lh, "silver");
      long t0 = System.nanoTime();
      spark.sql(
          "CREATE OR REPLACE TABLE "
              + lh
              + ".bronze.big USING delta AS SELECT id, id % 10007 AS customer_id,"
              + " CAST(id % 997 AS DOUBLE) - 3 AS amount,"
              + " date_add(DATE'2026-01-01', CAST(id % 365 AS INT)) AS event_date"
              + " FROM range("
              + rows
              + ")");
      System.out.printf("bronze.big: %,d rows written in %.1f s%n", rows, secs(t0));

      String select =
          "SELECT id, customer_id, amount, amount * 1.21 AS gross, event_date FROM "
              + lh
              + ".bronze.big WHERE event_date >= DATE'2026-01-01'";
      List<Constraint> constraints =
          List.of(
              new Constraint("positive", "amount >= 0", OnMismatch.DROP, null),
              new Constraint("has_customer", "customer_id IS NOT NULL", OnMismatch.DROP, null));
      ViewMaterializer materializer = new ViewMaterializer(runtime);
      ObjectId view = new ObjectId(ws, lh, "silver", "v_big");
      MaterializeRequest request =
          new MaterializeRequest(view, select, constraints, List.of(), Optional.empty(), Map.of());
      String ctas = "CREATE OR REPLACE TABLE " + lh + ".silver.plain_big USING delta AS " + select;

      List<Double> plain = new ArrayList<>();
      List<Double> refresh = new ArrayList<>();
      MaterializeResult last = null;
      for (int i = 0; i <= reps; i++) { // i == 0 is the warm-up of both
        long a = System.nanoTime();
        spark.sql(ctas);
        double p = secs(a);
        long b = System.nanoTime();
        last = materializer.materialize(request);
        double r = secs(b);
        System.out.printf(
            "%s %d: plain CTAS %.2f s, view refresh %.2f s%n",
            i == 0 ? "warm-up" : "run", i, p, r);
        if (i > 0) {
          plain.add(p);
          refresh.add(r);
        }
      }
      double mp = median(plain);
      double mr = median(refresh);
      System.out.printf(
          "rows written %,d, dropped %,d, violations %s%n",
          last.rowsWritten(), last.rowsDropped(), last.violations());
      System.out.printf(
          "median of %d: plain CTAS %.2f s, view refresh %.2f s, ratio %.3f (target <= 1.15)%n",
          reps, mp, mr, mr / mp);
    }
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
