package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Planner;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.sql.MlvParser;
import dev.mlv.target.SqlResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of incremental refresh: random appends (and now and then an UPDATE or DELETE,
 * which must force a full refresh) are applied to the sources, and after every refresh each view
 * must equal a full recomputation of its SELECT, as a multiset. Seeds and steps default to a quick
 * run (one seed, two steps, to keep CI under its time limit); {@code -Dmlv.diff.seeds=N
 * -Dmlv.diff.steps=M} run more. Deterministic per seed.
 */
class IncrementalRefreshDifferentialTest {
  private static final String WS = "ws_diff";
  private static final String LH = "lh_diff";

  /** View file, its CREATE statement, and the query it must equal (constraints applied). */
  private record Shape(String name, String create, String expected) {}

  private static final List<Shape> SHAPES =
      List.of(
          new Shape(
              "silver.f",
              "CREATE MATERIALIZED LAKE VIEW silver.f\n"
                  + "(CONSTRAINT positive CHECK (v2 >= 0) ON MISMATCH DROP)\n"
                  + "AS SELECT k, g, v * 2 AS v2 FROM bronze.a WHERE k % 3 <> 0",
              "SELECT k, g, v * 2 AS v2 FROM bronze.a WHERE k % 3 <> 0 AND coalesce(v * 2 >= 0,"
                  + " false)"),
          new Shape(
              "silver.j",
              "CREATE MATERIALIZED LAKE VIEW silver.j AS\n"
                  + "SELECT a.k, a.v, b.w FROM bronze.a AS a JOIN bronze.b AS b ON a.k = b.k",
              "SELECT a.k, a.v, b.w FROM bronze.a AS a JOIN bronze.b AS b ON a.k = b.k"),
          new Shape(
              "silver.u",
              "CREATE MATERIALIZED LAKE VIEW silver.u AS\n"
                  + "SELECT k, v AS x FROM bronze.a UNION ALL SELECT k, w AS x FROM bronze.b"
                  + " WHERE w > 5",
              "SELECT k, v AS x FROM bronze.a UNION ALL SELECT k, w AS x FROM bronze.b WHERE w > 5"),
          new Shape(
              "silver.l",
              "CREATE MATERIALIZED LAKE VIEW silver.l AS\n"
                  + "SELECT a.k, a.v, b.w FROM bronze.a a LEFT JOIN bronze.b b ON a.k = b.k",
              "SELECT a.k, a.v, b.w FROM bronze.a a LEFT JOIN bronze.b b ON a.k = b.k"),
          // A CTE's tables are read where the CTE is used: in one UNION ALL branch, or on the
          // right side of a LEFT JOIN.
          new Shape(
              "silver.cu",
              "CREATE MATERIALIZED LAKE VIEW silver.cu AS\n"
                  + "WITH x AS (SELECT k, v FROM bronze.a WHERE v IS NOT NULL)\n"
                  + "SELECT k, v AS x FROM x UNION ALL SELECT k, w AS x FROM bronze.b",
              "SELECT k, v AS x FROM bronze.a WHERE v IS NOT NULL"
                  + " UNION ALL SELECT k, w AS x FROM bronze.b"),
          new Shape(
              "silver.cl",
              "CREATE MATERIALIZED LAKE VIEW silver.cl AS\n"
                  + "WITH r AS (SELECT k, w FROM bronze.b)\n"
                  + "SELECT a.k, a.v, r.w FROM bronze.a a LEFT JOIN r ON a.k = r.k",
              "SELECT a.k, a.v, b.w FROM bronze.a a LEFT JOIN bronze.b b ON a.k = b.k"),
          new Shape(
              "gold.agg",
              "CREATE MATERIALIZED LAKE VIEW gold.agg AS\n"
                  + "SELECT g, SUM(v) AS s, COUNT(*) AS n, COUNT(v) AS nv, MIN(v) AS mn,"
                  + " MAX(v) AS mx FROM bronze.a GROUP BY g",
              "SELECT g, SUM(v) AS s, COUNT(*) AS n, COUNT(v) AS nv, MIN(v) AS mn, MAX(v) AS mx"
                  + " FROM bronze.a GROUP BY g"),
          // Aggregates with FILTER merge like the bare ones (found by QA: planned full).
          new Shape(
              "gold.fagg",
              "CREATE MATERIALIZED LAKE VIEW gold.fagg AS\n"
                  + "SELECT g, COUNT(*) FILTER (WHERE v > 50) AS big, SUM(v) FILTER (WHERE k % 2 = 0)"
                  + " AS se, MIN(v) FILTER (WHERE v > 10) AS mn FROM bronze.a GROUP BY g",
              "SELECT g, COUNT(*) FILTER (WHERE v > 50) AS big, SUM(v) FILTER (WHERE k % 2 = 0)"
                  + " AS se, MIN(v) FILTER (WHERE v > 10) AS mn FROM bronze.a GROUP BY g"),
          // Spark's integer division, which Calcite's parser lacks: appended, and as a group key.
          new Shape(
              "silver.d",
              "CREATE MATERIALIZED LAKE VIEW silver.d AS\n"
                  + "SELECT k, v DIV 10 AS bucket FROM bronze.a WHERE v > 0",
              "SELECT k, v DIV 10 AS bucket FROM bronze.a WHERE v > 0"),
          new Shape(
              "gold.dagg",
              "CREATE MATERIALIZED LAKE VIEW gold.dagg AS\n"
                  + "SELECT v DIV 10 AS bucket, SUM(v) AS s, COUNT(*) AS n FROM bronze.a"
                  + " GROUP BY v DIV 10",
              "SELECT v DIV 10 AS bucket, SUM(v) AS s, COUNT(*) AS n FROM bronze.a"
                  + " GROUP BY v DIV 10"),
          new Shape(
              "gold.avg",
              "CREATE MATERIALIZED LAKE VIEW gold.avg AS\n"
                  + "SELECT g, AVG(v) AS av, COUNT(*) AS n FROM bronze.p GROUP BY g",
              "SELECT g, AVG(v) AS av, COUNT(*) AS n FROM bronze.p GROUP BY g"),
          // A self-join: ΔA⋈A_old ∪ A_new⋈ΔA holds every new pair once, ΔA⋈ΔA too.
          new Shape(
              "silver.sj",
              "CREATE MATERIALIZED LAKE VIEW silver.sj AS\n"
                  + "SELECT x.k, x.v AS v1, y.v AS v2 FROM bronze.a x JOIN bronze.a y"
                  + " ON x.k = y.k AND x.g = y.g",
              "SELECT x.k, x.v AS v1, y.v AS v2 FROM bronze.a x JOIN bronze.a y"
                  + " ON x.k = y.k AND x.g = y.g"),
          // Two filtered branches of one source: each new row reaches the branches it passes.
          new Shape(
              "silver.ua",
              "CREATE MATERIALIZED LAKE VIEW silver.ua AS\n"
                  + "SELECT k, v FROM bronze.a WHERE v > 10 UNION ALL SELECT k, v FROM bronze.a"
                  + " WHERE v < 5",
              "SELECT k, v FROM bronze.a WHERE v > 10 UNION ALL SELECT k, v FROM bronze.a"
                  + " WHERE v < 5"),
          // Merged partial aggregates of a join whose both sides get rows, grouped by a column of
          // each side of the same name (both selected).
          new Shape(
              "gold.jagg",
              "CREATE MATERIALIZED LAKE VIEW gold.jagg AS\n"
                  + "SELECT a.g AS ag, b.g AS bg, COUNT(*) AS n, SUM(b.w) AS s, MIN(a.v) AS mn"
                  + " FROM bronze.a a JOIN bronze.b b ON a.k = b.k GROUP BY a.g, b.g",
              "SELECT a.g AS ag, b.g AS bg, COUNT(*) AS n, SUM(b.w) AS s, MIN(a.v) AS mn"
                  + " FROM bronze.a a JOIN bronze.b b ON a.k = b.k GROUP BY a.g, b.g"),
          // One group without GROUP BY; COUNT(v) and MAX over NULLs.
          new Shape(
              "gold.glob",
              "CREATE MATERIALIZED LAKE VIEW gold.glob AS\n"
                  + "SELECT COUNT(*) AS n, COUNT(v) AS nv, SUM(v) AS s, MAX(v) AS mx FROM bronze.a",
              "SELECT COUNT(*) AS n, COUNT(v) AS nv, SUM(v) AS s, MAX(v) AS mx FROM bronze.a"),
          // QA: both were merged by a selected column that is not the group (Spark groups by the
          // column g before the alias g; by b.g beside the selected a.g): full, and right.
          new Shape(
              "gold.alias",
              "CREATE MATERIALIZED LAKE VIEW gold.alias AS\n"
                  + "SELECT g % 2 AS g, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY g",
              "SELECT g % 2 AS g, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY g"),
          // GROUP BY an alias no column of bronze.a has: Spark groups by the selected k % 3.
          new Shape(
              "gold.palias",
              "CREATE MATERIALIZED LAKE VIEW gold.palias AS\n"
                  + "SELECT k % 3 AS kk, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY kk",
              "SELECT k % 3 AS kk, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY k % 3"),
          // A bare user is the column of the view it reads, not the function.
          new Shape(
              "silver.who",
              "CREATE MATERIALIZED LAKE VIEW silver.who AS\n"
                  + "SELECT k, g AS user, v FROM bronze.a",
              "SELECT k, g AS user, v FROM bronze.a"),
          new Shape(
              "gold.who",
              "CREATE MATERIALIZED LAKE VIEW gold.who AS\n"
                  + "SELECT k, user, v FROM silver.who WHERE user > 1",
              "SELECT k, g AS user, v FROM bronze.a WHERE g > 1"),
          new Shape(
              "gold.jnot",
              "CREATE MATERIALIZED LAKE VIEW gold.jnot AS\n"
                  + "SELECT a.g AS ag, COUNT(*) AS n FROM bronze.a a JOIN bronze.b b ON a.k = b.k"
                  + " GROUP BY a.g, b.g",
              "SELECT a.g AS ag, COUNT(*) AS n FROM bronze.a a JOIN bronze.b b ON a.k = b.k"
                  + " GROUP BY a.g, b.g"),
          // QA: Spark 4 reads mx in mx * 2 as the alias of MAX(v) (a lateral column alias); merged
          // as a group key it kept a row per refresh in each group. Full; over the partitioned
          // source the touched groups are recomputed.
          new Shape(
              "gold.lca",
              "CREATE MATERIALIZED LAKE VIEW gold.lca AS\n"
                  + "SELECT g, MAX(v) AS mx, mx * 2 AS mx2, COUNT(*) AS n FROM bronze.a GROUP BY g",
              "SELECT g, MAX(v) AS mx, MAX(v) * 2 AS mx2, COUNT(*) AS n FROM bronze.a GROUP BY g"),
          new Shape(
              "gold.plca",
              "CREATE MATERIALIZED LAKE VIEW gold.plca AS\n"
                  + "SELECT g, SUM(v) AS s, s * 2 AS s2 FROM bronze.p GROUP BY g",
              "SELECT g, SUM(v) AS s, SUM(v) * 2 AS s2 FROM bronze.p GROUP BY g"),
          // An aggregate aliased like the column it groups by, that column selected after it: a
          // group key (Spark reads the FROM column first), not a lateral alias of the aggregate.
          new Shape(
              "gold.swap",
              "CREATE MATERIALIZED LAKE VIEW gold.swap AS\n"
                  + "SELECT SUM(v) AS g, MIN(k) AS mk, g AS gg FROM bronze.a GROUP BY g",
              "SELECT SUM(v) AS g, MIN(k) AS mk, g AS gg FROM bronze.a GROUP BY g"),
          new Shape(
              "gold.pswap",
              "CREATE MATERIALIZED LAKE VIEW gold.pswap AS\n"
                  + "SELECT AVG(v) AS g, g AS part, COUNT(*) AS n FROM bronze.p GROUP BY g",
              "SELECT AVG(v) AS g, g AS part, COUNT(*) AS n FROM bronze.p GROUP BY g"),
          new Shape(
              "gold.chain",
              "CREATE MATERIALIZED LAKE VIEW gold.chain AS\n"
                  + "SELECT k, v2 FROM silver.f WHERE v2 > 20",
              "SELECT k, v * 2 AS v2 FROM bronze.a WHERE k % 3 <> 0 AND v * 2 >= 0 AND v * 2 >"
                  + " 20"));

