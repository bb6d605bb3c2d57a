package dev.mlv.schedule;

import java.util.List;
import java.util.Optional;

/**
 * How often a schedule fires, in the four kinds Fabric's job scheduler knows ({@code
 * configuration.type}). Times are {@code HH:mm} in the schedule's time zone.
 */
public sealed interface Recurrence {

  /** Fabric's name of the kind: Cron, Daily, Weekly or Monthly. */
  String type();

  /** Every {@code minutes} minutes from the start. */
  record Cron(int minutes) implements Recurrence {
    @Override
    public String type() {
      return "Cron";
    }
  }

  /** Every day at each of {@code times}. */
  record Daily(List<String> times) implements Recurrence {
    public Daily {
      times = List.copyOf(times);
    }

    @Override
    public String type() {
      return "Daily";
    }
  }

  /** On each of {@code weekdays} (Monday … Sunday) at each of {@code times}. */
  record Weekly(List<String> weekdays, List<String> times) implements Recurrence {
    public Weekly {
      weekdays = List.copyOf(weekdays);
      times = List.copyOf(times);
    }

    @Override
    public String type() {
      return "Weekly";
    }
  }

  /**
   * Every {@code everyMonths} months, on a day of the month or on an ordinal weekday ({@code
   * weekIndex} First … Fifth or Last, and {@code weekday}), at each of {@code times}.
   */
  record Monthly(
      int everyMonths,
      Optional<Integer> dayOfMonth,
      Optional<String> weekIndex,
      Optional<String> weekday,
      List<String> times)
      implements Recurrence {
    public Monthly {
      times = List.copyOf(times);
    }

    @Override
    public String type() {
      return "Monthly";
    }
  }
}
