package dev.mlv.schedule;

import java.util.List;

/** One line describing a declared schedule, as the plan shows it. */
public final class ScheduleSummary {
  private ScheduleSummary() {}

  public static String of(Schedule s) {
    String scope = s.allViews() ? "all views" : String.join(", ", s.views());
    return when(s.recurrence())
        + " ("
        + s.timeZone()
        + "), "
        + scope
        + ", "
        + s.refreshMode().fabric()
        + (s.enabled() ? "" : ", disabled");
  }

  public static String when(Recurrence r) {
    if (r instanceof Recurrence.Cron c) {
      return "every " + c.minutes() + " min";
    } else if (r instanceof Recurrence.Daily d) {
      return "daily at " + times(d.times());
    } else if (r instanceof Recurrence.Weekly w) {
      return String.join(", ", w.weekdays()) + " at " + times(w.times());
    }
    Recurrence.Monthly m = (Recurrence.Monthly) r;
    String day =
        m.dayOfMonth()
            .map(d -> "day " + d)
            .orElseGet(() -> m.weekIndex().orElse("") + " " + m.weekday().orElse(""));
    return (m.everyMonths() == 1 ? "monthly" : "every " + m.everyMonths() + " months")
        + " on "
        + day
        + " at "
        + times(m.times());
  }

  private static String times(List<String> times) {
    return String.join(", ", times);
  }
}
