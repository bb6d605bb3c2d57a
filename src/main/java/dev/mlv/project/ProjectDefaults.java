package dev.mlv.project;

import java.time.Duration;

/**
 * The {@code defaults:} section: view settings every view starts from, plus run-wide settings that
 * have no per-view meaning (timeout, parallelism, how much run history to keep).
 */
public record ProjectDefaults(
    ViewSettings views, Duration refreshTimeout, int parallelism, RunHistory history) {

  public static final Duration DEFAULT_REFRESH_TIMEOUT = Duration.ofHours(24);

  public static ProjectDefaults builtIn() {
    return new ProjectDefaults(
        ViewSettings.NONE,
        DEFAULT_REFRESH_TIMEOUT,
        Runtime.getRuntime().availableProcessors(),
        RunHistory.DEFAULT);
  }

  /** How many past refresh runs, and for how long, the run log keeps. */
  public record RunHistory(int retainRuns, int retainDays) {
    public static final RunHistory DEFAULT = new RunHistory(25, 7);
  }
}
