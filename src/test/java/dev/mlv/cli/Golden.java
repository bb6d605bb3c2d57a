package dev.mlv.cli;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden files for CLI output: the expected text is checked in under src/test/resources/golden; a
 * mismatch writes NAME.actual beside it, so a reviewer can accept the new output by copying it
 * over.
 */
public final class Golden {
  private static final Path DIR = Path.of("src/test/resources/golden");

  private Golden() {}

  public static void assertMatches(String name, String actual) {
    Path expected = DIR.resolve(name);
    Path actualFile = DIR.resolve(name + ".actual");
    try {
      String normalized = actual.replace("\r\n", "\n");
      if (!Files.exists(expected)) {
        Files.writeString(actualFile, normalized, StandardCharsets.UTF_8);
        fail("no golden file " + expected + "; wrote " + actualFile + " to review and accept");
      }
      String want = Files.readString(expected, StandardCharsets.UTF_8);
      if (!want.equals(normalized)) {
        Files.writeString(actualFile, normalized, StandardCharsets.UTF_8);
        fail(
            "output differs from "
                + expected
                + "; the actual output is in "
                + actualFile
                + "\n--- expected\n"
                + want
                + "--- actual\n"
                + normalized);
      }
      Files.deleteIfExists(actualFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
