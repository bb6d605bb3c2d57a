package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Change;
import dev.mlv.plan.NotebookChange;
import dev.mlv.plan.NotebookPlanner;
import dev.mlv.plan.Plan;
import dev.mlv.plan.PlanJson;
import dev.mlv.plan.PlanRenderer;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.target.SqlResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PySpark views on the Fabric target against the simulator: one notebook item per .py file, created
 * or updated through the definition API, run once as a RunNotebook job to register the views, and
 * flagged by plan when someone deleted it.
 */
class FabricNotebookTest {
  static final String SOURCE = "views/gold/formula_ranking.py";
  static final String PREFERENCE =
      "CREATE MATERIALIZED LAKE VIEW gold.formula_preference AS SELECT customer AS formula_id,"
          + " customer AS formula_name, total AS avg_first_choice_pct, total AS trials"
          + " FROM gold.by_customer\n";

  @TempDir Path dir;
  SimulatedFabric fabric;
  String example;
  ObjectId ranking = id("gold.formula_ranking");

  @BeforeEach
  void start() throws IOException {
    fabric = new SimulatedFabric(dir);
    fabric.simulator.instantStatements = true;
    example =
        Files.readString(
            Path.of("examples/medallion/views/gold/formula_ranking.py"), StandardCharsets.UTF_8);
    fabric.write("views/gold/formula_preference.sql", PREFERENCE);
    fabric.write(SOURCE, example);
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  static ObjectId id(String shortName) {
    String[] p = shortName.split("\\.");
    return new ObjectId(SimulatedFabric.WORKSPACE, SimulatedFabric.LAKEHOUSE, p[0], p[1]);
  }

  String notebookName() {
    return NotebookPlanner.displayName("fabric_test", "prod", SOURCE);
  }

  private RunReport apply(Project p) {
    return fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
  }

  private Project applied() {
    Project p = fabric.withOrders();
    RunReport run = apply(p);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    return p;
  }

  @Test
  void planShowsTheNotebookToCreate() {
    Project p = fabric.withOrders();
    Plan plan = fabric.plan(p, false);

    assertThat(plan.changes())
        .filteredOn(c -> c.id().equals(ranking))
        .singleElement()
        .isInstanceOf(Change.Create.class);
    assertThat(plan.notebooks())
        .singleElement()
        .isInstanceOfSatisfying(
            NotebookChange.Create.class,
            n -> {
              assertThat(n.source()).isEqualTo(SOURCE);
              assertThat(n.displayName()).isEqualTo(notebookName()).startsWith("mlv_fabric_test_");
              assertThat(n.views()).containsExactly(ranking);
            });
    assertThat(PlanRenderer.text(plan, p.names(), false))
        .contains("+ create   " + notebookName() + " (" + SOURCE + ")")
        .contains("Notebooks: 1 to create, 0 to recreate, 0 to update, 0 to delete.");
    // A saved plan keeps its notebook changes.
    assertThat(PlanJson.read(PlanJson.write(plan), "plan.json").notebooks())
        .isEqualTo(plan.notebooks());
  }

  @Test
  void applyCreatesTheNotebookWithItsCellsAndRunsItOnce() {
    Project p = applied();

    assertThat(fabric.simulator.notebookRuns.get()).isEqualTo(1);
    assertThat(fabric.simulator.notebooks.items.values())
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.path("displayName").asText()).isEqualTo(notebookName());
              assertThat(n.path("description").asText())
                  .contains("[mlv project=fabric_test; lakehouse=" + fabric.lakehouseId)
                  .contains("source=" + SOURCE + "]");
            });
    String content = fabric.simulator.notebooks.content(notebookName());
    assertThat(content)
        .startsWith("# Fabric notebook source\n")
        .contains("\"default_lakehouse\": \"" + fabric.lakehouseId + "\"")
        .contains("\"default_lakehouse_workspace_id\": \"" + fabric.workspaceId + "\"");
    List<String> cells =
        Arrays.stream(content.split("\n# CELL \\*+\n\n"))
            .skip(1)
            .map(c -> c.substring(0, c.indexOf("\n# METADATA")).strip())
            .toList();
    String[] parts = example.split("\n# %%\n");
    assertThat(cells).hasSize(3);
    assertThat(cells.get(0)).startsWith("# Gold, in PySpark").contains("import fmlv");
    assertThat(cells.get(1)).isEqualTo(parts[1].strip()).startsWith("def with_rank(df):");
    // The decorator cell as written, decorators and all.
    assertThat(cells.get(2))
        .isEqualTo(parts[2].strip())
        .startsWith("@fmlv.materialized_lake_view(\n    name=\"gold.formula_ranking\",")
        .contains("@fmlv.check(\"has_trials\", \"trials > 0\", \"drop\")");

    // The run registered the view: Fabric's catalog lists it next to the SQL views.
    SqlResult shown = fabric.sql("SHOW MATERIALIZED LAKE VIEWS IN gold");
    assertThat(shown.rows()).extracting(r -> r.get(1)).contains("formula_ranking");
    String fp = p.views().get(ranking).definition().fingerprint();
    assertThat(fabric.simulator.notebooks.registered.get(fabric.lakehouseId))
        .containsEntry("gold.formula_ranking", fp);

    Plan again = fabric.plan(p, false);
    assertThat(again.hasChanges()).as(PlanRenderer.text(again, p.names(), true)).isFalse();
    assertThat(again.notebooks()).singleElement().isInstanceOf(NotebookChange.NoOp.class);
    assertThat(fabric.simulator.notebookRuns.get()).isEqualTo(1);
  }

  @Test
  void editingTheFunctionUpdatesTheNotebookAndRegistersTheNewCode() {
    applied();
    fabric.write(
        SOURCE,
        example.replace(
            "\"formula_name\", \"trials\")",
            "\"formula_name\", \"trials\", \"avg_first_choice_pct\")"));
    Project p = fabric.project();

    Plan plan = fabric.plan(p, false);
    assertThat(plan.changes())
        .filteredOn(c -> c.id().equals(ranking))
        .singleElement()
        .isInstanceOfSatisfying(
            Change.Replace.class,
            r -> assertThat(r.diff()).contains("+").contains("avg_first_choice_pct\")"));
    assertThat(plan.notebooks())
        .singleElement()
        .isInstanceOfSatisfying(
            NotebookChange.Update.class,
            n -> assertThat(n.reason()).contains("changed: gold.formula_ranking"));
    // Only the edited view changes; the SQL views around it stay as they are.
    assertThat(plan.changes()).filteredOn(c -> !(c instanceof Change.NoOp)).hasSize(1);

    RunReport run = fabric.target.apply(p, plan, RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(fabric.simulator.notebooks.items).hasSize(1);
    assertThat(fabric.simulator.notebooks.content(notebookName()))
        .contains("\"formula_name\", \"trials\", \"avg_first_choice_pct\")");
    assertThat(fabric.simulator.notebookRuns.get()).isEqualTo(2);
    // replace=True is not set, so mlv dropped the old registration and the run made the new one.
    assertThat(fabric.simulator.notebooks.registered.get(fabric.lakehouseId))
        .containsEntry("gold.formula_ranking", p.views().get(ranking).definition().fingerprint());
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void aDeletedNotebookIsFlaggedByPlanAndRecreatedByApply() {
    Project p = applied();
    fabric.simulator.notebooks.deleteBehindMlvsBack(notebookName());

    Plan plan = fabric.plan(p, false);
    assertThat(plan.hasChanges()).isTrue();
    assertThat(plan.notebooks())
        .singleElement()
        .isInstanceOfSatisfying(
            NotebookChange.Recreate.class,
            n ->
                assertThat(n.reason())
                    .contains("removed from the workspace")
                    .contains("gold.formula_ranking still exist"));
    assertThat(PlanRenderer.text(plan, p.names(), false))
        .contains("! recreate " + notebookName())
        .contains("its notebook is gone from the workspace while the view exists");

    RunReport run = fabric.target.apply(p, plan, RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(fabric.simulator.notebooks.items.values())
        .extracting(n -> n.path("displayName").asText())
        .containsExactly(notebookName());
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void aFileThatLeftTheProjectKeepsItsNotebookUnlessPruned() throws IOException {
    applied();
    Files.delete(dir.resolve(SOURCE));
    Project p = fabric.project();

    Plan kept = fabric.plan(p, false);
    assertThat(kept.notebooks())
        .singleElement()
        .isInstanceOfSatisfying(
            NotebookChange.NoOp.class, n -> assertThat(n.reason()).contains("--prune deletes"));
    assertThat(kept.orphans()).containsExactly(ranking);

    Plan pruned = fabric.plan(p, true);
    assertThat(pruned.notebooks())
        .singleElement()
        .isInstanceOfSatisfying(
            NotebookChange.Delete.class, n -> assertThat(n.views()).containsExactly(ranking));
    assertThat(pruned.changes())
        .filteredOn(c -> c.id().equals(ranking))
        .singleElement()
        .isInstanceOf(Change.Drop.class);

    RunReport run = fabric.target.apply(p, pruned, RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(fabric.simulator.notebooks.items).isEmpty();
    assertThat(fabric.simulator.lakehouse(fabric.lakehouseId).mlvs)
        .doesNotContainKey("gold.formula_ranking");
    assertThat(fabric.plan(p, true).hasChanges()).isFalse();
  }

  @Test
  void aFailedNotebookRunFailsTheViewWithTheJobsFailureReason() {
    Project p = fabric.withOrders();
    fabric.simulator.failNotebookRuns = "PythonError: NameError: name 'Window' is not defined";

    RunReport run = apply(p);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    ViewRun failed =
        run.views().stream().filter(v -> v.id().equals(ranking)).findFirst().orElseThrow();
    assertThat(failed.status()).isEqualTo(ViewStatus.Failed);
    assertThat(failed.error())
        .hasValueSatisfying(
            e ->
                assertThat(e)
                    .contains(notebookName())
                    .contains("RunNotebook job")
                    .contains("ended Failed with PythonError: NameError: name 'Window'"));
    // The SQL views around it were still created.
    assertThat(run.views())
        .filteredOn(v -> v.id().equals(id("gold.formula_preference")))
        .extracting(ViewRun::status)
        .containsExactly(ViewStatus.Completed);
  }

  @Test
  void aViewWhoseNotebookRunFailedIsStillAChangeInTheNextPlan() {
    Project p = fabric.withOrders();
    fabric.simulator.failNotebookRuns = "PythonError: NameError: name 'Window' is not defined";
    assertThat(apply(p).status()).isEqualTo(RunStatus.Failed);
    fabric.simulator.failNotebookRuns = null;

    Plan next = fabric.plan(p, false);

    assertThat(next.changes())
        .filteredOn(c -> c.id().equals(ranking))
        .singleElement()
        .isNotInstanceOf(Change.NoOp.class)
        .extracting(Change::reason)
        .asString()
        .contains("the notebook has not run, or its last run failed");
  }

  @Test
  void aViewWhoseUpdatedNotebookFailedToRunIsStillAReplaceInTheNextPlan() {
    // replace=True: the failed run leaves the old registration, which runs the old code.
    String replacing =
        example.replace(
            "name=\"gold.formula_ranking\",", "name=\"gold.formula_ranking\", replace=True,");
    fabric.write(SOURCE, replacing);
    assertThat(apply(fabric.withOrders()).status()).isEqualTo(RunStatus.Completed);
    fabric.write(
        SOURCE,
        replacing.replace(
            "\"formula_name\", \"trials\")",
            "\"formula_name\", \"trials\", \"avg_first_choice_pct\")"));
    Project p = fabric.project();
    fabric.simulator.failNotebookRuns = "PythonError: NameError: name 'Window' is not defined";
    assertThat(apply(p).status()).isEqualTo(RunStatus.Failed);
    fabric.simulator.failNotebookRuns = null;

    Plan next = fabric.plan(p, false);

    assertThat(next.changes())
        .filteredOn(c -> c.id().equals(ranking))
        .singleElement()
        .isInstanceOf(Change.Replace.class);
    assertThat(next.notebooks()).singleElement().isInstanceOf(NotebookChange.Update.class);
    // Applying it again registers the new code.
    assertThat(apply(p).status()).isEqualTo(RunStatus.Completed);
    assertThat(fabric.simulator.notebooks.registered.get(fabric.lakehouseId))
        .containsEntry("gold.formula_ranking", p.views().get(ranking).definition().fingerprint());
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void aJupyterNotebookIsDeployedWithItsCodeCellsInOrder() throws IOException {
    Files.delete(dir.resolve(SOURCE));
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode nb = json.createObjectNode();
    com.fasterxml.jackson.databind.node.ArrayNode cells = nb.putArray("cells");
    cells.addObject().put("cell_type", "markdown").putArray("source").add("# Ranking");
    for (String part : example.split("\n# %%\n")) {
      com.fasterxml.jackson.databind.node.ArrayNode src =
          cells.addObject().put("cell_type", "code").putArray("source");
      part.strip().lines().forEach(l -> src.add(l + "\n"));
    }
    nb.putObject("metadata");
    nb.put("nbformat", 4);
    nb.put("nbformat_minor", 5);
    String ipynb = "views/gold/formula_ranking.ipynb";
    fabric.write(ipynb, json.writeValueAsString(nb));
    String name = NotebookPlanner.displayName("fabric_test", "prod", ipynb);

    Project p = applied();

    String content = fabric.simulator.notebooks.content(name);
    assertThat(content.split("\n# CELL \\*+\n", -1)).hasSize(4);
    assertThat(content).contains("@fmlv.check(\"has_trials\", \"trials > 0\", \"drop\")");
    assertThat(fabric.simulator.notebooks.registered.get(fabric.lakehouseId))
        .containsEntry("gold.formula_ranking", p.views().get(ranking).definition().fingerprint());
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void aNotebookDownstreamOfAFailedViewIsNeitherCreatedNorRun() {
    Project p = fabric.project(); // bronze.orders does not exist: silver.orders_clean fails

    RunReport run = apply(p);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views())
        .filteredOn(v -> v.id().equals(ranking))
        .singleElement()
        .satisfies(v -> assertThat(v.status()).isEqualTo(ViewStatus.Skipped));
    assertThat(fabric.simulator.notebooks.items).isEmpty();
    assertThat(fabric.simulator.notebookRuns.get()).isZero();
  }

  @Test
  void aRenamedPySparkViewIsCreatedNotRenamedWithSql() {
    applied();
    fabric.write(
        SOURCE, example.replace("name=\"gold.formula_ranking\"", "name=\"gold.formula_ranked\""));
    Project p = fabric.project();

    Plan plan = fabric.plan(p, true);

    assertThat(plan.count(Change.Rename.class)).isZero();
    assertThat(plan.changes())
        .filteredOn(c -> !(c instanceof Change.NoOp))
        .extracting(c -> c.getClass().getSimpleName() + " " + c.id().shortName())
        .containsExactlyInAnyOrder("Create gold.formula_ranked", "Drop gold.formula_ranking");
    assertThat(plan.notebooks()).singleElement().isInstanceOf(NotebookChange.Update.class);
  }

  @Test
  void underTransientFaultsTheNotebookIsCreatedOnceAndRunOnce() {
    Project p = fabric.withOrders();
    fabric.simulator.faults = java.util.EnumSet.allOf(FabricSimulator.Fault.class);
    fabric.simulator.faultRate = 0.3;

    RunReport run = apply(p);

    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(fabric.simulator.injected.get()).isGreaterThan(5);
    assertThat(fabric.simulator.notebooks.items).hasSize(1);
    assertThat(fabric.simulator.notebookRuns.get()).isEqualTo(1);
    fabric.simulator.faultRate = 0;
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void aRunWhoseAnswerWasLostIsFoundOnAnyPageOfTheNotebooksJobs() {
    applied();
    // Three more runs of the notebook: its job list spans pages (the simulator pages by 2).
    for (String extra :
        List.of("\"avg_first_choice_pct\"", "\"trials\" AS t2", "\"trials\" AS t3")) {
      fabric.write(
          SOURCE,
          example.replace(
              "\"formula_name\", \"trials\")", "\"formula_name\", \"trials\", " + extra + ")"));
      assertThat(apply(fabric.project()).status()).isEqualTo(RunStatus.Completed);
    }
    int runs = fabric.simulator.notebookRuns.get();
    assertThat(runs).isEqualTo(4);

    fabric.write(SOURCE, example);
    Project p = fabric.project();
    fabric.simulator.faults = Set.of(FabricSimulator.Fault.DROP_AFTER);
    fabric.simulator.faultsOnly = "POST .*/items/.*/jobs/instances";
    fabric.simulator.faultRate = 1.0;
    RunReport run = apply(p);
    fabric.simulator.faultRate = 0;

    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(fabric.simulator.injected.get()).isPositive();
    assertThat(fabric.simulator.notebookRuns.get()).isEqualTo(runs + 1);
  }

  @Test
  void aPySparkViewIsRefreshedInFullOrSkippedWithReasonPysparkView() {
    Project p = applied();
    RefreshRequest dry =
        new RefreshRequest(
            new TreeSet<>(p.views().keySet()), false, 1, Duration.ofMinutes(1), true, Map.of());
    assertThat(strategyOf(fabric.target.refresh(p, dry, RunListener.NONE)))
        .startsWith("skip NO_NEW_COMMITS");

    fabric.sql("INSERT INTO " + SimulatedFabric.LAKEHOUSE + ".bronze.orders VALUES (2)");
    assertThat(strategyOf(fabric.target.refresh(p, dry, RunListener.NONE)))
        .startsWith("full PYSPARK_VIEW: upstream gold.")
        .contains("is refreshed first in this run; a PySpark view is refreshed in full");

    RefreshRequest real =
        new RefreshRequest(
            new TreeSet<>(p.views().keySet()), false, 1, Duration.ofMinutes(1), false, Map.of());
    RunReport run = fabric.target.refresh(p, real, RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    assertThat(strategyOf(run)).startsWith("full PYSPARK_VIEW: Fabric rebuilt the PySpark view");
  }

  private String strategyOf(RunReport run) {
    ViewRun v = run.views().stream().filter(x -> x.id().equals(ranking)).findFirst().orElseThrow();
    return v.strategy() + " " + v.reason();
  }
}
