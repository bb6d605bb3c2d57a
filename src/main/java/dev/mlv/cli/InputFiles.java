package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a file the user named on the command line, with one clear error for each way it fails. */
final class InputFiles {
  private InputFiles() {}

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
      throw new MlvException(
          rule,
          "cannot read "
              + what
              + " "
              + file
              + ": "
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
  }
}
