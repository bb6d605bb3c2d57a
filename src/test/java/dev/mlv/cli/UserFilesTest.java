package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.mlv.diag.MlvException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link UserFiles#write} writes to what the path names: a regular file whole, through a symbolic
 * link, and into a device or named pipe without replacing it. Found by QA: {@code mlv plan -o
 * /dev/full} replaced the device with a regular file.
 */
class UserFilesTest {
  @TempDir Path dir;

  @Test
  void aRegularFileIsReplacedWholeWithNoTemporaryFileLeft() throws Exception {
    Path file = Files.writeString(dir.resolve("plan.json"), "old and longer than the new text");
    UserFiles.write(file, "new", "PLAN_OUT", "the plan");
    assertThat(file).hasContent("new");
    assertThat(dir.resolve("plan.json.tmp")).doesNotExist();
  }

  @Test
  void aSymbolicLinkStaysALinkAndItsTargetGetsTheText() throws Exception {
    Path real = Files.createDirectory(dir.resolve("real"));
    Path target = Files.writeString(real.resolve("plan.json"), "old");
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("real/plan.json"));
    // A link to a link, and a link whose target does not exist yet.
    Path chain = Files.createSymbolicLink(dir.resolve("chain.json"), link);
    Path dangling = Files.createSymbolicLink(dir.resolve("new.json"), Path.of("real/new.json"));

    UserFiles.write(chain, "new", "PLAN_OUT", "the plan");
    UserFiles.write(dangling, "created", "PLAN_OUT", "the plan");

    assertThat(Files.isSymbolicLink(chain)).isTrue();
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("real/plan.json"));
    assertThat(target).hasContent("new");
    assertThat(Files.isSymbolicLink(dangling)).isTrue();
    assertThat(real.resolve("new.json")).hasContent("created");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("real", "link.json", "chain.json", "new.json");
    }
  }

  @Test
  void aNamedPipeIsWrittenToAndStaysAPipe() throws Exception {
    Path fifo = dir.resolve("fifo");
    assumeThat(mkfifo(fifo)).as("mkfifo").isTrue();
    CompletableFuture<String> reader =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return Files.readString(fifo, StandardCharsets.UTF_8);
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    UserFiles.write(fifo, "through the pipe", "PLAN_OUT", "the plan");
    assertThat(reader.get(30, TimeUnit.SECONDS)).isEqualTo("through the pipe");
    assertThat(kind(fifo)).isEqualTo("other");
  }

  @Test
  void aFullDeviceIsAnErrorAndStaysADevice() throws Exception {
    Path full = Path.of("/dev/full");
    assumeThat(Files.exists(full) && kind(full).equals("other")).as("/dev/full").isTrue();
    // Through a link of our own: whatever the code does, it can replace only that link.
    Path link = Files.createSymbolicLink(dir.resolve("full.json"), full);
    assertThatThrownBy(() -> UserFiles.write(link, "text", "PLAN_OUT", "the plan"))
        .isInstanceOf(MlvException.class)
        .hasMessage(
            "error[PLAN_OUT]: cannot save the plan to " + link + ": No space left on device");
    assertThat(kind(full)).isEqualTo("other");
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(dir.resolve("full.json.tmp")).doesNotExist();
  }

  static boolean mkfifo(Path fifo) throws InterruptedException {
    try {
      return new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static String kind(Path p) throws java.io.IOException {
    BasicFileAttributes a =
        Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    return a.isRegularFile()
        ? "file"
        : a.isSymbolicLink() ? "link" : a.isDirectory() ? "folder" : "other";
  }
}