  private static final Map<String, String> SOURCES =
      Map.of("a", "k INT, g INT, v BIGINT", "b", "k INT, g INT, w BIGINT", "p", "g INT, v BIGINT");

  /**
   * The views each source feeds, for the "must be full after a rewrite" check; views whose SQL
   * always makes them full (gold.alias, gold.jnot, gold.lca) give that reason instead.
   */
  private static final Map<String, Set<String>> READERS =
      Map.of(
          "a",
          Set.of(
              "silver.f",
              "silver.j",
              "silver.u",
              "silver.l",
              "silver.cu",
              "silver.cl",
              "gold.agg",
              "silver.d",
              "gold.dagg",
              "silver.sj",
              "silver.ua",
              "gold.jagg",
              "gold.glob",
              "gold.palias",
              "silver.who",
              "gold.swap"),
          "b",
          Set.of("silver.j", "silver.u", "silver.l", "silver.cu", "silver.cl", "gold.jagg"),
          "p",
          Set.of("gold.avg", "gold.plca", "gold.pswap"));

  @TempDir Path dir;
  private LocalTarget target;

  @BeforeAll
  static void sharedContext() {
    LocalSparkTestSupport.runtime();
  }

  @AfterEach
  void close() {
    if (target != null) {
      target.close();
    }
  }

