package dev.mlv.cli;

import dev.mlv.project.Project;
import dev.mlv.schedule.Schedule;
import dev.mlv.schedule.SchedulePlan;
import dev.mlv.target.Target;
import java.io.PrintWriter;
import java.util.List;

/**
 * The schedule part of {@code plan} and {@code apply}: a target with schedules (Fabric) compares
 * and changes them; one without (the local target has no job scheduler) ignores the declared
 * schedules with one line saying so.
 */
final class ScheduleSync {
  private ScheduleSync() {}

  static SchedulePlan plan(Project project, Target target) {
    List<Schedule> declared =
        project.config().schedules().stream().filter(s -> s.appliesTo(target.name())).toList();
    if (target.schedules().isPresent()) {
      SchedulePlan plan = target.schedules().get().plan(project);
      // With nothing declared and nothing of mlv's deployed, schedules stay out of the plan.
      return declared.isEmpty() && plan.changes().isEmpty() ? SchedulePlan.NONE : plan;
    }
    if (project.config().schedules().isEmpty()) {
      return SchedulePlan.NONE;
    }
    int n = project.config().schedules().size();
    return SchedulePlan.ignored(
        n
            + (n == 1 ? " schedule" : " schedules")
            + " in mlv.yml ignored: target '"
            + target.name()
            + "' is local and has no job scheduler (schedules apply to Fabric targets)");
  }

  /** Applies the schedule changes of a plan; says each on {@code say}. */
  static void apply(Project project, Target target, SchedulePlan plan, PrintWriter say) {
    if (!plan.hasChanges() || target.schedules().isEmpty()) {
      return;
    }
    target.schedules().get().apply(project, plan, say::println);
    say.println(
        "Schedules applied: "
            + plan.count(dev.mlv.schedule.ScheduleChange.Create.class)
            + " created, "
            + plan.count(dev.mlv.schedule.ScheduleChange.Update.class)
            + " updated, "
            + plan.count(dev.mlv.schedule.ScheduleChange.Delete.class)
            + " deleted.");
    say.flush();
  }
}
