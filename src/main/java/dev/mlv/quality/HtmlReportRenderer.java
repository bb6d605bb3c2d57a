package dev.mlv.quality;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.quality.QualityReport.ConstraintTotal;
import dev.mlv.quality.QualityReport.LineageEdge;
import dev.mlv.quality.QualityReport.LineageNode;
import dev.mlv.quality.QualityReport.RunPoint;
import dev.mlv.quality.QualityReport.ViewPoint;
import dev.mlv.quality.QualityReport.ViewSection;
import dev.mlv.quality.SvgCharts.Series;
import dev.mlv.refresh.RunRenderer;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.target.SqlResult;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link QualityReport} as one self-contained HTML file: styles and the one small script
 * inline, charts as SVG, nothing fetched from a network. The script only confirms that the charts
 * are there and records any script error in the page, so a headless browser test can read both.
 */
public final class HtmlReportRenderer {
  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("MM-dd HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter FULL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);
  private static final String WRITTEN = "#4e79a7";
  private static final String DROPPED = "#e15759";
  private static final String VIOLATIONS = "#f28e2b";
  private static final String[] PALETTE = {
    "#f28e2b", "#4e79a7", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"
  };
  private static final int SAMPLE_ROWS = 10;

  private HtmlReportRenderer() {}

  /** The colour of a run or view status, the same in every chart and in the lineage. */
  static String statusColor(String status) {
    return switch (status) {
      case "Completed" -> "#59a14f";
      case "Failed" -> "#e15759";
      case "Skipped" -> "#bab0ac";
      case "Interrupted" -> "#f28e2b";
      case "Running" -> "#4e79a7";
      case "Source" -> "#9ecae9";
      default -> "#e0e0e0";
    };
  }

  public static String render(QualityReport r) {
    StringBuilder h = new StringBuilder(32_768);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>mlv data quality: ")
        .append(Html.esc(r.project()))
        .append("</title>\n<style>\n")
        .append(CSS)
        .append("</style>\n</head>\n<body>\n");
    h.append("<header><h1>Data quality: ")
        .append(Html.esc(r.project()))
        .append("</h1><p class=\"sub\">Last ")
        .append(r.days())
        .append(r.days() == 1 ? " day" : " days")
        .append(" of refresh runs, generated ")
        .append(FULL.format(r.generatedAt()))
        .append(" by mlv.</p></header>\n<main>\n");
    overview(h, r);
    lineage(h, r);
    for (ViewSection v : r.views()) {
      view(h, v);
    }
    h.append("</main>\n<div id=\"mlv-report-check\" data-status=\"pending\"></div>\n");
    h.append("<script>\n").append(SCRIPT).append("</script>\n</body>\n</html>\n");
    return h.toString();
  }

  // ---- overview ----

  private static void overview(StringBuilder h, QualityReport r) {
    h.append("<section id=\"overview\"><h2>Overview</h2>\n<div class=\"cards\">");
    card(h, "runs", "Runs", r.runs().size());
    card(h, "failed-runs", "Failed runs", r.failedRuns());
    card(h, "rows-written", "Rows written", r.rowsWritten());
    card(h, "rows-dropped", "Rows dropped", r.rowsDropped());
    card(h, "violations", "Violations", r.violations());
    h.append("</div>\n");
    if (r.notMeasured() > 0) {
      h.append("<p class=\"note\">Rows dropped and violations leave out ")
          .append(r.notMeasured())
          .append(r.notMeasured() == 1 ? " view refresh" : " view refreshes")
          .append(" whose drops were ")
          .append(RunRenderer.NOT_REPORTED)
          .append(".</p>\n");
    }
    if (r.runs().isEmpty()) {
      h.append(
              "<p class=\"empty\">No refresh runs in this window. Run <code>mlv refresh</code>.</p>")
          .append("</section>\n");
      return;
    }
    List<String> labels = new ArrayList<>();
    List<String> tips = new ArrayList<>();
    List<String> marks = new ArrayList<>();
    List<Long> written = new ArrayList<>();
    List<Long> dropped = new ArrayList<>();
    List<Long> violations = new ArrayList<>();
    for (RunPoint p : r.runs()) {
      labels.add(WHEN.format(p.startedAt()));
      tips.add(
          "run "
              + p.id()
              + " ("
              + p.status()
              + ", "
              + DiagnosticRenderer.plural(p.views(), "view")
              + ")");
      marks.add(statusColor(p.status()));
      written.add(p.rowsWritten());
      dropped.add(p.rowsDropped());
      violations.add(p.violations());
    }
    h.append(
        "<h3>Runs over time: rows written and dropped; the strip under each run is its"
            + " status</h3>\n");
    h.append(
        SvgCharts.stackedColumns(
            "rows written and dropped per run",
            labels,
            tips,
            List.of(
                new Series("written", WRITTEN, written), new Series("dropped", DROPPED, dropped)),
            marks,
            240));
    h.append("<p class=\"legend\">");
    for (String s : List.of("Completed", "Failed", "Skipped", "Interrupted")) {
      h.append("<span class=\"dot\" style=\"background:")
          .append(statusColor(s))
          .append("\"></span>")
          .append(s)
          .append(' ');
    }
    h.append(
        "</p>\n<h3>Violations versus drops per run</h3>\n<p class=\"note\">A row that breaks"
            + " two rules is one drop and two violations.</p>\n");
    h.append(
        SvgCharts.lines(
            "violations versus drops per run",
            labels,
            List.of(
                new Series("violations", VIOLATIONS, violations),
                new Series("dropped", DROPPED, dropped)),
            200));
    h.append("<h3>Top views by violations</h3>\n");
    List<ViewSection> top = r.topViews(10);
    if (top.isEmpty()) {
      h.append("<p class=\"empty\">No view broke a rule.</p>");
    } else {
      h.append(
          SvgCharts.bars(
              "top views by violations",
              top.stream().map(ViewSection::label).toList(),
              List.of(
                  new Series(
                      "violations", VIOLATIONS, top.stream().map(ViewSection::violations).toList()),
                  new Series(
                      "dropped", DROPPED, top.stream().map(ViewSection::rowsDropped).toList()))));
    }
    h.append("<h3>Top constraints by violations</h3>\n");
    List<ConstraintTotal> rules = r.topConstraints(10);
    if (rules.isEmpty()) {
      h.append("<p class=\"empty\">No constraint was violated.</p>");
    } else {
      h.append(
          SvgCharts.bars(
              "top constraints by violations",
              rules.stream().map(c -> c.view() + " · " + c.constraint()).toList(),
              List.of(
                  new Series(
                      "violations",
                      VIOLATIONS,
                      rules.stream().map(ConstraintTotal::violations).toList()))));
    }
    h.append("\n<h3>Runs</h3>\n<table class=\"runs\"><thead><tr><th>started</th>")
        .append("<th>run</th><th>status</th><th>views</th><th>written</th><th>dropped</th>")
        .append("<th>violations</th><th>duration</th></tr></thead><tbody>\n");
    for (int i = r.runs().size() - 1; i >= 0; i--) {
      RunPoint p = r.runs().get(i);
      h.append("<tr><td>")
          .append(FULL.format(p.startedAt()))
          .append("</td><td><code>")
          .append(Html.esc(p.id()))
          .append("</code></td><td>")
          .append(status(p.status()))
          .append("</td><td class=\"n\">")
          .append(p.views())
          .append("</td><td class=\"n\">")
          .append(p.rowsWritten())
          .append("</td><td class=\"n\">")
          .append(p.rowsDropped())
          .append(p.notMeasured() == 0 ? "" : " (" + p.notMeasured() + " not reported)")
          .append("</td><td class=\"n\">")
          .append(p.violations())
          .append("</td><td class=\"n\">")
          .append(seconds(p.durationMs()))
          .append("</td></tr>\n");
    }
    h.append("</tbody></table>\n</section>\n");
  }

  // ---- lineage ----

  private static void lineage(StringBuilder h, QualityReport r) {
    h.append(
        "<section id=\"lineage\"><h2>Lineage</h2>\n<p class=\"note\">Each view is coloured by"
            + " the status of its last refresh in the window; sources are blue.</p>\n");
    int nodeW = 210;
    int nodeH = 34;
    int colW = 260;
    int rowH = 50;
    Map<Integer, Integer> perLayer = new HashMap<>();
    Map<String, double[]> at = new HashMap<>();
    int layers = 0;
    int rows = 0;
    for (LineageNode n : r.lineage()) {
      int row = perLayer.merge(n.layer(), 1, Integer::sum) - 1;
      // Odd layers sit half a row lower, so an edge that skips a layer passes between nodes.
      at.put(
          n.name(),
          new double[] {16 + colW * n.layer(), 16 + rowH * row + (n.layer() % 2) * rowH / 2.0});
      layers = Math.max(layers, n.layer() + 1);
      rows = Math.max(rows, row + 1);
    }
    int width = Math.max(300, 32 + colW * layers - (colW - nodeW));
    int height = Math.max(70, 32 + rowH * rows - (rowH - nodeH) + (layers > 1 ? rowH / 2 : 0));
    // A deep lineage scrolls sideways: shrunk to the page's width, its labels became unreadable.
    h.append("<div class=\"wide\">");
    h.append(
        String.format(
            Locale.ROOT,
            "<svg class=\"lineage\" role=\"img\" aria-label=\"lineage\" viewBox=\"0 0 %d %d\""
                + " width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">",
            width,
            height,
            width,
            height));
    h.append(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\""
            + " markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\""
            + " fill=\"#777\"/></marker></defs>");
    for (LineageEdge e : r.edges()) {
      double[] a = at.get(e.from());
      double[] b = at.get(e.to());
      if (a == null || b == null) {
        continue;
      }
      double x1 = a[0] + nodeW;
      double y1 = a[1] + nodeH / 2.0;
      double x2 = b[0];
      double y2 = b[1] + nodeH / 2.0;
      double mid = (x1 + x2) / 2;
      h.append(
          String.format(
              Locale.ROOT,
              "<path class=\"edge\" d=\"M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f\""
                  + " marker-end=\"url(#arrow)\"/>",
              x1,
              y1,
              mid,
              y1,
              mid,
              y2,
              x2,
              y2));
    }
    for (LineageNode n : r.lineage()) {
      double[] p = at.get(n.name());
      h.append(
          String.format(
              Locale.ROOT,
              "<g class=\"node\" data-status=\"%s\"><title>%s</title>"
                  + "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"%s\"/>"
                  + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text></g>",
              Html.esc(n.lastStatus()),
              Html.esc(n.name() + " (" + n.kind() + "): " + n.lastStatus()),
              p[0],
              p[1],
              nodeW,
              nodeH,
              statusColor(n.lastStatus()),
              p[0] + nodeW / 2.0,
              p[1] + nodeH / 2.0 + 4,
              Html.esc(shortLabel(n.name(), 30))));
    }
    h.append("</svg></div>\n</section>\n");
  }

  /**
   * A long name shortened to {@code max} characters so both what tells nodes apart and where they
   * live stay readable: the schema (with "…" for the lakehouse or workspace before it, when the
   * qualifier is long), then the view's name with its middle elided, keeping its start and its end
   * (often a number). Cut at its start, the schema was lost (found by QA: "…ew_name_for_layout_
   * testing_10"). The full name is in the node's tooltip.
   */
  static String shortLabel(String name, int max) {
    if (name.codePointCount(0, name.length()) <= max) {
      return name;
    }
    int dot = lastDotOutsideBackticks(name);
    String qualifier = dot < 0 ? "" : name.substring(0, dot);
    String view = dot < 0 ? name : name.substring(dot + 1);
    if (length(qualifier) > max / 2) {
      int schemaDot = lastDotOutsideBackticks(qualifier);
      String schema = schemaDot < 0 ? qualifier : qualifier.substring(schemaDot + 1);
      qualifier = (schemaDot < 0 ? "" : "…") + schema;
      if (length(qualifier) > max / 2) {
        qualifier = cut(qualifier, 0, max / 2 - 1) + "…";
      }
    }
    String shown = qualifier.isEmpty() ? "" : qualifier + ".";
    int room = max - length(shown);
    if (length(view) <= room) {
      return shown + view;
    }
    int tail = room / 2;
    int head = room - 1 - tail;
    return shown + cut(view, 0, head) + "…" + cut(view, length(view) - tail, tail);
  }

  private static int lastDotOutsideBackticks(String s) {
    boolean quoted = false;
    int last = -1;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '`') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        last = i;
      }
    }
    return last;
  }

  private static int length(String s) {
    return s.codePointCount(0, s.length());
  }

  /** {@code n} characters from character {@code from}, never splitting a surrogate pair. */
  private static String cut(String s, int from, int n) {
    int[] cps = s.codePoints().toArray();
    return new String(cps, from, n);
  }

  // ---- one view ----

  /**
   * The violations of {@code constraint} in one run of the view, or null when the run did not count
   * them: the view was skipped, failed before its rules were checked, or its target reports no
   * counts. A zero there would claim a clean run that never happened (found by QA).
   */
  private static Long checked(ViewPoint p, String constraint) {
    Long n = p.violations().get(constraint);
    if (n != null) {
      return n;
    }
    return p.status().equals(ViewStatus.Completed.name()) && p.dropsMeasured() ? 0L : null;
  }

  /**
   * How long the view's refresh took in one run, or null when no refresh ran: the view was skipped
   * (an upstream failed, the run was interrupted) or had nothing new. A 0 there read as a very fast
   * refresh (found by QA).
   */
  private static Long refreshTime(ViewPoint p) {
    boolean ran = !p.status().equals(ViewStatus.Skipped.name()) && !"skip".equals(p.strategy());
    return ran ? p.durationMs() : null;
  }

  private static void view(StringBuilder h, ViewSection v) {
    h.append("<section class=\"view\" id=\"view-")
        .append(Html.esc(v.name()))
        .append("\"><h2>")
        .append(Html.esc(v.name()))
        .append(' ')
        .append(status(v.lastStatus()))
        .append("</h2>\n");
    if (!v.inProject()) {
      h.append(
          "<p class=\"note not-in-project\">Not in the project: a view the run history names"
              + " that the project no longer has (dropped, or renamed before mlv moved a renamed"
              + " view's history with it). Its runs count in the totals above.</p>\n");
    }
    h.append("<div class=\"cards\">");
    card(h, null, "Runs", v.runs().size());
    card(h, null, "Rows dropped", v.rowsDropped());
    card(h, null, "Violations", v.violations());
    h.append("</div>\n");
    if (v.runs().isEmpty()) {
      h.append("<p class=\"empty\">Not refreshed in this window.</p></section>\n");
      return;
    }
    List<String> labels = v.runs().stream().map(p -> WHEN.format(p.startedAt())).toList();
    if (!v.constraints().isEmpty()) {
      List<Series> series = new ArrayList<>();
      int k = 0;
      for (String c : v.constraints()) {
        series.add(
            new Series(
                c,
                PALETTE[k++ % PALETTE.length],
                v.runs().stream().map(p -> checked(p, c)).toList()));
      }
      h.append("<h3>Violations per constraint over time</h3>\n")
          .append(SvgCharts.lines("violations per constraint of " + v.name(), labels, series, 180));
      // A FAIL rule that a row broke stops the refresh: its violations are the rows that broke it
      // (where the target counts them), and the refreshes it failed get a column of their own.
      h.append("<table class=\"rules\"><thead><tr><th>constraint</th><th>violations</th>")
          .append("<th>refreshes it failed</th></tr></thead><tbody>");
      Map<String, Long> failures = v.failuresByConstraint();
      v.violationsByConstraint()
          .forEach(
              (c, n) ->
                  h.append("<tr><td>")
                      .append(Html.esc(c))
                      .append("</td><td class=\"n\">")
                      .append(n)
                      .append("</td><td class=\"n\">")
                      .append(failures.getOrDefault(c, 0L))
                      .append("</td></tr>"));
      h.append("</tbody></table>\n");
    }
    h.append("<h3>Duration (ms)</h3>\n")
        .append(
            SvgCharts.lines(
                "duration of " + v.name() + " in ms",
                labels,
                List.of(
                    new Series(
                        "ms",
                        WRITTEN,
                        v.runs().stream().map(HtmlReportRenderer::refreshTime).toList())),
                160));
    h.append("<h3>Runs</h3>\n<table><thead><tr><th>started</th><th>run</th><th>status</th>")
        .append("<th>strategy</th><th>why</th><th>written</th><th>dropped</th>")
        .append("<th>duration</th></tr></thead><tbody>\n");
    for (int i = v.runs().size() - 1; i >= 0; i--) {
      ViewPoint p = v.runs().get(i);
      h.append("<tr><td>")
          .append(FULL.format(p.startedAt()))
          .append("</td><td><code>")
          .append(Html.esc(p.runId()))
          .append("</code></td><td>")
          .append(status(p.status()))
          .append("</td><td>")
          .append(Html.esc(p.strategy()))
          .append("</td><td>")
          .append(Html.esc(p.reason()))
          .append(
              p.error().isEmpty() ? "" : "<div class=\"error\">" + Html.esc(p.error()) + "</div>")
          .append("</td><td class=\"n\">")
          .append(p.rowsWritten())
          .append("</td><td class=\"n\">")
          .append(p.dropsMeasured() ? String.valueOf(p.rowsDropped()) : RunRenderer.NOT_REPORTED)
          .append("</td><td class=\"n\">")
          .append(seconds(p.durationMs()))
          .append("</td></tr>\n");
    }
    h.append("</tbody></table>\n");
    SqlResult q = v.quarantined();
    if (!q.columns().isEmpty() && !q.rows().isEmpty()) {
      h.append("<h3>Quarantined rows (newest ")
          .append(Math.min(SAMPLE_ROWS, q.rows().size()))
          .append(")</h3>\n<div class=\"scroll\"><table class=\"quarantine\"><thead><tr>");
      q.columns().forEach(c -> h.append("<th>").append(Html.esc(c)).append("</th>"));
      h.append("</tr></thead><tbody>\n");
      q.rows().stream()
          .limit(SAMPLE_ROWS)
          .forEach(
              row -> {
                h.append("<tr>");
                row.forEach(
                    c ->
                        h.append("<td>")
                            .append(c == null ? "<i>NULL</i>" : Html.esc(c))
                            .append("</td>"));
                h.append("</tr>\n");
              });
      h.append("</tbody></table></div>\n");
    }
    h.append("</section>\n");
  }

  private static void card(StringBuilder h, String id, String label, long value) {
    h.append("<div class=\"card\"")
        .append(id == null ? "" : " id=\"kpi-" + id + "\"")
        .append("><div class=\"v\">")
        .append(value)
        .append("</div><div class=\"k\">")
        .append(Html.esc(label))
        .append("</div></div>");
  }

  private static String status(String s) {
    return "<span class=\"status\" style=\"background:"
        + statusColor(s)
        + "\">"
        + Html.esc(s.equals("NotRun") ? "not run" : s)
        + "</span>";
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }

  private static final String CSS =
      """
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#222;background:#f6f7f9}
      header{background:#1f2d3d;color:#fff;padding:18px 28px}
      header h1{margin:0;font-size:22px}.sub{margin:4px 0 0;color:#c9d3dd}
      main{padding:8px 28px 40px;max-width:1100px}
      section{background:#fff;border:1px solid #e3e6ea;border-radius:8px;padding:14px 20px;margin:18px 0}
      h2{font-size:18px;margin:4px 0 10px}h3{font-size:14px;margin:16px 0 6px;color:#444}
      .cards{display:flex;gap:12px;flex-wrap:wrap}
      .card{border:1px solid #e3e6ea;border-radius:6px;padding:8px 14px;min-width:110px}
      .card .v{font-size:22px;font-weight:600}.card .k{color:#666;font-size:12px}
      svg{max-width:100%;height:auto}.wide{overflow-x:auto}.wide svg{max-width:none}
      table{border-collapse:collapse;width:100%;font-size:13px}
      th,td{border-bottom:1px solid #eceef1;padding:4px 8px;text-align:left;vertical-align:top}
      th{background:#fafbfc;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
      .status{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;color:#111}
      .error{color:#b00020;font-size:12px;margin-top:2px;white-space:pre-wrap}
      .note,.legend{color:#666;font-size:12px;margin:2px 0}.empty{color:#888}
      .dot{display:inline-block;width:10px;height:10px;border-radius:2px;margin:0 4px 0 10px}
      .scroll{overflow-x:auto}
      svg text{font:11px system-ui,sans-serif;fill:#333}svg .tick{fill:#777}
      svg .grid{stroke:#eceef1}svg .edge{fill:none;stroke:#888;stroke-width:1.5}
      svg .val{fill:#555}svg .node text{font-size:12px;fill:#111}
      """;

  /** Marks the page as checked once the charts are present; records script errors in the page. */
  private static final String SCRIPT =
      """
      (function () {
        var check = document.getElementById('mlv-report-check');
        var errors = [];
        window.addEventListener('error', function (e) {
          errors.push(String(e.message));
          check.setAttribute('data-errors', errors.join(' | '));
          check.setAttribute('data-status', 'error');
        });
        var charts = document.querySelectorAll('svg.chart').length;
        var lineage = document.querySelectorAll('svg.lineage g.node').length;
        check.setAttribute('data-charts', String(charts));
        check.setAttribute('data-lineage-nodes', String(lineage));
        var svg = document.querySelector('svg.lineage');
        if (svg) {
          var scale = svg.getBoundingClientRect().width / svg.width.baseVal.value;
          check.setAttribute('data-lineage-scale', scale.toFixed(2));
        }
        // Text a chart draws past the edge of its viewBox is cut off: named here for the tests.
        var clipped = [];
        document.querySelectorAll('svg.chart').forEach(function (chart) {
          var box = chart.viewBox.baseVal;
          chart.querySelectorAll('text').forEach(function (t) {
            var b = t.getBBox();
            if (b.x < box.x || b.x + b.width > box.x + box.width) {
              clipped.push(t.textContent);
            }
          });
        });
        if (clipped.length > 0) {
          check.setAttribute('data-clipped-text', clipped.join(' | '));
        }
        if (errors.length === 0) {
          check.setAttribute('data-status', lineage > 0 ? 'ok' : 'no-lineage');
        }
      })();
      """;
}
