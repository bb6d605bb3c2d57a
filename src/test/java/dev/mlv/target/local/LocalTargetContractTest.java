package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.SparkTarget;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.sql.MlvParser;
import dev.mlv.target.Target;
import dev.mlv.target.TargetContractTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The target contract on the embedded engine; sources are loaded with {@code mlv sql}. */
class LocalTargetContractTest extends TargetContractTest {

  /**
   * The JVM's one SparkContext keeps its scratch folder in the warehouse of the first runtime;
   * starting it from the shared test runtime keeps it out of this class's temporary folders.
   */
  @BeforeAll
  static void sharedContext() {
    LocalSparkTestSupport.runtime();
  }

  /**
   * What {@code refresh --dry-run} says each view will get is what the run then does, down a chain
   * where an upstream view's refresh decides the downstream one (an append keeps a merge
   * incremental, a window stays full for its SQL, a rewrite forces full).
   */
  @Test
  void aDryRunGivesTheStrategiesAndReasonsOfTheRunThatFollows() throws IOException {
    enableCdf();
    write(
        "views/gold/ranked.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.ranked AS\n"
            + "SELECT id, row_number() OVER (ORDER BY id) AS n FROM silver.orders_clean\n");
    write(
        "views/gold/positive.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.positive AS\n"
            + "SELECT id FROM silver.orders_clean WHERE id > 0\n");
    write(
        "views/gold/both.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.both AS\n"
            + "SELECT o.id FROM silver.orders_clean o JOIN bronze.orders b ON o.id = b.id\n");
    Project p = applied();
    int id = 100;
    for (boolean append : new boolean[] {true, false}) {
      loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(id++, "d", 5.0)), append);
      RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
      RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
      assertThat(real.status()).as(describe(real)).isEqualTo(RunStatus.Completed);
      assertThat(decisions(dry))
          .as(describe(dry) + "\n" + describe(real))
          .isEqualTo(decisions(real));
      if (append) {
        // Its bronze source and its upstream view both bring new rows: the reason names both.
        assertThat(
                dry.views().stream()
                    .filter(v -> v.id().name().equals("both"))
                    .findFirst()
                    .orElseThrow()
                    .reason())
            .contains("bronze.orders")
            .contains("upstream silver.orders_clean appends its new rows first in this run");
      }
    }
  }

  /**
   * A bronze append big enough for FULL_CHEAPER, and an upstream view rewritten in the same run:
   * the run decides the rewrite (D5) before the share of new data, so must its dry run.
   */
  @Test
  void aDryRunNamesAnUpstreamRewriteBeforeFullCheaper() throws IOException {
    enableCdf();
    write(
        "views/gold/ranked.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.ranked AS\n"
            + "SELECT id, row_number() OVER (ORDER BY id) AS n FROM silver.orders_clean\n");
    write(
        "views/gold/after_ranked.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.after_ranked AS\n"
            + "SELECT r.id, b.amount FROM gold.ranked r JOIN bronze.orders b ON r.id = b.id\n");
    Project p = applied();
    List<List<Object>> many = new java.util.ArrayList<>();
    for (int id = 1000; id < 3000; id++) {
      many.add(List.of(id, "c" + id, id * 1.5));
    }
    loadSource(p, orders(), ORDER_COLUMNS, many, true);
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
    assertThat(real.status()).as(describe(real)).isEqualTo(RunStatus.Completed);
    assertThat(decisions(dry)).as(describe(dry) + "\n" + describe(real)).isEqualTo(decisions(real));
    assertThat(decisions(real))
        .as(describe(real))
        .anyMatch(d -> d.startsWith("gold.after_ranked full NON_APPEND_COMMIT source=gold.ranked"));
  }

  /**
   * A view whose source has a non-append commit and whose subquery reads an upstream view refreshed
   * in the same run: the run decides the subquery's condition (D4) before the kind of commit (D5),
   * so must its dry run (found by QA: the dry run said NON_APPEND_COMMIT, the run
   * SUBQUERY_TABLE_CHANGED).
   */
  @Test
  void aDryRunDecidesASubqueryOnAnUpstreamViewBeforeANonAppendCommit() throws IOException {
    enableCdf();
    write(
        "views/gold/from_top.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.from_top AS\n"
            + "SELECT id, amount - (SELECT MAX(amount) FROM silver.orders_clean) AS below\n"
            + "FROM bronze.orders\n");
    Project p = applied();
    sql(p, "DELETE FROM bronze.orders WHERE id = 1");
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(60, "f", 7.0)), true);
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
    assertThat(real.status()).as(describe(real)).isEqualTo(RunStatus.Completed);
    assertThat(decisions(real))
        .as(describe(real))
        .contains("gold.from_top full SUBQUERY_TABLE_CHANGED");
    assertThat(decisions(dry)).as(describe(dry) + "\n" + describe(real)).isEqualTo(decisions(real));
  }

  /**
   * SHOW MATERIALIZED LAKE VIEWS tells when a view last took new data, an incremental refresh
   * included (found by QA: it showed the time of the last full refresh while the version moved on).
   */
  @Test
  void lastRefreshedMovesWithAnIncrementalRefresh() throws IOException {
    enableCdf();
    Project p = applied();
    java.time.Instant before = lastRefreshed(p, "orders_clean");
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(50, "e", 2.0)), true);
    RunReport run = target.refresh(p, dryRun(p, false), RunListener.NONE);
    assertThat(decisions(run))
        .as(describe(run))
        .contains("silver.orders_clean incremental ONLY_APPENDS");
    assertThat(lastRefreshed(p, "orders_clean")).isAfter(before);
  }

  /**
   * A rename rewrites the stored statement in a SET TBLPROPERTIES commit, which refreshes nothing
   * (found by QA: SHOW MATERIALIZED LAKE VIEWS gave the rename's time as lastRefreshed).
   */
  @Test
  void lastRefreshedStaysWhenAViewIsRenamed() throws IOException {
    Project p = applied();
    java.time.Instant before = lastRefreshed(p, "orders_clean");
    sql(p, "ALTER MATERIALIZED LAKE VIEW silver.orders_clean RENAME TO silver.orders_renamed");
    assertThat(lastRefreshed(p, "orders_renamed")).isEqualTo(before);
  }

  private java.time.Instant lastRefreshed(Project p, String view) {
    var shown = sql(p, "SHOW MATERIALIZED LAKE VIEWS");
    return shown.rows().stream()
        .filter(r -> r.get(1).equals(view))
        .map(r -> java.time.Instant.parse(r.get(2)))
        .findFirst()
        .orElseThrow();
  }

  /**
   * A view over a source and an upstream view that appends in the same run: the run weighs the new
   * data against both tables for FULL_CHEAPER, so must its dry run (found by QA: the dry run took
   * the source's share alone, 50%, and planned a rebuild; the run went incremental).
   */
  @Test
  void aDryRunWeighsAnAppendingUpstreamViewsDataForFullCheaper() throws IOException {
    enableCdf();
    Path yml = dir.resolve("mlv.yml");
    Files.writeString(
        yml,
        Files.readString(yml)
            .replace("sources: [bronze.orders]", "sources: [bronze.orders, bronze.kinds]"));
    write(
        "views/gold/labelled.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.labelled AS\n"
            + "SELECT o.id, k.label FROM silver.orders_clean o JOIN bronze.kinds k ON o.id = k.id\n");
    Project p = project();
    String kindColumns = "id INT, label STRING";
    loadSource(p, id("bronze.kinds"), kindColumns, List.of(List.of(1, "one")), false);
    List<List<Object>> many = new ArrayList<>();
    for (int id = 1; id <= 300; id++) {
      many.add(List.of(id, "c" + id, id * 1.5));
    }
    loadSource(p, orders(), ORDER_COLUMNS, many, false);
    RunReport applied = target.apply(p, plan(p, false), RunListener.NONE);
    assertThat(applied.status()).as(describe(applied)).isEqualTo(RunStatus.Completed);
    // As big an append to kinds as kinds was: half of its data is new.
    loadSource(p, id("bronze.kinds"), kindColumns, List.of(List.of(2, "two")), true);
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(301, "d", 5.0)), true);
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
    assertThat(real.status()).as(describe(real)).isEqualTo(RunStatus.Completed);
    assertThat(decisions(real))
        .as(describe(real))
        .contains("gold.labelled incremental ONLY_APPENDS");
    assertThat(decisions(dry)).as(describe(dry) + "\n" + describe(real)).isEqualTo(decisions(real));
  }

  /**
   * An upstream view created with change data feed on whose enable_cdf is then turned off: its full
   * refresh writes the table without the feed, so the view below it is full for CDF_OFF, in the dry
   * run as in the run (found by QA: the dry run read the feed from the table as it is before the
   * refresh and said NON_APPEND_COMMIT).
   */
  @Test
  void aDryRunKnowsAnUpstreamRewriteLeavesTheFeedOffWhenEnableCdfIsOff() throws IOException {
    enableCdf();
    applied();
    Path yml = dir.resolve("mlv.yml");
    Files.writeString(
        yml,
        Files.readString(yml)
            .replace(
                "targets:\n",
                "view_config:\n  silver.orders_clean:\n    enable_cdf: false\ntargets:\n"));
    Project p = project();
    sql(p, "UPDATE bronze.orders SET amount = amount + 1");
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
    assertThat(real.status()).as(describe(real)).isEqualTo(RunStatus.Completed);
    assertThat(decisions(real))
        .as(describe(real))
        .contains("gold.by_customer full CDF_OFF source=silver.orders_clean");
    assertThat(decisions(dry)).as(describe(dry) + "\n" + describe(real)).isEqualTo(decisions(real));
  }

  /**
   * Rows a source took while its change data feed was off are not in the feed that apply turns on
   * afterwards: the next refresh rebuilds the view rather than fail reading them (found by QA).
   */
  @Test
  void rowsCommittedBeforeApplyTurnsTheFeedOnAreNotReadFromIt() throws IOException {
    enableCdf();
    Project p = applied();
    sql(p, "ALTER TABLE bronze.orders SET TBLPROPERTIES (delta.enableChangeDataFeed = false)");
    RunReport rebuilt = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(rebuilt.status()).as(describe(rebuilt)).isEqualTo(RunStatus.Completed);
    loadSource(p, orders(), ORDER_COLUMNS, List.of(row(9, "c", 4.0)), true);
    var plan = plan(p, false);
    assertThat(plan.enableCdf()).as(plan.toString()).isNotEmpty();
    target.apply(p, plan, RunListener.NONE);
    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views())
        .filteredOn(v -> v.id().name().equals("orders_clean"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.strategy()).isEqualTo("full");
              assertThat(v.reason())
                  .startsWith("CDF_OFF source=bronze.orders")
                  .contains("change data feed was turned on at version");
            });
    assertThat(rows(p, "SELECT id FROM silver.orders_clean WHERE id = 9")).containsExactly("9");
  }

  /**
   * apply's own commit turning a source's feed on changes no row: a view only a full refresh can
   * serve (AVG over an unpartitioned source) is skipped, not rebuilt, at the next refresh, in the
   * dry run as in the run (found by QA: adding an incremental view on a shared source made the next
   * refresh rebuild every full-only view reading it, for AGG_NEEDS_PARTITIONED_SOURCE).
   */
  @Test
  void applyTurningTheFeedOnLeavesAFullOnlyViewSkipped() throws IOException {
    enableCdf();
    write(
        "views/gold/mean.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.mean AS\n"
            + "SELECT customer, avg(amount) AS mean FROM bronze.orders GROUP BY customer\n");
    Project p = applied();
    sql(p, "ALTER TABLE bronze.orders SET TBLPROPERTIES (delta.enableChangeDataFeed = false)");
    RunReport rebuilt = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(rebuilt.status()).as(describe(rebuilt)).isEqualTo(RunStatus.Completed);
    var plan = plan(p, false);
    assertThat(plan.enableCdf()).as(plan.toString()).isNotEmpty();
    target.apply(p, plan, RunListener.NONE);
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
    assertThat(decisions(real))
        .as(describe(real))
        .contains("gold.mean skip NO_DATA_CHANGE", "silver.orders_clean skip NO_DATA_CHANGE");
    assertThat(decisions(dry)).as(describe(dry)).isEqualTo(decisions(real));
  }

  /** A view that reads no table has nothing new after its first refresh: it is skipped. */
  @Test
  void aViewThatReadsNoTableIsSkippedOnceRefreshed() throws IOException {
    write(
        "views/gold/constants.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.constants AS\n"
            + "SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(id, name)\n");
    Project p = applied();
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
    assertThat(decisions(real)).as(describe(real)).contains("gold.constants skip NO_NEW_COMMITS");
    assertThat(decisions(dry)).as(describe(dry)).isEqualTo(decisions(real));
  }

  /**
   * The dry run and the run give every view below a failure the same reason (found by QA: the dry
   * run said a view whose upstream the run skips "will fail", with UPSTREAM_FAILED where the run
   * said UPSTREAM_SKIPPED): the direct upstream named, UPSTREAM_SKIPPED naming the failure at the
   * root.
   */
  @Test
  void aDryRunSaysOfAViewBelowASkippedOneWhatTheRunSays() throws IOException {
    write(
        "views/gold/top.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.top AS SELECT customer FROM gold.by_customer"
            + " WHERE total > 1\n");
    Project p = applied();
    sql(p, "DROP TABLE " + LAKEHOUSE + ".bronze.orders");
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, dryRun(p, false), RunListener.NONE);
    String missing = "SOURCE_MISSING source=bronze.orders";
    assertThat(dry.views())
        .as(describe(dry))
        .extracting(v -> v.id().shortName() + " " + v.reason())
        .contains(
            "gold.by_customer UPSTREAM_FAILED: upstream silver.orders_clean will fail ("
                + missing
                + "), so this view will be skipped",
            "gold.top UPSTREAM_SKIPPED: upstream gold.by_customer will be skipped because"
                + " silver.orders_clean will fail ("
                + missing
                + "), so this view will be skipped");
    assertThat(real.views())
        .as(describe(real))
        .extracting(v -> v.id().shortName() + " " + v.reason())
        .contains(
            "gold.by_customer UPSTREAM_FAILED: upstream silver.orders_clean failed",
            "gold.top UPSTREAM_SKIPPED: upstream gold.by_customer was skipped because"
                + " silver.orders_clean failed");
    assertThat(dry.views())
        .extracting(v -> v.id().shortName() + " " + v.reason().replaceAll(":.*", ""))
        .isEqualTo(
            real.views().stream()
                .map(v -> v.id().shortName() + " " + v.reason().replaceAll(":.*", ""))
                .toList());
  }

  /**
   * A source dropped and created again restarts its versions: three appends to the new table bring
   * it past the version the view consumed, which must not read as "only appends".
   */
  @Test
  void aSourceDroppedAndCreatedAgainIsReadAgainInFull() throws IOException {
    Project p = applied();
    String orders = LAKEHOUSE + ".bronze.orders";
    sql(p, "DROP TABLE " + orders);
    // Until it is back, the dry run says the view fails and what reads it is skipped.
    RunReport dry = target.refresh(p, dryRun(p, true), RunListener.NONE);
    assertThat(dry.views().get(0).reason())
        .as(describe(dry))
        .startsWith("SOURCE_MISSING source=bronze.orders");
    assertThat(dry.views().subList(1, dry.views().size()))
        .as(describe(dry))
        .isNotEmpty()
        .allSatisfy(
            v ->
                assertThat(v.strategy() + " " + v.reason())
                    .startsWith(
                        "none UPSTREAM_FAILED: upstream silver.orders_clean will fail"
                            + " (SOURCE_MISSING source=bronze.orders)"));
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(101, "z", 1.0)));
    for (int id = 102; id <= 104; id++) {
      loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(id, "z", 1.0)), true);
    }
    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views().get(0).reason())
        .as(describe(run))
        .startsWith("SOURCE_RECREATED source=bronze.orders");
    assertThat(rows(p, "SELECT id FROM " + LAKEHOUSE + ".silver.orders_clean ORDER BY id"))
        .containsExactly("101", "102", "103", "104");
  }

  /**
   * Another table renamed into a source's place (found by QA): created before the view's last
   * refresh and at a higher version already, so neither its versions nor its first commit tell. Its
   * commits since the consumed version must not be appended to the old table's rows.
   */
  @Test
  void aSourceSwappedInByRenameIsReadAgainInFull() throws IOException {
    Project p = applied();
    String orders = LAKEHOUSE + ".bronze.orders";
    sql(
        p,
        "CREATE TABLE "
            + orders
            + "_new (id INT, customer STRING, amount DOUBLE) USING delta"
            + " TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    sql(p, "INSERT INTO " + orders + "_new VALUES (4, 'n', 4.0), (5, 'n', 5.0), (6, 'n', 6.0)");
    // The view is refreshed after the new table's creation (the old one gets the feed on, so the
    // view reading the new one would be incremental but for its table id).
    sql(p, "ALTER TABLE " + orders + " SET TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(9, "c", 9.0)), true);
    RunReport first = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(decisions(first))
        .as(describe(first))
        .anyMatch(d -> d.startsWith("silver.orders_clean full NON_APPEND_COMMIT"));
    sql(p, "INSERT INTO " + orders + "_new VALUES (7, 'n', 7.0)");
    sql(p, "INSERT INTO " + orders + "_new VALUES (8, 'n', 8.0)");
    // The new name is in the table's lakehouse (catalog), as Spark reads RENAME TO.
    sql(p, "ALTER TABLE " + orders + " RENAME TO bronze.orders_old");
    sql(p, "ALTER TABLE " + orders + "_new RENAME TO bronze.orders");

    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views().get(0).reason())
        .as(describe(run))
        .startsWith("SOURCE_RECREATED source=bronze.orders: bronze.orders is not the table");
    assertThat(rows(p, "SELECT id FROM " + LAKEHOUSE + ".silver.orders_clean ORDER BY id"))
        .containsExactly("4", "5", "6", "7", "8");
  }

  /**
   * A source's folder put back from a copy taken before the last refresh (found by QA): it keeps
   * its table id, and its next commit takes the version number the view already read, so versions
   * alone said NO_NEW_COMMITS and the view kept a row the source no longer had and lacked a new
   * one. The id of the commit read at that version tells.
   */
  @Test
  void aSourceRestoredFromACopyIsReadAgainInFull() throws IOException {
    Project p = applied();
    String orders = LAKEHOUSE + ".bronze.orders";
    sql(p, "ALTER TABLE " + orders + " SET TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    target.refresh(p, request(p, false), RunListener.NONE);
    Path table = dir.resolve(".mlv/warehouse/" + LAKEHOUSE + ".Lakehouse/Tables/bronze/orders");
    Path copy = Files.createTempDirectory("orders-copy");
    copyTree(table, copy);
    sql(p, "INSERT INTO " + orders + " VALUES (600, 'a', 1.0)");
    RunReport first = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(first.status()).as(describe(first)).isEqualTo(RunStatus.Completed);
    assertThat(rows(p, "SELECT id FROM " + LAKEHOUSE + ".silver.orders_clean WHERE id >= 600"))
        .containsExactly("600");
    deleteTree(table);
    copyTree(copy, table);
    org.apache.spark.sql.delta.DeltaLog.clearCache();
    sql(p, "INSERT INTO " + orders + " VALUES (700, 'b', 1.0)");

    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views().get(0).reason())
        .as(describe(run))
        .startsWith("SOURCE_RECREATED source=bronze.orders: bronze.orders is not the table")
        .contains("its commit at v");
    assertThat(rows(p, "SELECT id FROM " + LAKEHOUSE + ".silver.orders_clean WHERE id >= 600"))
        .containsExactly("700");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path t = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(t);
        } else {
          Files.copy(f, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(f);
      }
    }
  }

  /** Spark reports a failure inside a write as TASK_WRITE_FAILED; the cause is what to show. */
  @Test
  void aFailureInsideAnAppendNamesWhatFailedNotTheWrite() throws IOException {
    enableCdf();
    write(
        "views/gold/ratio.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.ratio AS\n"
            + "SELECT id, 10 / (id - 4) AS r FROM silver.orders_clean\n");
    Project p = applied();
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(4, "d", 5.0)), true);
    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(run.views())
        .filteredOn(v -> v.id().shortName().equals("gold.ratio"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.strategy()).as(describe(run)).isEqualTo("incremental");
              assertThat(v.error().orElseThrow())
                  .contains("DIVIDE_BY_ZERO")
                  .doesNotContain("TASK_WRITE_FAILED")
                  // the division, in the view's file, though Spark ran mlv's rewritten SQL
                  .contains("ratio.sql:2:12: error[REFRESH_FAILED]");
            });
  }

  /** A row that makes a CHECK expression fail (not break the rule): the place is the CHECK. */
  @Test
  void aFailureInsideACheckIsPlacedAtTheCheck() throws IOException {
    write(
        "views/gold/checked.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.checked (\n"
            + "  CONSTRAINT sane CHECK (10 / (id - id) > 0) ON MISMATCH DROP\n"
            + ") AS SELECT id FROM silver.orders_clean\n");
    Project p = loadOrders();
    RunReport run = target.apply(p, plan(p, false), RunListener.NONE);
    assertThat(run.views())
        .filteredOn(v -> v.id().shortName().equals("gold.checked"))
        .singleElement()
        .satisfies(
            v ->
                assertThat(v.error().orElseThrow())
                    .contains("DIVIDE_BY_ZERO")
                    .contains("checked.sql:2:26: error[REFRESH_FAILED]"));
  }

  /**
   * Spark's indexes count code points: after emoji (in a comment above, and on the same line) the
   * failing expression is still placed where it is written, in characters (found by QA).
   */
  @Test
  void aFailureAfterEmojiIsPlacedAtItsCharacterColumn() throws IOException {
    write(
        "views/gold/emoji.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.emoji AS\n"
            + "-- \uD83D\uDE80\uD83D\uDE80\uD83D\uDE80 launch\n"
            + "SELECT '\uD83D\uDE00\uD83D\uDE00' AS r, id, 1 / (id - id) AS d FROM"
            + " silver.orders_clean\n");
    Project p = loadOrders();
    RunReport run = target.apply(p, plan(p, false), RunListener.NONE);
    assertThat(run.views())
        .filteredOn(v -> v.id().shortName().equals("gold.emoji"))
        .singleElement()
        .satisfies(
            v ->
                assertThat(v.error().orElseThrow())
                    .contains("DIVIDE_BY_ZERO")
                    .contains("emoji.sql:3:23: error[REFRESH_FAILED]"));
  }

  /** Spark writes data files before the commit; a first refresh that fails must not leave them. */
  @Test
  void aFailedFirstRefreshLeavesNoFilesBehind() throws IOException {
    write(
        "views/gold/broken.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.broken AS\n"
            + "SELECT id, id / (id - id) AS d FROM silver.orders_clean\n");
    Project p = loadOrders();
    RunReport run = target.apply(p, plan(p, false), RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .filteredOn(v -> v.id().shortName().equals("gold.broken"))
        .singleElement()
        .satisfies(v -> assertThat(v.error().orElseThrow()).contains("DIVIDE_BY_ZERO"));
    Path tables = dir.resolve(".mlv/warehouse/" + LAKEHOUSE + ".Lakehouse/Tables");
    assertThat(tables.resolve("gold/broken")).doesNotExist();
    assertThat(tables.resolve("silver/orders_clean/_delta_log")).isDirectory();
  }

  /** Views get change data feed, so that the views below them can refresh incrementally. */
  private void enableCdf() throws IOException {
    Path yml = dir.resolve("mlv.yml");
    Files.writeString(yml, Files.readString(yml).replace("enable_cdf: false", "enable_cdf: true"));
  }

  static RefreshRequest dryRun(Project p, boolean dryRun) {
    return new RefreshRequest(
        new TreeSet<>(p.views().keySet()), false, 1, Duration.ofHours(1), dryRun, Map.of());
  }

  /** Each view's strategy and reason code with its parameters (the sentences differ). */
  static List<String> decisions(RunReport run) {
    return run.views().stream()
        .map(v -> v.id().shortName() + " " + v.strategy() + " " + v.reason().split(":", 2)[0])
        .toList();
  }

  @Override
  protected Target newTarget(Project project) {
    return open(project);
  }

  static LocalTarget open(Project project) {
    SparkTarget local = (SparkTarget) project.config().target("local").orElseThrow();
    return new LocalTarget(project.config(), local, false);
  }

  @Override
  protected void loadSource(
      Project project, ObjectId table, String columns, List<List<Object>> rows, boolean append) {
    load(target, project, table, columns, rows, append);
  }

  /** One commit: CREATE OR REPLACE TABLE ... AS SELECT, or INSERT INTO ... SELECT. */
  static void load(
      Target target,
      Project project,
      ObjectId table,
      String columns,
      List<List<Object>> rows,
      boolean append) {
    String name = table.lakehouse() + "." + table.schema() + "." + table.name();
    run(target, project, "CREATE SCHEMA IF NOT EXISTS " + table.lakehouse() + "." + table.schema());
    String[] cols = columns.split(",");
    List<String> select = new ArrayList<>();
    List<String> aliases = new ArrayList<>();
    for (int i = 0; i < cols.length; i++) {
      String[] nameType = cols[i].strip().split("\\s+", 2);
      select.add("CAST(c" + i + " AS " + nameType[1] + ") AS " + nameType[0]);
      aliases.add("c" + i);
    }
    List<String> values = new ArrayList<>();
    for (List<Object> r : rows) {
      List<String> cells = new ArrayList<>();
      for (Object v : r) {
        cells.add(
            v == null
                ? "NULL"
                : v instanceof String s ? "'" + s.replace("'", "\\'") + "'" : String.valueOf(v));
      }
      values.add("(" + String.join(", ", cells) + ")");
    }
    String query =
        "SELECT "
            + String.join(", ", select)
            + " FROM VALUES "
            + String.join(", ", values)
            + " AS t("
            + String.join(", ", aliases)
            + ")";
    run(
        target,
        project,
        append
            ? "INSERT INTO " + name + " " + query
            : "CREATE OR REPLACE TABLE " + name + " USING delta AS " + query);
  }

  static void run(Target target, Project project, String sql) {
    target.sql(project, MlvParser.parse(Position.start(null), sql).statements().get(0));
  }
}
