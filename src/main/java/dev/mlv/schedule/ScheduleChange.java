package dev.mlv.schedule;

/**
 * One thing apply does to a schedule mlv manages on the target, with the line shown to the user.
 * {@code summary} describes the schedule as declared (create, update, no-op) or as deployed
 * (delete); {@code id} is Fabric's schedule id, empty for a create.
 */
public sealed interface ScheduleChange {
  String name();

  String id();

  String summary();

  String reason();

  /** Declared in mlv.yml, not on the target. */
  record Create(String name, String id, String summary, String reason) implements ScheduleChange {}

  /** On the target, but its timing, scope, mode or state differs from mlv.yml. */
  record Update(String name, String id, String summary, String reason) implements ScheduleChange {}

  /** Created by mlv for this project and no longer declared in mlv.yml. */
  record Delete(String name, String id, String summary, String reason) implements ScheduleChange {}

  /** On the target exactly as declared. */
  record NoOp(String name, String id, String summary, String reason) implements ScheduleChange {}
}
