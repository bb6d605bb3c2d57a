package dev.mlv.project;

import java.time.Duration;

/**
 * The {@code defaults:} section: view settings every view starts from, plus run-wide settings that
 * have no per-view meaning (timeout, parallelism, how much run history to keep).
 */
public record ProjectDefaults(
    ViewSettings views, Duration refreshTimeout, int parallelism, RunHistory history) {

  public static final Duration DEFAULT_REFRESH_TIMEOUT = Duration.ofHours(24);

  /**
   * A duration as mlv.yml writes it ({@code 90s}, {@code 30m}, {@code 24h}, {@code 2d}), so a
   * message quotes the setting in the user's own terms; a fraction of a second (only tests set one)
   * in decimal seconds.
   */
  public static String durationText(Duration d) {
    if (d.toMillis() % 1000 != 0) {
      return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString()
          + "s";
    }
    long s = d.toSeconds();
    // 24h stays 24h: the default, as the docs name it.
    if (s > 86_400 && s % 86_400 == 0) {
      return s / 86_400 + "d";
    } else if (s != 0 && s % 3600 == 0) {
      return s / 3600 + "h";
    } else if (s != 0 && s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }

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
