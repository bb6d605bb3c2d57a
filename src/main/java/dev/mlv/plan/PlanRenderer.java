package dev.mlv.plan;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.lineage.DisplayWidth;
import dev.mlv.lineage.NameResolver;
import dev.mlv.schedule.ScheduleChange;
import dev.mlv.schedule.SchedulePlan;

/** The human form of a plan, Terraform style, rendered from the same model as the JSON. */
public final class PlanRenderer {
  private PlanRenderer() {}

  public static String text(Plan plan, NameResolver names, boolean showDiffs) {
    return text(plan, names, showDiffs, id -> REBUILT_UPSTREAM);
  }

  /** What a downstream view's refresh after apply is when nothing about the view says more. */
  static final String REBUILT_UPSTREAM = "NON_APPEND_COMMIT: an upstream view is rebuilt first";

  /**
   * {@code downstream}: the strategy of each view refreshed after apply, as its run will say it
   * ({@link Planner#downstreamReasons}); views that share one are listed together.
   */
  public static String text(
      Plan plan,
      NameResolver names,
      boolean showDiffs,
      java.util.function.Function<dev.mlv.lineage.ObjectId, String> downstream) {
    StringBuilder sb = new StringBuilder();
    sb.append("Plan for project ")
        .append(plan.project())
        .append(" on target ")
        .append(plan.target())
        .append(":\n\n");
    // One name column for the views and the sources: as wide as the longest name (a rename's two
    // names included), so that every reason starts in the same column.
    int width =
        widthOf(
            java.util.stream.Stream.concat(
                plan.changes().stream().map(c -> changeName(c, names)),
                plan.enableCdf().stream().map(e -> names.display(e.table()))));
    for (Change c : plan.changes()) {
      String name = changeName(c, names);
      if (c instanceof Change.Create) {
        line(sb, width, "+", "create", name, c.reason());
      } else if (c instanceof Change.Replace r) {
        line(sb, width, "~", "replace", name, c.reason());
        // Before the diff: what is lost must not scroll past with it.
        r.warnings().forEach(w -> sb.append("      warning: ").append(w).append('\n'));
        if (showDiffs) {
          r.diff().lines().forEach(l -> sb.append("      ").append(l).append('\n'));
        }
      } else if (c instanceof Change.Rename) {
        line(sb, width, "→", "rename", name, c.reason());
      } else if (c instanceof Change.Drop) {
        line(sb, width, "-", "drop", name, c.reason());
      } else {
        line(sb, width, " ", "no-op", name, c.reason());
      }
    }
    for (EnableCdf e : plan.enableCdf()) {
      line(
          sb,
          width,
          "~",
          "set CDF",
          names.display(e.table()),
          "turn on change data feed (delta.enableChangeDataFeed) for incremental refresh of "
              + String.join(", ", e.readers().stream().map(names::display).toList()));
    }
    if (!plan.notebooks().isEmpty()) {
      sb.append("\nNotebooks (one per PySpark file; apply runs a created or updated one once to")
          .append(" register its views):\n");
      int notebookWidth = widthOf(plan.notebooks().stream().map(PlanRenderer::notebookName));
      for (NotebookChange n : plan.notebooks()) {
        String what = notebookName(n);
        int w = notebookWidth;
        if (n instanceof NotebookChange.Create) {
          line(sb, w, "+", "create", what, n.reason());
        } else if (n instanceof NotebookChange.Recreate) {
          line(sb, w, "!", "recreate", what, n.reason());
        } else if (n instanceof NotebookChange.Update) {
          line(sb, w, "~", "update", what, n.reason());
        } else if (n instanceof NotebookChange.Delete) {
          line(sb, w, "-", "delete", what, n.reason());
        } else {
          line(sb, w, " ", "no-op", what, n.reason());
        }
      }
    }
    if (plan.changes().isEmpty() && plan.enableCdf().isEmpty()) {
      sb.append("  (no views to plan: the project has none, or the selectors matched none)\n");
    }
    if (!plan.refresh().isEmpty()) {
      // An upstream view is rebuilt in one CREATE OR REPLACE commit, which is not an append.
      sb.append("\nDownstream views refreshed after apply: ")
          .append(String.join(", ", plan.refresh().stream().map(names::display).toList()))
          .append('\n');
      java.util.Map<String, java.util.List<String>> byReason = new java.util.LinkedHashMap<>();
      for (dev.mlv.lineage.ObjectId id : plan.refresh()) {
        byReason
            .computeIfAbsent(downstream.apply(id), k -> new java.util.ArrayList<>())
            .add(names.display(id));
      }
      byReason.forEach(
          (reason, views) ->
              sb.append("  strategy: full (")
                  .append(reason)
                  .append(')')
                  .append(byReason.size() == 1 ? "" : ": " + String.join(", ", views))
                  .append('\n'));
    }
    if (!plan.orphans().isEmpty()) {
      sb.append("\nDeployed by mlv but no longer in the project (dropped only with --prune): ")
          .append(String.join(", ", plan.orphans().stream().map(names::display).toList()))
          .append('\n');
    }
    schedules(sb, plan.schedules());
    sb.append('\n');
    if (!plan.hasChanges() && plan.orphans().isEmpty()) {
      sb.append("No changes. The target matches the project.\n");
    } else if (!plan.hasChanges()) {
      // Views left behind without --prune are no change to apply, yet the target does not match.
      int n = plan.orphans().size();
      sb.append("No changes to apply; ")
          .append(DiagnosticRenderer.plural(n, "deployed view"))
          .append(n == 1 ? " is" : " are")
          .append(" no longer in the project (see above).\n");
    } else {
      sb.append(
          String.format(
              "Plan: %d to create, %d to replace, %d to rename, %d to drop, %d unchanged.%n",
              plan.count(Change.Create.class),
              plan.count(Change.Replace.class),
              plan.count(Change.Rename.class),
              plan.count(Change.Drop.class),
              plan.count(Change.NoOp.class)));
      if (!plan.enableCdf().isEmpty()) {
        int n = plan.enableCdf().size();
        sb.append("Change data feed to turn on: " + n + (n == 1 ? " source" : " sources") + ".\n");
      }
      long notebooks =
          plan.notebooks().stream().filter(n -> !(n instanceof NotebookChange.NoOp)).count();
      if (notebooks > 0) {
        sb.append(
            String.format(
                "Notebooks: %d to create, %d to recreate, %d to update, %d to delete.%n",
                plan.notebooks().stream().filter(NotebookChange.Create.class::isInstance).count(),
                plan.notebooks().stream().filter(NotebookChange.Recreate.class::isInstance).count(),
                plan.notebooks().stream().filter(NotebookChange.Update.class::isInstance).count(),
                plan.notebooks().stream().filter(NotebookChange.Delete.class::isInstance).count()));
      }
    }
    SchedulePlan sp = plan.schedules();
    if (sp.hasChanges()) {
      sb.append(
          String.format(
              "Schedules: %d to create, %d to update, %d to delete, %d unchanged.%n",
              sp.count(ScheduleChange.Create.class),
              sp.count(ScheduleChange.Update.class),
              sp.count(ScheduleChange.Delete.class),
              sp.count(ScheduleChange.NoOp.class)));
    }
    return sb.toString();
  }

