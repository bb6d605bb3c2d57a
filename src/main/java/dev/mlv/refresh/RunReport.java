package dev.mlv.refresh;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** One refresh run: its id, outcome, times, and every selected view's outcome. */
public record RunReport(
    String id,
    RunStatus status,
    Instant startedAt,
    Instant endedAt,
    String target,
    List<ViewRun> views) {

  public static final int FORMAT_VERSION = 1;

  /**
   * The time now, as a run's instants are taken: to the microsecond, the precision the history
   * table stores, so the run's own report, a parked record and {@code mlv runs} give the same time
   * (found by QA: nanoseconds in the first two, microseconds in the third).
   */
  public static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.MICROS);
  }

  public RunReport {
    views = List.copyOf(views);
  }

  /**
   * Why the run refreshed nothing, for a {@code Skipped} run (another refresh held the lakehouse,
   * the one thing that status means); null for every other run. Derived rather than stored, so a
   * skipped run read back from any record carries it too.
   */
  public String reason() {
    return status == RunStatus.Skipped
        ? "another refresh was running on the lakehouse, so this run was skipped, not queued;"
            + " run it again once that one has ended"
        : null;
  }

  public long durationMs() {
    return endedAt == null ? 0 : endedAt.toEpochMilli() - startedAt.toEpochMilli();
  }
}
