package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.lineage.Selection;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.refresh.ExplainRenderer;
import dev.mlv.sql.RefreshAnalysis;
import dev.mlv.sql.RefreshAnalyzer;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv explain VIEW}: which constructs of a view allow incremental refresh, and why. */
@Command(
    name = "explain",
    header = "Explain whether a view's SQL can be refreshed incrementally.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Explain, construct by construct, whether a view's SQL can be refreshed incrementally:"
          + " joins, aggregates, DISTINCT, window and non-deterministic functions, subqueries. Read"
          + " from the SQL alone; 'mlv refresh --dry-run' adds what the sources' Delta logs say."
    },
    footer = {
      "",
      "Examples:",
      "  mlv explain gold.by_customer",
      "  mlv explain silver.x --format json"
    })
public final class ExplainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;

  @Parameters(paramLabel = "VIEW", description = "The view to explain, e.g. gold.by_customer.")
  String view;

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
  ReportFormat format;

  @Override
  public Integer call() {
    // Another file's error does not stop the explanation of a view whose own file is sound.
    Project project = ProjectLoading.load(projectOptions, spec);
    // Inside backticks, ':' ',' and '+' are part of a name (silver.`a:b`).
    String bare = view.replaceAll("`[^`]*`", "");
    if (view.isBlank() || bare.contains(":") || bare.contains(",") || bare.contains("+")) {
      // A selector or an empty argument is a usage error (64); a name that matches nothing is 1.
      throw new dev.mlv.diag.UsageException(
          "SELECTOR",
          "'"
              + view
              + "' is not a view name; explain takes one view (schema.view or view), not a"
              + " selector");
    }
    // As lineage and refresh do: a short name, and "did you mean" for a near miss.
    List<dev.mlv.diag.Diagnostic> errors =
        project.diagnostics().stream().filter(dev.mlv.diag.Diagnostic::isError).toList();
    java.util.SortedSet<ObjectId> found;
    try {
      found =
          Selection.views(
              project.lineage(),
              Selection.select(project.lineage(), project.names(), List.of(view)));
    } catch (MlvException notFound) {
      // The view may be in a file that did not parse: that is the error to show.
      throw errors.isEmpty() ? notFound : new MlvException(errors);
    }
    ProjectView v = found.size() == 1 ? project.views().get(found.first()) : null;
    if (v == null) {
      if (!errors.isEmpty()) {
        throw new MlvException(errors); // the view may be in a file that did not parse
      }
      throw new MlvException(
          "UNKNOWN_VIEW", "'" + view + "' is not a view of the project (a source table?)");
    }
    java.nio.file.Path file = v.definition().position().file();
    List<dev.mlv.diag.Diagnostic> own =
        errors.stream()
            .filter(
                d ->
                    (d.position() != null && java.util.Objects.equals(d.position().file(), file))
                        // Which definition is the view, or whether it can be ordered, is open.
                        || d.ruleId().equals("DUPLICATE_VIEW")
                        || d.ruleId().equals("CYCLE"))
            .toList();
    if (!own.isEmpty()) {
      throw new MlvException(own);
    }
    ObjectId id = found.first();
    if (!errors.isEmpty() && readsThroughAnError(project, id, errors)) {
      throw new MlvException(errors);
    }
    RefreshAnalysis analysis = withoutAnsi(project, RefreshAnalyzer.analyze(v.definition()));
    spec.commandLine()
        .getOut()
        .print(
            format == ReportFormat.json
                ? ExplainRenderer.json(id, v.settings(), v.definition(), analysis, project.names())
                : ExplainRenderer.text(
                    id, v.settings(), v.definition(), analysis, project.names()));
    return ExitCodes.OK;
  }

  /**
   * Whether the view reads, directly or not, a view in a file with an error, or a table that is
   * neither a view nor a declared source: a view whose file has a syntax error or cannot be read
   * would be explained as a source read from its change feed, so explain stops as lineage does.
   */
  private static boolean readsThroughAnError(
      Project project, ObjectId id, List<dev.mlv.diag.Diagnostic> errors) {
    java.util.Set<java.nio.file.Path> files = new java.util.HashSet<>();
    for (ObjectId a : project.lineage().ancestors(id)) {
      dev.mlv.lineage.Node n = project.lineage().node(a);
      if (n.kind() == dev.mlv.lineage.NodeKind.TABLE && n.position() == null) {
        return true;
      }
      if (n.isView() && n.position() != null) {
        files.add(n.position().file());
      }
    }
    return errors.stream()
        .anyMatch(d -> d.position() != null && files.contains(d.position().file()));
  }

  /**
   * The analysis with one more condition when the default target's conf turns ANSI mode off and the
   * view merges SUMs: a SUM of decimals is then refreshed in full, as the refresh and its dry run
   * decide from the table's column types, which the SQL alone does not give.
   */
  private static RefreshAnalysis withoutAnsi(Project project, RefreshAnalysis a) {
    String name = project.config().defaultTarget();
    boolean sums =
        a.shape() == RefreshAnalysis.Shape.MERGE_AGGREGATE
            && a.columns().stream().anyMatch(c -> c.role() == RefreshAnalysis.Role.SUM);
    if (!sums
        || !(project.config().target(name).orElse(null) instanceof dev.mlv.project.SparkTarget t)
        || !t.ansiOff()) {
      return a;
    }
    List<RefreshAnalysis.Construct> constructs = new java.util.ArrayList<>(a.constructs());
    constructs.add(
        new RefreshAnalysis.Construct(
            "SUM (ANSI mode off)",
            a.constructs().stream()
                .filter(c -> c.construct().startsWith("GROUP BY"))
                .map(RefreshAnalysis.Construct::position)
                .findFirst()
                .orElse(dev.mlv.diag.Position.start(null)),
            RefreshAnalysis.Support.CONDITIONAL,
            "DECIMAL_SUM_WITHOUT_ANSI",
            "incremental while no SUM is of decimals: ANSI mode is off ("
                + t.ansiOffBy().orElse("spark.sql.ansi.enabled")
                + " is false), so a decimal SUM that overflows is NULL, which merged sums cannot"
                + " tell from a group of NULLs"));
    return new RefreshAnalysis(a.shape(), constructs, a.refs(), a.columns(), a.columnChecks());
  }
}
