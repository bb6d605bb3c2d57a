package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CliBasicsTest {

  @Test
  void helpListsTheCommands() {
    CliRun r = CliRun.of("--help");
    assertThat(r.exitCode()).isZero();
    for (String c : List.of("validate", "lineage", "plan", "apply", "refresh", "runs", "sql")) {
      assertThat(r.out()).contains("  " + c);
    }
  }

  @Test
  void versionNamesTheEngine() {
    CliRun r = CliRun.of("--version");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("mlv ").contains("Spark 4.1.1").contains("Delta Lake 4.2.0");
  }

  @ParameterizedTest
  @ValueSource(strings = {"validate", "lineage", "plan", "apply", "refresh", "runs", "sql", "seed"})
  void everyCommandHasHelpWithAnExample(String command) {
    CliRun r = CliRun.of(command, "--help");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Usage: mlv " + command).contains("Examples:");
  }

  @Test
  void usageErrorsHaveTheirOwnExitCodeAndNoStackTrace() {
    CliRun r = CliRun.of("validate", "--no-such-option");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("Unknown option: '--no-such-option'").doesNotContain("\tat ");
    assertThat(CliRun.of("frobnicate").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(CliRun.of().exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void aMissingProjectIsAOneParagraphError() {
    CliRun r = CliRun.of("validate", "-p", "/nonexistent/project");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("does not exist").doesNotContain("\tat ");
  }
}
