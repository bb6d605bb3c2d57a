package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mlv.cli.CliRun;
import dev.mlv.cli.ExitCodes;
import dev.mlv.target.SqlResult;
import dev.mlv.target.SqlValue;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Quality gates and drop counts on a Fabric target, whose API reports no dropped rows: a gated view
 * Fabric rebuilt in full is re-counted over Livy, anything else is "not reported" and its gate is
 * not checked. The catalog-only simulator keeps no rows, so the count query's answer is given here
 * (FabricTargetContractTest counts real rows).
 */
class FabricQualityGateCliTest {
  private static final String COUNT = "SELECT count(*) AS mlv_selected";

  @TempDir Path dir;
  SimulatedFabric fabric;

  @BeforeEach
  void start() {
    fabric = new SimulatedFabric(dir);
    fabric.simulator.token = System.getenv(FabricCliTest.TOKEN_ENV);
    fabric.simulator.answerAtOnce(); // the CLI polls at production intervals
    fabric.target = fabric.open(FabricTargetContractTest.fast());
    fabric.write("mlv.yml", auth());
    fabric.sql(
        "CREATE OR REPLACE TABLE " + SimulatedFabric.LAKEHOUSE + ".bronze.orders AS SELECT 1");
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  private CliRun mlv(String... args) {
    return CliRun.inProject(dir, args);
  }

  private void gate(String settings) {
    fabric.write("mlv.yml", auth() + "view_config:\n  silver.orders_clean:\n" + settings + "\n");
  }

  private String auth() {
    return fabric.config(
        "    auth:\n      mode: token\n      token_env: " + FabricCliTest.TOKEN_ENV + "\n");
  }

  private void applied() {
    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
  }

  /** Fabric wrote {@code written} rows of silver; the SELECT returns {@code selected}. */
  private void counts(long written, long selected, long dropped, long positive) {
    fabric.data.outputRows.put("silver.orders_clean", written);
    fabric.data.answers.put(
        COUNT,
        new SqlResult(
            List.of("mlv_selected", "mlv_dropped", "mlv_rule_0"),
            List.of(),
            null,
            List.of(
                List.of(
                    new SqlValue.Exact(BigDecimal.valueOf(selected)),
                    new SqlValue.Exact(BigDecimal.valueOf(dropped)),
                    new SqlValue.Exact(BigDecimal.valueOf(positive))))));
  }

  @Test
  void aGatedFullRefreshIsRecountedAndBreachingItsGateExits4() {
    gate("    max_dropped_rows: 2");
    applied();
    counts(7, 10, 3, 3);
    int before = fabric.simulator.timesRun(COUNT);

    CliRun refresh = mlv("refresh", "-t", "prod", "--full", "silver.orders_clean");

    assertThat(refresh.exitCode()).as(refresh.toString()).isEqualTo(ExitCodes.QUALITY_GATE);
    assertThat(refresh.out()).contains("rows written 7, dropped 3 (violations: positive=3)");
    assertThat(refresh.err())
        .contains(
            "quality gate: silver.orders_clean dropped 3 rows, more than max_dropped_rows 2;"
                + " violations by constraint: positive 3");
    assertThat(fabric.simulator.timesRun(COUNT)).isEqualTo(before + 1);
  }

  @Test
  void aGatedFullRefreshWithinItsGatePasses() {
    gate("    max_dropped_ratio: 50%");
    applied();
    counts(7, 10, 3, 3);

    CliRun refresh = mlv("refresh", "-t", "prod", "--full", "silver.orders_clean");

    assertThat(refresh.exitCode()).as(refresh.toString()).isZero();
    assertThat(refresh.err()).doesNotContain("quality gate");
    assertThat(refresh.out()).contains("dropped 3 (violations: positive=3)");
  }

  @Test
  void anIncrementalRefreshLeavesTheGateUncheckedWithAWarningAndExit0() {
    // enable_cdf: apply turns the feed on for bronze.orders, which Fabric's incremental needs.
    gate("    max_dropped_rows: 0\n    enable_cdf: true");
    applied();
    counts(7, 10, 3, 3);
    fabric.sql("INSERT INTO " + SimulatedFabric.LAKEHOUSE + ".bronze.orders VALUES (2)");
    int before = fabric.simulator.timesRun(COUNT);

    CliRun refresh = mlv("refresh", "-t", "prod", "silver.orders_clean");

    assertThat(refresh.exitCode()).as(refresh.toString()).isZero();
    assertThat(refresh.out()).contains("incremental").contains("dropped: not reported by Fabric");
    assertThat(refresh.err())
        .contains(
            "warning: quality gate max_dropped_rows of silver.orders_clean not checked: Fabric's"
                + " API does not report the rows DROP rules remove, and mlv re-counts them only"
                + " after a full refresh (this one was incremental); 'mlv refresh --full' counts"
                + " them");
    // The SELECT was not re-run: an incremental refresh wrote only the new rows.
    assertThat(fabric.simulator.timesRun(COUNT)).isEqualTo(before);
  }

  @Test
  void anUngatedViewRunsNoExtraStatementAndClaimsNoDrops() throws Exception {
    applied();
    int before = fabric.simulator.timesRun(COUNT);

    CliRun refresh = mlv("refresh", "-t", "prod", "--full", "--format", "json");

    assertThat(refresh.exitCode()).as(refresh.toString()).isZero();
    assertThat(fabric.simulator.timesRun(COUNT)).isEqualTo(before).isZero();
    assertThat(refresh.err()).doesNotContain("quality gate");
    JsonNode views =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(refresh.out()).path("views");
    JsonNode silver = views.get(0);
    assertThat(silver.path("id").asText()).endsWith("silver.orders_clean");
    assertThat(silver.path("rowsDropped").isNull()).as(silver.toString()).isTrue();
    assertThat(silver.path("violations").isNull()).isTrue();
    assertThat(silver.path("dropsNotMeasured").asText())
        .isEqualTo("Fabric's API does not report the rows DROP rules remove");
    // A view without DROP rules drops nothing: 0 is a count there.
    JsonNode gold = views.get(1);
    assertThat(gold.path("rowsDropped").isNumber()).as(gold.toString()).isTrue();
    assertThat(gold.has("dropsNotMeasured")).isFalse();

    CliRun text = mlv("runs", "-t", "prod");
    assertThat(text.exitCode()).as(text.toString()).isZero();
  }

  @Test
  void aCountThatCannotBeMadeOrDoesNotReconcileIsAWarningNotAPass() {
    gate("    max_dropped_rows: 0");
    applied();
    // No answer: the simulator cannot run the SELECT, as a Livy failure would.
    CliRun failed = mlv("refresh", "-t", "prod", "--full", "silver.orders_clean");
    assertThat(failed.exitCode()).as(failed.toString()).isZero();
    assertThat(failed.err())
        .contains("warning: quality gate max_dropped_rows of silver.orders_clean not checked:")
        .contains("counting them over Livy failed");

    // A source appended after the refresh: 11 rows less 7 written is not the 3 the rules drop.
    counts(7, 11, 3, 3);
    CliRun moved = mlv("refresh", "-t", "prod", "--full", "silver.orders_clean");
    assertThat(moved.exitCode()).as(moved.toString()).isZero();
    assertThat(moved.err())
        .contains(
            "does not reconcile with Fabric's (the SELECT now returns 11 rows, of which the DROP"
                + " rules remove 3, but Fabric wrote 7): a source probably changed after the"
                + " refresh");
    assertThat(moved.out()).contains("dropped: not reported by Fabric");
  }

  @Test
  void junitShowsAnUncheckedGateAsSkippedNeverPassed() {
    gate("    max_dropped_rows: 0");
    applied();
    fabric.sql("INSERT INTO " + SimulatedFabric.LAKEHOUSE + ".bronze.orders VALUES (2)");

    CliRun junit = mlv("refresh", "-t", "prod", "--format", "junit", "silver.orders_clean");

    assertThat(junit.exitCode()).as(junit.toString()).isZero();
    assertThat(junit.out())
        .contains("name=\"quality gate max_dropped_rows\"")
        .contains(
            "<skipped message=\"quality gate max_dropped_rows of silver.orders_clean not checked:")
        .contains("not counted: not reported by Fabric")
        .contains("dropped: not reported by Fabric")
        .doesNotContain("0 dropped");
  }
}
