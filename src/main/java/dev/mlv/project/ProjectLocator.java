package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the project root: the folder holding mlv.yml, searched upwards like git does. */
public final class ProjectLocator {
  private ProjectLocator() {}

  /** The nearest folder at or above {@code start} that holds mlv.yml. */
  public static Path locate(Path start) {
    Path from = start.toAbsolutePath().normalize();
    if (Files.isRegularFile(from)) {
      from = from.getParent();
    }
    Path folderNamedLikeTheFile = null;
    for (Path dir = from; dir != null; dir = dir.getParent()) {
      Path file = dir.resolve(ProjectConfig.FILE_NAME);
      if (Files.isRegularFile(file)) {
        return dir;
      }
      if (folderNamedLikeTheFile == null && Files.isDirectory(file)) {
        folderNamedLikeTheFile = file;
      }
    }
    if (folderNamedLikeTheFile != null) {
      // "no mlv.yml in X" over a listing of X that shows one sends the user looking elsewhere.
      throw new MlvException(
          "PROJECT_NOT_FOUND",
          "no "
              + ProjectConfig.FILE_NAME
              + " file in "
              + from
              + " or any folder above it: "
              + folderNamedLikeTheFile
              + " is a folder, not a file; move it away and write the project file there, or"
              + " pass -p DIR");
    }
    throw new MlvException(
        "PROJECT_NOT_FOUND",
        "no "
            + ProjectConfig.FILE_NAME
            + " in "
            + from
            + " or any folder above it; run mlv inside a project, or pass -p DIR");
  }

  /** {@code dir} itself, which the user named with -p, so no search upwards. */
  public static Path explicit(Path dir) {
    Path root = dir.toAbsolutePath().normalize();
    if (Files.isRegularFile(root)) {
      // The project that holds the file, as the user most likely meant it (a view's .sql file).
      Path holder = null;
      for (Path d = root.getParent(); d != null && holder == null; d = d.getParent()) {
        if (Files.isRegularFile(d.resolve(ProjectConfig.FILE_NAME))) {
          holder = d;
        }
      }
      throw new MlvException(
          "PROJECT_NOT_FOUND",
          root
              + " is a file; -p takes the project folder"
              + (holder != null
                  ? " (the project holding this file: " + holder + ")"
                  : " (no folder above this file holds " + ProjectConfig.FILE_NAME + ")"));
    }
    String word = shellWord(dir.toString());
    if (!Files.isDirectory(root)) {
      throw new MlvException(
          Diagnostic.error(
              "PROJECT_NOT_FOUND",
              null,
              "project folder " + root + " does not exist",
              "check the path given with -p, or run 'mlv init " + word + "' to make a project"));
    }
    Path file = root.resolve(ProjectConfig.FILE_NAME);
    if (Files.isDirectory(file)) {
      // "no mlv.yml" over a listing that shows one sends the user looking in the wrong place.
      throw new MlvException(
          Diagnostic.error(
              "PROJECT_NOT_FOUND",
              null,
              file + " is a folder, not a file (given with -p)",
              "mlv.yml must be the project file; move the folder away and write mlv.yml there,"
                  + " or pass -p the project folder"));
    }
    if (!Files.isRegularFile(file)) {
      // Either a new project or a mistyped folder: say how to go on in both cases.
      throw new MlvException(
          Diagnostic.error(
              "PROJECT_NOT_FOUND",
              null,
              "no " + ProjectConfig.FILE_NAME + " in " + root + " (given with -p)",
              "run 'mlv init "
                  + word
                  + "' to make a project there, or pass -p the project folder"));
    }
    return root;
  }

  /** {@code text} as one word of a POSIX shell command, quoted only when it needs it. */
  private static String shellWord(String text) {
    return text.matches("[A-Za-z0-9_@%+=:,./-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
  }
}
