package dev.mlv.cli;

import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunRenderer;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import java.io.PrintWriter;

/** Prints a run: one line per event while it runs (to stderr), then the report. */
final class RunOutput {
  private RunOutput() {}

  static RunListener progress(PrintWriter err, NameResolver names, boolean quiet) {
    if (quiet) {
      return RunListener.NONE;
    }
    return new RunListener() {
      @Override
      public void viewStarted(ObjectId id, Strategy strategy) {
        synchronized (err) {
          err.println("  started   " + names.display(id) + " (" + strategy.label() + ")");
          err.flush();
        }
      }

      @Override
      public void viewFinished(ViewRun run) {
        synchronized (err) {
          err.println(
              "  "
                  + String.format("%-9s ", run.status().name().toLowerCase(java.util.Locale.ROOT))
                  + names.display(run.id())
                  + (run.status() == dev.mlv.refresh.ViewStatus.Completed
                          && !"skip".equals(run.strategy())
                      ? " ("
                          + run.files().map(f -> f.ingested() + " files, ").orElse("")
                          + run.rowsWritten()
                          + " rows, "
                          + run.durationMs()
                          + " ms)"
                      : ""));
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

  static int print(PrintWriter out, RunReport run, NameResolver names, ReportFormat format) {
    out.print(format == ReportFormat.json ? RunRenderer.json(run) : RunRenderer.text(run, names));
    return exitCode(run);
  }

  static int exitCode(RunReport run) {
    return switch (run.status()) {
      case Completed, Planned -> ExitCodes.OK;
      case Skipped -> ExitCodes.SKIPPED_CONCURRENT;
      default -> ExitCodes.ERROR;
    };
  }
}
