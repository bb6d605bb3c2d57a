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
    for (Change c : plan.changes()) {
      String name = names.display(c.id());
      if (c instanceof Change.Create) {
        line(sb, "+", "create", name, c.reason());
      } else if (c instanceof Change.Replace r) {
        line(sb, "~", "replace", name, c.reason());
        if (showDiffs) {
          r.diff().lines().forEach(l -> sb.append("      ").append(l).append('\n'));
        }
      } else if (c instanceof Change.Rename rn) {
        line(sb, "→", "rename", names.display(rn.from()) + " → " + name, c.reason());
      } else if (c instanceof Change.Drop) {
        line(sb, "-", "drop", name, c.reason());
      } else {
        line(sb, " ", "no-op", name, c.reason());
      }
    }
    for (EnableCdf e : plan.enableCdf()) {
      line(
          sb,
          "~",
          "set CDF",
          names.display(e.table()),
          "turn on change data feed (delta.enableChangeDataFeed) for incremental refresh of "
              + String.join(", ", e.readers().stream().map(names::display).toList()));
    }
    if (!plan.notebooks().isEmpty()) {
      sb.append("\nNotebooks (one per PySpark file; apply runs a created or updated one once to")
          .append(" register its views):\n");
      for (NotebookChange n : plan.notebooks()) {
        String what = n.displayName() + " (" + n.source() + ")";
        if (n instanceof NotebookChange.Create) {
          line(sb, "+", "create", what, n.reason());
        } else if (n instanceof NotebookChange.Recreate) {
          line(sb, "!", "recreate", what, n.reason());
        } else if (n instanceof NotebookChange.Update) {
          line(sb, "~", "update", what, n.reason());
        } else if (n instanceof NotebookChange.Delete) {
          line(sb, "-", "delete", what, n.reason());
        } else {
          line(sb, " ", "no-op", what, n.reason());
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
    for (ScheduleChange c : sp.changes()) {
      String name = c.name();
      if (c instanceof ScheduleChange.Create) {
        line(sb, "+", "create", name, c.reason());
      } else if (c instanceof ScheduleChange.Update) {
        line(sb, "~", "update", name, c.reason());
      } else if (c instanceof ScheduleChange.Delete) {
        line(sb, "-", "delete", name, c.reason());
      } else {
        line(sb, " ", "no-op", name, c.reason());
      }
      sb.append("               ").append(c.summary()).append('\n');
    }
    for (String u : sp.unmanaged()) {
      sb.append("    unmanaged, left alone: ").append(u).append('\n');
    }
  }

  private static void line(StringBuilder sb, String sign, String verb, String name, String reason) {
    // Padded by display width, not chars: a CJK view name takes two columns a character.
    sb.append(
        String.format("  %s %-8s %s %s%n", sign, verb, DisplayWidth.padRight(name, 40), reason));
  }
}
