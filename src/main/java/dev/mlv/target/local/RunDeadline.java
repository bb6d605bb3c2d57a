package dev.mlv.target.local;

import dev.mlv.project.ProjectDefaults;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;

/**
 * The time limit of one run ({@code defaults.refresh_timeout}), and its stop by Ctrl-C in {@code
 * mlv shell}. Every Spark job of the run is tagged with the run's job group; when the limit passes,
 * the group is cancelled, so a view that is still running stops. Its {@code CREATE OR REPLACE}
 * fails before its commit, which leaves the table at its previous version: Delta commits all or
 * nothing.
 */
final class RunDeadline implements AutoCloseable {
  private final String group;
  private final Duration limit;
  private final Supplier<SparkContext> context;
  private final ScheduledExecutorService timer;
  private volatile boolean expired;
  private volatile boolean interrupted;

  /**
   * Starts the clock. {@code context} gives the SparkContext once Spark is up, or null before: a
   * run that never started Spark has no job to cancel.
   */
  RunDeadline(String runId, Instant deadline, Duration limit, Supplier<SparkContext> context) {
    this.group = "mlv-run-" + runId;
    this.limit = limit;
    this.context = context;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "mlv-run-deadline");
              t.setDaemon(true);
              return t;
            });
    long delay = Math.max(0, Duration.between(Instant.now(), deadline).toMillis());
    // Again and again once expired: cancelling a group stops only the jobs it has at that moment.
    timer.scheduleWithFixedDelay(this::expire, delay, 250, TimeUnit.MILLISECONDS);
  }

  private void expire() {
    expired = true;
    SparkContext sc = context.get();
    if (sc != null && !sc.isStopped()) {
      sc.cancelJobGroup(
          group, "the run exceeded its time limit of " + ProjectDefaults.durationText(limit));
    }
  }

  /**
   * Ctrl-C in the shell: cancels the run's Spark jobs now, and again and again until the run ends,
   * since a view that is running may submit its next job after a cancel. Every job the context runs
   * is cancelled, not only the run's group: in the shell the run is the one command running.
   */
  void interrupt() {
    interrupted = true;
    try {
      timer.scheduleWithFixedDelay(this::cancelAll, 0, 250, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException ended) {
      // The run has just ended: it has no job left to cancel.
    }
  }

  private void cancelAll() {
    SparkContext sc = context.get();
    if (sc != null && !sc.isStopped()) {
      sc.cancelAllJobs();
    }
  }

  /** True once the limit has passed. */
  boolean expired() {
    return expired;
  }

  /** Runs {@code work} on this thread with its Spark jobs in the run's job group. */
  <T> T run(SparkContext sc, Supplier<T> work) {
    // The job group is a thread-local property of the context: set and cleared on this thread.
    sc.setJobGroup(group, group, true);
    try {
      if (expired) {
        // Cancelling a group affects only jobs that exist; one submitted later must not run.
        throw new IllegalStateException(
            "the run exceeded its time limit of " + ProjectDefaults.durationText(limit));
      }
      if (interrupted) {
        throw new IllegalStateException("the run was interrupted");
      }
      return work.get();
    } finally {
      sc.clearJobGroup();
    }
  }

  /** The error of a view whose refresh was stopped by the limit. */
  String message() {
    return "the run exceeded its time limit of "
        + ProjectDefaults.durationText(limit)
        + " (defaults.refresh_timeout) while this view was refreshing; its refresh was cancelled"
        + " and the table left at its previous version";
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      // A cancel under way must land before the run goes on to write its record with Spark.
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
