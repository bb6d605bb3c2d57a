package dev.mlv.plan;

import dev.mlv.diag.Position;
import dev.mlv.diag.Severity;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.Node;
import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.schedule.SchedulePlan;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.Normalizer;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.DeployedState;
import dev.mlv.target.DeployedView;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** Compares the project with what a target has deployed and says what apply must do. */
public final class Planner {
  private final Clock clock;

  public Planner(Clock clock) {
    this.clock = clock;
  }

  /**
   * @param selection the views to plan for; drops and renames are only considered when the
   *     selection is the whole project, since a partial selection says nothing about the rest
   */
  public Plan plan(
      Project project,
      String targetName,
      DeployedState state,
      SortedSet<ObjectId> selection,
      boolean wholeProject,
      boolean prune) {
    return plan(project, targetName, state, selection, wholeProject, prune, true);
  }

  /**
   * @param deploysPython false for a target that cannot run PySpark views: they are reported as
   *     unchanged with the reason, so that a plan of such a target can still come out empty
   */
  public Plan plan(
      Project project,
      String targetName,
      DeployedState state,
      SortedSet<ObjectId> selection,
      boolean wholeProject,
      boolean prune,
      boolean deploysPython) {
    return plan(
        project, targetName, state, selection, wholeProject, prune, deploysPython, id -> List.of());
  }

  /**
   * @param replaceWarnings what the target says replacing a deployed view with the project's
   *     definition loses that the view's own refreshes keep ({@code Target#replaceWarnings}); asked
   *     only for the views the plan replaces
   */
  public Plan plan(
      Project project,
      String targetName,
      DeployedState state,
      SortedSet<ObjectId> selection,
      boolean wholeProject,
      boolean prune,
      boolean deploysPython,
      java.util.function.Function<ObjectId, List<String>> replaceWarnings) {
    List<Change> changes = new ArrayList<>();
    Map<ObjectId, Change.Create> creates = new TreeMap<>();
    for (ObjectId id : selection) {
      ProjectView v = project.views().get(id);
      if (v == null) {
        continue;
      }
      if (!deploysPython && v.definition().isPython()) {
        changes.add(new Change.NoOp(id, "PySpark view: not deployed by this target"));
        continue;
      }
      if (v.definition().isPython() && state.notebooks().isPresent()) {
        Change c = NotebookPlanner.view(project, v, state);
        if (c instanceof Change.Create cr) {
          creates.put(id, cr);
        } else {
          changes.add(c);
        }
        continue;
      }
      String statement = v.definition().statement();
      String fp = v.definition().fingerprint();
      var deployed = state.view(id);
      if (deployed.isEmpty()) {
        creates.put(id, new Change.Create(id, statement, fp, "new view"));
      } else if (deployed.get().definition().strip().equals(statement.strip())) {
        // The same text is unchanged even when an older mlv fingerprinted it differently.
        changes.add(new Change.NoOp(id, "unchanged"));
      } else if (deployed.get().fingerprint().equals(fp)) {
        changes.add(new Change.NoOp(id, "only formatting or comments changed"));
      } else {
        DeployedView d = deployed.get();
        changes.add(
            new Change.Replace(
                id,
                statement,
                fp,
                d.definition(),
                LineDiff.unified(d.definition(), statement, "deployed", "project"),
                "definition changed" + whatChanged(d.definition(), v.definition()),
                replaceWarnings.apply(id)));
      }
    }
    List<ObjectId> orphans = new ArrayList<>();
    if (wholeProject) {
      Set<String> lakehouses = new TreeSet<>();
      // The resolver's parts are lower case, as ids are; mlv.yml may spell them otherwise.
      String home = project.names().lakehouse();
      lakehouses.add(project.names().workspaceOf(home) + "." + home);
      project.views().keySet().forEach(id -> lakehouses.add(id.workspace() + "." + id.lakehouse()));
      for (DeployedView d : state.views().values()) {
        if (!d.managed()
            || project.views().containsKey(d.id())
            || !lakehouses.contains(d.id().workspace() + "." + d.id().lakehouse())) {
          continue;
        }
        // Same definition under a new name in the same lakehouse: rename keeps the data.
        Change.Create twin =
            creates.values().stream()
                .filter(c -> c.fingerprint().equals(d.fingerprint()))
                .filter(c -> sameLakehouse(c.id(), d.id()))
                // Fabric renames a PySpark view only in the lakehouse explorer, not in SQL.
                .filter(c -> !project.views().get(c.id()).definition().isPython())
                .findFirst()
                .orElse(null);
        if (twin != null) {
          creates.remove(twin.id());
          changes.add(
              new Change.Rename(
                  d.id(),
                  twin.id(),
                  twin.statement(),
                  twin.fingerprint(),
                  "same definition under a new name; ALTER ... RENAME TO keeps the data"));
        } else if (prune) {
          changes.add(
              new Change.Drop(d.id(), d.definition(), "no longer in the project (--prune)"));
        } else {
          orphans.add(d.id());
        }
      }
    }
    changes.addAll(creates.values());
    changes = ordered(project.lineage(), changes);
    List<NotebookChange> notebooks =
        NotebookPlanner.notebooks(
            project, targetName, state, selection, wholeProject, prune, changes);
    return new Plan(
        project.config().name(),
        targetName,
        clock.instant(),
        state.fingerprint(),
        projectFingerprint(project),
        changes,
        enableCdf(project, state, selection, changes),
        // A target that does not run PySpark views does not refresh them either.
        downstream(project.lineage(), changes).stream()
            .filter(
                id ->
                    deploysPython
                        || !project.views().containsKey(id)
                        || !project.views().get(id).definition().isPython())
            .toList(),
        orphans,
        SchedulePlan.NONE,
        notebooks);
  }