  @Test
  void afterEveryRefreshEachViewEqualsAFullRecomputation() throws IOException {
    int seeds = Integer.getInteger("mlv.diff.seeds", 1);
    int steps = Integer.getInteger("mlv.diff.steps", 2);
    Project p = setUp();
    Map<String, List<String>> contents = new HashMap<>();
    for (Shape shape : SHAPES) {
      contents.put(shape.name(), multiset(p, "SELECT * FROM " + shape.name()));
    }
    Map<String, Integer> incremental = new HashMap<>();
    for (int seed = 1; seed <= seeds; seed++) {
      Random random = new Random(seed);
      for (int step = 1; step <= steps; step++) {
        String where = "seed " + seed + " step " + step;
        Set<String> rewritten = new TreeSet<>();
        Map<ObjectId, Long> versions = viewVersions(p);
        // a and p get rows every step, b from the second step on, and no rewrite happens on a
        // seed's first step: every shape is refreshed incrementally at least once per seed.
        append(p, "a", random, 1 + random.nextInt(3));
        append(p, "p", random, 1 + random.nextInt(2));
        if (step > 1 && random.nextDouble() < 0.6) {
          append(p, "b", random, 1 + random.nextInt(2));
        }
        if (step > 1 && random.nextDouble() < 0.35) {
          String source = List.of("a", "b", "p").get(random.nextInt(3));
          rewrite(p, source, random);
          rewritten.add(source);
        }
        RunReport run = target.refresh(p, all(p), RunListener.NONE);
        assertThat(run.status()).as(where + " " + run).isEqualTo(RunStatus.Completed);
        Map<ObjectId, Long> after = viewVersions(p);
        Map<String, List<String>> now = new HashMap<>();
        for (Shape shape : SHAPES) {
          List<String> actual = multiset(p, "SELECT * FROM " + shape.name());
          assertThat(actual)
              .as(where + " " + shape.name() + " equals a full recomputation")
              .isEqualTo(multiset(p, shape.expected()));
          assertThat(viewSchema(p, shape.name()))
              .as(where + " " + shape.name() + " has the columns and types of a full recomputation")
              .isEqualTo(querySchema(shape.expected()));
          now.put(shape.name(), actual);
        }
        for (ViewRun v : run.views()) {
          String view = v.id().schema() + "." + v.id().name();
          String ctx = where + " " + view + " " + v.strategy() + " " + v.reason();
          if (v.strategy().equals("incremental")) {
            incremental.merge(view, 1, Integer::sum);
            if (view.startsWith("silver.") || view.equals("gold.chain")) {
              assertThat(v.rowsWritten())
                  .as(ctx + ": rowsWritten counts only the new rows")
                  .isEqualTo(now.get(view).size() - contents.get(view).size());
            }
          }
          // One commit per refreshed view, none for a skipped one.
          assertThat(after.get(v.id()) - versions.get(v.id()))
              .as(ctx)
              .isEqualTo(v.strategy().equals("skip") ? 0 : 1);
          for (String source : rewritten) {
            if (READERS.get(source).contains(view)) {
              assertThat(v.strategy()).as(ctx).isEqualTo("full");
              assertThat(v.reason()).as(ctx).startsWith("NON_APPEND_COMMIT source=");
            }
          }
        }
        contents = now;
      }
    }
    // The incremental path of every shape ran, not only full refreshes.
    assertThat(incremental.keySet())
        .as(incremental.toString())
        .contains(
            "silver.f",
            "silver.j",
            "silver.u",
            "silver.l",
            "silver.cu",
            "silver.cl",
            "gold.agg",
            "silver.d",
            "gold.dagg",
            "gold.avg",
            "gold.plca",
            "gold.swap",
            "gold.pswap",
            "gold.chain",
            "silver.sj",
            "silver.ua",
            "gold.jagg",
            "gold.glob",
            "gold.palias",
            "silver.who",
            "gold.who");
  }

