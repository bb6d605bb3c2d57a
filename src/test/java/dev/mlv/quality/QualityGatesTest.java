package dev.mlv.quality;

import static dev.mlv.quality.KnownHistory.GOLD;
import static dev.mlv.quality.KnownHistory.SILVER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.cli.Golden;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.QualitySettings;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class QualityGatesTest {
  /** Silver read 10 rows and dropped 3 of them: the demo. */
  private static final RunReport DEMO =
      KnownHistory.run(
          "20261129-100000-0004",
          "2026-11-29T10:00:00Z",
          RunStatus.Completed,
          List.of(
              KnownHistory.done(SILVER, "full", 7, 3, KnownHistory.violations(1, 1, 1), 1200),
              KnownHistory.done(GOLD, "full", 6, 0, Map.of(), 800)));

  private static QualitySettings rows(long max) {
    return new QualitySettings(Optional.empty(), OptionalLong.of(max), OptionalDouble.empty());
  }

  private static QualitySettings ratio(double max) {
    return new QualitySettings(Optional.empty(), OptionalLong.empty(), OptionalDouble.of(max));
  }

  private static List<GateBreach> check(QualitySettings silver) {
    return QualityGates.check(DEMO, id -> id.equals(SILVER) ? silver : QualitySettings.NONE);
  }

  @Test
  void maxDroppedRowsTripsAboveTheLimitAndNotAtIt() {
    assertThat(check(rows(3))).isEmpty();
    assertThat(check(rows(4))).isEmpty();
    List<GateBreach> over = check(rows(2));
    assertThat(over)
        .singleElement()
        .satisfies(
            b -> {
              assertThat(b.view()).isEqualTo(SILVER);
              assertThat(b.gate()).isEqualTo(GateBreach.Gate.MAX_DROPPED_ROWS);
              assertThat(b.dropped()).isEqualTo(3);
              assertThat(b.rowsIn()).isEqualTo(10);
              assertThat(b.message("silver.trials_clean"))
                  .isEqualTo(
                      "quality gate: silver.trials_clean dropped 3 rows, more than max_dropped_rows 2;"
                          + " violations by constraint: has_formula 1, has_testers 1, pct_valid 1");
            });
    assertThat(check(rows(0))).hasSize(1);
  }

  @Test
  void aViewWhoseDropsWereNotMeasuredIsNeitherPassedNorBreachedButUnchecked() {
    ViewRun silver =
        KnownHistory.done(SILVER, "incremental", 7, 0, Map.of(), 1200)
            .withDropsNotMeasured("no count");
    RunReport run =
        KnownHistory.run(
            "20261129-100000-0005", "2026-11-29T10:00:00Z", RunStatus.Completed, List.of(silver));
    QualitySettings both =
        new QualitySettings(Optional.empty(), OptionalLong.of(0), OptionalDouble.of(0));

    assertThat(QualityGates.check(run, id -> both)).isEmpty();
    assertThat(QualityGates.unchecked(run, id -> both))
        .extracting(u -> u.message("silver.trials_clean"))
        .containsExactly(
            "quality gate max_dropped_rows of silver.trials_clean not checked: no count",
            "quality gate max_dropped_ratio of silver.trials_clean not checked: no count");
    assertThat(QualityGates.unchecked(run, id -> QualitySettings.NONE)).isEmpty();
    assertThat(QualityGates.unchecked(DEMO, id -> both)).isEmpty();
  }

  @Test
  void oneRowIsSingular() {
    var oneOfOne =
        new GateBreach(SILVER, GateBreach.Gate.MAX_DROPPED_ROWS, 1, 1, 0, Map.of("c", 1L));
    assertThat(oneOfOne.message("s.v")).startsWith("quality gate: s.v dropped 1 row, more than");
    var ratio = new GateBreach(SILVER, GateBreach.Gate.MAX_DROPPED_RATIO, 1, 1, 0.5, Map.of());
    assertThat(ratio.message("s.v")).startsWith("quality gate: s.v dropped 1 of 1 row (100.00%)");
  }

  @Test
  void maxDroppedRatioTripsAboveTheLimitAndNotAtIt() {
    assertThat(check(ratio(0.3))).isEmpty(); // 3 of 10 is exactly 0.3
    assertThat(check(ratio(1))).isEmpty();
    assertThat(check(ratio(0.29)))
        .singleElement()
        .satisfies(
            b ->
                assertThat(b.message("silver.trials_clean"))
                    .isEqualTo(
                        "quality gate: silver.trials_clean dropped 3 of 10 rows (30.00%), more"
                            + " than max_dropped_ratio 0.29; violations by constraint:"
                            + " has_formula 1, has_testers 1, pct_valid 1"));
  }

  @Test
  void failedSkippedAndUngatedViewsNeverTrip() {
    RunReport failed = KnownHistory.history().get(3);
    assertThat(QualityGates.check(failed, id -> rows(0))).isEmpty();
    assertThat(QualityGates.check(DEMO, id -> QualitySettings.NONE)).isEmpty();
    assertThat(QualityGates.check(DEMO, id -> null)).isEmpty();
  }

  @Test
  void junitReportOfARunWithAGateBreachAFailureAndASkip() {
    ObjectId strict = KnownHistory.id("silver", "trials_strict");
    ObjectId summary = KnownHistory.id("gold", "strict_summary");
    RunReport run =
        KnownHistory.run(
            "20261129-100000-0005",
            "2026-11-29T10:00:00Z",
            RunStatus.Failed,
            List.of(
                KnownHistory.done(SILVER, "full", 7, 3, KnownHistory.violations(1, 1, 1), 1200),
                KnownHistory.done(GOLD, "full", 6, 0, Map.of(), 800),
                new ViewRun(
                    strict,
                    ViewStatus.Failed,
                    "full",
                    "NEW_VIEW: the view is new",
                    0,
                    0,
                    // The rows that broke its FAIL rule, as the local engine records them.
                    Map.of("pct_valid", 1L),
                    600,
                    Optional.of(
                        "refresh of silver.trials_strict failed: constraint pct_valid CHECK"
                            + " (first_choice_pct <= 100) is not met by row trial_id=T901 & <more>")),
                ViewRun.skipped(summary, "none", "UPSTREAM_FAILED: silver.trials_strict failed")));
    List<GateBreach> breaches =
        QualityGates.check(run, id -> id.equals(SILVER) ? rows(2) : QualitySettings.NONE);
    String xml =
        JunitRenderer.render(
            run,
            KnownHistory.NAMES,
            Map.of(
                SILVER, KnownHistory.RULES,
                strict, List.of("pct_valid", "has_formula"),
                summary, List.of()),
            breaches);
    Golden.assertMatches("refresh-junit.xml", xml);
  }

  /**
   * A run skipped because another refresh held the lakehouse exits 3, so its JUnit report must not
   * read as green: one failed case holding the reason (found by QA: tests="0" failures="0").
   */
  @Test
  void junitReportOfARunSkippedForAnotherIsAFailure() {
    RunReport skipped =
        KnownHistory.run(
            "20261129-100000-0006", "2026-11-29T10:00:00Z", RunStatus.Skipped, List.of());
    String xml = JunitRenderer.render(skipped, KnownHistory.NAMES, Map.of(), List.of());
    assertThat(xml)
        .contains("<testsuites name=\"mlv refresh\" tests=\"1\" failures=\"1\"")
        .contains("<testcase classname=\"mlv\" name=\"refresh\"")
        .contains(
            "<failure type=\"SKIPPED_CONCURRENT\" message=\"another refresh was running on the"
                + " lakehouse, so this run was skipped, not queued;");
    // Any other run has no such case.
    assertThat(JunitRenderer.render(DEMO, KnownHistory.NAMES, Map.of(), List.of()))
        .doesNotContain("SKIPPED_CONCURRENT");
  }

  /**
   * A dry run's JUnit report says of a PySpark view on the local target what the run's says:
   * skipped, with the reason (found by QA: the dry run passed it, the run skipped it).
   */
  @Test
  void junitReportOfADryRunSkipsAViewTheTargetNeverRuns() {
    ObjectId py = KnownHistory.id("gold", "py_view");
    String reason =
        ViewRun.PYSPARK_NOT_RUN_LOCALLY + ": PySpark views are not run by the local target";
    RunReport dry =
        KnownHistory.run(
            "dry-run",
            "2026-11-29T10:00:00Z",
            RunStatus.Planned,
            List.of(
                ViewRun.planned(SILVER, "skip", "NO_NEW_COMMITS: no source has a commit"),
                ViewRun.planned(py, "skip", reason)));
    RunReport real =
        KnownHistory.run(
            "20261129-100000-0007",
            "2026-11-29T10:00:00Z",
            RunStatus.Completed,
            List.of(ViewRun.skipped(py, "skip", reason)));
    String skippedCase =
        "<testcase classname=\"gold.py_view\" name=\"refresh\" time=\"0.000\">\n"
            + "      <skipped message=\""
            + reason
            + "\"/>";
    assertThat(JunitRenderer.render(dry, KnownHistory.NAMES, Map.of(), List.of()))
        .contains(skippedCase)
        .contains("tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\"");
    assertThat(JunitRenderer.render(real, KnownHistory.NAMES, Map.of(), List.of()))
        .contains(skippedCase);
    // Planned, not doomed: the dry run's exit code stays 0.
    assertThat(dry.views().get(1).wouldBeSkipped()).isFalse();
  }
}