  private static boolean sameLakehouse(ObjectId a, ObjectId b) {
    return a.workspace().equals(b.workspace()) && a.lakehouse().equals(b.lakehouse());
  }

  /**
   * Which parts differ, for the reason line: "SELECT", "constraints", "comment", ... Both
   * statements are parsed and compared part by part, so what the header only spells differently
   * ({@code CREATE OR REPLACE}, {@code IF NOT EXISTS}, the case or quoting of the view's name, a
   * property's quotes) is no change; a deployed text that does not parse is compared as text.
   */
  static String whatChanged(String before, ViewDefinition after) {
    Optional<ViewDefinition> deployed = parsed(before);
    if (deployed.isEmpty()) {
      return textualChange(before, after.statement());
    }
    ViewDefinition b = deployed.get();
    List<String> parts = new ArrayList<>();
    if (!constraints(b).equals(constraints(after))) {
      parts.add("constraints");
    }
    if (!b.partitionedBy().equals(after.partitionedBy())) {
      parts.add("partitioning");
    }
    if (!b.comment().equals(after.comment())) {
      parts.add("comment");
    }
    if (!b.properties().equals(after.properties())) {
      parts.add("properties");
    }
    if (!body(b).equals(body(after))) {
      parts.add(after.body() instanceof ViewBody.Select ? "SELECT" : "source");
    }
    return parts.isEmpty() ? "" : ": " + String.join(" and ", parts);
  }

