package dev.mlv.cli;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.quality.HtmlReportRenderer;
import dev.mlv.quality.QualityReport;
import dev.mlv.sql.Constraint;
import dev.mlv.target.SqlResult;
import dev.mlv.target.Target;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mlv report}: the data-quality report of the run history as one HTML file. */
@Command(
    name = "report",
    header = "Write the data-quality report of recent runs as one HTML file.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Write the data-quality report of recent refresh runs as one self-contained HTML file"
          + " (no network needed): runs over time, rows written and dropped, top views and"
          + " constraints by violations, the lineage coloured by last status, and a section per view"
          + " with its strategies, violations per constraint, durations and quarantined rows."
    },
    footer = {"", "Examples:", "  mlv report", "  mlv report --days 30 --out quality.html"})
public final class ReportCommand implements Callable<Integer> {
  private static final int SAMPLE_ROWS = 10;

  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;

  @Option(
      names = "--days",
      defaultValue = "7",
      description = "Days of run history to report (default: ${DEFAULT-VALUE}).")
  int days;

  @Option(
      names = {"-o", "--out"},
      paramLabel = "FILE",
      defaultValue = "report.html",
      description =
          "The HTML file to write (default: ${DEFAULT-VALUE}). A symbolic link is followed; a"
              + " device or named pipe is written in place; '-' is standard output.")
  Path out;

  @Override
  public Integer call() {
    if (days < 1) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--days must be at least 1");
    }
    UserFiles.checkOutput(out, "REPORT_WRITE", "the report", "report.html");
    // Read-only over what earlier runs stored: a view file broken since must not hide them.
    Project project = ProjectLoading.load(projectOptions, spec);
    String targetName = Targets.name(project.config(), targetOptions.target);
    QualityReport report;
    try (Target target = Targets.open(project.config(), targetName, spec)) {
      Map<ObjectId, List<String>> constraints = new LinkedHashMap<>();
      Map<ObjectId, SqlResult> quarantined = new LinkedHashMap<>();
      project
          .views()
          .forEach(
              (id, v) -> {
                constraints.put(
                    id, v.definition().constraints().stream().map(Constraint::name).toList());
                if (v.settings().quality().quarantineOn()) {
                  quarantined.put(
                      id, target.quarantine(project, id, Optional.empty(), SAMPLE_ROWS));
                }
              });
      report =
          QualityReport.of(
              project.config().name(),
              project.lineage(),
              project.names(),
              constraints,
              target.runs(
                  Integer.MAX_VALUE,
                  RunOutput.progress(spec.commandLine().getErr(), project.names(), false)),
              quarantined,
              Instant.now(),
              days);
    }
    boolean toStdout = UserFiles.isStdout(out);
    if (toStdout) {
      spec.commandLine().getOut().print(HtmlReportRenderer.render(report));
      spec.commandLine().getOut().flush();
    } else {
      UserFiles.write(out, HtmlReportRenderer.render(report), "REPORT_WRITE", "the report");
    }
    spec.commandLine()
        .getErr()
        .println(
            "wrote "
                + (toStdout ? "the report to standard output" : out)
                + ": "
                + DiagnosticRenderer.plural(report.runs().size(), "run")
                + ", "
                + DiagnosticRenderer.plural(report.rowsDropped(), "row")
                + " dropped"
                + (report.notMeasured() == 0
                    ? ""
                    : " (and "
                        + report.notMeasured()
                        + (report.notMeasured() == 1 ? " view refresh" : " view refreshes")
                        + " whose drops were "
                        + dev.mlv.refresh.RunRenderer.NOT_REPORTED
                        + ")")
                + ", "
                + DiagnosticRenderer.plural(report.violations(), "violation")
                + " in the last "
                + DiagnosticRenderer.plural(days, "day"));
    return ExitCodes.OK;
  }
}
