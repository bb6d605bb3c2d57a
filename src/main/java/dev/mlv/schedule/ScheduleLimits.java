package dev.mlv.schedule;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Fabric's documented limits on item schedules, checked before anything is sent so that a bad
 * schedule is an error at its line in mlv.yml rather than a rejected request.
 */
public final class ScheduleLimits {
  /** "An item can create maximum 20 schedulers" (Create Item Schedule). */
  public static final int MAX_PER_ITEM = 20;

  /**
   * Minutes between two runs of a Cron schedule. Fabric's job scheduler takes 1, but Learn's
   * "schedule a refresh" page sets a five-minute minimum for materialized lake view refreshes.
   */
  public static final int MIN_INTERVAL = 5;

  public static final int MAX_INTERVAL = 5_270_400;

  /** Time slots of a Daily, Weekly or Monthly schedule. */
  public static final int MAX_TIMES = 100;

  public static final int MAX_EVERY_MONTHS = 12;

  /** {@code HH:mm}, 24-hour clock. */
  public static final Pattern TIME = Pattern.compile("([01]\\d|2[0-3]):[0-5]\\d");

  public static final List<String> WEEKDAYS =
      List.of("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday");

  public static final List<String> WEEK_INDEXES =
      List.of("First", "Second", "Third", "Fourth", "Fifth", "Last");

  private ScheduleLimits() {}
}
