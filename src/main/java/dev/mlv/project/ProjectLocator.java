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
    for (Path dir = from; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(ProjectConfig.FILE_NAME))) {
        return dir;
      }
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
      throw new MlvException(
          "PROJECT_NOT_FOUND",
          root
              + " is a file; -p takes the project folder"
              + (root.getParent() == null ? "" : " (here " + root.getParent() + ")"));
    }
    if (!Files.isDirectory(root)) {
      throw new MlvException("PROJECT_NOT_FOUND", "project folder " + root + " does not exist");
    }
    if (!Files.isRegularFile(root.resolve(ProjectConfig.FILE_NAME))) {
      // Either a new project or a mistyped folder: say how to go on in both cases.
      String given = dir.toString();
      String word =
          given.matches("[A-Za-z0-9_@%+=:,./-]+") ? given : "'" + given.replace("'", "'\\''") + "'";
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
}
