package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.UsageException;
import dev.mlv.plan.Plan;
import dev.mlv.plan.PlanJson;
import dev.mlv.plan.PlanRenderer;
import dev.mlv.plan.Planner;
import dev.mlv.project.Project;
import dev.mlv.refresh.RunReport;
import dev.mlv.target.DeployedState;
import dev.mlv.target.Target;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv apply}: make the target match the project, then refresh what changed. */
@Command(
    name = "apply",
    header = "Deploy the project's views to the target and refresh what changed.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Create, replace, rename and drop views so the target matches the project, turn on"
          + " change data feed on sources, then refresh the changed views and everything downstream"
          + " in dependency order. On a Fabric target, then create, update and delete the refresh"
          + " schedules of mlv.yml (never schedules made elsewhere). With PLANFILE, applies the"
          + " changes of that saved plan, and refuses it when the deployed views, the tables that"
          + " exist and their change data feed, the schedules, the project's definitions or the"
          + " views' settings in mlv.yml changed since it was made. An edit of formatting or"
          + " comments only is no change, as in plan: the view is deployed with its file's text"
          + " as it is now. New rows loaded into a source do not make a plan stale."
    },
    footer = {
      "",
      "Examples:",
      "  mlv apply                      # plan, confirm, apply",
      "  mlv apply --auto-approve       # CI",
      "  mlv plan -o plan.json && mlv apply plan.json"
    })
