package dev.mlv.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.quality.QualityReport.ConstraintTotal;
import org.junit.jupiter.api.Test;

class QualityReportTest {

  @Test
  void aKnownHistoryGivesTheExpectedTotals() {
    QualityReport r = KnownHistory.report();

    // The run of 2026-11-10 is older than 7 days and left out.
    assertThat(r.runs())
        .extracting(QualityReport.RunPoint::id)
        .containsExactly("20261127-100000-0001", "20261128-100000-0002", "20261129-100000-0003");
    assertThat(r.rowsWritten()).isEqualTo(7 + 6 + 7 + 6);
    assertThat(r.rowsDropped()).isEqualTo(3 + 4);
    assertThat(r.violations()).isEqualTo(3 + 5);
    assertThat(r.failedRuns()).isEqualTo(1);
    assertThat(r.topConstraints(2))
        .containsExactly(
            new ConstraintTotal("silver.trials_clean", "has_testers", 3),
            new ConstraintTotal("silver.trials_clean", "pct_valid", 3));
    assertThat(r.views().get(1).name()).isEqualTo("silver.trials_clean");
    assertThat(r.views().get(1).failuresByConstraint())
        .containsEntry("pct_valid", 1L)
        .containsEntry("has_formula", 0L)
        .containsEntry("has_testers", 0L);
    assertThat(r.topViews(5))
        .extracting(QualityReport.ViewSection::name)
        .containsExactly("silver.trials_clean");
    assertThat(r.lineage())
        .extracting(
            QualityReport.LineageNode::name,
            QualityReport.LineageNode::layer,
            QualityReport.LineageNode::lastStatus)
        .contains(
            org.assertj.core.groups.Tuple.tuple("bronze.preference_trials", 0, "Source"),
            org.assertj.core.groups.Tuple.tuple("silver.trials_clean", 1, "Failed"),
            org.assertj.core.groups.Tuple.tuple("gold.formula_preference", 2, "Skipped"));
  }

  @Test
  void theHtmlIsSelfContainedAndShowsTheNumbers() {
    String html = HtmlReportRenderer.render(KnownHistory.report());

    assertThat(html)
        .contains("<div class=\"card\" id=\"kpi-runs\"><div class=\"v\">3</div>")
        .contains("<div class=\"card\" id=\"kpi-failed-runs\"><div class=\"v\">1</div>")
        .contains("<div class=\"card\" id=\"kpi-rows-written\"><div class=\"v\">26</div>")
        .contains("<div class=\"card\" id=\"kpi-rows-dropped\"><div class=\"v\">7</div>")
        .contains("<div class=\"card\" id=\"kpi-violations\"><div class=\"v\">8</div>")
        // per-constraint totals of the silver view, and the reason each strategy was chosen
        // a FAIL rule counts no violations when it stops a refresh: its own column says so
        .contains("<td>pct_valid</td><td class=\"n\">3</td><td class=\"n\">1</td>")
        .contains("<td>has_formula</td><td class=\"n\">2</td><td class=\"n\">0</td>")
        .contains("<td>has_testers</td><td class=\"n\">3</td><td class=\"n\">0</td>")
        .contains("NO_CDF: bronze.preference_trials has no change data feed")
        .contains("trial_id=T901, first_choice_pct=140.0")
        .contains("<td>pct_valid,has_testers</td>")
        .contains("<i>NULL</i>")
        .contains("data-status=\"Failed\"")
        .doesNotContain("20261110-100000-aaaa");
    // no network: nothing is fetched, every chart is inline SVG
    assertThat(html).doesNotContainPattern("(?i)(src|href)\\s*=\\s*\"(https?:)?//");
    assertThat(html).doesNotContain("<link", "<img", "@import");
    assertThat(html.split("<svg class=\"chart\"", -1)).hasSize(1 + 4 + 2 + 1);
    assertThat(html).contains("<svg class=\"lineage\"");
  }

  @Test
  void anEmptyHistoryStillRenders() {
    QualityReport r =
        QualityReport.of(
            "empty",
            KnownHistory.lineage(),
            KnownHistory.NAMES,
            java.util.Map.of(),
            java.util.List.of(),
            java.util.Map.of(),
            KnownHistory.NOW,
            7);
    assertThat(HtmlReportRenderer.render(r))
        .contains("No refresh runs in this window")
        .contains("Not refreshed in this window")
        .contains("<svg class=\"lineage\"");
  }

