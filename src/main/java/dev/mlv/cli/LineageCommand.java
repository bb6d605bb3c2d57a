package dev.mlv.cli;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.lineage.LineageRenderer;
import dev.mlv.lineage.ObjectId;
import dev.mlv.lineage.Selection;
import dev.mlv.project.Project;
import java.util.List;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv lineage}: the dependency graph read from the SQL, in a diffable form. */
@Command(
    name = "lineage",
    header = "Print the lineage the SQL defines, in refresh order.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print the lineage the SQL defines: views, the tables and folders they read, and the"
          + " order they refresh in. Output is sorted and stable, so CI can diff it. A project"
          + " with an error in mlv.yml, or in reading a definition's SQL (a syntax error, a"
          + " SELECT Spark refuses as written), prints that error and no lineage (exit 1)."
          + " Validate's other rules (a file that defines no view, a view name Fabric refuses,"
          + " ...) are not run: 'mlv validate' lists every finding."
    },
    footer = {
      "",
      "Selectors: name, +name (with ancestors), name+ (with descendants), +name+,",
      "schema:silver, lakehouse:lh, tag:x; several select their union.",
      "",
      "Examples:",
      "  mlv lineage --dot | dot -Tsvg > lineage.svg",
      "  mlv lineage +gold.formula_preference --format mermaid",
      "  mlv lineage schema:silver --format json",
      "  mlv lineage --format names     # one name a line, as selectors take it"
    })
public final class LineageCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;

  @Parameters(
      paramLabel = "SELECTOR",
      arity = "0..*",
      description = "Views to show (default: all)." + Selection.SYNTAX)
  List<String> selectors;

  enum Format {
    dot,
    mermaid,
    json,
    text,
    names
  }

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Format format;

  @Option(names = "--dot", description = "Short for --format dot.")
  boolean dot;

  /**
   * Only the views of the selection: completion offers views to the commands that take only those.
   */
  @Option(names = "--views-only", hidden = true)
  boolean viewsOnly;

  /** The tag: selectors of the selection instead, one a line: what completion offers after tag:. */
  @Option(names = "--tags", hidden = true)
  boolean tags;

  @Override
  public Integer call() {
    if (dot
        && format != Format.dot
        && spec.commandLine().getParseResult().hasMatchedOption("--format")) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--dot and --format " + format + " ask for two formats; use one");
    }
    String f = (dot ? Format.dot : format).name();
    Project project = ProjectLoading.load(projectOptions, spec);
    List<Diagnostic> errors = project.diagnostics().stream().filter(Diagnostic::isError).toList();
    if (!errors.isEmpty()) {
      throw new MlvException(errors);
    }
    SortedSet<ObjectId> selection = Selection.select(project.lineage(), project.names(), selectors);
    if (viewsOnly) {
      selection = Selection.views(project.lineage(), selection);
    }
    if (tags) {
      Selection.tagSelectors(project.lineage(), selection)
          .forEach(t -> spec.commandLine().getOut().println(t));
      return ExitCodes.OK;
    }
    spec.commandLine()
        .getOut()
        .print(LineageRenderer.forFormat(f).render(project.lineage(), selection, project.names()));
    return ExitCodes.OK;
  }
}
