package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.cli.CliRun;
import dev.mlv.plan.NotebookPlanner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mlv plan|apply -t prod} with a PySpark view, end to end against the simulator. */
class FabricNotebookCliTest {
  @TempDir Path dir;
  SimulatedFabric fabric;
  String secret;
  String notebook = NotebookPlanner.displayName("fabric_test", "prod", FabricNotebookTest.SOURCE);

  @BeforeEach
  void start() throws IOException {
    secret = System.getenv(FabricCliTest.TOKEN_ENV);
    assertThat(secret)
        .as(FabricCliTest.TOKEN_ENV + " is set by the surefire configuration")
        .isNotBlank();
    fabric = new SimulatedFabric(dir);
    fabric.simulator.token = secret;
    fabric.simulator.answerAtOnce(); // the CLI polls at production intervals
    fabric.simulator.slowPolls = 0;
    fabric.target = fabric.open(FabricTargetContractTest.fast());
    fabric.write(
        "mlv.yml",
        fabric.config(
            "    auth:\n      mode: token\n      token_env: " + FabricCliTest.TOKEN_ENV + "\n"));
    fabric.write("views/gold/formula_preference.sql", FabricNotebookTest.PREFERENCE);
    fabric.write(
        FabricNotebookTest.SOURCE,
        Files.readString(
            Path.of("examples/medallion/views/gold/formula_ranking.py"), StandardCharsets.UTF_8));
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

  @Test
  void planListsTheNotebookAndApplyDeploysAndRunsIt() {
    CliRun plan = mlv("plan", "-t", "prod", "--detailed-exitcode");
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(2);
    assertThat(plan.out())
        .contains("+ create   gold.formula_ranking")
        .contains("new PySpark view, deployed in a notebook")
        .contains("Notebooks (one per PySpark file")
        .contains("+ create   " + notebook + " (views/gold/formula_ranking.py)")
        .contains("defines gold.formula_ranking");

    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isZero();
    assertThat(apply.err()).contains("creating notebook " + notebook).contains("RunNotebook");
    assertThat(fabric.simulator.notebookRuns.get()).isEqualTo(1);

    CliRun again = mlv("plan", "-t", "prod", "--detailed-exitcode");
    assertThat(again.exitCode()).as(again.toString()).isZero();
    assertThat(again.out()).contains("No changes.");
    assertThat(plan.out() + apply.out() + apply.err() + again.out()).doesNotContain(secret);
  }

  @Test
  void aFailedNotebookRunIsOneClearErrorAndANonZeroExit() {
    fabric.simulator.failNotebookRuns =
        "UserCodeError: AnalysisException: [TABLE_OR_VIEW_NOT_FOUND] gold.formula_preference";

    CliRun apply = mlv("apply", "-t", "prod", "--auto-approve");

    assertThat(apply.exitCode()).as(apply.toString()).isNotZero();
    String all = apply.out() + apply.err();
    assertThat(all)
        .contains("notebook " + notebook + " (views/gold/formula_ranking.py)")
        .contains("RunNotebook job")
        .contains("ended Failed with UserCodeError: AnalysisException: [TABLE_OR_VIEW_NOT_FOUND]")
        .doesNotContain("\tat dev.mlv")
        .doesNotContain(secret);
  }
}
