package dev.mlv.cli;

import dev.mlv.diag.IoReason;
import dev.mlv.diag.MlvException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Files the user names on the command line: read with one clear error for each way it fails, and
 * written whole or not at all.
 */
final class UserFiles {
  private UserFiles() {}

  /**
   * The file's text. {@code what} names it in errors ("plan file", "SQL file"), {@code rule} is the
   * error's id.
   */
  static String read(Path file, String rule, String what) {
    if (Files.isDirectory(file)) {
      throw new MlvException(rule, what + " " + file + " is a folder; give a file");
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new MlvException(rule, what + " " + file + " does not exist");
    } catch (AccessDeniedException e) {
      throw new MlvException(rule, "cannot read " + what + " " + file + ": permission denied");
    } catch (CharacterCodingException e) {
      throw new MlvException(rule, what + " " + file + " is not UTF-8 text");
    } catch (IOException e) {
      throw new MlvException(rule, "cannot read " + what + " " + file + ": " + IoReason.of(e));
    }
  }

  /**
   * Refuses, before any work, an output path that is a folder or whose folder does not exist;
   * {@code what} names the output ("the plan"), {@code example} a file name for it.
   */
  static void checkOutput(Path out, String rule, String what, String example) {
    if (out.toString().isBlank()) {
      throw new dev.mlv.diag.UsageException(rule, "-o is empty; give " + what + " a file name");
    }
    if (Files.isDirectory(out)) {
      throw new MlvException(
          rule, "-o " + out + " is a folder; give " + what + " a file name, e.g. " + example);
    }
    Path folder = out.toAbsolutePath().getParent();
    if (folder != null && !Files.isDirectory(folder)) {
      throw new MlvException(
          rule, "cannot save " + what + " to " + out + ": folder " + folder + " does not exist");
    }
  }

  /** Writes a sibling temporary file and moves it over {@code out}: never half a file. */
  static void write(Path out, String text, String rule, String what) {
    checkOutput(out, rule, what, out.getFileName().toString());
    Path abs = out.toAbsolutePath();
    Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // The write failed already; that is the error to report.
      }
      // The temporary file is what failed, often: name it, or the user looks at the wrong one.
      String where =
          e instanceof java.nio.file.FileSystemException f
                  && f.getFile() != null
                  && Path.of(f.getFile()).equals(tmp)
              ? " (writing " + tmp + " beside it)"
              : "";
      throw new MlvException(
          rule, "cannot save " + what + " to " + out + ": " + IoReason.of(e) + where);
    }
  }
}
