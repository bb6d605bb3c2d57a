package dev.mlv.quality;

import dev.mlv.lineage.Edge;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.Node;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.target.SqlResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The data-quality report of a project over a window of days, computed from the run history: what
 * {@link HtmlReportRenderer} draws. Names are display names; runs are oldest first.
 */
public record QualityReport(
    String project,
    Instant generatedAt,
    int days,
    List<RunPoint> runs,
    List<ViewSection> views,
    List<LineageNode> lineage,
    List<LineageEdge> edges) {

  public QualityReport {
    runs = List.copyOf(runs);
    views = List.copyOf(views);
    lineage = List.copyOf(lineage);
    edges = List.copyOf(edges);
  }

  /**
   * One run: when, how it ended, and its totals over all views; {@code notMeasured} views (on
   * Fabric) had drops no one counted, which the totals leave out.
   */
  public record RunPoint(
      String id,
      Instant startedAt,
      String status,
      int views,
      long rowsWritten,
      long rowsDropped,
      long violations,
      long durationMs,
      int notMeasured) {}

  /**
   * One view's outcome in one run; {@code failedRule} names the {@code ON MISMATCH FAIL} constraint
   * that failed it, or is empty. Without {@code dropsMeasured}, its drops and violations are
   * unknown, not 0.
   */
  public record ViewPoint(
      String runId,
      Instant startedAt,
      String status,
      String strategy,
      String reason,
      long rowsWritten,
      long rowsDropped,
      Map<String, Long> violations,
      long durationMs,
      String error,
      String failedRule,
      boolean dropsMeasured) {
    public ViewPoint {
      violations = new LinkedHashMap<>(violations);
    }
  }

  /**
   * A view's section: its runs oldest first, its constraints in the order first seen, and the
   * newest rows its quarantine holds (empty when it keeps none). Without {@code inProject} it is a
   * view the history names but the project no longer has (dropped, or renamed without its history
   * following), named as in the history: its runs count in the totals, so it has a section too.
   */
  public record ViewSection(
      String name,
      String lastStatus,
      List<ViewPoint> runs,
      List<String> constraints,
      SqlResult quarantined,
      boolean inProject) {
    public ViewSection {
      runs = List.copyOf(runs);
      constraints = List.copyOf(constraints);
    }

    /** The name with, for a view the project no longer has, a note saying so. */
    public String label() {
      return inProject ? name : name + " (not in the project)";
    }

    public long rowsDropped() {
      return runs.stream().mapToLong(ViewPoint::rowsDropped).sum();
    }

    public long violations() {
      return runs.stream().flatMap(r -> r.violations().values().stream()).mapToLong(x -> x).sum();
    }

    /**
     * Refreshes each constraint failed over the window (an {@code ON MISMATCH FAIL} rule that a row
     * broke), in constraint order.
     */
    public Map<String, Long> failuresByConstraint() {
      Map<String, Long> out = new LinkedHashMap<>();
      constraints.forEach(c -> out.put(c, 0L));
      runs.stream()
          .filter(r -> !r.failedRule().isEmpty())
          .forEach(r -> out.merge(r.failedRule(), 1L, Long::sum));
      return out;
    }

    /** Violations per constraint over the window, in constraint order. */
    public Map<String, Long> violationsByConstraint() {
      Map<String, Long> out = new LinkedHashMap<>();
      constraints.forEach(c -> out.put(c, 0L));
      runs.forEach(r -> r.violations().forEach((k, v) -> out.merge(k, v, Long::sum)));
      return out;
    }
  }

  /** A constraint's violations over the window, with its view. */
  public record ConstraintTotal(String view, String constraint, long violations) {}

  /** A lineage node placed in its layer, with the status of its last refresh. */
  public record LineageNode(String name, String kind, int layer, String lastStatus) {}

  public record LineageEdge(String from, String to) {}

  public long rowsWritten() {
    return runs.stream().mapToLong(RunPoint::rowsWritten).sum();
  }

  public long rowsDropped() {
    return runs.stream().mapToLong(RunPoint::rowsDropped).sum();
  }

  public long violations() {
    return runs.stream().mapToLong(RunPoint::violations).sum();
  }

  /** View refreshes in the window whose drops were not measured (Fabric did not report them). */
  public long notMeasured() {
    return runs.stream().mapToLong(RunPoint::notMeasured).sum();
  }

  public long failedRuns() {
    return runs.stream().filter(r -> r.status().equals("Failed")).count();
  }

  /** Views ordered by violations, then drops, then name; views with neither are left out. */
  public List<ViewSection> topViews(int n) {
    return views.stream()
        .filter(v -> v.violations() > 0 || v.rowsDropped() > 0)
        .sorted(
            Comparator.comparingLong(ViewSection::violations)
                .thenComparingLong(ViewSection::rowsDropped)
                .reversed()
                .thenComparing(ViewSection::label))
        .limit(n)
        .toList();
  }

  public List<ConstraintTotal> topConstraints(int n) {
    List<ConstraintTotal> all = new ArrayList<>();
    for (ViewSection v : views) {
      v.violationsByConstraint()
          .forEach(
              (c, count) -> {
                if (count > 0) {
                  all.add(new ConstraintTotal(v.label(), c, count));
                }
              });
    }
    return all.stream()
        .sorted(
            Comparator.comparingLong(ConstraintTotal::violations)
                .reversed()
                .thenComparing(ConstraintTotal::view)
                .thenComparing(ConstraintTotal::constraint))
        .limit(n)
        .toList();
  }

  /**
   * Builds the report from the run history: runs that started within {@code days} before {@code
   * now}, the project's lineage, and each view's quarantined sample rows.
   */
  public static QualityReport of(
      String project,
      LineageGraph graph,
      NameResolver names,
      Map<ObjectId, List<String>> constraints,
      List<RunReport> history,
      Map<ObjectId, SqlResult> quarantined,
      Instant now,
      int days) {
    Instant from = now.minus(Duration.ofDays(days));
    List<RunReport> window =
        history.stream()
            .filter(r -> !r.startedAt().isBefore(from) && !r.startedAt().isAfter(now))
            .sorted(Comparator.comparing(RunReport::startedAt).thenComparing(RunReport::id))
            .toList();
    List<RunPoint> runs = new ArrayList<>();
    Map<ObjectId, List<ViewPoint>> byView = new TreeMap<>();
    Map<ObjectId, String> last = new TreeMap<>();
    for (RunReport r : window) {
      long written = 0;
      long dropped = 0;
      long violations = 0;
      int notMeasured = 0;
      for (ViewRun v : r.views()) {
        if (v.status() == ViewStatus.Planned) {
          continue;
        }
        if (!v.dropsMeasured()) {
          notMeasured++;
        }
        written += v.rowsWritten();
        dropped += v.rowsDropped();
        violations += v.violations().values().stream().mapToLong(x -> x).sum();
        byView
            .computeIfAbsent(v.id(), k -> new ArrayList<>())
            .add(
                new ViewPoint(
                    r.id(),
                    r.startedAt(),
                    v.status().name(),
                    v.strategy(),
                    v.reason(),
                    v.rowsWritten(),
                    v.rowsDropped(),
                    v.violations(),
                    v.durationMs(),
                    v.error().orElse(""),
                    constraints.getOrDefault(v.id(), List.of()).stream()
                        .filter(v::failedBy)
                        .findFirst()
                        .orElse(""),
                    v.dropsMeasured()));
        last.put(v.id(), v.status().name());
      }
      runs.add(
          new RunPoint(
              r.id(),
              r.startedAt(),
              r.status().name(),
              r.views().size(),
              written,
              dropped,
              violations,
              r.durationMs(),
              notMeasured));
    }
    List<ViewSection> sections = new ArrayList<>();
    for (Node n : graph.views()) {
      ObjectId id = n.id();
      List<String> rules = new ArrayList<>(constraints.getOrDefault(id, List.of()));
      for (ViewPoint p : byView.getOrDefault(id, List.of())) {
        p.violations().keySet().stream().filter(k -> !rules.contains(k)).forEach(rules::add);
      }
      sections.add(
          new ViewSection(
              names.display(id),
              last.getOrDefault(id, "NotRun"),
              byView.getOrDefault(id, List.of()),
              rules,
              quarantined.getOrDefault(id, new SqlResult(List.of(), List.of(), null)),
              true));
    }
    // Views the history names that the project no longer has (dropped, or renamed before the
    // history followed renames): their runs are in the totals, so the breakdowns show them too,
    // or the totals would not add up (found by QA).
    java.util.Set<ObjectId> inProject = new java.util.HashSet<>();
    graph.views().forEach(n -> inProject.add(n.id()));
    byView.forEach(
        (id, points) -> {
          if (inProject.contains(id)) {
            return;
          }
          List<String> rules = new ArrayList<>();
          points.forEach(
              p ->
                  p.violations().keySet().stream()
                      .filter(k -> !rules.contains(k))
                      .forEach(rules::add));
          sections.add(
              new ViewSection(
                  names.display(id),
                  last.getOrDefault(id, "NotRun"),
                  points,
                  rules,
                  new SqlResult(List.of(), List.of(), null),
                  false));
        });
    Map<ObjectId, Integer> layers = graph.layerOf();
    List<LineageNode> nodes = new ArrayList<>();
    for (Node n : graph.nodes().values()) {
      nodes.add(
          new LineageNode(
              names.display(n.id()),
              n.kind().label(),
              layers.getOrDefault(n.id(), 0),
              n.isView() ? last.getOrDefault(n.id(), "NotRun") : "Source"));
    }
    List<LineageEdge> edges = new ArrayList<>();
    for (Edge e : graph.edges()) {
      edges.add(new LineageEdge(names.display(e.from()), names.display(e.to())));
    }
    return new QualityReport(project, now, days, runs, sections, nodes, edges);
  }
}
