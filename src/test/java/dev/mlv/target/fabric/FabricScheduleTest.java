package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.MlvException;
import dev.mlv.plan.PlanJson;
import dev.mlv.project.Project;
import dev.mlv.refresh.RunListener;
import dev.mlv.schedule.ScheduleChange;
import dev.mlv.schedule.SchedulePlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Declared schedules against the simulator's job scheduler: plan, create, no-op, update, delete,
 * schedules made in the UI left alone, and Fabric's limit of 20 checked before anything is sent.
 */
class FabricScheduleTest {
  @TempDir Path dir;
  SimulatedFabric fabric;

  static final String NIGHTLY =
      """
        - name: nightly
          type: daily
          times: ["02:00"]
          start: 2026-01-01T00:00:00
          end: 2027-01-01T00:00:00
      """;
  static final String SILVER_HOURLY =
      """
        - name: silver-hourly
          views: [silver.orders_clean]
          type: cron
          interval: 60
          refresh_mode: full
          start: 2026-01-01T00:00:00
          end: 2027-01-01T00:00:00
      """;

  @BeforeEach
  void start() {
    fabric = new SimulatedFabric(dir);
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  private Project declare(String... schedules) {
    fabric.write("mlv.yml", fabric.config("") + "schedules:\n" + String.join("", schedules));
    if (schedules.length == 0) {
      fabric.write("mlv.yml", fabric.config(""));
    }
    return fabric.project();
  }

  private Map<String, ObjectNode> deployed() {
    return fabric.simulator.lakehouse(fabric.lakehouseId).schedules;
  }

  private SchedulePlan plan(Project p) {
    return fabric.target.schedules().orElseThrow().plan(p);
  }

  private List<String> apply(Project p) {
    List<String> said = new ArrayList<>();
    fabric.target.schedules().orElseThrow().apply(p, plan(p), said::add);
    return said;
  }

  private static List<String> actions(SchedulePlan plan) {
    return plan.changes().stream()
        .map(c -> c.getClass().getSimpleName() + " " + c.name() + ": " + c.reason())
        .toList();
  }

  @Test
  void declaredSchedulesAreCreatedThenNoOpsThenUpdatedThenDeleted() {
    Project p = fabric.withOrders();
    fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
    p = declare(NIGHTLY, SILVER_HOURLY);

    SchedulePlan first = plan(p);
    assertThat(actions(first))
        .containsExactly(
            "Create nightly: declared in mlv.yml, not on the target",
            "Create silver-hourly: declared in mlv.yml, not on the target");
    assertThat(first.changes().get(1).summary())
        .isEqualTo("every 60 min (UTC), silver.orders_clean, Full");
    assertThat(deployed()).as("plan is read-only").isEmpty();

    assertThat(apply(p))
        .containsExactly("  creating schedule nightly", "  creating schedule silver-hourly");
    assertThat(deployed()).hasSize(2);
    ObjectNode hourly =
        deployed().values().stream()
            .filter(s -> s.path("configuration").path("type").asText().equals("Cron"))
            .findFirst()
            .orElseThrow();
    assertThat(hourly.path("configuration").toString())
        .isEqualTo(
            "{\"type\":\"Cron\",\"startDateTime\":\"2026-01-01T00:00:00\",\"endDateTime\":"
                + "\"2027-01-01T00:00:00\",\"localTimeZoneId\":\"UTC\",\"interval\":60}");
    String defId = hourly.path("executionData").path("mlvExecutionDefinitionId").asText();
    ObjectNode def = fabric.simulator.lakehouse(fabric.lakehouseId).definitions.get(defId);
    assertThat(def.path("displayName").asText())
        .isEqualTo("mlv-schedule fabric_test/silver-hourly");
    assertThat(def.path("settings").path("refreshMode").asText()).isEqualTo("Full");
    assertThat(def.path("currentLakehouseExecutionContext").toString())
        .isEqualTo("{\"mode\":\"Selected\",\"selectedMlvs\":[\"silver.orders_clean\"]}");

    assertThat(actions(plan(p)))
        .containsExactly("NoOp nightly: as declared", "NoOp silver-hourly: as declared");
    assertThat(plan(p).hasChanges()).isFalse();

    // A new time and a wider scope: one update, sent as PATCH to the same schedule.
    p =
        declare(
            NIGHTLY.replace("\"02:00\"", "\"03:30\""),
            SILVER_HOURLY.replace("[silver.orders_clean]", "[silver.orders_clean+]"));
    assertThat(actions(plan(p)))
        .containsExactly(
            "Update nightly: timing changed in mlv.yml",
            "Update silver-hourly: views changed in mlv.yml");
    apply(p);
    assertThat(deployed()).hasSize(2);
    assertThat(deployed().values())
        .anyMatch(s -> s.path("configuration").path("times").toString().equals("[\"03:30\"]"));
    assertThat(
            fabric
                .simulator
                .lakehouse(fabric.lakehouseId)
                .definitions
                .get(defId)
                .path("currentLakehouseExecutionContext")
                .path("selectedMlvs")
                .toString())
        .isEqualTo("[\"silver.orders_clean\",\"gold.by_customer\"]");
    assertThat(plan(p).hasChanges()).isFalse();

    // Gone from mlv.yml: deleted, with its execution definition.
    p = declare(NIGHTLY.replace("\"02:00\"", "\"03:30\""));
    assertThat(actions(plan(p)))
        .containsExactly(
            "NoOp nightly: as declared",
            "Delete silver-hourly: created by mlv, no longer in mlv.yml");
    apply(p);
    assertThat(deployed()).hasSize(1);
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).definitions).doesNotContainKey(defId);
  }

  @Test
  void underThirtyPercentTransientFaultsSchedulesAreCreatedOnceEach() {
    Project p = declare(NIGHTLY, SILVER_HOURLY.replace("[silver.orders_clean]", "all"));
    fabric.simulator.faults = java.util.EnumSet.allOf(FabricSimulator.Fault.class);
    fabric.simulator.faultRate = 0.3;
    apply(p);
    fabric.simulator.faultRate = 0;
    assertThat(fabric.simulator.injected.get()).isPositive();
    assertThat(deployed()).hasSize(2);
    assertThat(fabric.simulator.schedulesWritten.get()).isEqualTo(2);
    assertThat(plan(p).hasChanges()).isFalse();
    // And deleting them under faults leaves nothing of mlv's behind.
    p = declare();
    fabric.simulator.faultRate = 0.3;
    apply(p);
    fabric.simulator.faultRate = 0;
    assertThat(deployed()).isEmpty();
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).definitions).isEmpty();
  }

  @Test
  void aTwinOfAManagedScheduleIsDeletedAndTheDeclaredOneKept() {
    Project p = declare(NIGHTLY);
    apply(p);
    ObjectNode copy = deployed().values().iterator().next().deepCopy();
    copy.put("id", java.util.UUID.randomUUID().toString());
    deployed().put(copy.path("id").asText(), copy);
    assertThat(actions(plan(p)))
        .containsExactly(
            "NoOp nightly: as declared",
            "Delete nightly: a second schedule of mlv's with this name");
    apply(p);
    assertThat(deployed()).hasSize(1);
    assertThat(plan(p).hasChanges()).isFalse();
  }

  @Test
  void aScheduleMadeInTheUiIsListedAsUnmanagedAndLeftAlone() {
    String ui = fabric.simulator.addUiSchedule(fabric.lakehouseId);
    Project p = declare(NIGHTLY);
    SchedulePlan plan = plan(p);
    assertThat(plan.unmanaged()).containsExactly(ui + " (daily at 06:00 (UTC))");
    apply(p);
    // Even with nothing declared any more, the UI's schedule stays.
    p = declare();
    assertThat(actions(plan(p)))
        .containsExactly("Delete nightly: created by mlv, no longer in mlv.yml");
    apply(p);
    assertThat(deployed()).containsOnlyKeys(ui);
    assertThat(plan(p).changes()).isEmpty();
  }

  @Test
  void moreThanTwentyOnTheLakehouseIsRefusedBeforeAnythingIsSent() {
    for (int i = 0; i < 19; i++) {
      fabric.simulator.addUiSchedule(fabric.lakehouseId);
    }
    Project p = declare(NIGHTLY, SILVER_HOURLY.replace("[silver.orders_clean]", "all"));
    int writes = fabric.simulator.schedulesWritten.get();
    assertThatThrownBy(() -> plan(p))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining(
            "target 'prod' would have 21 refresh schedules (2 from mlv.yml, 19 made elsewhere);"
                + " Fabric allows at most 20 per lakehouse. Nothing was sent");
    assertThat(fabric.simulator.schedulesWritten.get()).isEqualTo(writes);
    assertThat(deployed()).hasSize(19);
  }

  @Test
  void theSimulatorEnforcesFabricsRulesToo() {
    for (int i = 0; i < 20; i++) {
      fabric.simulator.addUiSchedule(fabric.lakehouseId);
    }
    FabricHttp http =
        new FabricHttp(
            fabric.simulator.endpoint(),
            true,
            TokenSource.of(
                new dev.mlv.project.AuthConfig.TokenFromEnv("T"),
                Map.of("T", fabric.simulator.token)),
            FabricTargetContractTest.fast());
    String path =
        "/workspaces/"
            + fabric.workspaceId
            + "/items/"
            + fabric.lakehouseId
            + "/jobs/RefreshMaterializedLakeViews/schedules";
    ObjectNode body = FabricHttp.JSON.createObjectNode().put("enabled", true);
    body.putObject("configuration")
        .put("type", "Cron")
        .put("interval", 10)
        .put("startDateTime", "2026-01-01T00:00:00")
        .put("localTimeZoneId", "UTC");
    assertThatThrownBy(() -> http.post(path, body, "creating a schedule"))
        .hasMessageContaining("ScheduleExceedsLimit");
    deployed().clear();
    assertThatThrownBy(() -> http.post(path, body, "creating a schedule"))
        .hasMessageContaining("endDateTime is required");
  }

  @Test
  void aSavedPlanCarriesItsScheduleChangesAndIsRefusedWhenTheyMoved() {
    Project p = declare(NIGHTLY);
    var plan = fabric.plan(p, false).withSchedules(plan(p));
    var read = PlanJson.read(PlanJson.write(plan), "plan.json");
    assertThat(read.schedules()).isEqualTo(plan.schedules());
    assertThat(read.hasChanges()).isTrue();

    apply(p); // someone else applied it meanwhile
    assertThatThrownBy(
            () -> fabric.target.schedules().orElseThrow().apply(p, read.schedules(), s -> {}))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("changed since the plan was made");
    assertThat(deployed()).hasSize(1);
    assertThat(read.schedules().changes().get(0)).isInstanceOf(ScheduleChange.Create.class);
  }
}
