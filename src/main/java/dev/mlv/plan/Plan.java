package dev.mlv.plan;

import dev.mlv.lineage.ObjectId;
import dev.mlv.schedule.SchedulePlan;
import java.time.Instant;
import java.util.List;

/**
 * The difference between the project and a target, as data. {@code stateFingerprint} is the
 * deployed state the plan was made against: applying a saved plan is refused when it changed.
 * {@code refresh} lists, in dependency order, the unchanged views downstream of a change. {@code
 * orphans} are deployed mlv views the project no longer has, dropped only with prune. {@code
 * schedules} are the refresh schedules to create, update or delete on the target. {@code notebooks}
 * are the notebook items of PySpark views, on a target that deploys them as notebooks.
 */
public record Plan(
    String project,
    String target,
    Instant createdAt,
    String stateFingerprint,
    String projectFingerprint,
    List<Change> changes,
    List<EnableCdf> enableCdf,
    List<ObjectId> refresh,
    List<ObjectId> orphans,
    SchedulePlan schedules,
    List<NotebookChange> notebooks) {

  public static final int FORMAT_VERSION = 1;

  public Plan {
    changes = List.copyOf(changes);
    enableCdf = List.copyOf(enableCdf);
    refresh = List.copyOf(refresh);
    orphans = List.copyOf(orphans);
    notebooks = List.copyOf(notebooks);
  }

  /** A plan of views only (targets without schedules or notebooks). */
  public Plan(
      String project,
      String target,
      Instant createdAt,
      String stateFingerprint,
      String projectFingerprint,
      List<Change> changes,
      List<EnableCdf> enableCdf,
      List<ObjectId> refresh,
      List<ObjectId> orphans) {
    this(
        project,
        target,
        createdAt,
        stateFingerprint,
        projectFingerprint,
        changes,
        enableCdf,
        refresh,
        orphans,
        SchedulePlan.NONE,
        List.of());
  }

  public Plan withSchedules(SchedulePlan plan) {
    return new Plan(
        project,
        target,
        createdAt,
        stateFingerprint,
        projectFingerprint,
        changes,
        enableCdf,
        refresh,
        orphans,
        plan,
        notebooks);
  }

  /** Whether apply has anything to do to views, tables or notebooks. */
  public boolean hasViewChanges() {
    return !enableCdf.isEmpty()
        || changes.stream().anyMatch(c -> !(c instanceof Change.NoOp))
        || notebooks.stream().anyMatch(n -> !(n instanceof NotebookChange.NoOp));
  }

  /** Whether apply has anything to do, schedules included. */
  public boolean hasChanges() {
    return hasViewChanges() || schedules.hasChanges();
  }

  public long count(Class<? extends Change> kind) {
    return changes.stream().filter(kind::isInstance).count();
  }
}
