package dev.mlv.quality;

import dev.mlv.lineage.Edge;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.Node;
import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.target.SqlResult;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A fixed history of the demo medallion: three runs in the last week (7 rows written and 3 dropped,
 * then 4 dropped with a row breaking two rules, then a FAIL) and one run too old to report.
 */
final class KnownHistory {
  static final NameResolver NAMES = new NameResolver("ws", "lh", "dbo", Map.of());
  static final ObjectId TRIALS = id("bronze", "preference_trials");
  static final ObjectId FORMULAS = id("bronze", "formulas");
  static final ObjectId SILVER = id("silver", "trials_clean");
  static final ObjectId GOLD = id("gold", "formula_preference");
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  static final List<String> RULES = List.of("pct_valid", "has_formula", "has_testers");

  private KnownHistory() {}

  static ObjectId id(String schema, String name) {
    return new ObjectId("ws", "lh", schema, name);
  }

  static LineageGraph lineage() {
    Map<ObjectId, Node> nodes = new LinkedHashMap<>();
    nodes.put(TRIALS, new Node(TRIALS, NodeKind.TABLE, null, Set.of()));
    nodes.put(FORMULAS, new Node(FORMULAS, NodeKind.TABLE, null, Set.of()));
    nodes.put(SILVER, new Node(SILVER, NodeKind.VIEW, null, Set.of()));
    nodes.put(GOLD, new Node(GOLD, NodeKind.VIEW, null, Set.of()));
    return new LineageGraph(
        nodes,
        List.of(
            new Edge(TRIALS, SILVER, null),
            new Edge(SILVER, GOLD, null),
            new Edge(FORMULAS, GOLD, null)));
  }

  static Map<String, Long> violations(long pct, long formula, long testers) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("pct_valid", pct);
    m.put("has_formula", formula);
    m.put("has_testers", testers);
    return m;
  }

  static ViewRun done(
      ObjectId id, String strategy, long written, long dropped, Map<String, Long> v, long ms) {
    return new ViewRun(
        id,
        ViewStatus.Completed,
        strategy,
        reasonOf(strategy),
        written,
        dropped,
        v,
        ms,
        Optional.empty());
  }

  private static String reasonOf(String strategy) {
    return strategy.equals("skip")
        ? "NO_NEW_DATA: no source has a new commit since the last refresh"
        : "NO_CDF: bronze.preference_trials has no change data feed";
  }

  static RunReport run(String id, String started, RunStatus status, List<ViewRun> views) {
    Instant at = Instant.parse(started);
    long ms = views.stream().mapToLong(ViewRun::durationMs).sum() + 500;
    return new RunReport(id, status, at, at.plusMillis(ms), "local", views);
  }

  static final String FAIL_ERROR =
      "refresh of ws.lh.silver.trials_clean failed: constraint pct_valid CHECK (first_choice_pct"
          + " BETWEEN 0 AND 100) is not met by rows (first 2): trial_id=T901, first_choice_pct=140.0;"
          + " trial_id=T904, first_choice_pct=-5.0";

  static List<RunReport> history() {
    return List.of(
        run(
            "20261110-100000-aaaa",
            "2026-11-10T10:00:00Z",
            RunStatus.Completed,
            List.of(done(SILVER, "full", 100, 50, violations(50, 0, 0), 900))),
        run(
            "20261127-100000-0001",
            "2026-11-27T10:00:00Z",
            RunStatus.Completed,
            List.of(
                done(SILVER, "full", 7, 3, violations(1, 1, 1), 1200),
                done(GOLD, "full", 6, 0, Map.of(), 800))),
        run(
            "20261128-100000-0002",
            "2026-11-28T10:00:00Z",
            RunStatus.Completed,
            List.of(
                done(SILVER, "full", 7, 4, violations(2, 1, 2), 1500),
                done(GOLD, "full", 6, 0, Map.of(), 700))),
        run(
            "20261129-100000-0003",
            "2026-11-29T10:00:00Z",
            RunStatus.Failed,
            List.of(
                new ViewRun(
                    SILVER,
                    ViewStatus.Failed,
                    "full",
                    reasonOf("full"),
                    0,
                    0,
                    Map.of(),
                    600,
                    Optional.of(FAIL_ERROR)),
                ViewRun.skipped(
                    GOLD, "none", "UPSTREAM_FAILED: ws.lh.silver.trials_clean failed"))));
  }

  static SqlResult quarantined() {
    return new SqlResult(
        List.of("_mlv_run_id", "_mlv_constraints", "_mlv_quarantined_at", "trial_id", "formula_id"),
        List.of(
            List.of("20261128-100000-0002", "pct_valid", "2026-11-28T10:00:01Z", "T901", "OB-101"),
            java.util.Arrays.asList(
                "20261128-100000-0002", "has_formula", "2026-11-28T10:00:01Z", "T902", null),
            List.of(
                "20261128-100000-0002",
                "pct_valid,has_testers",
                "2026-11-28T10:00:01Z",
                "T904",
                "OB-102")),
        null);
  }

  static QualityReport report() {
    return QualityReport.of(
        "medallion",
        lineage(),
        NAMES,
        Map.of(SILVER, RULES, GOLD, List.of()),
        history(),
        Map.of(SILVER, quarantined()),
        NOW,
        7);
  }

  /** The report of {@code history}, silver's rules known, no quarantined rows. */
  static QualityReport report(List<RunReport> history) {
    return QualityReport.of(
        "medallion", lineage(), NAMES, Map.of(SILVER, RULES), history, Map.of(), NOW, 7);
  }
}
