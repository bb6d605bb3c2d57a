package dev.mlv.refresh;

import java.time.Instant;
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

  public RunReport {
    views = List.copyOf(views);
  }

  public long durationMs() {
    return endedAt == null ? 0 : endedAt.toEpochMilli() - startedAt.toEpochMilli();
  }
}
