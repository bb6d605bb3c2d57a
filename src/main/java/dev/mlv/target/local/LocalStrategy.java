package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.project.RefreshPolicy;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.StrategyDecider;
import dev.mlv.sql.RefreshAnalysis;
import dev.mlv.sql.RefreshAnalyzer;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.DeployedView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Gathers what the strategy decision needs on the local target (source versions, the stored
 * consumed versions, the SQL's verdict, the sources' Delta logs), all without Spark.
 */
final class LocalStrategy {
  private final LocalTarget target;
  private final Project project;

  LocalStrategy(LocalTarget target, Project project) {
    this.target = target;
    this.project = project;
  }

  /**
   * The decision and what an incremental refresh needs to carry it out. The analysis is computed
   * (once) when first asked for: a view skipped for want of new commits never needs it.
   */
  record Decided(
      Strategy strategy,
      Map<ObjectId, Long> consumed,
      Map<ObjectId, Long> current,
      Supplier<RefreshAnalysis> analysisOf) {

    Decided(
        Strategy strategy,
        Map<ObjectId, Long> consumed,
        Map<ObjectId, Long> current,
        RefreshAnalysis analysis) {
      this(strategy, consumed, current, () -> analysis);
    }

    RefreshAnalysis analysis() {
      return analysisOf.get();
    }
  }

  Decided decide(
      boolean full,
      Optional<String> forced,
      ObjectId id,
      Optional<DeployedView> deployed,
      Optional<ViewDefinition> def,
      List<ObjectId> upstream) {
    Map<ObjectId, Long> current = new TreeMap<>();
    for (ObjectId up : upstream) {
      OptionalLong v = Warehouse.latestCommit(target.warehouse().tableDir(up));
      current.put(up, v.isPresent() ? v.getAsLong() : -1L);
    }
    Optional<ProjectView> view = project.view(id);
    boolean optimal = view.map(v -> v.settings().optimalRefresh()).orElse(true);
    RefreshPolicy policy = view.map(v -> v.settings().refreshPolicy()).orElse(RefreshPolicy.AUTO);
    Supplier<RefreshAnalysis> analysis =
        Memo.of(
            () ->
                def.map(RefreshAnalyzer::analyze)
                    .orElseGet(
                        () ->
                            new RefreshAnalysis(
                                RefreshAnalysis.Shape.NONE, List.of(), List.of(), List.of())));
    // A view that reads no table (VALUES, a recursive CTE) consumed nothing, and has a record
    // once it was refreshed: no source has a new commit, so it is skipped like any other.
    boolean sourceless =
        current.isEmpty() && deployed.flatMap(DeployedView::lastRefresh).isPresent();
    Optional<Map<ObjectId, Long>> consumed =
        deployed.map(DeployedView::sourceVersions).filter(m -> !m.isEmpty() || sourceless);
    Strategy strategy =
        StrategyDecider.decide(
            new StrategyDecider.Input(
                id,
                full,
                forced,
                optimal,
                policy,
                def.map(ViewDefinition::isPython).orElse(false),
                consumed,
                deployed.map(DeployedView::sourceTableIds).orElse(Map.of()),
                deployed.map(DeployedView::sourceCommits).orElse(Map.of()),
                current,
                analysis,
                new SourceLogReader(target.deltaState(), target.warehouse()),
                deployed.flatMap(DeployedView::lastRefresh)),
            project.names());
    strategy = withoutAnsi(id, strategy, analysis);
    return new Decided(strategy, consumed.orElse(Map.of()), current, analysis);
  }

  /**
   * {@code s}, or a full refresh when it merges a SUM of decimals while the target's conf turns
   * ANSI mode off: a decimal SUM past its precision is then NULL, and stays NULL as rows come,
   * which merged sums cannot tell from a group of NULLs. The view's table tells which SUM columns
   * are decimals, so the dry run knows it before Spark starts.
   */
  Strategy withoutAnsi(ObjectId id, Strategy s, Supplier<RefreshAnalysis> analysisOf) {
    // Asked in that order: a skipped view's SQL is never parsed.
    if (!(s instanceof Strategy.Incremental)
        || !target.sparkTarget().ansiOff()
        || analysisOf.get().shape() != RefreshAnalysis.Shape.MERGE_AGGREGATE) {
      return s;
    }
    RefreshAnalysis analysis = analysisOf.get();
    List<String> decimals = target.deltaState().decimalColumns(target.warehouse().tableDir(id));
    List<RefreshAnalysis.OutputColumn> columns = analysis.columns();
    List<String> names = target.deltaState().columnNames(target.warehouse().tableDir(id));
    if (names.size() != columns.size()) {
      return s; // the run finds the table and the SELECT apart, and says so
    }
    for (int i = 0; i < names.size(); i++) {
      if (columns.get(i).role() == RefreshAnalysis.Role.SUM && decimals.contains(names.get(i))) {
        return new Strategy.Full(
            "DECIMAL_SUM_WITHOUT_ANSI col=" + names.get(i),
            "ANSI mode is off ("
                + target.sparkTarget().ansiOffBy().orElse("spark.sql.ansi.enabled")
                + " is false), so a SUM of decimals that overflows is NULL, which merged sums"
                + " cannot tell from a group of NULLs");
      }
    }
    return s;
  }
}
