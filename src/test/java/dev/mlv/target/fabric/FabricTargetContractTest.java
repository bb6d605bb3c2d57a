package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.lineage.ObjectId;
import dev.mlv.project.AuthConfig;
import dev.mlv.project.FabricTarget;
import dev.mlv.project.Project;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.target.Target;
import dev.mlv.target.TargetContractTest;
import dev.mlv.target.local.SharedSpark;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The target contract against the Fabric simulator, whose rows come from the embedded Spark engine.
 * Everything mlv does goes over HTTP: Livy statements, execution definitions, the refresh job.
 *
 * <p>Every statement here is a Spark job behind an HTTP round trip, which makes the suite take
 * minutes: it runs only with {@code -Dmlv.fabric.spark=true}. {@link FabricTargetTest} covers the
 * same behaviour on the fast catalog-only simulator in the default run.
 */
@EnabledIfSystemProperty(named = "mlv.fabric.spark", matches = "true")
class FabricTargetContractTest extends TargetContractTest {
  private FabricSimulator simulator;

  @BeforeAll
  static void sharedContext() {
    SharedSpark.start();
  }

  static RetryPolicy fast() {
    return new RetryPolicy(
        Duration.ofMillis(2),
        Duration.ofMillis(20),
        Duration.ofSeconds(20),
        Duration.ofSeconds(30),
        Duration.ofMillis(1),
        Duration.ofMillis(10),
        Duration.ofSeconds(60),
        Duration.ofSeconds(10));
  }

  @Override
  protected Target newTarget(Project project) {
    try {
      simulator = new FabricSimulator();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    UUID ws = UUID.randomUUID();
    UUID lh = UUID.randomUUID();
    simulator.addLakehouse(
        ws,
        lh,
        WORKSPACE,
        LAKEHOUSE,
        new SparkDataPlane(dir.resolve(".simulator"), WORKSPACE, LAKEHOUSE));
    AuthConfig auth = new AuthConfig.TokenFromEnv("SIM_TOKEN");
    FabricTarget t = new FabricTarget("fabric", ws, lh, simulator.endpoint(), true, auth);
    return new FabricWorkspaceTarget(
        project.config(), t, TokenSource.of(auth, Map.of("SIM_TOKEN", simulator.token)), fast());
  }

  @AfterEach
  void stopSimulator() {
    if (simulator != null) {
      simulator.close();
    }
  }

  @Override
  protected void loadSource(
      Project project, ObjectId table, String columns, List<List<Object>> rows, boolean append) {
    SharedSpark.load(target, project, table, columns, rows, append);
  }

  /**
   * Documented exception: a failed refresh job says which rule a row broke, not how many rows broke
   * it, so the run records no violations for the view.
   */
  @Override
  protected Map<String, Long> violationsOfAFailedRefresh(String rule, long rows) {
    return Map.of();
  }

  /**
   * Documented exception: Fabric's job API and Delta history report rows written but not how many
   * rows each constraint dropped (Fabric shows that only in its lineage UI), so a view without a
   * quality gate has its drops marked as not measured, never 0, while the rows kept are right.
   */
  @Override
  @Test
  protected void dropRulesCountEveryViolationAndDropARowOnce() throws IOException {
    write(
        "views/silver/orders_clean.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.orders_clean\n"
            + "(CONSTRAINT positive CHECK (amount > 0) ON MISMATCH DROP,\n"
            + " CONSTRAINT named CHECK (customer IS NOT NULL) ON MISMATCH DROP)\n"
            + "AS SELECT id, customer, amount FROM bronze.orders\n");
    Project p = project();
    loadSource(
        p,
        orders(),
        ORDER_COLUMNS,
        List.of(
            List.of(1, "a", 10.0), row(2, null, 3.0), List.of(3, "b", -1.0), row(4, null, -2.0)));

    RunReport run = target.apply(p, plan(p, false), RunListener.NONE);

    ViewRun silver = run.views().get(0);
    assertThat(silver.status()).as(describe(run)).isEqualTo(ViewStatus.Completed);
    assertThat(silver.rowsWritten()).isEqualTo(1);
    assertThat(silver.dropsMeasured()).isFalse();
    assertThat(silver.violations()).isEmpty();
    assertThat(rows(p, "SELECT id FROM silver.orders_clean")).containsExactly("1");
  }

  /**
   * A gated view Fabric rebuilt in full is re-counted over Livy as the local engine counts: a row
   * breaking two rules is dropped once, a rule that is NULL is broken.
   */
  @Test
  void aGatedViewRebuiltInFullHasItsDropsCountedOverLivy() throws IOException {
    java.nio.file.Path yml = dir.resolve("mlv.yml");
    java.nio.file.Files.writeString(
        yml,
        java.nio.file.Files.readString(yml)
            + "view_config:\n  silver.orders_clean:\n    max_dropped_rows: 100\n");
    write(
        "views/silver/orders_clean.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.orders_clean\n"
            + "(CONSTRAINT positive CHECK (amount > 0) ON MISMATCH DROP,\n"
            + " CONSTRAINT named CHECK (customer IS NOT NULL) ON MISMATCH DROP)\n"
            + "AS SELECT id, customer, amount FROM bronze.orders\n");
    Project p = project();
    loadSource(
        p,
        orders(),
        ORDER_COLUMNS,
        List.of(
            List.of(1, "a", 10.0),
            row(2, null, 3.0),
            List.of(3, "b", -1.0),
            row(4, null, -2.0),
            row(5, "c", null))); // amount > 0 is NULL: broken

    RunReport applied = target.apply(p, plan(p, false), RunListener.NONE);
    RunReport full = target.refresh(p, request(p, true), RunListener.NONE);

    for (RunReport run : List.of(applied, full)) {
      ViewRun silver = run.views().get(0);
      assertThat(silver.status()).as(describe(run)).isEqualTo(ViewStatus.Completed);
      assertThat(silver.dropsMeasured()).as(describe(run)).isTrue();
      assertThat(silver.rowsWritten()).isEqualTo(1);
      assertThat(silver.rowsDropped()).isEqualTo(4);
      assertThat(silver.violations())
          .containsExactly(Map.entry("positive", 3L), Map.entry("named", 2L));
    }
  }

  @Test
  void applyAndRefreshUseOneJobAtMostAndStatementsRunOnce() {
    Project p = applied();
    int jobs = simulator.jobsSubmitted.get();
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(5, "c", 4.0)), true);
    target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(simulator.jobsSubmitted.get()).isEqualTo(jobs + 1);
    assertThat(simulator.timesRun("CREATE OR REPLACE MATERIALIZED LAKE VIEW silver.orders_clean"))
        .isEqualTo(1);
  }
}
