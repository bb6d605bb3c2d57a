package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.target.TargetContractTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same mlv.yml refreshes a view the same way on Fabric as locally: {@code --full}, {@code
 * refresh_policy: full} and {@code optimal_refresh: false} rebuild it (in a job of Fabric's {@code
 * Full} refresh mode, since the mode belongs to the execution definition, not to a view), with the
 * local reason codes, in the dry run and in the run; and what Fabric's optimal refresh did is read
 * from the commit it made.
 */
class FabricRefreshModeTest {
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

  /** The project with {@code viewConfig} under {@code view_config:}, applied. */
  private Project applied(String viewConfig) {
    fabric.write(
        "mlv.yml",
        fabric
            .config("")
            .replace(
                "defaults:\n  enable_cdf: false\n",
                "defaults:\n  enable_cdf: false\nview_config:\n" + viewConfig));
    Project p = fabric.withOrders();
    RunReport run = fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    fabric.simulator.jobDefinitions.clear();
    return p;
  }

  private RunReport refresh(Project p, boolean full, boolean dryRun) {
    return fabric.target.refresh(
        p,
        new RefreshRequest(
            new TreeSet<>(p.views().keySet()), full, 1, Duration.ofMinutes(1), dryRun, Map.of()),
        RunListener.NONE);
  }

  private static List<String> outcome(RunReport run) {
    return run.views().stream()
        .map(v -> v.id().shortName() + " " + v.strategy() + " " + v.reason())
        .toList();
  }

  /** Each job's refresh mode and views, in the order the jobs started. */
  private List<String> jobs() {
    List<String> out = new ArrayList<>();
    synchronized (fabric.simulator.jobDefinitions) {
      for (ObjectNode d : fabric.simulator.jobDefinitions) {
        List<String> views = new ArrayList<>();
        d.path("currentLakehouseExecutionContext")
            .path("selectedMlvs")
            .forEach(v -> views.add(v.asText()));
        out.add(d.path("settings").path("refreshMode").asText() + " " + views);
      }
    }
    return out;
  }

  private void append() {
    fabric.sql("INSERT INTO " + SimulatedFabric.LAKEHOUSE + ".bronze.orders SELECT 2");
  }

  @Test
  void refreshPolicyFullRebuildsTheViewInAFullJobAndSaysPolicyFull() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: full\n");

    assertThat(outcome(refresh(p, false, true)))
        .containsExactly(
            "silver.orders_clean skip NO_NEW_COMMITS: no source has a commit after the view's"
                + " last refresh",
            "gold.by_customer full POLICY_FULL: refresh_policy is full for this view");

    RunReport run = refresh(p, false, false);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(outcome(run))
        .containsExactly(
            "silver.orders_clean skip NO_NEW_COMMITS: Fabric's optimal refresh left the view at"
                + " version 0",
            "gold.by_customer full POLICY_FULL: refresh_policy is full for this view; Fabric"
                + " rebuilt the view, version 1");
    // Fabric's Optimal mode would have skipped gold: it goes to a Full job after silver's.
    assertThat(jobs()).containsExactly("Optimal [silver.orders_clean]", "Full [gold.by_customer]");