  @Test
  void dropsFabricDidNotReportAreShownAsSuchAndLeftOutOfTheTotals() {
    var silver =
        KnownHistory.done(KnownHistory.SILVER, "incremental", 7, 0, java.util.Map.of(), 900)
            .withDropsNotMeasured("Fabric's API does not report the rows DROP rules remove");
    var run =
        KnownHistory.run(
            "20261129-110000-0001",
            "2026-11-29T11:00:00Z",
            dev.mlv.refresh.RunStatus.Completed,
            java.util.List.of(silver));
    QualityReport r =
        QualityReport.of(
            "fabric",
            KnownHistory.lineage(),
            KnownHistory.NAMES,
            java.util.Map.of(),
            java.util.List.of(run),
            java.util.Map.of(),
            KnownHistory.NOW,
            7);

    assertThat(r.notMeasured()).isEqualTo(1);
    assertThat(r.runs().get(0).notMeasured()).isEqualTo(1);
    assertThat(r.views().stream().flatMap(v -> v.runs().stream()))
        .singleElement()
        .satisfies(p -> assertThat(p.dropsMeasured()).isFalse());
    assertThat(HtmlReportRenderer.render(r))
        .contains("leave out 1 view refresh whose drops were not reported by Fabric")
        .contains("0 (1 not reported)")
        .contains("<td class=\"n\">not reported by Fabric</td>");
  }

  /**
   * Found by QA: after a rename the totals counted the drops recorded under the old name, which had
   * no section and no bar. A view the history names that the project no longer has gets a section
   * of its own, marked, and the breakdowns add up to the totals.
   */
  @Test
  void aViewTheProjectNoLongerHasStillAddsUpInTheBreakdowns() {
    dev.mlv.lineage.ObjectId old = KnownHistory.id("silver", "trials_old");
    java.util.List<dev.mlv.refresh.RunReport> history = new java.util.ArrayList<>();
    history.add(
        KnownHistory.run(
            "20261126-100000-0000",
            "2026-11-26T10:00:00Z",
            dev.mlv.refresh.RunStatus.Completed,
            java.util.List.of(
                KnownHistory.done(old, "full", 9, 14, KnownHistory.violations(10, 4, 0), 500))));
    history.addAll(KnownHistory.history());
    QualityReport r = KnownHistory.report(history);

    assertThat(r.rowsDropped()).isEqualTo(14 + 3 + 4);
    assertThat(r.violations()).isEqualTo(14 + 3 + 5);
    assertThat(r.views().stream().mapToLong(QualityReport.ViewSection::rowsDropped).sum())
        .isEqualTo(r.rowsDropped());
    assertThat(r.views().stream().mapToLong(QualityReport.ViewSection::violations).sum())
        .isEqualTo(r.violations());
    assertThat(r.topViews(10))
        .extracting(QualityReport.ViewSection::label)
        .containsExactly("silver.trials_old (not in the project)", "silver.trials_clean");
    QualityReport.ViewSection gone = r.views().get(r.views().size() - 1);
    assertThat(gone.name()).isEqualTo("silver.trials_old");
    assertThat(gone.inProject()).isFalse();
    assertThat(r.views()).filteredOn(QualityReport.ViewSection::inProject).hasSize(2);
    assertThat(r.topConstraints(1))
        .containsExactly(
            new ConstraintTotal("silver.trials_old (not in the project)", "pct_valid", 10));
    assertThat(HtmlReportRenderer.render(r))
        .contains("id=\"view-silver.trials_old\"")
        .contains("class=\"note not-in-project\"");
  }

