package dev.mlv.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code -p/--project}: shared by every command that reads a project. */
public final class ProjectOptions {
  @Option(
      names = {"-p", "--project"},
      paramLabel = "DIR",
      description =
          "Project folder holding mlv.yml (default: the current folder, then its parents).")
  Path project;
}
