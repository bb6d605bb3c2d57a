package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mlv.diag.MlvException;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.project.QualitySettings;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OnMismatch;
import dev.mlv.sql.ViewBody;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Fabric refresh dropped from a view. Fabric counts the rows its DROP rules remove but shows
 * them only in its lineage UI and Data quality report, never through an API. For a view with a
 * quality gate that Fabric rebuilt in full, mlv re-counts them over Livy: the rows of the view's
 * SELECT, less the rows Fabric wrote, with each rule's violations; any other view with DROP rules
 * is marked as not measured rather than reported as 0.
 */
final class FabricDrops {
  static final String NOT_REPORTED = "Fabric's API does not report the rows DROP rules remove";

  private final LivyClient livy;

  FabricDrops(LivyClient livy) {
    this.livy = livy;
  }

  /** {@code run}, a view's outcome read back from Fabric, with its drops counted or unknown. */
  ViewRun settle(Project project, ViewRun run) {
    ProjectView view = project.views().get(run.id());
    if (run.status() != ViewStatus.Completed || "skip".equals(run.strategy()) || view == null) {
      return run;
    }
    List<Constraint> constraints = view.definition().constraints();
    if (constraints.stream().noneMatch(c -> c.onMismatch() == OnMismatch.DROP)) {
      return run; // nothing can be dropped, so 0 is a count
    }
    QualitySettings q = view.settings().quality();
    if (q.maxDroppedRows().isEmpty() && q.maxDroppedRatio().isEmpty()) {
      // Re-running the SELECT costs a Spark job; only a gate is worth it.
      return run.withDropsNotMeasured(NOT_REPORTED);
    }
    if (!"full".equals(run.strategy())) {
      return run.withDropsNotMeasured(
          NOT_REPORTED
              + ", and mlv re-counts them only after a full refresh (this one was "
              + run.strategy()
              + "); 'mlv refresh --full' counts them");
    }
    if (!(view.definition().body() instanceof ViewBody.Select select)) {
      return run.withDropsNotMeasured(
          NOT_REPORTED
              + ", and the view is not a SELECT that mlv can re-run over Livy"
              + (view.definition().isPython() ? " (a PySpark view)" : ""));
    }
    LivyClient.Result r;
    try {
      r =
          livy.sql(
              countSql(select.sql(), constraints),
              "counting the rows DROP rules removed from " + run.id().shortName(),
              true);
    } catch (MlvException e) {
      return run.withDropsNotMeasured(
          NOT_REPORTED + ", and counting them over Livy failed: " + e.getMessage());
    }
    if (r.rows().size() != 1) {
      return run.withDropsNotMeasured(
          NOT_REPORTED + ", and counting them over Livy returned no row");
    }
    List<JsonNode> row = r.rows().get(0);
    long selected = row.get(0).asLong();
    long broken = row.get(1).asLong();
    // A source that moved since the refresh changes what the SELECT returns: the counts would be
    // of other rows, so they are not trusted unless they reconcile with what Fabric wrote.
    if (selected - run.rowsWritten() != broken) {
      return run.withDropsNotMeasured(
          NOT_REPORTED
              + ", and mlv's count does not reconcile with Fabric's (the SELECT now returns "
              + selected
              + " rows, of which the DROP rules remove "
              + broken
              + ", but Fabric wrote "
              + run.rowsWritten()
              + "): a source probably changed after the refresh");
    }
    Map<String, Long> violations = new LinkedHashMap<>();
    int column = 2;
    for (Constraint c : constraints) {
      // A completed refresh broke no FAIL rule.
      long n = c.onMismatch() == OnMismatch.DROP ? row.get(column++).asLong() : 0;
      violations.merge(c.name(), n, Long::sum);
    }
    return run.withDrops(broken, violations);
  }

  /**
   * One pass over the view's SELECT: its rows, the rows any DROP rule removes (once each), and each
   * DROP rule's violations. A rule is broken where it is false or NULL, as on the local engine.
   */
  static String countSql(String select, List<Constraint> constraints) {
    List<String> brokenRules = new ArrayList<>();
    List<String> columns = new ArrayList<>();
    columns.add("count(*) AS mlv_selected");
    for (Constraint c : constraints) {
      if (c.onMismatch() == OnMismatch.DROP) {
        brokenRules.add(c.brokenSql());
      }
    }
    columns.add("count_if(" + String.join(" OR ", brokenRules) + ") AS mlv_dropped");
    for (int i = 0; i < brokenRules.size(); i++) {
      columns.add("count_if(" + brokenRules.get(i) + ") AS mlv_rule_" + i);
    }
    return "SELECT "
        + String.join(", ", columns)
        + "\nFROM (\n"
        + stripTrailingSemicolon(select)
        + "\n) AS mlv_source";
  }

  private static String stripTrailingSemicolon(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }
}
