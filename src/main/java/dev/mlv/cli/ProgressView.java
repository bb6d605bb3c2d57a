package dev.mlv.cli;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the terminal shows of a run while it walks the DAG: the views running now with their elapsed
 * time, and a summary of done, failed and skipped views, rows written so far and the time since the
 * start. Pure: times come in as arguments, text goes out, so tests need no clock or TTY.
 */
final class ProgressView {
  private record Running(String name, String strategy, long startNanos) {}

  private final NameResolver names;
  private final boolean color;
  private final long startNanos;
  private final Map<ObjectId, Running> running = new LinkedHashMap<>();
  private int done;
  private int failed;
  private int skipped;
  private long rows;

  ProgressView(NameResolver names, boolean color, long startNanos) {
    this.names = names;
    this.color = color;
    this.startNanos = startNanos;
  }

  synchronized void started(ObjectId id, Strategy strategy, long now) {
    running.put(id, new Running(names.display(id), strategy.label(), now));
  }

  /** Records the end of a view and returns the line that stays on screen for it. */
  synchronized String finished(ViewRun run, long now) {
    running.remove(run.id());
    switch (run.status()) {
      case Completed, Planned -> done++;
      case Failed -> failed++;
      case Skipped -> skipped++;
    }
    rows += run.rowsWritten();
    return line(run, names.display(run.id()), color);
  }

  /** The line-per-event form of a finished view (also what stays above the live lines). */
  static String line(ViewRun run, String name, boolean color) {
    String status = String.format("%-9s", run.status().name().toLowerCase(Locale.ROOT));
    String detail =
        run.status() == ViewStatus.Completed && !"skip".equals(run.strategy())
            ? " ("
                + run.files()
                    .map(f -> DiagnosticRenderer.plural(f.ingested(), "file") + ", ")
                    .orElse("")
                + DiagnosticRenderer.plural(run.rowsWritten(), "row")
                + ", "
                + run.durationMs()
                + " ms)"
            : run.status() == ViewStatus.Failed
                ? run.error().map(e -> ": " + e.lines().findFirst().orElse("")).orElse("")
                : "";
    return "  " + paint(status, run.status(), color) + " " + name + detail;
  }

  private static String paint(String text, ViewStatus status, boolean color) {
    return switch (status) {
      case Completed, Planned -> Ansi.green(text, color);
      case Failed -> Ansi.red(text, color);
      case Skipped -> Ansi.yellow(text, color);
    };
  }

  /** The lines redrawn in place: one per running view, then the summary, cut to {@code width}. */
  synchronized List<String> live(long now, int width, int maxLines) {
    List<String> lines = new ArrayList<>();
    int room = Math.max(0, maxLines - 1);
    int shown = 0;
    for (Running r : running.values()) {
      if (shown == room - 1 && running.size() > room) {
        lines.add(Ansi.cut("  ... and " + (running.size() - shown) + " more running", width));
        break;
      }
      lines.add(
          Ansi.cut(
              "  "
                  + Ansi.cyan("running  ", color)
                  + " "
                  + r.name()
                  + " ("
                  + r.strategy()
                  + ", "
                  + seconds(now - r.startNanos())
                  + ")",
              width));
      shown++;
    }
    lines.add(Ansi.cut(summary(now), width));
    return lines;
  }

  synchronized String summary(long now) {
    return "  "
        + Ansi.bold(
            done
                + " done, "
                + running.size()
                + " running, "
                + failed
                + " failed, "
                + skipped
                + " skipped",
            color)
        + " | "
        + rows
        + (rows == 1 ? " row" : " rows")
        + " | "
        + seconds(now - startNanos);
  }

  static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", Math.max(0, nanos) / 1e9);
  }
}
