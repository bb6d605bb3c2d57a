package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mlv.cli.CliRun;
import dev.mlv.cli.Golden;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mlv plan|apply} with schedules declared, end to end against the simulator: the plan text
 * (a golden file) and JSON, {@code --detailed-exitcode} counting schedule changes, apply with
 * {@code --auto-approve}, and the local target ignoring schedules with one line.
 */
class FabricScheduleCliTest {
  @TempDir Path dir;
  SimulatedFabric fabric;

  @BeforeEach
  void start() {
    fabric = new SimulatedFabric(dir);
    fabric.simulator.token = System.getenv(FabricCliTest.TOKEN_ENV);
    fabric.simulator.answerAtOnce(); // the CLI polls at production intervals
    fabric.simulator.slowPolls = 0;
    fabric.write(
        "mlv.yml",
        fabric.config(
                "    auth:\n      mode: token\n      token_env: " + FabricCliTest.TOKEN_ENV + "\n")
            + "schedules:\n"
            + FabricScheduleTest.NIGHTLY
            + FabricScheduleTest.SILVER_HOURLY
                .replace("cron", "weekly")
                .replace("interval: 60", "weekdays: [Monday, Thursday]\n    times: [\"06:00\"]"));
    fabric.target = fabric.open(FabricTargetContractTest.fast());
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  private CliRun mlv(String... args) {
    return CliRun.inProject(dir, args);
  }

  private void declare(String... schedules) {
    fabric.write(
        "mlv.yml",
        fabric.config(
                "    auth:\n      mode: token\n      token_env: " + FabricCliTest.TOKEN_ENV + "\n")
            + "schedules:\n"
            + String.join("", schedules));
  }

  @Test
  void planShowsSchedulesBesideViewsAndApplyMakesViewsThenSchedules() {
    fabric.withOrders();
    String ui = fabric.simulator.addUiSchedule(fabric.lakehouseId);

    CliRun plan = mlv("plan", "-t", "prod", "--detailed-exitcode");
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(2);
    Golden.assertMatches("plan-fabric-schedules.txt", plan.out().replace(ui, "<ui-schedule-id>"));

    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve", "--quiet");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    assertThat(apply.out())
        .contains("  creating schedule nightly")
        .contains("Schedules applied: 2 created, 0 updated, 0 deleted.");
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).mlvs).hasSize(2);
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).schedules).hasSize(3);
  }

  /** Without views the plan reads little over Livy, so these commands stay quick. */
  @Test
  void scheduleOnlyChangesCountForDetailedExitcodeAndPrintJson() throws Exception {
    java.nio.file.Files.delete(dir.resolve("views/silver/orders_clean.sql"));
    java.nio.file.Files.delete(dir.resolve("views/gold/by_customer.sql"));
    String hourly =
        FabricScheduleTest.SILVER_HOURLY.replace("views: [silver.orders_clean]", "views: all");
    declare(FabricScheduleTest.NIGHTLY, hourly);
    String ui = fabric.simulator.addUiSchedule(fabric.lakehouseId);

    CliRun plan = mlv("plan", "-t", "prod", "--detailed-exitcode");
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(2);
    assertThat(plan.out()).contains("Schedules: 2 to create, 0 to update, 0 to delete");

    CliRun json = mlv("apply", "-t", "prod", "--auto-approve", "--format", "json");
    assertThat(json.exitCode()).as(json.toString()).isZero();
    JsonNode applied = FabricHttp.JSON.readTree(json.out());
    assertThat(applied.path("schedules").path("summary").toString())
        .isEqualTo("{\"create\":2,\"update\":0,\"delete\":0,\"unchanged\":0}");
    assertThat(json.err()).contains("Schedules applied: 2 created, 0 updated, 0 deleted.");
    // Approved without a question, the plan is still in the log, before what was applied.
    assertThat(json.err()).contains("Schedules: 2 to create, 0 to update, 0 to delete");
    assertThat(json.err().indexOf("Schedules: 2 to create"))
        .isLessThan(json.err().indexOf("Schedules applied"));
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).schedules).hasSize(3);

    CliRun again = mlv("plan", "-t", "prod", "--format", "json", "--detailed-exitcode");
    assertThat(again.exitCode()).as(again.toString()).isZero();
    JsonNode planned = FabricHttp.JSON.readTree(again.out());
    assertThat(planned.path("schedules").path("summary").toString())
        .isEqualTo("{\"create\":0,\"update\":0,\"delete\":0,\"unchanged\":2}");
    assertThat(planned.path("schedules").path("unmanaged").get(0).asText()).startsWith(ui);
    assertThat(planned.path("schedules").path("changes").get(1).path("summary").asText())
        .isEqualTo("every 60 min (UTC), all views, Full");

    declare(FabricScheduleTest.NIGHTLY);
    CliRun delete = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(delete.exitCode()).as(delete.toString()).isZero();
    assertThat(delete.out())
        .contains("- delete   silver-hourly")
        .contains("Schedules: 0 to create, 0 to update, 1 to delete, 1 unchanged.")
        .contains("Schedules applied: 0 created, 0 updated, 1 deleted.");
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).schedules).hasSize(2).containsKey(ui);
  }

  @Test
  void theLocalTargetIgnoresSchedulesWithOneLine() {
    CliRun plan = mlv("plan");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out())
        .contains(
            "Schedules: 2 schedules in mlv.yml ignored: target 'local' is local and has no job"
                + " scheduler (schedules apply to Fabric targets)");
    assertThat(plan.err()).doesNotContain("error");
  }
}