  /**
   * A streaming append (a commit carrying a {@code txn} action) is refreshed incrementally; {@code
   * ALTER TABLE ... ADD COLUMNS} rewrites the source's metadata, so a view that reads {@code *}
   * gets the new column from the full refresh it forces (Spark expands {@code *} when the SELECT
   * runs, as a full recomputation does), then keeps it in the incremental refreshes after.
   */
  @Test
  void streamingAppendsAreIncrementalAndAnAddedColumnReachesStarViewsInFull() throws IOException {
    List<Shape> shapes =
        List.of(
            same("silver.star", "SELECT * FROM bronze.a"),
            same("silver.tstar", "SELECT t.*, t.v + 1 AS x FROM bronze.a t"),
            same("silver.jstar", "SELECT a.*, b.w FROM bronze.a a JOIN bronze.b b ON a.k = b.k"),
            same("gold.sagg", "SELECT g, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY g"));
    Project p = setUp(shapes);
    SparkSession spark = target.runtime().session();
    // What Structured Streaming writes: the files it adds, and a txn action for its batch.
    for (String insert :
        List.of("a VALUES (13, 1, 4), (14, 2, NULL)", "b VALUES (13, 1, 9), (14, 3, 2)")) {
      spark.conf().set("spark.databricks.delta.write.txnAppId", "stream_" + insert.charAt(0));
      spark.conf().set("spark.databricks.delta.write.txnVersion", "1");
      try {
        sql(p, "INSERT INTO " + LH + ".bronze." + insert);
      } finally {
        spark.conf().unset("spark.databricks.delta.write.txnAppId");
        spark.conf().unset("spark.databricks.delta.write.txnVersion");
      }
    }
    assertThat(Files.readString(Warehouse.commitFile(sourceDir("a"), 2))).contains("\"txn\"");
    Map<String, ViewRun> runs = refreshAndCompare(p, shapes, "txn append");
    assertThat(runs.values())
        .allSatisfy(v -> assertThat(v.reason()).as(v.id().toString()).startsWith("ONLY_APPENDS"));

    sql(p, "ALTER TABLE " + LH + ".bronze.a ADD COLUMNS (z STRING)");
    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (15, 3, 7, 'new'), (13, 2, 1, NULL)");
    runs = refreshAndCompare(p, shapes, "added column");
    for (String star : List.of("silver.star", "silver.tstar", "silver.jstar")) {
      assertThat(runs.get(star).reason()).as(star).startsWith("NON_APPEND_COMMIT source=bronze.a");
    }
    assertThat(viewSchema(p, "silver.tstar"))
        .isEqualTo("k INT, g INT, v BIGINT, z STRING, x BIGINT");

    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (16, 1, 2, 'later'), (14, 3, 5, 'b')");
    runs = refreshAndCompare(p, shapes, "append after the added column");
    assertThat(runs.values())
        .allSatisfy(v -> assertThat(v.reason()).as(v.id().toString()).startsWith("ONLY_APPENDS"));
  }