  private static Optional<ViewDefinition> parsed(String statement) {
    try {
      MlvParser.Result r = MlvParser.parse(Position.start(null), statement);
      return r.statements().size() == 1
              && r.statements().get(0) instanceof SqlStatement.CreateView cv
              && r.diagnostics().stream().noneMatch(d -> d.severity() == Severity.ERROR)
          ? Optional.of(cv.definition())
          : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static List<String> constraints(ViewDefinition d) {
    return d.constraints().stream()
        .map(
            c ->
                c.name().toLowerCase(java.util.Locale.ROOT)
                    + ":"
                    + Normalizer.normalize(c.expression())
                    + ":"
                    + c.onMismatch())
        .toList();
  }

  private static String body(ViewDefinition d) {
    if (d.body() instanceof ViewBody.Select s) {
      return "select:" + s.normalized();
    }
    if (d.body() instanceof ViewBody.Files f) {
      return "files:" + new TreeMap<>(f.options());
    }
    return d.body() instanceof ViewBody.Python p ? "python:" + p.fingerprint() : "";
  }

  /** The former comparison, split at the header's AS, for a deployed text mlv cannot parse. */
  private static String textualChange(String before, String after) {
    boolean selectChanged =
        !Normalizer.normalize(afterAs(before)).equals(Normalizer.normalize(afterAs(after)));
    boolean headerChanged =
        !Normalizer.normalize(beforeAs(before)).equals(Normalizer.normalize(beforeAs(after)));
    List<String> parts = new ArrayList<>();
    if (headerChanged) {
      parts.add("header (constraints, partitioning, comment or properties)");
    }
    if (selectChanged) {
      parts.add("SELECT");
    }
    return parts.isEmpty() ? "" : ": " + String.join(" and ", parts);
  }

  private static String afterAs(String statement) {
    int i = topLevelAs(statement);
    return i < 0 ? statement : statement.substring(i);
  }

  private static String beforeAs(String statement) {
    int i = topLevelAs(statement);
    return i < 0 ? "" : statement.substring(0, i);
  }

  /** Offset of the header's AS (outside parentheses, strings and comments), or -1. */
  private static int topLevelAs(String statement) {
    String norm = statement;
    int depth = 0;
    boolean inString = false;
    char quote = 0;
    for (int i = 0; i + 1 < norm.length(); i++) {
      char c = norm.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          inString = false;
        }
      } else if (c == '\'' || c == '"' || c == '`') {
        inString = true;
        quote = c;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (depth == 0
          && (c == 'A' || c == 'a')
          && (norm.charAt(i + 1) == 'S' || norm.charAt(i + 1) == 's')
          && (i == 0 || Character.isWhitespace(norm.charAt(i - 1)))
          && (i + 2 >= norm.length() || Character.isWhitespace(norm.charAt(i + 2)))) {
        return i;
      }
    }
    return -1;
  }

  /** Changes in dependency order (drops last), so apply creates upstream views first. */
  private static List<Change> ordered(LineageGraph graph, List<Change> changes) {
    Map<ObjectId, Integer> layer = graph.layerOf();
    List<Change> out = new ArrayList<>(changes);
    out.sort(
        java.util.Comparator.comparingInt(
                (Change c) ->
                    c instanceof Change.Drop ? Integer.MAX_VALUE : layer.getOrDefault(c.id(), 0))
            .thenComparing(Change::id));
    return out;
  }

  private static List<EnableCdf> enableCdf(
      Project project, DeployedState state, SortedSet<ObjectId> selection, List<Change> changes) {
    Map<ObjectId, List<ObjectId>> readers = new TreeMap<>();
    for (ObjectId id : selection) {
      ProjectView v = project.views().get(id);
      if (v == null || !v.settings().enableCdf()) {
        continue;
      }
      for (ObjectId up : project.lineage().upstream(id)) {
        Node n = project.lineage().node(up);
        DeployedState.SourceTable t = state.tables().get(up);
        // Only a reader that can refresh incrementally needs the feed (analysed only here).
        if (n.kind() == NodeKind.TABLE && t != null && !t.changeDataFeed() && canBeIncremental(v)) {
          readers.computeIfAbsent(up, k -> new ArrayList<>()).add(id);
        }
      }
    }
    List<EnableCdf> out = new ArrayList<>();
    readers.forEach((t, r) -> out.add(new EnableCdf(t, r)));
    return out;
  }

  /**
   * The strategy of each view {@code plan} refreshes after apply, as its run will decide it
   * (StrategyDecider's order): what the view's settings or SQL always force; else a condition of
   * its SQL that the rebuilt upstream views break (a LEFT JOIN's right side rebuilt, an AVG over a
   * view not partitioned by a GROUP BY column); else the rebuilt upstream's CREATE OR REPLACE
   * commit, which is no append. A source's partitioning and columns are not known here, so a
   * condition only they could break is left to the run.
   */
  public static java.util.function.Function<ObjectId, String> downstreamReasons(
      Project project, Plan plan) {
    Set<ObjectId> rewritten = rewritten(plan.changes());
    rewritten.addAll(plan.refresh());
    return id -> afterUpstreamRebuild(project, id, rewritten);
  }

  private static String afterUpstreamRebuild(
      Project project, ObjectId id, Set<ObjectId> rewritten) {
    ProjectView v = project.views().get(id);
    if (v == null) {
      return PlanRenderer.REBUILT_UPSTREAM;
    }
    Optional<dev.mlv.refresh.Strategy> always =
        dev.mlv.refresh.StrategyDecider.alwaysFull(
            false, v.settings().refreshPolicy(), v.settings().optimalRefresh());
    if (always.isPresent()) {
      return always.get().code();
    }
    if (v.definition().isPython()) {
      return "PYSPARK_VIEW";
    }
    if (v.definition().isFileSource()) {
      return PlanRenderer.REBUILT_UPSTREAM;
    }
    dev.mlv.sql.RefreshAnalysis analysis = dev.mlv.sql.RefreshAnalyzer.analyze(v.definition());
    Optional<dev.mlv.sql.RefreshAnalysis.Construct> blocker = analysis.blocker();
    if (blocker.isPresent()) {
      return blocker.get().code() + ": " + blocker.get().construct();
    }
    // Upstream views' partitioning is in their definitions; a source's is not known here.
    Map<ObjectId, List<String>> partitions = new TreeMap<>();
    for (ObjectId up : project.lineage().upstream(id)) {
      ProjectView u = project.views().get(up);
      if (u != null) {
        partitions.put(up, u.definition().partitionedBy());
      }
    }
    for (dev.mlv.sql.RefreshAnalysis.Construct c : analysis.conditions()) {
      if (!analysis.columnChecks(c).isEmpty()) {
        continue; // settled by the sources' columns, which the run reads
      }
      Optional<String> broken =
          dev.mlv.refresh.StrategyDecider.brokenCondition(
              c, analysis, rewritten, partitions, t -> Optional.empty(), project.names());
      if (broken.isPresent()) {
        return c.code() + ": " + broken.get();
      }
    }
    return PlanRenderer.REBUILT_UPSTREAM;
  }

  /** Whether the view's settings and SQL allow an incremental refresh at all. */
  private static boolean canBeIncremental(ProjectView v) {
    return v.settings().optimalRefresh()
        && v.settings().refreshPolicy() != dev.mlv.project.RefreshPolicy.FULL
        && !v.definition().isPython()
        && !v.definition().isFileSource()
        && dev.mlv.sql.RefreshAnalyzer.analyze(v.definition()).incrementalPossible();
  }

  /** The views whose table a change writes anew: created, replaced or renamed. */
  private static Set<ObjectId> rewritten(List<Change> changes) {
    Set<ObjectId> out = new TreeSet<>();
    for (Change c : changes) {
      if (c instanceof Change.Create || c instanceof Change.Replace || c instanceof Change.Rename) {
        out.add(c.id());
      }
    }
    return out;
  }

  private static List<ObjectId> downstream(LineageGraph graph, List<Change> changes) {
    Set<ObjectId> changed = rewritten(changes);
    Set<ObjectId> rebuilt = new TreeSet<>();
    for (Change c : changes) {
      if (c instanceof Change.Create || c instanceof Change.Replace) {
        rebuilt.add(c.id());
      }
    }
    Set<ObjectId> affected = new LinkedHashSet<>();
    for (SortedSet<ObjectId> layer : graph.layers()) {
      for (ObjectId id : layer) {
        // A renamed view keeps its data, which is stale when something upstream changed.
        if (rebuilt.contains(id) || !graph.node(id).isView()) {
          continue;
        }
        if (graph.upstream(id).stream()
            .anyMatch(u -> changed.contains(u) || affected.contains(u))) {
          affected.add(id);
        }
      }
    }
    return List.copyOf(affected);
  }

  public static String projectFingerprint(Project project) {
    StringBuilder sb = new StringBuilder();
    new TreeMap<>(project.views())
        .forEach(
            (id, v) ->
                sb.append(id)
                    .append('=')
                    .append(v.definition().fingerprint())
                    // The settings decide the plan too: change data feed turned on, policy.
                    .append(' ')
                    .append(v.settings())
                    .append('\n'));
    return dev.mlv.sql.Fingerprint.of(sb.toString());
  }
}
