package dev.mlv.schedule;

import dev.mlv.project.Project;
import java.util.function.Consumer;

/** A target's refresh schedules, managed as declared resources: compared, then changed. */
public interface Schedules {

  /** What applying the project's {@code schedules:} would change. Read-only. */
  SchedulePlan plan(Project project);

  /** Carries out a plan made by {@link #plan}; says each change on {@code say}. */
  void apply(Project project, SchedulePlan planned, Consumer<String> say);
}