  /**
   * OPTIMIZE (here plain, ZORDER BY, and REORG ... APPLY (PURGE)) rewrites a source's files with
   * dataChange=false: the same rows in other files. Between appends it keeps the views incremental
   * (the change data feed across its version has only the appended rows), its files are no new data
   * for FULL_CHEAPER (the compacted file is the whole table), and alone it changes no row, so the
   * views are skipped and the next append is read across it. So are VACUUM's commits, which hold no
   * action but commitInfo.
   */
  @Test
  void anOptimizeBetweenAppendsChangesNoRowAndKeepsViewsIncremental() throws IOException {
    List<Shape> shapes =
        List.of(
            same("silver.of", "SELECT k, v FROM bronze.a WHERE v > 2"),
            same("silver.oj", "SELECT a.k, a.v, b.w FROM bronze.a a JOIN bronze.b b ON a.k = b.k"),
            same(
                "silver.ol",
                "SELECT a.k, a.v, b.w FROM bronze.a a LEFT JOIN bronze.b b ON a.k = b.k"),
            same("gold.oagg", "SELECT g, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY g"),
            same(
                "gold.owin",
                "SELECT k, v, row_number() OVER (PARTITION BY g ORDER BY k, v) AS r"
                    + " FROM bronze.a"),
            same("silver.osq", "SELECT k, v FROM bronze.a WHERE k IN (SELECT k FROM bronze.b)"));
    Project p = setUp(shapes);
    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (13, 1, 4), (14, 2, NULL)");
    sql(p, "OPTIMIZE " + LH + ".bronze.a");
    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (15, 1, 7), (13, 3, 9)");
    assertThat(Files.readString(Warehouse.commitFile(sourceDir("a"), 3)))
        .contains("\"operation\":\"OPTIMIZE\"")
        .contains("\"dataChange\":false");
    Map<String, ViewRun> runs = refreshAndCompare(p, shapes, "append, OPTIMIZE, append");
    for (String view : List.of("silver.of", "silver.oj", "silver.ol", "gold.oagg")) {
      assertThat(runs.get(view).reason()).as(view).startsWith("ONLY_APPENDS");
    }
    assertThat(runs.get("silver.of").rowsWritten()).isEqualTo(3);
    assertThat(runs.get("gold.owin").reason()).startsWith("WINDOW_FUNCTION");

    Map<ObjectId, Long> versions = viewVersions(p);
    sql(p, "OPTIMIZE " + LH + ".bronze.a ZORDER BY (v)");
    sql(p, "REORG TABLE " + LH + ".bronze.a APPLY (PURGE)");
    // VACUUM commits twice, VACUUM START and VACUUM END, with no action but commitInfo. Its file
    // listing runs one task per 10,000 by default: minutes on two cores.
    sql(p, "SET spark.sql.sources.parallelPartitionDiscovery.parallelism = 2");
    try {
      sql(p, "VACUUM " + LH + ".bronze.a");
    } finally {
      sql(p, "RESET spark.sql.sources.parallelPartitionDiscovery.parallelism");
    }
    assertThat(
            Files.readString(
                Warehouse.commitFile(
                    sourceDir("a"), Warehouse.latestCommit(sourceDir("a")).getAsLong())))
        .contains("\"operation\":\"VACUUM END\"");
    runs = refreshAndCompare(p, shapes, "OPTIMIZE and VACUUM alone");
    assertThat(runs.values())
        .allSatisfy(
            v -> {
              assertThat(v.strategy()).as(v.id().toString()).isEqualTo("skip");
              assertThat(v.reason()).as(v.id().toString()).startsWith("NO_DATA_CHANGE");
            });
    assertThat(viewVersions(p)).isEqualTo(versions);

    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (16, 2, 5), (14, 1, 3)");
    runs = refreshAndCompare(p, shapes, "append after OPTIMIZE and VACUUM alone");
    for (String view : List.of("silver.of", "silver.oj", "silver.ol", "gold.oagg")) {
      assertThat(runs.get(view).reason()).as(view).startsWith("ONLY_APPENDS");
    }
    assertThat(runs.get("silver.of").rowsWritten()).isEqualTo(2);

    // Only the other source rewrote its files: the same rows, so the right side of the left join
    // and the subquery's table are unchanged, and the join reads no change rows of it.
    sql(p, "OPTIMIZE " + LH + ".bronze.b");
    String added = "(3, 1, 6), (99, 2, 8), (7, 4, NULL)";
    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES " + added);
    runs = refreshAndCompare(p, shapes, "OPTIMIZE of the other source, append");
    for (String view : List.of("silver.of", "silver.oj", "silver.ol", "gold.oagg", "silver.osq")) {
      assertThat(runs.get(view).reason()).as(view).startsWith("ONLY_APPENDS");
    }
    String joined =
        " FROM VALUES " + added + " AS n(k, g, v) %s JOIN " + LH + ".bronze.b b USING (k)";
    assertThat(runs.get("silver.ol").rowsWritten())
        .isEqualTo(multiset(p, "SELECT *" + joined.formatted("LEFT")).size());
    assertThat(runs.get("silver.oj").rowsWritten())
        .isEqualTo(multiset(p, "SELECT *" + joined.formatted("INNER")).size());
  }

