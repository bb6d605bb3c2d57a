package dev.mlv.cli;

import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.project.QualitySettings;
import dev.mlv.quality.GateBreach;
import dev.mlv.quality.JunitRenderer;
import dev.mlv.quality.QualityGates;
import dev.mlv.quality.UncheckedGate;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.sql.Constraint;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Ends a refresh: checks the quality gates, prints the report, and picks the exit code. */
final class QualityOutput {
  private QualityOutput() {}

  static int finish(
      PrintWriter out, PrintWriter err, RunReport report, Project project, RefreshFormat format) {
    RunReport run = report;
    List<GateBreach> breaches =
        report.status() == RunStatus.Planned
            ? List.of()
            : QualityGates.check(report, id -> settings(project, id));
    // A local run already carries them (its history records them); a Fabric one does not.
    run = QualityGates.annotate(run, breaches, project.names()::display);
    // Neither passed nor breached: a warning, and no exit code of their own (docs/exit-codes.md).
    List<UncheckedGate> unchecked =
        report.status() == RunStatus.Planned
            ? List.of()
            : QualityGates.unchecked(report, id -> settings(project, id));
    int code;
    if (format == RefreshFormat.junit) {
      out.print(
          JunitRenderer.render(run, project.names(), constraints(project), breaches, unchecked));
      code = RunOutput.exitCode(run);
    } else {
      code =
          RunOutput.print(
              out,
              run,
              project.names(),
              format == RefreshFormat.json ? ReportFormat.json : ReportFormat.text);
    }
    RunOutput.explainSkipped(err, run);
    for (GateBreach b : breaches) {
      err.println(b.message(project.names().display(b.view())));
    }
    for (UncheckedGate u : unchecked) {
      err.println("warning: " + u.message(project.names().display(u.view())));
    }
    err.flush();
    return code == ExitCodes.OK && !breaches.isEmpty() ? ExitCodes.QUALITY_GATE : code;
  }

  private static QualitySettings settings(Project project, ObjectId id) {
    ProjectView v = project.views().get(id);
    return v == null ? null : v.settings().quality();
  }

  private static Map<ObjectId, List<String>> constraints(Project project) {
    Map<ObjectId, List<String>> out = new LinkedHashMap<>();
    project
        .views()
        .forEach(
            (id, v) ->
                out.put(id, v.definition().constraints().stream().map(Constraint::name).toList()));
    return out;
  }
}
