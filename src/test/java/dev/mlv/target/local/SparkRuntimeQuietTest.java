package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A fresh JVM, because the shared test session was started long before any assertion. */
class SparkRuntimeQuietTest {

  @Test
  void startsWritesAndFailsWithoutAWordOnStderrOrAFileInTheWorkingDirectory(
      @TempDir Path warehouse, @TempDir Path workingDir) throws Exception {
    List<String> command =
        dev.mlv.reliability.ChildJava.command(
            List.of(), QuietProbe.class.getName(), List.of(warehouse.toString()));
    Path stdout = Files.createTempFile("quiet-out", ".txt");
    Path stderr = Files.createTempFile("quiet-err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workingDir.toFile())
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = builder.start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();

    String err = Files.readString(stderr, StandardCharsets.UTF_8);
    assertThat(Files.readString(stdout, StandardCharsets.UTF_8)).as(err).isEqualTo("OK 1\n");
    assertThat(err).isEmpty();
    assertThat(p.exitValue()).isZero();
    try (var files = Files.list(workingDir)) {
      assertThat(files).isEmpty();
    }
    assertThat(warehouse.resolve("lh.Lakehouse/Tables/dbo/v/_delta_log")).isDirectory();
    Files.delete(stdout);
    Files.delete(stderr);
  }
}