  /**
   * Without ANSI mode, Spark's SUM of decimals is NULL once the sum passes its precision, and stays
   * NULL as rows are added. A merge of the stored NULL with the new rows' sum cannot tell that NULL
   * from a group of NULL values, so the view is refreshed in full.
   */
  @Test
  void aDecimalSumThatOverflowedWithoutAnsiModeStaysNull() throws IOException {
    String sum =
        "SELECT g, SUM(CAST(v AS DECIMAL(38, 0)) * 1000000000000000000000000000000000000) AS s,"
            + " COUNT(*) AS n FROM bronze.a GROUP BY g";
    List<Shape> shapes =
        List.of(
            same("gold.dsum", sum),
            same("gold.isum", "SELECT g, SUM(v) AS s, COUNT(*) AS n FROM bronze.a GROUP BY g"));
    Project p = setUp(shapes, "    conf: {spark.sql.ansi.enabled: \"false\"}\n");
    // 99e36 more passes 10^38 in group 1 whatever it held; then a small value.
    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (13, 1, 99), (13, 1, 5)");
    Map<String, ViewRun> runs = refreshAndCompare(p, shapes, "overflow");
    assertThat(multiset(p, "SELECT s FROM gold.dsum WHERE g = 1")).containsExactly("null");
    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (14, 1, 1), (14, 2, 1)");
    // The dry run knows it from the target's conf and the view's column types, without Spark.
    RunReport dry =
        target.refresh(
            p,
            new RefreshRequest(
                new TreeSet<>(p.views().keySet()), false, 2, Duration.ofHours(1), true, Map.of()),
            RunListener.NONE);
    Map<String, String> planned = new HashMap<>();
    dry.views().forEach(v -> planned.put(v.id().name(), v.strategy() + " " + v.reason()));
    assertThat(planned.get("dsum")).startsWith("full DECIMAL_SUM_WITHOUT_ANSI col=s:");
    assertThat(planned.get("isum")).startsWith("incremental ONLY_APPENDS");
    runs = refreshAndCompare(p, shapes, "after the overflow");
    assertThat(runs.get("gold.dsum").reason()).startsWith("DECIMAL_SUM_WITHOUT_ANSI col=s");
    assertThat(runs.get("gold.isum").reason()).startsWith("ONLY_APPENDS");
  }

