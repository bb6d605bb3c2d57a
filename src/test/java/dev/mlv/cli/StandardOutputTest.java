package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A failed write to standard output is an error, in a child JVM whose stdout really fails. Found by
 * QA: {@code mlv lineage --dot > /dev/full} exited 0, so on a full disk a truncated file looked
 * like success.
 */
class StandardOutputTest {
  private static final String PROJECT = Path.of("examples/medallion").toAbsolutePath().toString();

  @Test
  void aFullDiskBehindStdoutIsAnErrorWithExitCodeOne() throws Exception {
    File full = new File("/dev/full");
    assumeThat(full.exists() && !Files.isRegularFile(full.toPath())).as("/dev/full").isTrue();
    for (List<String> args :
        List.of(
            List.of("lineage", "--dot"),
            List.of("lineage", "--format", "json"),
            List.of("validate", "--format", "json"))) {
      // Opened for writing by the child as a shell's '>' would: the device is not replaced.
      ProcessBuilder pb = child(args).redirectOutput(full);
      Process p = pb.start();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(args + "\n" + err).isEqualTo(ExitCodes.ERROR);
      assertThat(err)
          .as(args.toString())
          .endsWith("mlv: could not write the output: No space left on device\n")
          .doesNotContain("\tat ");
    }
    assertThat(Files.isRegularFile(full.toPath())).isFalse();
  }

  @Test
  void aReaderThatClosedThePipeEarlyIsAQuietSuccess() throws Exception {
    Process p = child(List.of("lineage")).start();
    // Closed before the child's JVM has started, so its first write meets EPIPE (mlv lineage |
    // true).
    p.getInputStream().close();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(err).isZero();
    assertThat(err).isEmpty();
  }

  /** {@code mlv ARGS -p examples/medallion} in a JVM of its own, on the test class path. */
  private static ProcessBuilder child(List<String> args) {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of("-p", PROJECT));
    return new ProcessBuilder(
        dev.mlv.reliability.ChildJava.command(
            List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), "dev.mlv.cli.Main", all));
  }
}