public final class ApplyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;
  @Mixin ProgressOptions progressOptions;

  @Parameters(
      paramLabel = "PLANFILE",
      arity = "0..1",
      description = "A plan saved with 'mlv plan -o FILE'.")
  Path planFile;

  @Option(names = "--auto-approve", description = "Apply without asking for confirmation.")
  boolean autoApprove;

  @Option(
      names = "--prune",
      description =
          "Also drop deployed mlv views the project no longer has. Not with PLANFILE: make that"
              + " plan with 'mlv plan --prune -o FILE'.")
  boolean prune;

  @Option(
      names = "--format",
      defaultValue = "text",
      description =
          "Run report format: text or json (default: ${DEFAULT-VALUE}). With json, stdout holds"
              + " one document: the run report, the plan when it has no changes, or the failure"
              + " (a refused question included); the plan and the question go to stderr.")
  ReportFormat format;

  @Option(
      names = "--quiet",
      description = "No progress lines on stderr; warnings are still printed.")
  boolean quiet;

  @Override
  public Integer call() throws IOException {
    if (planFile != null && prune) {
      // The saved plan already says what to drop; ignoring --prune would apply a plan the user
      // did not ask for.
      throw new UsageException(
          "APPLY_PLANFILE",
          "--prune does not apply to a saved plan, which already holds its drops (or none); make"
              + " the plan with 'mlv plan --prune -o FILE', then 'mlv apply FILE'");
    }
    Project project = ProjectLoading.loadDeployable(projectOptions, spec);
    var out = spec.commandLine().getOut();
    String targetName = Targets.name(project.config(), targetOptions.target);
    try (Target target = Targets.open(project.config(), targetName, spec)) {
      Plan plan;
      if (planFile != null) {
        String json = UserFiles.read(planFile, "PLAN_FILE", "plan file");
        plan = PlanJson.read(json, planFile.toString());
        if (!plan.target().equals(target.name())) {
          throw new MlvException(
              "PLAN_STALE",
              "the plan was made for target '" + plan.target() + "', not '" + target.name() + "'");
        }
        // The plan's own project first: another project's plan differs in everything below, and
        // "the deployed views changed" would send the user looking in the wrong place.
        if (!plan.project().equals(project.config().name())) {
          throw new MlvException(
              "PLAN_STALE",
              planFile
                  + " was made for project '"
                  + plan.project()
                  + "', not '"
                  + project.config().name()
                  + "' (in "
                  + project.config().root()
                  + "); apply it in its own project, or run 'mlv plan' here");
        }
        if (!plan.projectFingerprint().equals(Planner.projectFingerprint(project))) {
          throw new MlvException(
              "PLAN_STALE",
              "the project's definitions, or their settings in mlv.yml, changed since "
                  + planFile
                  + " was made; run 'mlv plan'"
                  + " again");
        }
        DeployedState state = target.state(project);
        if (!plan.stateFingerprint().equals(state.fingerprint())) {
          throw new MlvException(
              "PLAN_STALE",
              "the deployed views or tables changed since "
                  + planFile
                  + " was made (a view applied, renamed or dropped, a table created or dropped,"
                  + " change data feed turned on or off); run 'mlv plan' again");
        }
        // The warnings the plan printed. The project and the deployed state are those it was
        // made from (checked above), so they are found again rather than kept in the file, which
        // also gives them to a plan saved by an earlier mlv.
        PlanCommand.warnings(project, target, state, plan, PlanCommand.selectionOf(project, plan))
            .forEach(spec.commandLine().getErr()::println);
        // What a replace loses is in the plan's text, which apply of a saved plan does not print;
        // the folders of file views are no part of the state checked above, so it is asked again.
        for (var c : plan.changes()) {
          if (c instanceof dev.mlv.plan.Change.Replace) {
            for (String w : target.replaceWarnings(project, c.id())) {
              spec.commandLine()
                  .getErr()
                  .println("warning: " + project.names().display(c.id()) + ": " + w);
            }
          }
        }
        spec.commandLine().getErr().flush();
        ProjectLoading.checkTableColumns(project, target);
        if (!plan.hasChanges()) {
          // Said as a fresh plan with no changes says it, rather than printing nothing.
          out.print(
              format == ReportFormat.json
                  ? PlanJson.write(plan)
                  : PlanRenderer.text(
                      plan,
                      project.names(),
                      true,
                      dev.mlv.plan.Planner.downstreamReasons(project, plan)));
          out.flush();
          return ExitCodes.OK;
        }
      } else {
        ProjectLoading.checkTableColumns(project, target);
        DeployedState state = target.state(project);
        plan = PlanCommand.make(project, target, state, List.of(), prune);
        // In JSON mode stdout carries the run report alone; the plan still goes before the
        // question (on stderr), as nobody should approve a plan they have not seen, and with
        // --auto-approve too, so a CI log shows what changed.
        var shown = format == ReportFormat.json ? spec.commandLine().getErr() : out;
        shown.print(
            PlanRenderer.text(
                plan,
                project.names(),
                true,
                dev.mlv.plan.Planner.downstreamReasons(project, plan)));
        // Flushed now: through a pipe it would otherwise come after the refresh's progress.
        shown.flush();
        PlanCommand.warnings(
                project, target, state, plan, new java.util.TreeSet<>(project.views().keySet()))
            .forEach(spec.commandLine().getErr()::println);
        if (!plan.hasChanges()) {
          if (format == ReportFormat.json) {
            // Nothing ran: the document is the plan, with no changes in it.
            out.print(PlanJson.write(plan));
          }
          out.flush();
          return ExitCodes.OK;
        }
        if (!autoApprove) {
          String answer = confirm(shown);
          if (!"yes".equals(answer.strip())) {
            // A piped script's next line is read as the answer: show which line that was.
            String cancelled =
                answer.strip().equalsIgnoreCase("no") || answer.isBlank()
                    ? "Apply cancelled."
                    : "Apply cancelled: the answer was '" + answer.strip() + "', not 'yes'.";
            shown.println(cancelled);
            if (format == ReportFormat.json) {
              // A JSON reader gets a document, as for any other failure.
              out.print(
                  dev.mlv.diag.DiagnosticRenderer.jsonFailure(
                      "apply",
                      List.of(
                          dev.mlv.diag.Diagnostic.error(
                              "APPLY_CANCELLED", null, cancelled, null))));
              out.flush();
            }
            return ExitCodes.ERROR;
          }
        }
      }
      var said = format == ReportFormat.json ? spec.commandLine().getErr() : out;
      if (!plan.hasViewChanges()) {
        // Only schedules change: no view run to report.
        ScheduleSync.apply(project, target, plan.schedules(), said);
        if (format == ReportFormat.json) {
          out.print(PlanJson.writeSchedules(plan));
          out.flush();
        }
        return ExitCodes.OK;
      }
      RunReport run;
      try (var progress = RunOutput.progress(spec, project.names(), quiet, progressOptions)) {
        run = target.apply(project, plan, progress);
      }
      if (run.status() == dev.mlv.refresh.RunStatus.Completed) {
        ScheduleSync.apply(project, target, plan.schedules(), said);
      } else if (plan.schedules().hasChanges()) {
        said.println("Schedules not changed: the views did not apply cleanly.");
      }
      if (run.views().isEmpty() && run.status() == dev.mlv.refresh.RunStatus.Completed) {
        // Only renames, drops or change data feed: no view to refresh, and no run on record, so
        // no run id to print that 'mlv runs' would not know; JSON keeps its shape, id null.
        if (format == ReportFormat.json) {
          out.print(
              dev.mlv.refresh.RunRenderer.json(
                  new dev.mlv.refresh.RunReport(
                      null,
                      run.status(),
                      run.startedAt(),
                      run.endedAt(),
                      run.target(),
                      run.views())));
        } else {
          out.println("Applied: no view needed a refresh, so no run was recorded.");
        }
        out.flush();
        return ExitCodes.OK;
      }
      // The refresh apply runs honours the quality gates as mlv refresh does (exit 4).
      return QualityOutput.finish(
          out,
          spec.commandLine().getErr(),
          run,
          project,
          format == ReportFormat.json ? RefreshFormat.json : RefreshFormat.text);
    }
  }

  /** The answer to the question, never null. */
  private String confirm(PrintWriter out) throws IOException {
    String question = "Apply these changes? Only 'yes' is accepted: ";
    String answer;
    if (Targets.session(spec) != null) {
      answer = Targets.session(spec).ask(question);
    } else {
      out.print(question);
      out.flush();
      answer =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    if (answer == null) {
      if (Targets.session(spec) == null) {
        // End the question's line: the error below must not read as its answer.
        out.println();
        out.flush();
      }
      throw new MlvException(
          "CONFIRM",
          "apply needs a confirmation and standard input is closed; pass --auto-approve");
    }
    return answer;
  }
}