  /** Shapes QA found refreshed wrongly or failing, each checked after one append. */
  @Test
  void moreShapesEqualAFullRecomputationAfterAnAppend() throws IOException {
    List<Shape> shapes =
        List.of(
            // QA: the append selected its columns by name unquoted, k.id as a field id of k.
            same("silver.dot", "SELECT k AS `k.id`, v FROM bronze.a WHERE v > 0"),
            // QA: an aggregate mlv did not know, read as a plain function: a row per refresh.
            same(
                "gold.sova",
                "SELECT schema_of_variant_agg(parse_json(to_json(named_struct('v', v)))) AS sch"
                    + " FROM bronze.a"),
            same("silver.meta", "SELECT k, v, _metadata.file_size > 0 AS has FROM bronze.a"));
    Project p = setUp(shapes);
    sql(p, "INSERT INTO " + LH + ".bronze.a VALUES (13, 1, 4), (14, 2, NULL), (15, 2, 9)");
    Map<String, ViewRun> runs = refreshAndCompare(p, shapes, "append");
    assertThat(runs.get("silver.dot").reason()).startsWith("ONLY_APPENDS");
    assertThat(runs.get("gold.sova").reason())
        .startsWith("AGG_NEEDS_PARTITIONED_SOURCE fn=SCHEMA_OF_VARIANT_AGG");
    assertThat(runs.get("silver.meta").reason()).startsWith("FILE_METADATA");
  }

  private static Shape same(String name, String select) {
    return new Shape(name, "CREATE MATERIALIZED LAKE VIEW " + name + " AS\n" + select, select);
  }

  /** Refreshes every view; each must equal a full recomputation, rows and schema. By view name. */
  private Map<String, ViewRun> refreshAndCompare(Project p, List<Shape> shapes, String where) {
    RunReport run = target.refresh(p, all(p), RunListener.NONE);
    assertThat(run.status()).as(where + " " + run).isEqualTo(RunStatus.Completed);
    Map<String, ViewRun> byName = new HashMap<>();
    run.views().forEach(v -> byName.put(v.id().schema() + "." + v.id().name(), v));
    for (Shape shape : shapes) {
      String ctx = where + " " + shape.name() + " " + byName.get(shape.name()).reason();
      assertThat(multiset(p, "SELECT * FROM " + shape.name()))
          .as(ctx + " equals a full recomputation")
          .isEqualTo(multiset(p, shape.expected()));
      assertThat(viewSchema(p, shape.name()))
          .as(ctx + " has the columns and types of a full recomputation")
          .isEqualTo(querySchema(shape.expected()));
    }
    return byName;
  }

  private Path sourceDir(String source) {
    return target.warehouse().tableDir(new ObjectId(WS, LH, "bronze", source));
  }

  // ---- set-up and changes ----

  private Project setUp() throws IOException {
    return setUp(SHAPES);
  }

  private Project setUp(List<Shape> shapes) throws IOException {
    return setUp(shapes, "");
  }

  /** {@code conf}: the local target's extra Spark configuration, as YAML lines under it. */
  private Project setUp(List<Shape> shapes, String conf) throws IOException {
    write(
        "mlv.yml",
        "name: diff\nworkspace: "
            + WS
            + "\nlakehouse: "
            + LH
            + "\nschema: dbo\n"
            + "sources: [bronze.a, bronze.b, bronze.p]\n"
            + "defaults:\n  enable_cdf: true\n  parallelism: 2\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n"
            + conf);
    for (Shape s : shapes) {
      write("views/" + s.name().replace('.', '/') + ".sql", s.create() + "\n");
    }
    Project p = load();
    target = LocalTargetContractTest.open(p);
    sql(p, "CREATE SCHEMA IF NOT EXISTS " + LH + ".bronze");
    Random random = new Random(0);
    for (var e : new java.util.TreeMap<>(SOURCES).entrySet()) {
      sql(
          p,
          "CREATE TABLE "
              + LH
              + ".bronze."
              + e.getKey()
              + " ("
              + e.getValue()
              + ") USING delta"
              + (e.getKey().equals("p") ? " PARTITIONED BY (g)" : "")
              + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')");
      // Several files from the start, so that one small append is not "half the table".
      List<String> rows = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        rows.add(values(e.getKey(), random));
      }
      sql(
          p,
          "INSERT INTO "
              + LH
              + ".bronze."
              + e.getKey()
              + " SELECT /*+ REPARTITION(4) */ * FROM VALUES "
              + String.join(", ", rows));
    }
    var plan =
        new Planner(Clock.systemUTC())
            .plan(
                p, target.name(), target.state(p), new TreeSet<>(p.views().keySet()), true, false);
    RunReport applied = target.apply(p, plan, RunListener.NONE);
    assertThat(applied.status()).as(applied.toString()).isEqualTo(RunStatus.Completed);
    return p;
  }

