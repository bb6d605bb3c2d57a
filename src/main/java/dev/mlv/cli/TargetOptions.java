package dev.mlv.cli;

import picocli.CommandLine.Option;

/** {@code -t/--target}: which target of mlv.yml a command works against. */
public final class TargetOptions {
  @Option(
      names = {"-t", "--target"},
      paramLabel = "NAME",
      description = "Target from mlv.yml (default: default_target, else 'local').")
  String target;
}
