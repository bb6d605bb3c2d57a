package dev.mlv.cli;

import dev.mlv.project.Project;
import java.io.IOException;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.jline.utils.Signals;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mlv shell}: an interactive shell on the project's lakehouse. */
@Command(
    name = "shell",
    header = "An interactive shell on the project's lakehouse.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "An interactive shell on the project's lakehouse: every mlv command (without 'mlv'),"
          + " and Spark SQL ending with ';', with results as tables. Spark starts once and stays up"
          + " between commands. Tab completes commands, options, view and table names and columns;"
          + " the history is kept in the project's file .mlv/shell_history. Input piped in runs to its"
          + " end, past failures; the shell then exits with the code of the FIRST command or"
          + " statement that failed (not the last), 0 if none did, and 1 if the input ends inside"
          + " a statement without ';'."
    },
    footer = {
      "",
      "Examples:",
      "  mlv shell",
      "  mlv> refresh silver.orders_clean+",
      "  mlv> SELECT order_date, revenue",
      "  ...>   FROM gold.daily_revenue ORDER BY order_date;",
      "  echo 'SHOW TABLES IN bronze;' | mlv shell"
    })
public final class ShellCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;

  @Override
  public Integer call() throws IOException {
    Project project = ProjectLoading.load(projectOptions, spec);
    String target = Targets.name(project.config(), targetOptions.target);
    // Piped input gets a plain terminal: no line editing, and no warning that there is no TTY.
    boolean piped = System.console() == null;
    try (Terminal terminal =
        piped
            ? new DumbTerminal(System.in, System.out)
            : TerminalBuilder.builder().name("mlv").system(true).build()) {
      Shell shell = new Shell(spec, project.config().root(), target, terminal, Targets.debug(spec));
      if (!piped) {
        return shell.run();
      }
      // That terminal does not hear the process's SIGINT: left to the JVM, it ended the shell
      // mid-command, and the run's record raced the exit (found by QA).
      Object jvmDefault = Signals.register("INT", shell::processInterrupted);
      try {
        return shell.run();
      } finally {
        Signals.unregister("INT", jvmDefault);
      }
    }
  }
}