  private void append(Project p, String source, Random random, int n) {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(values(source, random));
    }
    sql(p, "INSERT INTO " + LH + ".bronze." + source + " VALUES " + String.join(", ", rows));
  }

  /** An UPDATE or a DELETE: a commit that removes files, so readers must refresh in full. */
  private void rewrite(Project p, String source, Random random) {
    String table = LH + ".bronze." + source;
    String column = source.equals("b") ? "w" : "v";
    if (random.nextBoolean()) {
      sql(
          p,
          "UPDATE "
              + table
              + " SET "
              + column
              + " = "
              + column
              + " + 1 WHERE k % 2 = 0".replace("k % 2", source.equals("p") ? "g % 2" : "k % 2"));
    } else {
      sql(p, "DELETE FROM " + table + " WHERE " + (source.equals("p") ? "g" : "k") + " = 3");
    }
  }

  private static String values(String source, Random r) {
    String v = r.nextInt(8) == 0 ? "NULL" : String.valueOf(r.nextInt(36) - 5);
    return switch (source) {
      case "a" -> "(" + (1 + r.nextInt(12)) + ", " + (1 + r.nextInt(4)) + ", " + v + ")";
      case "b" -> "(" + (1 + r.nextInt(12)) + ", " + (1 + r.nextInt(3)) + ", " + v + ")";
      default -> "(" + (1 + r.nextInt(4)) + ", " + v + ")";
    };
  }

  // ---- reading ----

  private List<String> multiset(Project p, String query) {
    return sql(p, query).rows().stream()
        .map(
            r ->
                r.stream()
                    .map(IncrementalRefreshDifferentialTest::cell)
                    .collect(Collectors.joining("|")))
        .sorted()
        .toList();
  }

  /** Doubles (AVG) compared to 9 digits: summation order may differ in the last bits. */
  private static String cell(String value) {
    if (value != null && value.matches("-?\\d+\\.\\d+(E-?\\d+)?")) {
      return String.format(Locale.ROOT, "%.9f", Double.parseDouble(value));
    }
    return String.valueOf(value);
  }

  /** Column names and SQL types of a view's Delta table, as a reader of it sees them. */
  private String viewSchema(Project p, String view) {
    String[] parts = view.split("\\.");
    String path = target.warehouse().tableDir(new ObjectId(WS, LH, parts[0], parts[1])).toString();
    return schema(target.runtime().session().read().format("delta").load(path).schema());
  }

  /** Column names and SQL types of a query's result, resolved now (a full recomputation's). */
  private String querySchema(String query) {
    String qualified = query.replaceAll("\\b(bronze|silver|gold)\\.", LH + ".$1.");
    return schema(target.runtime().session().sql(qualified).schema());
  }

  private static String schema(org.apache.spark.sql.types.StructType type) {
    return java.util.Arrays.stream(type.fields())
        .map(f -> f.name() + " " + f.dataType().sql())
        .collect(Collectors.joining(", "));
  }

  private Map<ObjectId, Long> viewVersions(Project p) {
    Map<ObjectId, Long> out = new java.util.TreeMap<>();
    target.state(p).views().forEach((id, v) -> out.put(id, v.version()));
    return out;
  }

  private static RefreshRequest all(Project p) {
    return new RefreshRequest(
        new TreeSet<>(p.views().keySet()), false, 2, Duration.ofHours(1), false, Map.of());
  }

  private SqlResult sql(Project p, String sql) {
    return target.sql(p, MlvParser.parse(Position.start(null), sql).statements().get(0));
  }

  private Project load() {
    LoadResult loaded = ProjectLoader.load(dir, Map.of());
    assertThat(loaded.hasErrors()).as(loaded.diagnostics().toString()).isFalse();
    ProjectConfig config = loaded.orThrow();
    Project p =
        new ProjectBuilder()
            .build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    assertThat(p.hasErrors()).as(p.diagnostics().toString()).isFalse();
    return p;
  }

  private void write(String relative, String text) throws IOException {
    Path f = dir.resolve(relative);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text, StandardCharsets.UTF_8);
  }
}
