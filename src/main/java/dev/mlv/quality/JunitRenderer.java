package dev.mlv.quality;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A run report as JUnit XML, the format every CI shows natively: one test case per view (its
 * refresh) and one per constraint of the view. A failed view, a constraint that failed it, and a
 * view over its quality gate (with the constraints that dropped rows) are failures; views skipped
 * because an upstream view failed are skipped. In a dry run, a view that would fail (not deployed,
 * a source missing) is a failure and one that would be skipped for it, or that the target never
 * runs (PySpark on the local target), is skipped. A gate that could not be checked (drops not
 * measured on Fabric) is a skipped test case of its own, so CI never shows it as passed. A run
 * skipped because another refresh held the lakehouse is one failed test case of its own.
 */
public final class JunitRenderer {
  private JunitRenderer() {}

  /**
   * @param constraints each view's constraint names in declaration order, for views whose run has
   *     no counts (a failed view counted nothing)
   */
  public static String render(
      RunReport run,
      NameResolver names,
      Map<ObjectId, List<String>> constraints,
      List<GateBreach> breaches) {
    return render(run, names, constraints, breaches, List.of());
  }

  public static String render(
      RunReport run,
      NameResolver names,
      Map<ObjectId, List<String>> constraints,
      List<GateBreach> breaches,
      List<UncheckedGate> unchecked) {
    List<String> cases = new ArrayList<>();
    int tests = 0;
    int failures = 0;
    int skipped = 0;
    if (run.reason() != null) {
      // The run itself was skipped (another refresh held the lakehouse) and exits 3: a report
      // with no failing case would show green in CI (found by QA: tests="0" failures="0").
      tests++;
      failures++;
      cases.add(
          testcase("mlv", "refresh", run.durationMs())
              .append("      <failure type=\"SKIPPED_CONCURRENT\" message=\"")
              .append(attr(run.reason()))
              .append("\"/>\n")
              .append("    </testcase>\n")
              .toString());
    }
    for (ViewRun v : run.views()) {
      String view = names.display(v.id());
      List<GateBreach> over = breaches.stream().filter(b -> b.view().equals(v.id())).toList();
      StringBuilder c = testcase(view, "refresh", v.durationMs());
      String summary =
          v.strategy()
              + " ("
              + v.reason()
              + "): "
              + DiagnosticRenderer.plural(v.rowsWritten(), "row")
              + " written, "
              + (v.dropsMeasured()
                  ? v.rowsDropped() + " dropped"
                  : "dropped: " + dev.mlv.refresh.RunRenderer.NOT_REPORTED);
      tests++;
      if (v.status() == ViewStatus.Failed) {
        failures++;
        String error = v.error().orElse("failed");
        c.append("      <failure type=\"REFRESH_FAILED\" message=\"")
            .append(attr(firstLine(error)))
            .append("\">")
            .append(text(error))
            .append("</failure>\n");
      } else if (v.wouldFail()) {
        // A dry run that exits 1 for this view must not report it as passing.
        failures++;
        c.append("      <failure type=\"WOULD_FAIL\" message=\"")
            .append(attr(v.reason()))
            .append("\">")
            .append(text(v.reason()))
            .append("</failure>\n");
      } else if (v.status() == ViewStatus.Skipped || v.wouldBeSkipped() || v.plannedNotRun()) {
        // The dry run says what the run will: a view the target never runs is skipped, not passed.
        skipped++;
        c.append("      <skipped message=\"").append(attr(v.reason())).append("\"/>\n");
      } else if (!over.isEmpty()) {
        failures++;
        String messages = String.join("\n", over.stream().map(b -> b.message(view)).toList());
        c.append("      <failure type=\"QUALITY_GATE\" message=\"")
            .append(attr(over.get(0).message(view)))
            .append("\">")
            .append(text(messages))
            .append("</failure>\n");
      }
      c.append("      <system-out>").append(text(summary)).append("</system-out>\n");
      cases.add(c.append("    </testcase>\n").toString());
      for (UncheckedGate u : unchecked) {
        if (u.view().equals(v.id())) {
          tests++;
          skipped++;
          cases.add(
              testcase(view, "quality gate " + u.gate().key(), 0)
                  .append("      <skipped message=\"")
                  .append(attr(u.message(view)))
                  .append("\"/>\n")
                  .append("    </testcase>\n")
                  .toString());
        }
      }

      Set<String> rules = new LinkedHashSet<>(v.violations().keySet());
      rules.addAll(constraints.getOrDefault(v.id(), List.of()));
      for (String rule : rules) {
        tests++;
        long n = v.violations().getOrDefault(rule, 0L);
        StringBuilder r = testcase(view, "constraint " + rule, 0);
        String error = v.error().orElse("");
        if (v.failedBy(rule)) {
          failures++;
          r.append("      <failure type=\"CONSTRAINT_FAILED\" message=\"")
              .append(attr(firstLine(error)))
              .append("\">")
              .append(text(error))
              .append("</failure>\n");
        } else if (v.status() != ViewStatus.Completed) {
          skipped++;
          r.append("      <skipped message=\"")
              .append(attr("view " + v.status().name().toLowerCase(Locale.ROOT)))
              .append("\"/>\n");
        } else if (!v.dropsMeasured()) {
          skipped++;
          r.append("      <skipped message=\"")
              .append(attr("not counted: " + v.dropsNotMeasured().get()))
              .append("\"/>\n");
        } else if (!over.isEmpty() && n > 0) {
          failures++;
          r.append("      <failure type=\"QUALITY_GATE\" message=\"")
              .append(
                  attr(
                      rule
                          + " was broken by "
                          + n
                          + (n == 1 ? " row" : " rows")
                          + " of a view over its gate; "
                          + over.get(0).message(view)))
              .append("\"/>\n");
        }
        r.append("      <system-out>")
            .append(
                // A failed view counts the rows that broke its FAIL rules, where the target can.
                v.status() != ViewStatus.Completed && !v.violations().containsKey(rule)
                    ? "not counted: the view " + v.status().name().toLowerCase(Locale.ROOT)
                    : v.dropsMeasured()
                        ? n + (n == 1 ? " violation" : " violations")
                        : "not counted: " + dev.mlv.refresh.RunRenderer.NOT_REPORTED)
            .append("</system-out>\n");
        cases.add(r.append("    </testcase>\n").toString());
      }
    }
    String time = seconds(run.durationMs());
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<testsuites name=\"mlv refresh\" tests=\"")
        .append(tests)
        .append("\" failures=\"")
        .append(failures)
        .append("\" errors=\"0\" skipped=\"")
        .append(skipped)
        .append("\" time=\"")
        .append(time)
        .append("\">\n");
    xml.append("  <testsuite name=\"mlv refresh ")
        .append(attr(run.id()))
        .append("\" tests=\"")
        .append(tests)
        .append("\" failures=\"")
        .append(failures)
        .append("\" errors=\"0\" skipped=\"")
        .append(skipped)
        .append("\" time=\"")
        .append(time)
        .append("\" timestamp=\"")
        .append(run.startedAt())
        .append("\">\n");
    xml.append("    <properties>\n");
    property(xml, "run.id", run.id());
    property(xml, "run.status", run.status().name());
    property(xml, "target", run.target());
    xml.append("    </properties>\n");
    cases.forEach(xml::append);
    xml.append("  </testsuite>\n</testsuites>\n");
    return xml.toString();
  }

  /**
   * A command that failed before any view ran (an invalid project, a target out of reach), as one
   * failed test case: a CI that reads the file then shows why, where an empty file would read as a
   * broken pipeline step.
   */
  public static String failure(String command, List<Diagnostic> diagnostics) {
    String all = String.join("\n", diagnostics.stream().map(Diagnostic::format).toList());
    String type = diagnostics.isEmpty() ? "FAILED" : diagnostics.get(0).ruleId();
    String suite = "mlv " + command;
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<testsuites name=\"")
        .append(attr(suite))
        .append("\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n");
    xml.append("  <testsuite name=\"")
        .append(attr(suite))
        .append("\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n");
    xml.append(testcase("mlv", command, 0))
        .append("      <failure type=\"")
        .append(attr(type))
        .append("\" message=\"")
        .append(attr(firstLine(all)))
        .append("\">")
        .append(text(all))
        .append("</failure>\n")
        .append("    </testcase>\n");
    xml.append("  </testsuite>\n</testsuites>\n");
    return xml.toString();
  }

  private static StringBuilder testcase(String view, String name, long ms) {
    return new StringBuilder("    <testcase classname=\"")
        .append(attr(view))
        .append("\" name=\"")
        .append(attr(name))
        .append("\" time=\"")
        .append(seconds(ms))
        .append("\">\n");
  }

  private static void property(StringBuilder xml, String name, String value) {
    xml.append("      <property name=\"")
        .append(attr(name))
        .append("\" value=\"")
        .append(attr(value))
        .append("\"/>\n");
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  static String text(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        default -> {
          // XML 1.0 cannot carry most control characters, even escaped.
          if (ch >= 0x20 || ch == '\n' || ch == '\t' || ch == '\r') {
            out.append(ch);
          }
        }
      }
    }
    return out.toString();
  }

  static String attr(String s) {
    return text(s).replace("\"", "&quot;").replace("\n", "&#10;");
  }
}
