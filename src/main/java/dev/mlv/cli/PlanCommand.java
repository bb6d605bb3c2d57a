package dev.mlv.cli;

import dev.mlv.lineage.Node;
import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import dev.mlv.lineage.Selection;
import dev.mlv.plan.Plan;
import dev.mlv.plan.PlanJson;
import dev.mlv.plan.PlanRenderer;
import dev.mlv.plan.Planner;
import dev.mlv.project.Project;
import dev.mlv.target.DeployedState;
import dev.mlv.target.Target;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv plan}: what apply would change, read-only. */
@Command(
    name = "plan",
    header = "Show what 'mlv apply' would change on the target (read-only).",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Compare the project with the views deployed on the target and show what 'mlv apply'"
          + " would do: + create, ~ replace (with a diff), → rename, - drop (only with --prune), and"
          + " no-op when only formatting or comments changed. A replace says what its rebuild"
          + " loses that the view's refreshes keep: the rows an APPEND_ONLY file view holds of"
          + " files no longer in its folder or replaced since. On a Fabric target it also shows the"
          + " refresh schedules of mlv.yml to create, update or delete (schedules made elsewhere are"
          + " listed as unmanaged), and the notebook of each file of PySpark views: + create, ~ update,"
          + " ! recreate (removed from the workspace while its views exist), - delete (only with"
          + " --prune). Read-only: the local target is read from the Delta logs without starting Spark."
    },
    footer = {
      "",
      "Examples:",
      "  mlv plan",
      "  mlv plan --detailed-exitcode      # CI: 0 no changes, 1 error, 2 changes",
      "  mlv plan -o plan.json && mlv apply plan.json"
    })
