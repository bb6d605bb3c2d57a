package dev.mlv.cli;

import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Draws a {@link ProgressView} on a terminal: each finished view leaves one line, and below them
 * the running views and the summary are redrawn in place on every event and a few times a second.
 */
final class LiveProgress implements RunOutput.Progress {
  static final long TICK_MS = 250;

  private final PrintWriter err;
  private final ProgressView view;
  private final LongSupplier clock;
  private final IntSupplier width;
  private final IntSupplier height;
  private final Runnable onClose;
  private ScheduledExecutorService ticker;
  private int drawn;

  /**
   * @param clock nanoseconds, as {@link System#nanoTime}
   * @param width the terminal's columns; lines are cut to it so none wraps
   * @param height the terminal's rows; the live lines never take more than half
   * @param onClose releases what measured the terminal
   */
  LiveProgress(
      PrintWriter err,
      ProgressView view,
      LongSupplier clock,
      IntSupplier width,
      IntSupplier height,
      Runnable onClose) {
    this.err = err;
    this.view = view;
    this.clock = clock;
    this.width = width;
    this.height = height;
    this.onClose = onClose;
  }

  /** Redraws the elapsed times every {@link #TICK_MS} even when no event comes. */
  LiveProgress ticking() {
    ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "mlv-progress");
              t.setDaemon(true);
              return t;
            });
    ticker.scheduleAtFixedRate(this::redraw, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    return this;
  }

  @Override
  public void viewStarted(ObjectId id, Strategy strategy) {
    view.started(id, strategy, clock.getAsLong());
    redraw();
  }

  @Override
  public void viewFinished(ViewRun run) {
    String line = view.finished(run, clock.getAsLong());
    above(line);
  }

  @Override
  public void message(String text) {
    above(text);
  }

  private synchronized void above(String line) {
    err.print(Ansi.up(drawn) + Ansi.CLEAR_TO_END);
    err.println(line);
    drawn = 0;
    draw();
  }

  synchronized void redraw() {
    err.print(Ansi.up(drawn) + Ansi.CLEAR_TO_END);
    drawn = 0;
    draw();
  }

  private void draw() {
    int rows = height.getAsInt();
    List<String> lines =
        view.live(clock.getAsLong(), width.getAsInt(), rows <= 0 ? 10 : Math.max(2, rows / 2));
    lines.forEach(err::println);
    drawn = lines.size();
    err.flush();
  }

  /** Stops redrawing and erases the live lines; the run report comes next. */
  @Override
  public void close() {
    if (ticker != null) {
      ticker.shutdownNow();
      try {
        ticker.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      err.print(Ansi.up(drawn) + Ansi.CLEAR_TO_END);
      drawn = 0;
      err.flush();
    }
    onClose.run();
  }
}
