package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Change;
import dev.mlv.plan.Plan;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.target.DeployedState;
import dev.mlv.target.SqlResult;
import dev.mlv.target.TargetContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Fabric target against the catalog-only simulator: what it sends for plan, apply, refresh,
 * runs and sql, and how it reads back what Fabric did.
 */
class FabricTargetTest {
  @TempDir Path dir;
  SimulatedFabric fabric;

  @BeforeEach
  void start() {
    fabric = new SimulatedFabric(dir);
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  private ObjectId id(String shortName) {
    String[] p = shortName.split("\\.");
    return new ObjectId(SimulatedFabric.WORKSPACE, SimulatedFabric.LAKEHOUSE, p[0], p[1]);
  }

  private Project applied() {
    Project p = fabric.withOrders();
    RunReport run = fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    return p;
  }

  @Test
  void anEmptyLakehouseHasNoViewsAndNoRuns() {
    Project p = fabric.project();
    DeployedState state = fabric.target.state(p);
    assertThat(state.views()).isEmpty();
    assertThat(state.tables()).isEmpty();
    assertThat(fabric.target.runs(10)).isEmpty();
  }

  @Test
  void applyCreatesManagedViewsOverLivyAndTheNextPlanIsEmpty() {
    Project p = fabric.withOrders();
    Plan plan = fabric.plan(p, false);
    assertThat(plan.changes()).allMatch(Change.Create.class::isInstance).hasSize(2);

    RunReport run = fabric.target.apply(p, plan, RunListener.NONE);

    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status())
        .containsExactly("silver.orders_clean Completed", "gold.by_customer Completed");
    DeployedState state = fabric.target.state(p);
    assertThat(state.views().keySet())
        .containsExactly(id("gold.by_customer"), id("silver.orders_clean"));
    assertThat(state.view(id("gold.by_customer")).orElseThrow().managed()).isTrue();
    assertThat(state.view(id("gold.by_customer")).orElseThrow().definition())
        .doesNotContain(FabricSql.MANAGED);
    assertThat(state.tables()).containsKey(id("bronze.orders"));
    String sent = fabric.simulator.lakehouse(fabric.lakehouseId).mlvs.get("gold.by_customer");
    assertThat(sent).startsWith("CREATE OR REPLACE MATERIALIZED LAKE VIEW gold.by_customer");
    assertThat(sent).contains("TBLPROPERTIES ('mlv.managed' = 'true')");
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
    // Creating views needs no job: CREATE fills them.
    assertThat(fabric.simulator.jobsSubmitted.get()).isZero();
  }

  /**
   * With enable_cdf on, the local target writes each view with change data feed, so that what reads
   * it can refresh incrementally: Fabric's optimal refresh needs the feed on every source, a view
   * included. The property is mlv's, so reading the view back shows the SQL as written.
   */
  @Test
  void applyWritesViewsWithChangeDataFeedWhenEnableCdfIsOnAsLocally() {
    fabric.write(
        "mlv.yml",
        fabric
            .config("")
            .replace(
                "defaults:\n  enable_cdf: false\n",
                "defaults:\n  enable_cdf: true\nview_config:\n  gold.by_customer:\n"
                    + "    enable_cdf: false\n"));
    fabric.write(
        "views/silver/orders_clean.sql",
        TargetContractTest.SILVER.replace(
            "AS SELECT", "TBLPROPERTIES ('delta.appendOnly' = 'false')\nAS SELECT"));
    Project p = fabric.withOrders();
    RunReport run = fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);