  private static void schedules(StringBuilder sb, SchedulePlan sp) {
    if (sp.isEmpty()) {
      return;
    }
    if (sp.ignored().isPresent()) {
      sb.append("\nSchedules: ").append(sp.ignored().get()).append('\n');
      return;
    }
    sb.append("\nSchedules of the RefreshMaterializedLakeViews job:\n");
    int w = widthOf(sp.changes().stream().map(ScheduleChange::name));
    for (ScheduleChange c : sp.changes()) {
      String name = c.name();
      if (c instanceof ScheduleChange.Create) {
        line(sb, w, "+", "create", name, c.reason());
      } else if (c instanceof ScheduleChange.Update) {
        line(sb, w, "~", "update", name, c.reason());
      } else if (c instanceof ScheduleChange.Delete) {
        line(sb, w, "-", "delete", name, c.reason());
      } else {
        line(sb, w, " ", "no-op", name, c.reason());
      }
      sb.append("               ").append(c.summary()).append('\n');
    }
    for (String u : sp.unmanaged()) {
      sb.append("    unmanaged, left alone: ").append(u).append('\n');
    }
  }

  /** The narrowest name column of a table: names shorter than this leave the reasons here. */
  private static final int MIN_NAME_WIDTH = 40;

  private static String changeName(Change c, NameResolver names) {
    return c instanceof Change.Rename rn
        ? names.display(rn.from()) + " → " + names.display(c.id())
        : names.display(c.id());
  }

  private static String notebookName(NotebookChange n) {
    return n.displayName() + " (" + n.source() + ")";
  }

  /**
   * The name column's width for a table of these names: the widest name's display width (found by
   * QA: a rename's two names went past a fixed 40 columns and pushed its reason out of line).
   */
  private static int widthOf(java.util.stream.Stream<String> names) {
    return Math.max(MIN_NAME_WIDTH, names.mapToInt(DisplayWidth::of).max().orElse(0));
  }

  private static void line(
      StringBuilder sb, int width, String sign, String verb, String name, String reason) {
    // Padded by display width, not chars: a CJK view name takes two columns a character.
    sb.append(
        String.format("  %s %-8s %s %s%n", sign, verb, DisplayWidth.padRight(name, width), reason));
  }
}
