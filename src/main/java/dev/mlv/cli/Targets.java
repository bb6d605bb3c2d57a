package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.project.FabricTarget;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.SparkTarget;
import dev.mlv.project.TargetConfig;
import dev.mlv.target.Target;
import dev.mlv.target.fabric.FabricWorkspaceTarget;
import dev.mlv.target.fabric.RetryPolicy;
import dev.mlv.target.fabric.TokenSource;
import dev.mlv.target.local.LocalTarget;
import picocli.CommandLine.Model.CommandSpec;

/** Opens the target a command names, from its mlv.yml entry. */
final class Targets {
  private Targets() {}

  static String name(ProjectConfig config, String requested) {
    String name = requested == null ? config.defaultTarget() : requested;
    if (config.target(name).isEmpty()) {
      throw new MlvException(
          "TARGET_UNKNOWN",
          "no target named '"
              + name
              + "' in "
              + config.file()
              + dev.mlv.diag.Suggestions.nearest(name, config.targets().keySet())
                  .map(t -> "; did you mean '" + t + "'?")
                  .orElse("; known targets: " + String.join(", ", config.targets().keySet())));
    }
    return name;
  }

  /** The shell's open targets, when the command runs inside {@code mlv shell}. */
  static ShellSession session(CommandSpec spec) {
    return spec.root().userObject() instanceof MlvCommand m ? m.session : null;
  }

  static boolean debug(CommandSpec spec) {
    return spec.root().userObject() instanceof MlvCommand m && m.debug;
  }

  static Target open(ProjectConfig config, String name, CommandSpec spec) {
    if (session(spec) != null) {
      return session(spec).lease(config, name);
    }
    TargetConfig t = config.usableTarget(name);
    if (t instanceof SparkTarget s) {
      return new LocalTarget(config, s, debug(spec));
    }
    if (t instanceof FabricTarget f) {
      dev.mlv.logging.QuietLogging.apply(debug(spec));
      return new FabricWorkspaceTarget(
          config, f, TokenSource.of(f.auth(), System.getenv()), RetryPolicy.of(f));
    }
    throw new MlvException("TARGET_UNSUPPORTED", "target '" + name + "' has an unknown type");
  }

  /** The local target, for commands that exist only locally (seed). */
  static LocalTarget openLocal(ProjectConfig config, String name, CommandSpec spec) {
    if (session(spec) != null && session(spec).target(config, name) instanceof LocalTarget l) {
      return l;
    }
    Target t = open(config, name, spec);
    if (t instanceof LocalTarget l) {
      return l;
    }
    t.close();
    throw new MlvException("TARGET_UNSUPPORTED", "this command works only on a local target");
  }
}
