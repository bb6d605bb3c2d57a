package dev.mlv.cli;

import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunRenderer;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import java.io.IOException;
import java.io.PrintWriter;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Model.CommandSpec;

/** Prints a run: one line per event while it runs (to stderr), then the report. */
final class RunOutput {
  private RunOutput() {}

  /** A run's progress on stderr; closed when the run ends, before its report is printed. */
  interface Progress extends RunListener, AutoCloseable {
    @Override
    default void close() {}
  }

  /** Line-per-event progress, without colour. */
  static RunListener progress(PrintWriter err, NameResolver names, boolean quiet) {
    return quiet ? quiet(err) : plain(err, names, false);
  }

  /**
   * The progress a command shows: only warnings when quiet; on a terminal, unless --no-progress, a
   * live view redrawn in place; otherwise one line per event. Colours follow --color and NO_COLOR.
   * With --debug, the stack trace of what failed a view too, quiet or not.
   */
  static Progress progress(
      CommandSpec spec, NameResolver names, boolean quiet, ProgressOptions options) {
    options.check();
    Progress shown = shown(spec, names, quiet, options);
    return Targets.debug(spec) ? withStackTraces(shown, spec.commandLine().getErr(), names) : shown;
  }

  private static Progress shown(
      CommandSpec spec, NameResolver names, boolean quiet, ProgressOptions options) {
    PrintWriter err = spec.commandLine().getErr();
    if (quiet) {
      return quiet(err);
    }
    ShellSession shell = Targets.session(spec);
    Terminal screen = shell != null ? shell.terminal() : null;
    boolean terminal =
        screen != null
            ? !screen.getType().startsWith(Terminal.TYPE_DUMB)
            : System.console() != null && !"dumb".equals(System.getenv("TERM"));
    boolean color = options.colored(terminal, System.getenv("NO_COLOR"));
    if (!terminal || options.noProgress) {
      return plain(err, names, color);
    }
    Runnable release = () -> {};
    if (screen == null) {
      screen = measure();
      if (screen != null) {
        Terminal opened = screen;
        release = () -> closeQuietly(opened);
      }
    }
    Terminal size = screen;
    return new LiveProgress(
            err,
            new ProgressView(names, color, System.nanoTime()),
            System::nanoTime,
            () -> size != null ? size.getWidth() : columns(),
            () -> size != null ? size.getHeight() : 0,
            release)
        .ticking();
  }

  /** The system terminal, only to read its size as it changes; null when it cannot be had. */
  private static Terminal measure() {
    try {
      return TerminalBuilder.builder().system(true).dumb(false).build();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static void closeQuietly(Terminal t) {
    try {
      t.close();
    } catch (IOException e) {
      // only measured the screen; nothing to undo
    }
  }

  private static int columns() {
    try {
      return Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80"));
    } catch (NumberFormatException e) {
      return 80;
    }
  }

  /**
   * What --quiet leaves on stderr: the targets' {@code warning:} messages, which say what was lost
   * (a run that could not be recorded, a record skipped); quiet drops the progress, not those.
   */
  private static final class WarningsOnly implements Progress {
    private final PrintWriter err;

    WarningsOnly(PrintWriter err) {
      this.err = err;
    }

    @Override
    public void message(String text) {
      if (text.startsWith("warning:")) {
        synchronized (err) {
          err.println(text);
          err.flush();
        }
      }
    }
  }

  /** The progress of --quiet: the warnings only. */
  static Progress quiet(PrintWriter err) {
    return new WarningsOnly(err);
  }

  private static Progress plain(PrintWriter err, NameResolver names, boolean color) {
    return new Progress() {
      @Override
      public void viewStarted(ObjectId id, Strategy strategy) {
        synchronized (err) {
          err.println(
              "  "
                  + Ansi.cyan("started  ", color)
                  + " "
                  + names.display(id)
                  + " ("
                  + strategy.label()
                  + ")");
          err.flush();
        }
      }

      @Override
      public void viewFinished(ViewRun run) {
        synchronized (err) {
          err.println(ProgressView.line(run, names.display(run.id()), color));
          err.flush();
        }
      }

      @Override
      public void message(String text) {
        synchronized (err) {
          err.println(text);
          err.flush();
        }
      }
    };
  }

  /**
   * {@code shown}, printing the stack trace of the exception that failed a view: the run's report
   * keeps only its text. As the edge of the CLI does for a command's failure, an mlv error prints
   * the engine's exception behind it, and nothing when it has none (its diagnostic says it all).
   */
  static Progress withStackTraces(Progress shown, PrintWriter err, NameResolver names) {
    return new Progress() {
      @Override
      public void viewStarted(ObjectId id, Strategy strategy) {
        shown.viewStarted(id, strategy);
      }

      @Override
      public void viewFinished(ViewRun run) {
        shown.viewFinished(run);
      }

      @Override
      public void viewFailed(ObjectId id, Throwable cause) {
        Throwable trace = cause instanceof dev.mlv.diag.MlvException m ? m.getCause() : cause;
        if (trace == null) {
          return;
        }
        java.io.StringWriter text = new java.io.StringWriter();
        trace.printStackTrace(new PrintWriter(text));
        String lines =
            "debug: " + names.display(id) + " failed with " + text.toString().stripTrailing();
        if (shown instanceof WarningsOnly) {
          synchronized (err) {
            err.println(lines);
            err.flush();
          }
        } else {
          shown.message(lines);
        }
      }

      @Override
      public void message(String text) {
        shown.message(text);
      }

      @Override
      public void close() {
        shown.close();
      }
    };
  }

  static int print(PrintWriter out, RunReport run, NameResolver names, ReportFormat format) {
    out.print(format == ReportFormat.json ? RunRenderer.json(run) : RunRenderer.text(run, names));
    return exitCode(run);
  }

  /**
   * Says on stderr why a run was skipped (exit 3): the target's own line about the other run is
   * progress output, which --quiet and --format json leave out.
   */
  static void explainSkipped(PrintWriter err, RunReport run) {
    if (run.status() == dev.mlv.refresh.RunStatus.Skipped) {
      err.println("mlv: " + run.reason());
      err.flush();
    }
  }

  static int exitCode(RunReport run) {
    return switch (run.status()) {
      case Completed, Planned -> ExitCodes.OK;
      case Skipped -> ExitCodes.SKIPPED_CONCURRENT;
      // Stopped by Ctrl-C with the JVM still up (mlv shell): the code the signal gives otherwise.
      case Interrupted -> ExitCodes.INTERRUPTED;
      default -> ExitCodes.ERROR;
    };
  }
}
