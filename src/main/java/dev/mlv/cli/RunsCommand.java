package dev.mlv.cli;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.diag.MlvException;
import dev.mlv.project.Project;
import dev.mlv.refresh.RunRenderer;
import dev.mlv.refresh.RunReport;
import dev.mlv.target.Target;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv runs}: the refresh history (in the lakehouse locally, under .mlv for Fabric). */
@Command(
    name = "runs",
    header = "List recent refresh runs, or show one run's report.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "List recent refresh runs, newest first, or show one run's report. On the local target"
          + " the history lives in the lakehouse itself (schema mlv_history), so any engine can"
          + " query it; on a Fabric target it is the runs made from this machine, kept in"
          + " .mlv/fabric/<target>/runs, plus the lakehouse's other refresh jobs, listed from"
          + " Fabric."
    },
    footer = {"", "Examples:", "  mlv runs", "  mlv runs 20261129-101500-3f2a9c --format json"})
public final class RunsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;

  @Parameters(paramLabel = "RUN_ID", arity = "0..1", description = "Show this run.")
  String runId;

  @Option(
      names = "--limit",
      defaultValue = "25",
      description = "Runs to list (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  ReportFormat format;

  @Override
  public Integer call() {
    if (limit < 1) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--limit must be at least 1");
    }
    // Read-only over what earlier runs stored: a view file broken since must not hide them.
    Project project = ProjectLoading.load(projectOptions, spec);
    var out = spec.commandLine().getOut();
    // A stored record that cannot be read is left out with a warning line on stderr.
    dev.mlv.refresh.RunListener warnings =
        RunOutput.progress(spec.commandLine().getErr(), project.names(), false);
    String targetName = Targets.name(project.config(), targetOptions.target);
    try (Target target = Targets.open(project.config(), targetName, spec)) {
      if (runId != null) {
        RunReport run =
            target
                .run(runId, warnings)
                .orElseThrow(
                    () ->
                        new MlvException(
                            dev.mlv.diag.Diagnostic.error(
                                "RUN_UNKNOWN",
                                null,
                                "no run with id '" + runId + "' on target " + targetName,
                                "'mlv runs' lists the recent runs, newest first; copy an id from"
                                    + " its RUN column")));
        out.print(
            format == ReportFormat.json
                ? RunRenderer.json(run)
                : RunRenderer.text(run, project.names()));
        return ExitCodes.OK;
      }
      List<RunReport> runs = target.runs(limit, warnings);
      if (format == ReportFormat.json) {
        out.print(RunRenderer.jsonList(runs));
        return ExitCodes.OK;
      }
      if (runs.isEmpty()) {
        out.println("No runs yet.");
      } else {
        out.printf("%-24s %-12s %-20s  %s%n", "RUN", "STATUS", "STARTED (UTC)", "VIEWS");
      }
      for (RunReport r : runs) {
        long failed =
            r.views().stream().filter(v -> v.status() == dev.mlv.refresh.ViewStatus.Failed).count();
        // A completed view carries an error only when it broke its quality gate.
        long overGate =
            r.views().stream()
                .filter(
                    v ->
                        v.status() == dev.mlv.refresh.ViewStatus.Completed && v.error().isPresent())
                .count();
        out.printf(
            java.util.Locale.ROOT,
            "%-24s %-12s %-20s  %s, %d failed%s, %.1fs%n",
            r.id(),
            r.status(),
            // To the second: the stored nanoseconds only put the columns out of line.
            r.startedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
            DiagnosticRenderer.plural(r.views().size(), "view"),
            failed,
            overGate == 0 ? "" : ", " + overGate + " over a quality gate",
            r.durationMs() / 1000.0);
      }
      return ExitCodes.OK;
    }
  }
}
