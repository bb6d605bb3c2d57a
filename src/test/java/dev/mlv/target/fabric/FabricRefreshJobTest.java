package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.cli.CliRun;
import dev.mlv.project.Project;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.target.UpstreamLakehouse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The refresh job beyond the happy path: a job Fabric fails for capacity throttling is started
 * again (one at a time, within the retry budget), and {@code --extended-lineage} reaches the
 * execution definition and the output.
 */
class FabricRefreshJobTest {
  @TempDir Path dir;
  SimulatedFabric fabric;

  @BeforeEach
  void start() {
    fabric = new SimulatedFabric(dir);
    fabric.write("mlv.yml", fabric.config("    auth:\n      mode: token\n      token_env: X\n"));
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  private Project applied() {
    Project p = fabric.withOrders();
    RunReport run = fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    return p;
  }

  private static RunListener into(List<String> messages) {
    return new RunListener() {
      @Override
      public void message(String text) {
        messages.add(text);
      }
    };
  }

  private List<String> statuses() {
    List<String> out = new ArrayList<>();
    synchronized (fabric.simulator.lakehouse(fabric.lakehouseId).jobs) {
      for (ObjectNode j : fabric.simulator.lakehouse(fabric.lakehouseId).jobs.values()) {
        out.add(j.path("status").asText());
      }
    }
    return out;
  }

  @Test
  void aThrottledJobIsStartedAgainOneAtATimeUntilItRuns() {
    Project p = applied();
    fabric.simulator.throttleJobs.set(2);
    List<String> messages = new ArrayList<>();
    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, true), into(messages));

    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(run.views()).allMatch(v -> v.status() == ViewStatus.Completed);
    assertThat(fabric.simulator.jobsSubmitted.get()).isEqualTo(3);
    // Never two at once: no instance was deduped against a running one.
    assertThat(statuses()).containsExactly("Failed", "Failed", "Completed");
    assertThat(messages)
        .filteredOn(
            m -> m.contains("throttled by the capacity (MLV_SPARK_JOB_CAPACITY_THROTTLING)"))
        .hasSize(2);
  }

  @Test
  void aThrottledRefreshStartedAgainIsOneRunInTheRunsList() {
    Project p = applied();
    int before = fabric.target.runs(100).size();
    fabric.simulator.throttleJobs.set(2);
    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, true), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(statuses()).containsExactly("Failed", "Failed", "Completed");

    List<RunReport> runs = fabric.target.runs(100);
    assertThat(runs).as(runs.toString()).hasSize(before + 1);
    assertThat(runs.get(0).id()).isEqualTo(run.id());
    assertThat(runs).noneMatch(r -> r.status() == RunStatus.Failed);
    // Each throttled instance's id leads to the run it was an attempt of.
    List<String> throttled = new ArrayList<>();
    synchronized (fabric.simulator.lakehouse(fabric.lakehouseId).jobs) {
      fabric.simulator.lakehouse(fabric.lakehouseId).jobs.values().stream()
          .filter(j -> j.path("status").asText().equals("Failed"))
          .forEach(j -> throttled.add(j.path("id").asText()));
    }
    assertThat(throttled).hasSize(2);
    for (String id : throttled) {
      assertThat(fabric.target.run(id)).map(RunReport::id).contains(run.id());
    }
  }

  @Test
  void aJobCancelledInFabricIsListedAsInterruptedNotFailed() {
    ObjectNode job = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
    String id = UUID.randomUUID().toString();
    job.put("id", id);
    job.put("jobType", JobClient.JOB_TYPE);
    job.put("invokeType", "Manual");
    job.put("status", "Cancelled");
    job.put("startTimeUtc", "2026-01-01T10:00:00");
    job.put("endTimeUtc", "2026-01-01T10:01:00");
    fabric.simulator.lakehouse(fabric.lakehouseId).jobs.put(id, job);

    assertThat(fabric.target.runs(10))
        .extracting(r -> r.id() + " " + r.status())
        .containsExactly(id + " Interrupted");
    assertThat(fabric.target.run(id)).map(RunReport::status).contains(RunStatus.Interrupted);
  }

  @Test
  void throttlingThatOutlastsTheRetryBudgetFailsWithFabricsCode() {
    Project p = applied();
    RetryPolicy fast = FabricTargetContractTest.fast();
    RetryPolicy shortBudget =
        new RetryPolicy(
            Duration.ofMillis(20),
            Duration.ofMillis(40),
            Duration.ofMillis(800),
            fast.requestTimeout(),
            fast.pollInitial(),
            fast.pollMax(),
            fast.statementTimeout(),
            fast.sessionStartTimeout());
    FabricWorkspaceTarget target = fabric.open(shortBudget);
    fabric.simulator.throttleJobs.set(1000);
    List<String> messages = new ArrayList<>();
    RunReport run = target.refresh(p, SimulatedFabric.request(p, true), into(messages));

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views().get(0).error().orElseThrow())
        .startsWith("MLV_SPARK_JOB_CAPACITY_THROTTLING");
    assertThat(messages).anyMatch(m -> m.contains("(retry_budget) is spent"));
    assertThat(fabric.simulator.jobsSubmitted.get()).isGreaterThan(1);
    assertThat(statuses()).doesNotContain("Deduped", "InProgress", "NotStarted");
  }

  private CliRun mlv(String... args) {
    return CliRun.inProject(dir, args);
  }

  private JsonNode onlyDefinition() {
    var defs = fabric.simulator.lakehouse(fabric.lakehouseId).definitions.values();
    assertThat(defs).hasSize(1);
    return defs.iterator().next();
  }

  @Test
  void extendedLineageWithoutLakehousesIncludesAllOfThemAndSaysSo() {
    fabric.write(
        "mlv.yml",
        fabric.config(
            "    auth:\n      mode: token\n      token_env: " + FabricCliTest.TOKEN_ENV + "\n"));
    fabric.simulator.token = System.getenv(FabricCliTest.TOKEN_ENV);
    fabric.target = fabric.open(FabricTargetContractTest.fast());
    applied();
    fabric.simulator.answerAtOnce(); // the CLI polls at production intervals

    CliRun run = mlv("refresh", "-t", "prod", "--extended-lineage");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out() + run.err())
        .contains(
            "extended lineage: all upstream lakehouses are refreshed too (Fabric's default when"
                + " none is named)");
    JsonNode ext = onlyDefinition().path("extendedLineageExecutionContext");
    assertThat(ext.path("mode").asText()).isEqualTo("All");
    assertThat(ext.has("selectedLakehouses")).isFalse();
  }

  @Test
  void namedUpstreamLakehousesAreSentAsASelectionForOneRefreshOnly() {
    Project p = applied();
    UUID a = UUID.randomUUID();
    UUID b = UUID.randomUUID();
    UUID other = UUID.randomUUID();
    List<String> messages = new ArrayList<>();
    fabric.target.extendedLineage(
        List.of(UpstreamLakehouse.parse(a.toString()), UpstreamLakehouse.parse(other + "/" + b)));
    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, false), into(messages));
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    UUID workspace = fabric.workspaceId;
    assertThat(messages)
        .contains(
            "  extended lineage: upstream lakehouses ["
                + workspace
                + "/"
                + a
                + ", "
                + other
                + "/"
                + b
                + "] are refreshed too");
    // Fabric's documented shape: a mode, and each lakehouse an item reference by id; a lakehouse
    // named without its workspace is in the target's.
    JsonNode ext = onlyDefinition().path("extendedLineageExecutionContext");
    assertThat(ext.path("mode").asText()).isEqualTo("Selected");
    assertThat(ext.path("selectedLakehouses").toString())
        .isEqualTo(
            "[{\"referenceType\":\"ById\",\"itemId\":\""
                + a
                + "\",\"workspaceId\":\""
                + workspace
                + "\"},{\"referenceType\":\"ById\",\"itemId\":\""
                + b
                + "\",\"workspaceId\":\""
                + other
                + "\"}]");

    // The next refresh through the same target (as in mlv shell) does not inherit it.
    messages.clear();
    fabric.target.refresh(p, SimulatedFabric.request(p, false), into(messages));
    assertThat(messages).noneMatch(m -> m.contains("extended lineage"));
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).definitions.values())
        .anyMatch(d -> d.path("extendedLineageExecutionContext").isMissingNode());
  }

  @Test
  void extendedLineageOnTheLocalTargetIsOneClearError() {
    CliRun run = mlv("refresh", "--extended-lineage");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("--extended-lineage and --upstream-lakehouse work only on a Fabric target")
        .doesNotContain("\tat ");
    CliRun bad = mlv("refresh", "-t", "prod", "--upstream-lakehouse", "not-a-uuid");
    assertThat(bad.exitCode()).isEqualTo(64);
    assertThat(bad.err()).contains("--upstream-lakehouse");
  }

  @Test
  void aFailedJobIsPinnedOnTheViewItsReasonNamesNotOnOneWhoseNameIsAPrefixOfIt() {
    fabric.write(
        "mlv.yml",
        fabric
            .config("    auth:\n      mode: token\n      token_env: X\n")
            .replace("sources: [bronze.orders]", "sources: [bronze.orders, bronze.items]"));
    fabric.write(
        "views/silver/orders.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.orders AS SELECT id FROM bronze.orders\n");
    fabric.write(
        "views/silver/orders_clean.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.orders_clean AS SELECT id FROM bronze.items\n");
    fabric.write(
        "views/gold/by_customer.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.by_customer AS SELECT id FROM silver.orders\n");
    fabric.sql(
        "CREATE OR REPLACE TABLE " + SimulatedFabric.LAKEHOUSE + ".bronze.items AS SELECT 1");
    Project p = applied();
    fabric.sql("DROP TABLE " + SimulatedFabric.LAKEHOUSE + ".bronze.items");

    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, false), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .as(run.toString())
        .extracting(v -> v.id().shortName() + " " + v.status())
        .containsExactly(
            "silver.orders Completed", "silver.orders_clean Failed", "gold.by_customer Completed");
  }

  @Test
  void theViewAFailureReasonNamesIsTheFirstWholeNameInIt() {
    List<dev.mlv.lineage.ObjectId> views =
        List.of(id("silver", "orders"), id("silver", "orders_clean"), id("gold", "orders"));
    assertThat(FabricWorkspaceTarget.namedInFailure("silver.orders_clean: boom", views))
        .map(v -> v.shortName())
        .contains("silver.orders_clean");
    assertThat(
            FabricWorkspaceTarget.namedInFailure(
                "Refresh of `lh`.`silver`.`orders` failed: silver.orders_clean missing", views))
        .map(v -> v.shortName())
        .contains("silver.orders");
    assertThat(FabricWorkspaceTarget.namedInFailure("xsilver.orders failed", views)).isEmpty();
    assertThat(FabricWorkspaceTarget.namedInFailure("capacity throttled", views)).isEmpty();
  }

  private static dev.mlv.lineage.ObjectId id(String schema, String name) {
    return new dev.mlv.lineage.ObjectId(
        SimulatedFabric.WORKSPACE, SimulatedFabric.LAKEHOUSE, schema, name);
  }

  @Test
  void aViewNeverAppliedFailsWithRunApplyFirstAndNoJobStarts() {
    Project p = fabric.withOrders();
    RunReport dry =
        fabric.target.refresh(p, request(p, false, Duration.ofMinutes(1), true), RunListener.NONE);
    assertThat(dry.views())
        .as(dry.toString())
        .extracting(v -> v.id().shortName() + " " + v.strategy() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean none NOT_DEPLOYED: the view is not deployed; run 'mlv apply'"
                + " first",
            "gold.by_customer none UPSTREAM_FAILED: upstream silver.orders_clean will fail"
                + " (NOT_DEPLOYED), so this view will be skipped");

    RunReport run = fabric.target.refresh(p, SimulatedFabric.request(p, false), RunListener.NONE);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .as(run.toString())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Failed NOT_DEPLOYED",
            "gold.by_customer Skipped UPSTREAM_FAILED: upstream silver.orders_clean failed");
    assertThat(run.views().get(0).error().orElseThrow()).contains("run 'mlv apply' first");
    assertThat(fabric.simulator.jobsSubmitted.get()).isZero();
  }

  @Test
  void aJobPastTheRefreshTimeoutIsCancelledAndEachViewIsReportedAndRecorded() {
    Project p = applied();
    fabric.simulator.jobStepMs = 5_000;
    RunReport run =
        fabric.target.refresh(p, request(p, true, Duration.ofMillis(300), false), RunListener.NONE);
    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .as(run.toString())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean Failed RUN_TIMEOUT",
            "gold.by_customer Skipped UPSTREAM_FAILED: upstream silver.orders_clean failed");
    assertThat(run.views().get(0).error().orElseThrow())
        .contains("ran past the refresh timeout (0.3s) and was cancelled");
    assertThat(statuses()).contains("Cancelled");
    assertThat(fabric.target.runs(5)).extracting(RunReport::id).contains(run.id());
  }

  @Test
  void aRetryAfterLongerThanTheRefreshTimeoutIsNotSleptThrough() {
    Project p = applied();
    fabric.simulator.jobStepMs = 5_000;
    fabric.simulator.jobPollRetryAfter = "3600";
    RunReport run =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            Duration.ofSeconds(60),
            () ->
                fabric.target.refresh(
                    p, request(p, true, Duration.ofMillis(300), false), RunListener.NONE));
    assertThat(run.views().get(0).reason()).isEqualTo("RUN_TIMEOUT");
    assertThat(statuses()).contains("Cancelled");
  }

  private static dev.mlv.refresh.RefreshRequest request(
      Project p, boolean full, Duration timeout, boolean dryRun) {
    return new dev.mlv.refresh.RefreshRequest(
        new java.util.TreeSet<>(p.views().keySet()), full, 1, timeout, dryRun, java.util.Map.of());
  }
}
