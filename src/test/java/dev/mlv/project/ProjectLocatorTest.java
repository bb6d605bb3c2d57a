package dev.mlv.project;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.MlvException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectLocatorTest {
  @TempDir Path tmp;

  @Test
  void walksUpFromANestedFolder() throws IOException {
    Path project = Files.createDirectories(tmp.resolve("proj"));
    Files.writeString(project.resolve("mlv.yml"), "name: p\n");
    Path nested = Files.createDirectories(project.resolve("views/silver/deep"));

    assertThat(ProjectLocator.locate(nested)).isEqualTo(project.toAbsolutePath().normalize());
  }

  @Test
  void startingAtTheRootOrAFileInsideFindsTheRoot() throws IOException {
    Files.writeString(tmp.resolve("mlv.yml"), "name: p\n");
    Path sql =
        Files.writeString(Files.createDirectories(tmp.resolve("views")).resolve("a.sql"), "");

    assertThat(ProjectLocator.locate(tmp)).isEqualTo(tmp.toAbsolutePath().normalize());
    assertThat(ProjectLocator.locate(sql)).isEqualTo(tmp.toAbsolutePath().normalize());
  }

  @Test
  void theNearestProjectWins() throws IOException {
    Files.writeString(tmp.resolve("mlv.yml"), "name: outer\n");
    Path inner = Files.createDirectories(tmp.resolve("sub/inner"));
    Files.writeString(inner.resolve("mlv.yml"), "name: inner\n");

    assertThat(ProjectLocator.locate(inner.resolve("."))).isEqualTo(inner.toAbsolutePath());
    assertThat(ProjectLocator.locate(tmp.resolve("sub"))).isEqualTo(tmp.toAbsolutePath());
  }

  @Test
  void aFolderNamedLikeTheFileDoesNotCount() throws IOException {
    Path decoy = Files.createDirectories(tmp.resolve("real/sub"));
    Files.createDirectories(decoy.resolve("mlv.yml"));
    Path real = Files.createDirectories(tmp.resolve("real"));
    Files.writeString(real.resolve("mlv.yml"), "name: p\n");

    assertThat(ProjectLocator.locate(decoy)).isEqualTo(real.toAbsolutePath().normalize());
  }

  @Test
  void noProjectNamesTheStartFolder() throws IOException {
    // Assumes no mlv.yml above the JVM temp folder, as on any build machine.
    Path lonely = Files.createDirectories(tmp.resolve("a/b"));

    assertThatThrownBy(() -> ProjectLocator.locate(lonely))
        .isInstanceOfSatisfying(
            MlvException.class,
            e -> assertThat(e.diagnostics().get(0).ruleId()).isEqualTo("PROJECT_NOT_FOUND"))
        .hasMessageContaining(lonely.toAbsolutePath().toString())
        .hasMessageContaining("-p DIR");
  }

  @Test
  void noProjectButAFolderNamedLikeTheFileSaysSo() throws IOException {
    // Assumes no mlv.yml above the JVM temp folder, as on any build machine. "no mlv.yml in X"
    // over a listing of X that shows one sends the user looking in the wrong place.
    Path project = Files.createDirectories(tmp.resolve("p"));
    Path folder = Files.createDirectories(project.resolve("mlv.yml"));

    assertThatThrownBy(() -> ProjectLocator.locate(project))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("no mlv.yml file in " + project.toAbsolutePath())
        .hasMessageContaining(folder.toAbsolutePath() + " is a folder, not a file");
  }

  @Test
  void explicitFolderMustHoldTheFileItself() throws IOException {
    Files.writeString(tmp.resolve("mlv.yml"), "name: p\n");
    Path child = Files.createDirectories(tmp.resolve("child"));

    assertThat(ProjectLocator.explicit(tmp)).isEqualTo(tmp.toAbsolutePath().normalize());
    assertThatThrownBy(() -> ProjectLocator.explicit(child))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("no mlv.yml in " + child.toAbsolutePath())
        .hasMessageContaining("-p");
    assertThatThrownBy(() -> ProjectLocator.explicit(tmp.resolve("gone")))
        .isInstanceOfSatisfying(
            MlvException.class,
            e ->
                assertThat(e.diagnostics().get(0).hint())
                    .isEqualTo(
                        "check the path given with -p, or run 'mlv init "
                            + tmp.resolve("gone")
                            + "' to make a project"))
        .hasMessageContaining("does not exist");
  }

  @Test
  void anExplicitFolderWhoseMlvYmlIsAFolderSaysSo() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("p"));
    Files.createDirectories(dir.resolve("mlv.yml"));

    assertThatThrownBy(() -> ProjectLocator.explicit(dir))
        .isInstanceOfSatisfying(
            MlvException.class,
            e -> {
              assertThat(e.diagnostics().get(0).ruleId()).isEqualTo("PROJECT_NOT_FOUND");
              assertThat(e.diagnostics().get(0).message())
                  .isEqualTo(
                      dir.toAbsolutePath().resolve("mlv.yml")
                          + " is a folder, not a file (given"
                          + " with -p)");
              assertThat(e.diagnostics().get(0).hint()).contains("move the folder away");
            });
  }
}