    java.util.function.Function<String, String> cdf =
        v ->
            fabric
                .sql("SHOW TBLPROPERTIES " + v + " ('delta.enableChangeDataFeed')")
                .rows()
                .get(0)
                .get(1)
                .toString();
    assertThat(cdf.apply("silver.orders_clean")).isEqualTo("true");
    assertThat(cdf.apply("gold.by_customer")).isEqualTo("false");
    assertThat(cdf.apply("bronze.orders")).isEqualTo("true");
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).mlvs.get("silver.orders_clean"))
        .contains(
            "TBLPROPERTIES ('mlv.managed' = 'true', 'delta.enableChangeDataFeed' = 'true',"
                + " 'delta.appendOnly' = 'false')");
    DeployedState state = fabric.target.state(p);
    assertThat(state.view(id("silver.orders_clean")).orElseThrow().definition())
        .doesNotContain("enableChangeDataFeed")
        .contains("'delta.appendOnly' = 'false'");
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  /**
   * A source in another lakehouse of the workspace is read and altered by its 3-part name, as the
   * local target turns the feed on for a source in any lakehouse of its warehouse: without it the
   * view reading it could never be refreshed incrementally.
   */
  @Test
  void applyTurnsChangeDataFeedOnForASourceInAnotherLakehouseAsLocally() {
    CatalogDataPlane other = new CatalogDataPlane("lh_other");
    fabric.data.peer(other);
    fabric.write(
        "mlv.yml",
        fabric
            .config("")
            .replace("sources: [bronze.orders]", "sources: [bronze.orders, lh_other.bronze.items]")
            .replace("defaults:\n  enable_cdf: false\n", "defaults:\n  enable_cdf: true\n"));
    fabric.write(
        "views/silver/items.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.items AS\n"
            + "SELECT id FROM lh_other.bronze.items WHERE id > 0\n");
    fabric.sql("CREATE OR REPLACE TABLE lh_other.bronze.items AS SELECT 1 AS id");
    Project p = fabric.withOrders();
    ObjectId items = new ObjectId(SimulatedFabric.WORKSPACE, "lh_other", "bronze", "items");

    Plan plan = fabric.plan(p, false);
    assertThat(plan.enableCdf())
        .extracting(e -> e.table().shortName() + " " + e.table().lakehouse())
        .contains("bronze.items lh_other", "bronze.orders " + SimulatedFabric.LAKEHOUSE);
    RunReport run = fabric.target.apply(p, plan, RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);

    assertThat(
            fabric
                .sql("SHOW TBLPROPERTIES lh_other.bronze.items ('delta.enableChangeDataFeed')")
                .rows()
                .get(0)
                .get(1)
                .toString())
        .isEqualTo("true");
    assertThat(fabric.target.state(p).tables().get(items).changeDataFeed()).isTrue();
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  /** As the local dry run says it: the feed is read on a source in any lakehouse. */
  @Test
  void aDryRunNamesASourceInAnotherLakehouseWithoutChangeDataFeed() {
    CatalogDataPlane other = new CatalogDataPlane("lh_other");
    fabric.data.peer(other);
    fabric.write(
        "mlv.yml",
        fabric
            .config("")
            .replace(
                "sources: [bronze.orders]", "sources: [bronze.orders, lh_other.bronze.items]"));
    fabric.write(
        "views/silver/items.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.items AS\n"
            + "SELECT id FROM lh_other.bronze.items WHERE id > 0\n");
    fabric.sql("CREATE OR REPLACE TABLE lh_other.bronze.items AS SELECT 1 AS id");
    Project p = applied();
    fabric.sql("INSERT INTO lh_other.bronze.items SELECT 2");

    RunReport dry =
        fabric.target.refresh(
            p,
            new RefreshRequest(
                new TreeSet<>(p.views().keySet()),
                false,
                1,
                java.time.Duration.ofMinutes(1),
                true,
                Map.of()),
            RunListener.NONE);
    assertThat(dry.views())
        .filteredOn(v -> v.id().shortName().equals("silver.items"))
        .extracting(v -> v.strategy() + " " + v.reason())
        .containsExactly(
            "full CDF_OFF source=lh_other.bronze.items: lh_other.bronze.items has commits after"
                + " the view's last refresh; change data feed is off on lh_other.bronze.items");
  }

  @Test
  void aRefreshIsOneJobNarrowedToTheSelectionAndReadsBackWhatChanged() {
    // Change data feed on for the source and the views: Fabric's optimal refresh needs it.
    fabric.write(
        "mlv.yml",
        fabric
            .config("")
            .replace("defaults:\n  enable_cdf: false\n", "defaults:\n  enable_cdf: true\n"));
    Project p = applied();
    RunReport nothing =
        fabric.target.refresh(p, SimulatedFabric.request(p, false), RunListener.NONE);
    assertThat(nothing.status()).isEqualTo(RunStatus.Completed);
    assertThat(nothing.views())
        .allSatisfy(
            v -> {
              assertThat(v.strategy()).isEqualTo("skip");
              assertThat(v.reason()).startsWith("NO_NEW_COMMITS");
            });

    fabric.sql("INSERT INTO " + SimulatedFabric.LAKEHOUSE + ".bronze.orders SELECT 2");
    List<String> messages = new ArrayList<>();
    RunListener listener =
        new RunListener() {
          @Override
          public void message(String text) {
            messages.add(text);
          }
        };
    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, false), listener);
    assertThat(run.status()).isEqualTo(RunStatus.Completed);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.strategy())
        .containsExactly(
            "silver.orders_clean Completed incremental", "gold.by_customer Completed incremental");
    assertThat(fabric.simulator.jobsSubmitted.get()).isEqualTo(2);
    assertThat(messages).anyMatch(m -> m.contains("starting one RefreshMaterializedLakeViews job"));

    // Only silver selected: the execution definition names just that view.
    RefreshRequest silverOnly =
        new RefreshRequest(
            new TreeSet<>(List.of(id("silver.orders_clean"))),
            true,
            1,
            java.time.Duration.ofMinutes(1),
            false,
            Map.of());
    RunReport one = fabric.target.refresh(p, silverOnly, RunListener.NONE);
    assertThat(one.views())
        .extracting(v -> v.id().shortName() + " " + v.strategy())
        .containsExactly("silver.orders_clean full");
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).definitions.values())
        .anySatisfy(
            d -> {
              assertThat(d.path("settings").path("refreshMode").asText()).isEqualTo("Full");
              assertThat(d.path("currentLakehouseExecutionContext").path("selectedMlvs").toString())
                  .isEqualTo("[\"silver.orders_clean\"]");
            });
  }

  @Test
  void aFailedJobFailsTheNamedViewAndSkipsItsChildren() {
    Project p = applied();
    fabric.sql("DROP TABLE " + SimulatedFabric.LAKEHOUSE + ".bronze.orders");
    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, true), RunListener.NONE);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views().get(0).status()).isEqualTo(ViewStatus.Failed);
    assertThat(run.views().get(0).error().orElseThrow())
        .startsWith("MLV_REFRESH_FAILED: silver.orders_clean");
    assertThat(run.views().get(1).status()).isEqualTo(ViewStatus.Skipped);
    assertThat(run.views().get(1).reason()).contains("orders_clean");
  }

  /** A refresh from another process, started and seen by Fabric before this returns. */
  private Thread refreshElsewhere(Project p) throws InterruptedException {
    Thread other =
        new Thread(
            () -> fabric.target.refresh(p, SimulatedFabric.request(p, true), RunListener.NONE));
    other.start();
    while (fabric.simulator.jobsSubmitted.get() == 0) {
      Thread.sleep(5);
    }
    return other;
  }

  @Test
  void aRefreshWhileAnotherRunsIsSkippedAsFabricDedupesIt() throws Exception {
    Project p = applied();
    fabric.simulator.holdJobs = true;
    Thread other = refreshElsewhere(p);
    FabricWorkspaceTarget second = fabric.open(FabricTargetContractTest.fast());
    RunReport run = second.refresh(p, SimulatedFabric.request(p, true), RunListener.NONE);
    fabric.simulator.holdJobs = false;
    other.join();
    assertThat(run.status()).isEqualTo(RunStatus.Skipped);
    assertThat(run.views()).isEmpty();
  }

  @Test
  void aSkippedRefreshFabricReportsAsCancelledIsASkipNotFailedViews() throws Exception {
    Project p = applied();
    fabric.simulator.holdJobs = true;
    fabric.simulator.skippedStatus = "Cancelled";
    Thread other = refreshElsewhere(p);
    FabricWorkspaceTarget second = fabric.open(FabricTargetContractTest.fast());
    List<String> messages = new java.util.ArrayList<>();
    RunReport run =
        second.refresh(
            p,
            SimulatedFabric.request(p, true),
            new RunListener() {
              @Override
              public void message(String text) {
                messages.add(text);
              }
            });
    fabric.simulator.holdJobs = false;
    other.join();
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Skipped);
    assertThat(run.views()).isEmpty();
    assertThat(messages)
        .anyMatch(
            m ->
                m.contains("Cancelled, which mlv did not ask for, and it changed no view")
                    && m.contains("(or someone cancelled it in Fabric)"));
  }

  @Test
  void anApplyWhoseRefreshFabricDedupesIsSkippedAndListsTheViewsLeftForLater() throws Exception {
    Project p = applied();
    fabric.simulator.holdJobs = true; // still running when apply submits its refresh
    Thread other = refreshElsewhere(p);
    fabric.write(
        "views/silver/orders_clean.sql",
        TargetContractTest.SILVER.replace("amount > 0", "amount >= 0"));
    Project changed = fabric.project();
    FabricWorkspaceTarget second = fabric.open(FabricTargetContractTest.fast());
    RunReport run = second.apply(changed, fabric.plan(changed, false), RunListener.NONE);
    fabric.simulator.holdJobs = false;
    other.join();
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Skipped);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason().split(":")[0])
        .containsExactly(
            "silver.orders_clean Completed DEFINITION_CHANGED", "gold.by_customer Skipped DEDUPED");
  }

  @Test
  void aRefusedDropIsReportedFailedAndTheRestOfThePlanStillRuns() throws Exception {
    Project p = applied();
    Files.delete(dir.resolve("views/gold/by_customer.sql"));
    fabric.write(
        "views/silver/extra.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.extra AS SELECT id FROM bronze.orders\n");
    p = fabric.project();
    fabric.simulator.refuseStatementsContaining = "DROP MATERIALIZED LAKE VIEW";
    RunReport run = fabric.target.apply(p, fabric.plan(p, true), RunListener.NONE);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .as(run.toString())
        .extracting(v -> v.id().shortName() + " " + v.status())
        .containsExactlyInAnyOrder("silver.extra Completed", "gold.by_customer Failed");
    assertThat(run.views())
        .filteredOn(v -> v.status() == ViewStatus.Failed)
        .singleElement()
        .satisfies(v -> assertThat(v.error().orElseThrow()).contains("INSUFFICIENT_PERMISSIONS"));
    assertThat(fabric.target.runs(5)).extracting(r -> r.id()).contains(run.id());
  }

  @Test
  void aListingLivyMayHaveCutShortStopsThePlanAndMarksSqlOutput() {
    Project p = fabric.withOrders();
    for (int i = 0; i < 1000; i++) {
      fabric.data.sql(
          Map.of(),
          "CREATE OR REPLACE TABLE "
              + SimulatedFabric.LAKEHOUSE
              + ".bronze.t"
              + i
              + " AS SELECT 1");
    }
    assertThatThrownBy(() -> fabric.target.state(p))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("FABRIC_LIST_CAPPED")
        .hasMessageContaining("listing the tables of bronze returned 1000 rows");
    SqlResult shown = fabric.sql("SHOW TABLES IN " + SimulatedFabric.LAKEHOUSE + ".bronze");
    assertThat(shown.rows()).hasSize(1000);
    assertThat(shown.message()).contains("returns at most 1000 rows");
  }

  /** As on the local target (found by QA there): nothing is sent, the name is refused. */
  @Test
  void aRenameToANameMlvKeepsForItselfIsNotSent() throws Exception {
    applied();
    for (String to : List.of("by_customer__quarantine", "mlv_history.x")) {
      assertThatThrownBy(
              () -> fabric.sql("ALTER MATERIALIZED LAKE VIEW gold.by_customer RENAME TO " + to))
          .as(to)
          .isInstanceOf(MlvException.class)
          .hasMessageContaining("error[RESERVED_NAME]");
    }
    assertThat(fabric.simulator.timesRun("ALTER MATERIALIZED LAKE VIEW")).isZero();
  }

  @Test
  void aRenameAndAPruneAreSentAsAlterAndDrop() throws Exception {
    Project p = applied();
    Files.delete(dir.resolve("views/gold/by_customer.sql"));
    fabric.write(
        "views/gold/customer_totals.sql",
        TargetContractTest.GOLD.replace("gold.by_customer", "gold.customer_totals"));
    p = fabric.project();
    Plan plan = fabric.plan(p, false);
    assertThat(plan.changes()).filteredOn(Change.Rename.class::isInstance).hasSize(1);
    fabric.target.apply(p, plan, RunListener.NONE);
    assertThat(
            fabric.simulator.timesRun(
                "ALTER MATERIALIZED LAKE VIEW `gold`.`by_customer` RENAME TO"))
        .isEqualTo(1);
    DeployedState state = fabric.target.state(p);
    assertThat(state.views()).containsKey(id("gold.customer_totals"));
    assertThat(state.view(id("gold.customer_totals")).orElseThrow().definition())
        .contains("gold.customer_totals");
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();

    Files.delete(dir.resolve("views/gold/customer_totals.sql"));
    p = fabric.project();
    fabric.target.apply(p, fabric.plan(p, true), RunListener.NONE);
    assertThat(fabric.target.state(p).views()).containsOnlyKeys(id("silver.orders_clean"));
  }

  @Test
  void runsListsThisMachinesRunsAndJobsStartedElsewhere() throws Exception {
    Project p = applied();
    RunReport refreshed =
        fabric.target.refresh(p, SimulatedFabric.request(p, true), RunListener.NONE);
    List<RunReport> runs = fabric.target.runs(10);
    assertThat(runs.get(0).id()).isEqualTo(refreshed.id());
    assertThat(runs.get(0).views()).hasSize(2);
    assertThat(fabric.target.run(refreshed.id())).isPresent();
    assertThat(fabric.target.run("no-such-run")).isEmpty();

    // A second machine (no local records) still sees the job, from Fabric, without views.
    Path elsewhere = dir.resolve(".mlv/fabric/prod/runs");
    try (java.util.stream.Stream<Path> files = Files.list(elsewhere)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    List<RunReport> fromFabric = fabric.target.runs(10);
    assertThat(fromFabric).hasSize(1);
    assertThat(fromFabric.get(0).status()).isEqualTo(RunStatus.Completed);
    assertThat(fromFabric.get(0).views()).isEmpty();
  }

  /** What a listener is told, for the warnings a run sends there. */
  private static final class Messages implements RunListener {
    final List<String> lines = new ArrayList<>();

    @Override
    public void message(String text) {
      lines.add(text);
    }
  }

  /**
   * The views are refreshed by the time the record is written: a record that cannot be written is a
   * warning, and the refresh is still reported as it went.
   */
  @Test
  void aRunRecordThatCannotBeWrittenIsAWarningAndTheRefreshStillSucceeds() throws Exception {
    Project p = applied();
    Path runs = dir.resolve(".mlv/fabric/prod/runs");
    try (java.util.stream.Stream<Path> files = Files.list(runs)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(runs);
    Files.writeString(runs, "not a folder");
    Messages messages = new Messages();
    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, true), messages);
    assertThat(run.status()).isEqualTo(RunStatus.Completed);
    assertThat(messages.lines)
        .filteredOn(l -> l.startsWith("warning:"))
        .containsExactly(
            "warning: run "
                + run.id()
                + " could not be recorded in "
                + runs
                + " (it is a file, not a folder), so 'mlv runs' will not show what each view did");
    // The job itself is still listed, from Fabric.
    assertThat(fabric.target.runs(10)).extracting(RunReport::status).contains(RunStatus.Completed);
  }

  /**
   * Ctrl-C (the shutdown hook runs {@code interrupt}) while a refresh job runs: the job is
   * cancelled and the run is on record as interrupted, as a local run stopped by Ctrl-C is.
   */
  @Test
  void aRefreshStoppedWithCtrlCIsRecordedAsInterrupted() throws Exception {
    Project p = applied();
    int submitted = fabric.simulator.jobsSubmitted.get();
    fabric.simulator.holdJobs = true;
    Thread refresh =
        new Thread(
            () -> fabric.target.refresh(p, SimulatedFabric.request(p, true), RunListener.NONE));
    refresh.start();
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (fabric.simulator.jobsSubmitted.get() == submitted && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    Thread.sleep(200); // the job is being followed
    fabric.target.interrupt();
    fabric.simulator.holdJobs = false;
    refresh.join(30_000);

    List<RunReport> runs = fabric.target.runs(10);
    RunReport stopped = runs.get(0);
    assertThat(stopped.status()).isEqualTo(RunStatus.Interrupted);
    assertThat(stopped.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Failed INTERRUPTED", "gold.by_customer Failed INTERRUPTED");
    assertThat(stopped.views().get(0).error().orElseThrow())
        .matches(
            "the run was interrupted while refresh job \\S+ refreshed this view; the job was cancelled");
    // The cancelled job is this run's, not listed again on its own.
    assertThat(runs).hasSize(2);
    synchronized (fabric.simulator.lakehouse(fabric.lakehouseId).jobs) {
      assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).jobs.values())
          .extracting(j -> j.path("status").asText())
          .contains("Cancelled");
    }
  }

  /**
   * Ctrl-C in {@code mlv shell} interrupts the command's thread instead of ending the JVM: the job
   * is cancelled and the run is on record as interrupted, as with the shutdown hook.
   */
  @Test
  void aRefreshStoppedWithCtrlCInTheShellIsRecordedAsInterrupted() throws Exception {
    Project p = applied();
    int submitted = fabric.simulator.jobsSubmitted.get();
    fabric.simulator.holdJobs = true;
    java.util.concurrent.atomic.AtomicReference<Object> ended =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread refresh =
        new Thread(
            () -> {
              try {
                ended.set(
                    fabric.target.refresh(p, SimulatedFabric.request(p, true), RunListener.NONE));
              } catch (RuntimeException e) {
                ended.set(e);
              }
            });
    refresh.start();
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (fabric.simulator.jobsSubmitted.get() == submitted && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    Thread.sleep(200); // the job is being followed
    refresh.interrupt(); // what the shell's Ctrl-C handler does
    refresh.join(30_000);
    fabric.simulator.holdJobs = false;

    assertThat(ended.get()).isInstanceOf(RunReport.class);
    assertThat(((RunReport) ended.get()).status()).isEqualTo(RunStatus.Interrupted);
    List<RunReport> runs = fabric.target.runs(10);
    RunReport stopped = runs.get(0);
    assertThat(stopped.status()).isEqualTo(RunStatus.Interrupted);
    assertThat(stopped.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Failed INTERRUPTED", "gold.by_customer Failed INTERRUPTED");
    assertThat(runs).hasSize(2);
    synchronized (fabric.simulator.lakehouse(fabric.lakehouseId).jobs) {
      assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).jobs.values())
          .extracting(j -> j.path("status").asText())
          .contains("Cancelled");
    }
  }

  /**
   * An apply stopped with Ctrl-C while its refresh job runs is on record as interrupted, with the
   * view it replaced and the one its job refreshed, whether the hook ({@code interrupt}) or the
   * shell (an interrupted thread) stops it.
   */
  @Test
  void anApplyStoppedWithCtrlCIsRecordedAsInterrupted() throws Exception {
    for (boolean shell : List.of(false, true)) {
      applied();
      fabric.write(
          "views/silver/orders_clean.sql",
          TargetContractTest.SILVER.strip() + (shell ? " WHERE id > 1\n" : " WHERE id > 0\n"));
      Project p = fabric.project();
      Plan plan = fabric.plan(p, false);
      assertThat(plan.refresh()).extracting(v -> v.shortName()).containsExactly("gold.by_customer");
      int submitted = fabric.simulator.jobsSubmitted.get();
      fabric.simulator.holdJobs = true;
      Thread apply = new Thread(() -> fabric.target.apply(p, plan, RunListener.NONE));
      apply.start();
      long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      while (fabric.simulator.jobsSubmitted.get() == submitted && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      Thread.sleep(200); // the job is being followed
      if (shell) {
        apply.interrupt();
      } else {
        fabric.target.interrupt();
      }
      apply.join(30_000);
      fabric.simulator.holdJobs = false;

      RunReport stopped = fabric.target.runs(10).get(0);
      assertThat(stopped.status()).as("shell: " + shell).isEqualTo(RunStatus.Interrupted);
      assertThat(stopped.views())
          .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason().split(":")[0])
          .containsExactly(
              "silver.orders_clean Completed DEFINITION_CHANGED",
              "gold.by_customer Failed INTERRUPTED");
    }
  }

  @Test
  void aDryRunIsReadOnlyAndSaysWhatWouldRun() {
    Project p = applied();
    fabric.sql("INSERT INTO " + SimulatedFabric.LAKEHOUSE + ".bronze.orders SELECT 2");
    int posts = fabric.simulator.jobsSubmitted.get();
    RefreshRequest dry =
        new RefreshRequest(
            new TreeSet<>(p.views().keySet()),
            false,
            1,
            java.time.Duration.ofMinutes(1),
            true,
            Map.of());
    RunReport run = fabric.target.refresh(p, dry, RunListener.NONE);
    assertThat(run.status()).isEqualTo(RunStatus.Planned);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.strategy())
        .containsExactly("silver.orders_clean full", "gold.by_customer full");
    assertThat(run.views().get(1).reason()).contains("orders_clean");
    assertThat(fabric.simulator.jobsSubmitted.get()).isEqualTo(posts);
  }

  @Test
  void aSparkErrorIsOneLineWithoutAStack() {
    assertThatThrownBy(() -> fabric.sql("SELECT * FROM nowhere"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("catalog-only simulator")
        .hasMessageNotContaining("\tat ");
  }

  @Test
  void theLivySessionIsReusedAcrossCommandsAndReplacedWhenDead() {
    applied();
    int sessions = fabric.simulator.sessionsCreated.get();
    assertThat(sessions).isEqualTo(1);
    assertThat(dir.resolve(".mlv/fabric/prod/livy-session")).exists();
    FabricWorkspaceTarget next = fabric.open(FabricTargetContractTest.fast());
    next.state(fabric.project());
    assertThat(fabric.simulator.sessionsCreated.get()).isEqualTo(1);
    fabric.simulator.killSessions();
    next.state(fabric.project());
    assertThat(fabric.simulator.sessionsCreated.get()).isEqualTo(2);
  }
}