    // One run, found by either job instance.
    List<RunReport> runs = fabric.target.runs(100);
    assertThat(runs).filteredOn(r -> r.id().equals(run.id())).hasSize(1);
    assertThat(runs).hasSize(2); // apply's and this one: neither job is listed on its own
    for (ObjectNode job : fabric.simulator.lakehouse(fabric.lakehouseId).jobs.values()) {
      assertThat(fabric.target.run(job.path("id").asText())).isPresent();
    }
  }

  /**
   * GROUP BY a SELECT alias is incremental locally only once the source's columns show none of that
   * name; mlv reads no Fabric table's columns, so the Fabric dry run says the view is full, why.
   */
  @Test
  void aGroupByAliasIsFullOnFabricWhereTheSourcesColumnsAreNotRead() {
    fabric.write(
        "views/gold/by_parity.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.by_parity AS\n"
            + "SELECT id % 2 AS parity, COUNT(*) AS n FROM bronze.orders GROUP BY parity\n");
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    append();

    assertThat(outcome(refresh(p, false, true)))
        .contains(
            "gold.by_parity full GROUP_BY_ALIAS col=parity: bronze.orders has commits after the view's"
                + " last refresh; GROUP BY parity: mlv does not know the columns of bronze.orders,"
                + " so it cannot tell whether Spark reads parity as a column or as the SELECT"
                + " alias");
  }

  @Test
  void optimalRefreshOffUpstreamRunsBeforeTheOptimalJobOfWhatReadsIt() {
    Project p = applied("  silver.orders_clean:\n    optimal_refresh: false\n");
    append();

    assertThat(outcome(refresh(p, false, true)))
        .containsExactly(
            "silver.orders_clean full OPTIMAL_REFRESH_OFF: optimal refresh is off, so every run"
                + " rebuilds the view",
            "gold.by_customer full CDF_OFF source=silver.orders_clean: upstream"
                + " silver.orders_clean is refreshed first in this run; change data feed is off on"
                + " silver.orders_clean");

    // As the dry run says, Fabric's optimal refresh of gold rebuilds it (D3: change data feed).
    RunReport run = refresh(p, false, false);
    assertThat(outcome(run))
        .containsExactly(
            "silver.orders_clean full OPTIMAL_REFRESH_OFF: optimal refresh is off, so every run"
                + " rebuilds the view; Fabric rebuilt the view, version 1",
            "gold.by_customer full REFRESHED: Fabric's optimal refresh wrote version 1"
                + " (WRITE Overwrite)");
    assertThat(jobs()).containsExactly("Full [silver.orders_clean]", "Optimal [gold.by_customer]");
  }

  /** D5: a source that did more than append since the last refresh makes Fabric rebuild. */
  @Test
  void aSourceReplacedSinceTheLastRefreshIsRebuiltAndReportedFull() {
    Project p = applied("  silver.orders_clean:\n    enable_cdf: true\n");
    fabric.sql(
        "ALTER TABLE "
            + SimulatedFabric.LAKEHOUSE
            + ".bronze.orders SET TBLPROPERTIES"
            + " (delta.enableChangeDataFeed = true)");
    refresh(p, false, false);
    append();
    assertThat(outcome(refresh(p, false, false)))
        .first()
        .isEqualTo(
            "silver.orders_clean incremental REFRESHED: Fabric's optimal refresh wrote version 2"
                + " (WRITE Append)");

    fabric.sql(
        "CREATE OR REPLACE TABLE "
            + SimulatedFabric.LAKEHOUSE
            + ".bronze.orders AS SELECT 3 AS id");
    // The dry run reads the source's history and says so before the run, as the local one does.
    assertThat(outcome(refresh(p, false, true)).get(0))
        .isEqualTo(
            "silver.orders_clean full NON_APPEND_COMMIT source=bronze.orders version=4"
                + " operation=CREATE_OR_REPLACE_TABLE_AS_SELECT: commit 4 of bronze.orders removed"
                + " or rewrote data files, so the rows since the last refresh are not only new ones");
    assertThat(outcome(refresh(p, false, false)).get(0))
        .isEqualTo(
            "silver.orders_clean full REFRESHED: Fabric's optimal refresh wrote version 3"
                + " (WRITE Overwrite)");
  }

  @Test
  void aViewThatFailsInTheFirstJobKeepsWhatReadsItOutOfTheNextOne() {
    Project p = applied("  silver.orders_clean:\n    optimal_refresh: false\n");
    fabric.sql("DROP TABLE " + SimulatedFabric.LAKEHOUSE + ".bronze.orders");

    RunReport run = refresh(p, false, false);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status())
        .containsExactly("silver.orders_clean Failed", "gold.by_customer Skipped");
    assertThat(jobs()).containsExactly("Full [silver.orders_clean]");
  }

  /** The first job changed views: the run is recorded with them, not lost with the error. */
  @Test
  void aSecondJobFabricRefusesFailsItsViewsAndTheRunIsStillRecorded() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: full\n");
    append();
    fabric.simulator.refuseDefinitionsOfMode = "Full";

    RunReport run = refresh(p, false, false);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Completed REFRESHED: Fabric's optimal refresh wrote version 1"
                + " (WRITE Overwrite)",
            "gold.by_customer Failed JOB_NOT_STARTED");
    assertThat(run.views().get(1).error().orElseThrow()).contains("InsufficientPrivileges");
    assertThat(jobs()).containsExactly("Optimal [silver.orders_clean]");
    assertThat(fabric.target.runs(100)).extracting(RunReport::id).contains(run.id());
  }

  private void pollsOfJobsFail() {
    fabric.target =
        fabric.open(
            new RetryPolicy(
                Duration.ofMillis(2),
                Duration.ofMillis(20),
                Duration.ofMillis(300),
                Duration.ofSeconds(30),
                Duration.ofMillis(1),
                Duration.ofMillis(10),
                Duration.ofSeconds(60),
                Duration.ofSeconds(10)));
    fabric.simulator.faultsOnly = "GET .*/jobs/instances/[^/]+";
    fabric.simulator.faults = java.util.Set.of(FabricSimulator.Fault.ERROR_500);
    fabric.simulator.faultRate = 1.0;
  }

  private String lastJobId() {
    synchronized (fabric.simulator.lakehouse(fabric.lakehouseId).jobs) {
      return new ArrayList<>(fabric.simulator.lakehouse(fabric.lakehouseId).jobs.keySet())
          .get(fabric.simulator.lakehouse(fabric.lakehouseId).jobs.size() - 1);
    }
  }

  /**
   * A job Fabric accepted but mlv could not follow may still change views: the error says so, and
   * the run is recorded with the job's views failed, as a later job's would be.
   */
  @Test
  void aJobWhoseStatusCannotBeReadIsNamedAsPossiblyStillRunning() throws InterruptedException {
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    pollsOfJobsFail();
    assertThatThrownBy(() -> refresh(p, false, false))
        .isInstanceOf(dev.mlv.diag.MlvException.class)
        .hasMessageContaining("reading the refresh job kept failing for its retry budget")
        .hasMessageContaining(
            "; refresh job "
                + lastJobId()
                + " was started and may still be running in Fabric: 'mlv runs "
                + lastJobId()
                + "' shows how it ended")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"))
        .hasMessageMatching(
            "(?s).*; run \\d{8}-\\d{6}-[0-9a-f]+ is recorded with its views failed.*");
    fabric.simulator.faultRate = 0;
    RunReport recorded = fabric.target.run(lastJobId()).orElseThrow();
    assertThat(recorded.status()).isEqualTo(RunStatus.Failed);
    assertThat(recorded.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Failed JOB_OUTCOME_UNKNOWN",
            "gold.by_customer Failed JOB_OUTCOME_UNKNOWN");
    assertThat(fabric.target.runs(100)).extracting(RunReport::id).contains(recorded.id());
    // As the error says, 'mlv runs <job id>' shows how the job ended, once Fabric knows.
    String job = lastJobId();
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!fabric
            .simulator
            .lakehouse(fabric.lakehouseId)
            .jobs
            .get(job)
            .path("status")
            .asText()
            .equals("Completed")
        && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    assertThat(fabric.target.run(job).orElseThrow().views())
        .allSatisfy(
            v ->
                assertThat(v.error().orElseThrow())
                    .endsWith("; Fabric reports that refresh job " + job + " ended Completed"));
  }

  /** Where the record cannot be written either, the error says so instead of naming a record. */
  @Test
  void aJobWhoseStatusCannotBeReadAndARecordThatCannotBeWrittenAreOneError() throws Exception {
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    Path runs = dir.resolve(".mlv/fabric/prod/runs");
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(runs)) {
      for (Path f : files.toList()) {
        java.nio.file.Files.delete(f);
      }
    }
    java.nio.file.Files.delete(runs);
    java.nio.file.Files.writeString(runs, "not a folder");
    pollsOfJobsFail();
    assertThatThrownBy(() -> refresh(p, false, false))
        .isInstanceOf(dev.mlv.diag.MlvException.class)
        .hasMessageContaining("was started and may still be running in Fabric")
        .hasMessageContaining(
            " could not be recorded in "
                + runs
                + " (it is a file, not a folder), so 'mlv runs' will not show what each view did")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("is recorded"));
  }

  /** Apply's creates and replaces happened before the job: they stay on record. */
  @Test
  void anApplyWhoseJobStatusCannotBeReadKeepsItsChangesOnRecord() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    fabric.write(
        "views/silver/orders_clean.sql",
        TargetContractTest.SILVER.replace("FROM bronze.orders", "FROM bronze.orders WHERE id > 0"));
    Project changed = fabric.project();
    dev.mlv.plan.Plan plan = fabric.plan(changed, false);
    pollsOfJobsFail();
    assertThatThrownBy(() -> fabric.target.apply(changed, plan, RunListener.NONE))
        .isInstanceOf(dev.mlv.diag.MlvException.class)
        .hasMessageContaining("was started and may still be running in Fabric")
        .hasMessageContaining("is recorded with its views failed");
    fabric.simulator.faultRate = 0;
    RunReport recorded = fabric.target.run(lastJobId()).orElseThrow();
    assertThat(recorded.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Completed DEFINITION_CHANGED: definition changed: SELECT",
            "gold.by_customer Failed JOB_OUTCOME_UNKNOWN");
  }

  /** A refused refresh job after apply's changes fails its views; the changes stay on record. */
  @Test
  void anApplyWhoseJobFabricRefusesKeepsItsChangesOnRecord() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    fabric.write(
        "views/silver/orders_clean.sql",
        TargetContractTest.SILVER.replace("FROM bronze.orders", "FROM bronze.orders WHERE id > 0"));
    Project changed = fabric.project();
    fabric.simulator.refuseDefinitionsOfMode = "Optimal";
    RunReport run = fabric.target.apply(changed, fabric.plan(changed, false), RunListener.NONE);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Completed DEFINITION_CHANGED: definition changed: SELECT",
            "gold.by_customer Failed JOB_NOT_STARTED");
    assertThat(run.views().get(1).error().orElseThrow()).contains("InsufficientPrivileges");
    assertThat(fabric.target.runs(100)).extracting(RunReport::id).contains(run.id());
  }

  /** Without a status the job would be polled until the refresh timeout (24 hours). */
  @Test
  @org.junit.jupiter.api.Timeout(60)
  void aJobAnsweredWithoutAStatusIsOneClearErrorNotAPollUntilTheTimeout() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    fabric.simulator.jobStatusMissing = true;
    assertThatThrownBy(
            () ->
                fabric.target.refresh(
                    p,
                    new RefreshRequest(
                        new TreeSet<>(p.views().keySet()),
                        false,
                        1,
                        Duration.ofHours(24),
                        false,
                        Map.of()),
                    RunListener.NONE))
        .isInstanceOf(dev.mlv.diag.MlvException.class)
        .hasMessageContaining("reading the refresh job failed: Fabric's answer has no 'status'")
        .hasMessageContaining("was started and may still be running in Fabric");
  }

  @Test
  void aLaterJobWhoseStatusCannotBeReadIsRecordedWithTheRun() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: full\n");
    pollsOfJobsFail();
    // The first job is followed; the faults begin once the second (Full) job is submitted.
    fabric.simulator.faultsOnlyAfterJobs = 1;
    RunReport run = refresh(p, false, false);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Completed NO_NEW_COMMITS: Fabric's optimal refresh left the view"
                + " at version 0",
            "gold.by_customer Failed JOB_OUTCOME_UNKNOWN");
    assertThat(run.views().get(1).error().orElseThrow())
        .contains("refresh job " + lastJobId() + " was started and may still be running");
    fabric.simulator.faultRate = 0;
    assertThat(fabric.target.run(lastJobId())).map(RunReport::id).contains(run.id());
  }

  /** Upstream lakehouses are upstream of every view: refreshed once, by the first job. */
  @Test
  void extendedLineageGoesWithTheFirstJobOnly() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: full\n");
    fabric.target.extendedLineage(List.of());
    refresh(p, false, false);
    List<String> extended = new ArrayList<>();
    synchronized (fabric.simulator.jobDefinitions) {
      fabric.simulator.jobDefinitions.forEach(
          d -> extended.add(d.path("extendedLineageExecutionContext").path("mode").asText("none")));
    }
    assertThat(jobs()).containsExactly("Optimal [silver.orders_clean]", "Full [gold.by_customer]");
    assertThat(extended).containsExactly("All", "none");
  }

  /**
   * What Fabric's optimal refresh can only rebuild, the dry run names as the local target does: a
   * construct never incremental first, then a source without change data feed. Otherwise it does
   * not guess Fabric's choice.
   */
  @Test
  void theDryRunNamesWhatFabricCanOnlyRebuildWithTheLocalCodes() {
    fabric.write(
        "views/gold/by_customer.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.by_customer AS SELECT customer,"
            + " row_number() OVER (ORDER BY amount) AS n FROM silver.orders_clean\n");
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    append();
    List<String> planned = outcome(refresh(p, false, true));
    assertThat(planned.get(0))
        .isEqualTo(
            "silver.orders_clean full CDF_OFF source=bronze.orders: bronze.orders has commits"
                + " after the view's last refresh; change data feed is off on bronze.orders");
    assertThat(planned.get(1)).startsWith("gold.by_customer full WINDOW_FUNCTION: upstream");

    fabric.sql(
        "ALTER TABLE "
            + SimulatedFabric.LAKEHOUSE
            + ".bronze.orders SET TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    append();
    // As the local target says it: the rows committed before the feed was on are not in it.
    assertThat(outcome(refresh(p, false, true)).get(0))
        .isEqualTo(
            "silver.orders_clean full CDF_OFF source=bronze.orders: change data feed was turned on"
                + " at version 2 of bronze.orders, so the rows of its commits before that are not"
                + " in the feed");

    // Once the view has read past it, only appends follow: Fabric's choice is open.
    refresh(p, false, false);
    append();
    assertThat(outcome(refresh(p, false, true)).get(0))
        .isEqualTo(
            "silver.orders_clean full SOURCES_CHANGED: bronze.orders has commits after the"
                + " view's last refresh (Fabric's optimal refresh picks incremental or full)");
  }

  /**
   * A source whose only commits since the view's last refresh are OPTIMIZE and VACUUM (START and
   * END) changed no row: no documented rule makes the view a rebuild, so the dry run claims none
   * (it said CDF_OFF and WINDOW_FUNCTION) and says Fabric may skip it. An append after them does.
   */
  @Test
  void theDryRunClaimsNoRebuildForCommitsThatChangedNoRow() {
    fabric.write(
        "views/gold/by_customer.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.by_customer AS SELECT customer,"
            + " row_number() OVER (ORDER BY amount) AS n FROM bronze.orders\n");
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    fabric.sql("OPTIMIZE " + SimulatedFabric.LAKEHOUSE + ".bronze.orders");
    fabric.sql("VACUUM " + SimulatedFabric.LAKEHOUSE + ".bronze.orders");
    String open =
        " full SOURCES_CHANGED: bronze.orders has only OPTIMIZE, VACUUM START, VACUUM END"
            + " commits after the view's last refresh, which changed no row (Fabric's optimal"
            + " refresh may skip the view, as the local target does with NO_DATA_CHANGE; its"
            + " documentation does not say)";
    assertThat(outcome(refresh(p, false, true)))
        .containsExactly("gold.by_customer" + open, "silver.orders_clean" + open);

    append();
    assertThat(outcome(refresh(p, false, true)))
        .extracting(o -> o.substring(0, o.indexOf(':')))
        .containsExactly(
            "gold.by_customer full WINDOW_FUNCTION",
            "silver.orders_clean full CDF_OFF source=bronze.orders");
  }

  @Test
  void fullRequestedIsOneFullJobWithTheLocalReasonCode() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");

    assertThat(outcome(refresh(p, true, true)))
        .containsExactly(
            "silver.orders_clean full FULL_REQUESTED: a full refresh was requested",
            "gold.by_customer full FULL_REQUESTED: a full refresh was requested");
    assertThat(outcome(refresh(p, true, false)))
        .containsExactly(
            "silver.orders_clean full FULL_REQUESTED: a full refresh was requested; Fabric rebuilt"
                + " the view, version 1",
            "gold.by_customer full FULL_REQUESTED: a full refresh was requested; Fabric rebuilt"
                + " the view, version 1");
    assertThat(jobs()).containsExactly("Full [silver.orders_clean, gold.by_customer]");
  }

  /** Delta records INSERT OVERWRITE as a WRITE too: its mode says it replaced the table. */
  @Test
  void anOptimalRefreshThatOverwroteTheViewIsReportedFullNotIncremental() {
    Project p = applied("  gold.by_customer:\n    refresh_policy: auto\n");
    fabric.data.optimalWriteMode = "Overwrite";
    append();

    assertThat(outcome(refresh(p, false, false)))
        .containsExactly(
            "silver.orders_clean full REFRESHED: Fabric's optimal refresh wrote version 1 (WRITE"
                + " Overwrite)",
            "gold.by_customer full REFRESHED: Fabric's optimal refresh wrote version 1 (WRITE"
                + " Overwrite)");
    assertThat(jobs()).containsExactly("Optimal [silver.orders_clean, gold.by_customer]");
  }
}