  /**
   * Found by QA: a run in which the view was skipped (its constraints never checked) was plotted as
   * 0 violations, and as a refresh of 0 ms. A skipped view, and one that failed before its rules
   * counted anything, give no point; a FAIL rule the failed refresh counted still does.
   */
  @Test
  void aRunThatCheckedNoConstraintIsNoPointOfTheViolationsChart() {
    java.util.List<dev.mlv.refresh.RunReport> history =
        java.util.List.of(
            KnownHistory.run(
                "20261127-100000-0001",
                "2026-11-27T10:00:00Z",
                dev.mlv.refresh.RunStatus.Completed,
                java.util.List.of(
                    KnownHistory.done(
                        KnownHistory.SILVER, "full", 7, 3, KnownHistory.violations(1, 1, 1), 900))),
            KnownHistory.run(
                "20261128-100000-0002",
                "2026-11-28T10:00:00Z",
                dev.mlv.refresh.RunStatus.Interrupted,
                java.util.List.of(
                    dev.mlv.refresh.ViewRun.skipped(
                        KnownHistory.SILVER,
                        "none",
                        "INTERRUPTED: the run was interrupted before it started"))),
            KnownHistory.run(
                "20261129-100000-0003",
                "2026-11-29T10:00:00Z",
                dev.mlv.refresh.RunStatus.Failed,
                java.util.List.of(
                    new dev.mlv.refresh.ViewRun(
                        KnownHistory.SILVER,
                        dev.mlv.refresh.ViewStatus.Failed,
                        "full",
                        "NO_CDF: bronze.preference_trials has no change data feed",
                        0,
                        0,
                        java.util.Map.of("pct_valid", 2L),
                        600,
                        java.util.Optional.of(KnownHistory.FAIL_ERROR)))));
    QualityReport r = KnownHistory.report(history);
    String html = HtmlReportRenderer.render(r);
    int start = html.indexOf("aria-label=\"violations per constraint of silver.trials_clean\"");
    String chart = html.substring(start, html.indexOf("</svg>", start));

    // Three constraints checked in the first run, only the FAIL rule counted in the third.
    assertThat(chart.split("<circle ", -1)).hasSize(1 + 3 + 1);
    assertThat(chart).doesNotContain(": 0</title>").contains("pct_valid 11-29 10:00: 2</title>");
    // pct_valid's line breaks at the skipped run: two pieces, each one point.
    assertThat(chart.split("<polyline ", -1)).hasSize(1 + 2 + 1 + 1);

    // Nor is the skipped run a point of the duration chart, as a refresh of 0 ms.
    int at = html.indexOf("aria-label=\"duration of silver.trials_clean in ms\"");
    String durations = html.substring(at, html.indexOf("</svg>", at));
    assertThat(durations.split("<circle ", -1)).hasSize(1 + 2);
    assertThat(durations)
        .contains("ms 11-27 10:00: 900</title>", "ms 11-29 10:00: 600</title>")
        .doesNotContain("11-28 10:00: 0</title>");
  }

  /**
   * Found by QA: a long lineage label was cut at its start, hiding the schema
   * ("…ew_name_for_layout_testing_10"). It keeps the schema and both ends of the view's name.
   */
  @Test
  void aLongLineageLabelKeepsItsSchemaAndElidesTheMiddleOfTheName() {
    assertThat(HtmlReportRenderer.shortLabel("gold.g_1", 30)).isEqualTo("gold.g_1");
    assertThat(
            HtmlReportRenderer.shortLabel(
                "silver.very_long_silver_view_name_for_layout_testing_10", 30))
        .isEqualTo("silver.very_long_s…_testing_10");
    assertThat(HtmlReportRenderer.shortLabel("ws.lh.silver.a_rather_long_view_name_11", 30))
        .isEqualTo("ws.lh.silver.a_rather…_name_11");
    // A long qualifier keeps its schema; a dot between backticks is part of the name.
    assertThat(
            HtmlReportRenderer.shortLabel(
                "a_long_workspace.a_long_lakehouse.silver.orders_by_region", 30))
        .isEqualTo("…silver.orders_by_region");
    assertThat(HtmlReportRenderer.shortLabel("gold.`a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p`", 30))
        .isEqualTo("gold.`a.b.c.d.e.f…k.l.m.n.o.p`");
    // Characters, not UTF-16 units: an emoji is never split.
    String emoji = "gold.😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀";
    assertThat(HtmlReportRenderer.shortLabel(emoji, 30).codePoints().count()).isEqualTo(30);
    assertThat(HtmlReportRenderer.shortLabel(emoji, 30)).startsWith("gold.😀").endsWith("😀");
    String html = HtmlReportRenderer.render(KnownHistory.report());
    assertThat(html).contains(">silver.trials_clean</text>");
  }
}
