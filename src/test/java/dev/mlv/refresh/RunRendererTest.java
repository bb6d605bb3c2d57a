package dev.mlv.refresh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mlv.lineage.DisplayWidth;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunRendererTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aRunReadBackIsTheRunThatWasWritten() throws Exception {
    RunReport run =
        new RunReport(
            "mlv-run-1",
            RunStatus.Failed,
            Instant.parse("2026-11-30T05:00:00.123456Z"),
            Instant.parse("2026-11-30T05:00:09Z"),
            "local",
            List.of(
                new ViewRun(
                    ObjectId.parse("ws.lh.silver.orders"),
                    ViewStatus.Completed,
                    "incremental",
                    "ONLY_APPENDS: only appends",
                    7,
                    3,
                    Map.of("positive", 3L),
                    1200,
                    Optional.empty(),
                    Optional.of(new FileCounts(2, 1))),
                new ViewRun(
                    ObjectId.parse("ws.lh.gold.kpis"),
                    ViewStatus.Failed,
                    "full",
                    "SOURCES_CHANGED: new commits",
                    0,
                    0,
                    Map.of(),
                    10,
                    Optional.of("boom"))));

    assertThat(RunRenderer.read(JSON.readTree(RunRenderer.json(run)))).isEqualTo(run);

    RunReport running =
        new RunReport("r2", RunStatus.Running, run.startedAt(), null, "fabric", List.of());
    assertThat(RunRenderer.read(JSON.readTree(RunRenderer.json(running)))).isEqualTo(running);
  }

  @Test
  void dropsNoOneCountedAreNeverShownAsZero() throws Exception {
    ViewRun unmeasured =
        new ViewRun(
                ObjectId.parse("ws.lh.silver.orders"),
                ViewStatus.Completed,
                "incremental",
                "REFRESHED: Fabric wrote version 3",
                7,
                0,
                Map.of(),
                0,
                Optional.empty())
            .withDropsNotMeasured("Fabric's API does not report the rows DROP rules remove");
    RunReport run =
        new RunReport(
            "r1",
            RunStatus.Completed,
            Instant.parse("2026-11-30T05:00:00Z"),
            Instant.parse("2026-11-30T05:00:09Z"),
            "prod",
            List.of(unmeasured));

    assertThat(RunRenderer.text(run, new NameResolver("ws", "lh", "dbo", Map.of())))
        .contains("rows written 7, dropped: not reported by Fabric, 0.0s")
        .doesNotContain("dropped 0");
    var view = JSON.readTree(RunRenderer.json(run)).path("views").get(0);
    assertThat(view.path("rowsDropped").isNull()).isTrue();
    assertThat(view.path("violations").isNull()).isTrue();
    assertThat(view.path("dropsNotMeasured").asText())
        .isEqualTo("Fabric's API does not report the rows DROP rules remove");
    assertThat(RunRenderer.read(JSON.readTree(RunRenderer.json(run)))).isEqualTo(run);
  }

  private static ViewRun view(String name, ViewStatus status, String strategy) {
    return new ViewRun(
        ObjectId.parse("ws.lh.s." + name),
        status,
        strategy,
        "WHY: because",
        0,
        0,
        Map.of(),
        0,
        Optional.empty());
  }

  @Test
  void theSummaryCountsViewsTheStrategySkippedAsUpToDateNotAsRefreshed() {
    List<ViewRun> allSkipped =
        List.of(
            view("a", ViewStatus.Completed, "skip"),
            view("b", ViewStatus.Completed, "skip"),
            view("c", ViewStatus.Completed, "skip"));
    assertThat(RunRenderer.summary(allSkipped))
        .isEqualTo(
            "3 views: 0 refreshed, 3 unchanged (no new data in their sources), 0 failed, 0 skipped");
    assertThat(
            RunRenderer.summary(
                List.of(
                    view("a", ViewStatus.Completed, "incremental"),
                    view("b", ViewStatus.Completed, "skip"),
                    view("c", ViewStatus.Failed, "full"),
                    view("d", ViewStatus.Skipped, "skip"))))
        .isEqualTo(
            "4 views: 1 refreshed, 1 unchanged (no new data in their sources), 1 failed, 1 skipped");
    assertThat(RunRenderer.summary(List.of(view("a", ViewStatus.Completed, "full"))))
        .isEqualTo(
            "1 view: 1 refreshed, 0 unchanged (no new data in their sources), 0 failed, 0 skipped");
    assertThat(RunRenderer.summary(List.of(view("a", ViewStatus.Planned, "full"))))
        .isEqualTo("1 view planned");
  }

  @Test
  void somethingElseIsRefused() throws Exception {
    assertThatThrownBy(() -> RunRenderer.read(JSON.readTree("{\"run\": {\"status\": \"Nope\"}}")))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void aCjkViewNameKeepsTheStrategyColumnWhereAnAsciiNameHasIt() {
    // 売上合計 is 4 chars and 8 terminal columns; padding by chars put its strategy 4 late.
    RunReport run =
        new RunReport(
            "r",
            RunStatus.Failed,
            Instant.EPOCH,
            Instant.EPOCH,
            "local",
            List.of(
                view("売上合計", ViewStatus.Failed, "full"),
                view("abcdefgh", ViewStatus.Failed, "full")));
    String text = RunRenderer.text(run, new NameResolver("ws", "lh", "s", Map.of()));
    List<String> lines = text.lines().filter(l -> l.contains("WHY: because")).toList();
    assertThat(lines).hasSize(2);
    assertThat(DisplayWidth.of(lines.get(0).substring(0, lines.get(0).indexOf("full"))))
        .as(text)
        .isEqualTo(DisplayWidth.of(lines.get(1).substring(0, lines.get(1).indexOf("full"))));
  }

  /** A name longer than the column (seen by QA after a rename) keeps the others in line. */
  @Test
  void aLongViewNameKeepsEveryStrategyInOneColumn() {
    RunReport run =
        new RunReport(
            "r",
            RunStatus.Failed,
            Instant.EPOCH,
            Instant.EPOCH,
            "local",
            List.of(
                view("customer_segments_by_region_tiers", ViewStatus.Failed, "full"),
                view("abcdefgh", ViewStatus.Failed, "full")));
    String text = RunRenderer.text(run, new NameResolver("ws", "lh", "s", Map.of()));
    List<String> lines = text.lines().filter(l -> l.contains("WHY: because")).toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).indexOf(" full ")).as(text).isEqualTo(lines.get(1).indexOf(" full "));
  }

  @Test
  void theTextNamesOnlyTheRulesThatDroppedRows() {
    ViewRun clean =
        new ViewRun(
            ObjectId.parse("ws.lh.s.clean"),
            ViewStatus.Completed,
            "incremental",
            "ONLY_APPENDS: only appends",
            5,
            0,
            Map.of("pos", 0L),
            10,
            Optional.empty());
    ViewRun dirty =
        new ViewRun(
            ObjectId.parse("ws.lh.s.dirty"),
            ViewStatus.Completed,
            "full",
            "FULL_REQUESTED: --full",
            5,
            2,
            new java.util.TreeMap<>(Map.of("pos", 0L, "named", 2L)),
            10,
            Optional.empty());
    RunReport run =
        new RunReport(
            "r", RunStatus.Completed, Instant.EPOCH, Instant.EPOCH, "local", List.of(clean, dirty));
    String text = RunRenderer.text(run, new NameResolver("ws", "lh", "s", Map.of()));
    assertThat(text)
        .contains("rows written 5, dropped 0, 0.0s")
        .contains("rows written 5, dropped 2 (violations: named=2), 0.0s")
        .doesNotContain("pos=0");
    // The JSON keeps every rule's count, zero included.
    assertThat(RunRenderer.json(run)).contains("\"pos\"");
  }

  /**
   * A skipped run has no views to say why it did nothing, so the run carries the reason; every
   * other run has a null one (found by QA: "status":"Skipped","views":[] and no reason).
   */
  @Test
  void aSkippedRunSaysWhyInItsJson() throws Exception {
    Instant at = Instant.parse("2026-11-30T05:00:00Z");
    RunReport skipped = new RunReport("r1", RunStatus.Skipped, at, at, "local", List.of());
    var json = JSON.readTree(RunRenderer.json(skipped));
    assertThat(json.path("run").path("reason").asText())
        .startsWith("another refresh was running on the lakehouse, so this run was skipped");
    RunReport done = new RunReport("r2", RunStatus.Completed, at, at, "local", List.of());
    var other = JSON.readTree(RunRenderer.json(done)).path("run");
    assertThat(other.has("reason")).isTrue();
    assertThat(other.path("reason").isNull()).isTrue();
    assertThat(RunRenderer.read(json)).isEqualTo(skipped);
  }
}
