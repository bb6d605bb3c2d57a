package dev.mlv.schedule;

import java.util.List;
import java.util.Optional;

/**
 * The schedule part of a plan: changes to the schedules mlv manages, the schedules on the target
 * that mlv did not create ({@code unmanaged}, listed and never touched), and, on a target without a
 * job scheduler, why the declared schedules are ignored.
 */
public record SchedulePlan(
    List<ScheduleChange> changes, List<String> unmanaged, Optional<String> ignored) {

  public static final SchedulePlan NONE = new SchedulePlan(List.of(), List.of(), Optional.empty());

  public SchedulePlan {
    changes = List.copyOf(changes);
    unmanaged = List.copyOf(unmanaged);
  }

  public static SchedulePlan ignored(String why) {
    return new SchedulePlan(List.of(), List.of(), Optional.of(why));
  }

  public boolean hasChanges() {
    return changes.stream().anyMatch(c -> !(c instanceof ScheduleChange.NoOp));
  }

  public long count(Class<? extends ScheduleChange> kind) {
    return changes.stream().filter(kind::isInstance).count();
  }

  public boolean isEmpty() {
    return changes.isEmpty() && unmanaged.isEmpty() && ignored.isEmpty();
  }
}