public final class PlanCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;

  @Parameters(
      paramLabel = "SELECTOR",
      arity = "0..*",
      description = "Views to plan (default: all)." + Selection.SYNTAX)
  List<String> selectors;

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
  ReportFormat format;

  @Option(
      names = {"-o", "--out"},
      paramLabel = "FILE",
      description =
          "Save the plan as JSON for 'mlv apply FILE'. A symbolic link is followed; a device or"
              + " named pipe is written in place. '-' prints that JSON on standard output instead"
              + " of the text, as --format json does.")
  Path out;

  @Option(
      names = "--detailed-exitcode",
      description =
          "Exit 2 when the plan has changes (views, change data feed on sources, or"
              + " schedules), 0 when it has none, 1 on error.")
  boolean detailedExitcode;

  @Option(names = "--prune", description = "Drop deployed mlv views the project no longer has.")
  boolean prune;

  @Option(
      names = "--no-diff",
      description =
          "Leave out the diffs of replaced definitions from the text (the JSON keeps them).")
  boolean noDiff;

  @Override
  public Integer call() throws IOException {
    if (out != null) {
      // Found out before the plan is printed, not after: a plan that cannot be saved is no plan.
      UserFiles.checkOutput(out, "PLAN_OUT", "the plan", "plan.json");
    }
    Project project = ProjectLoading.loadDeployable(projectOptions, spec);
    String targetName = Targets.name(project.config(), targetOptions.target);
    Plan plan;
    try (Target target = Targets.open(project.config(), targetName, spec)) {
      ProjectLoading.checkTableColumns(project, target);
      DeployedState state = target.state(project);
      plan = make(project, target, state, selectors, prune);
      warnings(project, target, state, plan, selection(project, selectors))
          .forEach(spec.commandLine().getErr()::println);
    }
    // -o - prints the plan file itself: --format json's document, not the text beside it.
    boolean toStdout = out != null && UserFiles.isStdout(out);
    String text =
        format == ReportFormat.json || toStdout
            ? PlanJson.write(plan)
            : PlanRenderer.text(
                plan,
                project.names(),
                !noDiff,
                dev.mlv.plan.Planner.downstreamReasons(project, plan));
    spec.commandLine().getOut().print(text);
    if (out != null && !toStdout) {
      // Before the file: -o /dev/stdout writes after the plan, not into the middle of it.
      spec.commandLine().getOut().flush();
      UserFiles.write(out, PlanJson.write(plan), "PLAN_OUT", "the plan");
      if (format == ReportFormat.text) {
        spec.commandLine()
            .getOut()
            .println(
                "Saved the plan to "
                    + out
                    + "; apply it with 'mlv apply "
                    + applyOptions()
                    + shellWord(out.toString())
                    + "'.");
      }
    }
    return detailedExitcode && plan.hasChanges() ? ExitCodes.CHANGES : ExitCodes.OK;
  }

  /**
   * The -p and -t this plan was made with, for the apply command the saved plan's line suggests: a
   * plan made for target dev is stale for any other (found by QA: the line left -t out).
   */
  private String applyOptions() {
    StringBuilder options = new StringBuilder();
    if (projectOptions.project != null) {
      options.append("-p ").append(shellWord(projectOptions.project.toString())).append(' ');
    }
    if (targetOptions.target != null) {
      options.append("-t ").append(shellWord(targetOptions.target)).append(' ');
    }
    return options.toString();
  }

  /** A word as a shell reads it back: quoted when it holds anything but plain characters. */
  private static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./@:=+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  static Plan make(
      Project project, Target target, DeployedState state, List<String> selectors, boolean prune) {
    boolean whole = selectors == null || selectors.isEmpty();
    Plan views =
        new Planner(Clock.systemUTC())
            .plan(
                project,
                target.name(),
                state,
                selection(project, selectors),
                whole,
                prune,
                target.deploysPySparkViews(),
                id -> target.replaceWarnings(project, id));
    return views.withSchedules(ScheduleSync.plan(project, target));
  }

  private static SortedSet<ObjectId> selection(Project project, List<String> selectors) {
    return Selection.views(project.lineage(), project.names(), selectors, "plan");
  }

  /**
   * The views a saved plan was made for: the plan has a change (a no-op included) for each view it
   * selected, and no other view of the project.
   */
  static SortedSet<ObjectId> selectionOf(Project project, Plan plan) {
    SortedSet<ObjectId> out = new java.util.TreeSet<>();
    for (var c : plan.changes()) {
      if (project.views().containsKey(c.id())) {
        out.add(c.id());
      }
    }
    return out;
  }

  /** What plan and apply warn of before anything changes, one warning each. */
  static List<String> warnings(
      Project project,
      Target target,
      DeployedState state,
      Plan plan,
      SortedSet<ObjectId> selection) {
    List<String> out = new ArrayList<>(missingTables(project, target, state, selection));
    out.addAll(existingTables(project, plan, state));
    out.addAll(brokenReaders(project, plan));
    out.addAll(unknownViewConfig(project));
    return out;
  }

  /**
   * The project's VIEW_CONFIG_UNKNOWN warnings, as validate prints them: an entry keyed by a name
   * no view has (a renamed view's old name, a typo) leaves the view it meant without its settings
   * once applied, e.g. a view with {@code refresh_policy: full} refreshed incrementally.
   */
  private static List<String> unknownViewConfig(Project project) {
    return dev.mlv.diag.DiagnosticRenderer.sorted(project.diagnostics()).stream()
        .filter(d -> d.ruleId().equals("VIEW_CONFIG_UNKNOWN"))
        .map(dev.mlv.diag.Diagnostic::format)
        .toList();
  }

  /**
   * One warning per view the plan creates over an existing table that is not a view: the target
   * will not replace a table's data with a view, so that view's apply fails.
   */
  private static List<String> existingTables(Project project, Plan plan, DeployedState state) {
    List<String> out = new ArrayList<>();
    for (var c : plan.changes()) {
      if (c instanceof dev.mlv.plan.Change.Create && state.tables().containsKey(c.id())) {
        String name = project.names().display(c.id());
        out.add(
            "warning: "
                + name
                + " already exists as a table that is not a materialized lake view; apply will"
                + " not overwrite it, so creating the view will fail. Rename the view, or drop the"
                + " table first if its data is not needed.");
      }
    }
    return out;
  }

  /**
   * One warning per view the plan drops or renames while a view that stays in the project still
   * reads it by its old name: that reader's next refresh fails for want of its source.
   */
  private static List<String> brokenReaders(Project project, Plan plan) {
    List<String> out = new ArrayList<>();
    for (var c : plan.changes()) {
      ObjectId gone;
      String what;
      if (c instanceof dev.mlv.plan.Change.Drop d) {
        gone = d.id();
        what = "drops";
      } else if (c instanceof dev.mlv.plan.Change.Rename r) {
        gone = r.from();
        what = "renames";
      } else {
        continue;
      }
      if (project.lineage().node(gone) == null) {
        continue;
      }
      List<String> readers =
          project.lineage().downstream(gone).stream()
              .filter(project.views()::containsKey)
              .map(project.names()::display)
              .toList();
      if (!readers.isEmpty()) {
        out.add(
            "warning: the plan "
                + what
                + " "
                + project.names().display(gone)
                + ", which "
                + String.join(", ", readers)
                + (readers.size() == 1 ? " still reads" : " still read")
                + "; "
                + (readers.size() == 1 ? "it fails" : "they fail")
                + " to refresh until "
                + (readers.size() == 1 ? "its" : "their")
                + " SQL names the view the project defines.");
      }
    }
    return out;
  }

  /**
   * One warning per table that selected views read and the target does not have: apply would create
   * the views and then fail to refresh them, which the plan should say first.
   */
  private static List<String> missingTables(
      Project project, Target target, DeployedState state, SortedSet<ObjectId> selection) {
    List<String> out = new ArrayList<>();
    for (Node n : project.lineage().nodes().values()) {
      ObjectId id = n.id();
      if (n.kind() != NodeKind.TABLE
          || state.tables().containsKey(id)
          || state.views().containsKey(id)) {
        continue;
      }
      List<String> readers =
          project.lineage().downstream(id).stream()
              .filter(selection::contains)
              .map(project.names()::display)
              .toList();
      if (readers.isEmpty()) {
        continue;
      }
      target
          .missingTableFix(project, id)
          .ifPresent(
              fix ->
                  out.add(
                      "warning: "
                          + project.names().display(id)
                          + " is not in the lakehouse; refreshing "
                          + String.join(", ", readers)
                          + " will fail until it is. "
                          + fix));
    }
    return out;
  }
}
