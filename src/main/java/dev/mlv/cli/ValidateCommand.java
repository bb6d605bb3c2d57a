package dev.mlv.cli;

import dev.mlv.check.Checker;
import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.diag.MlvException;
import dev.mlv.project.Project;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mlv validate}: parse every definition and run the lint rules; no engine needed. */
@Command(
    name = "validate",
    header = "Check mlv.yml and every view definition, without Spark or Fabric.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Parse mlv.yml and every view definition, build the lineage and check it against the"
          + " documented materialized lake view rules. Reports every problem at once with"
          + " file:line:column, rule id and a hint. Needs no Spark and no Fabric."
    },
    footer = {
      "",
      "Examples:",
      "  mlv validate -p examples/medallion",
      "  mlv validate --format github     # annotations in a GitHub Actions log",
      "",
      "Exit codes: 0 no errors (warnings allowed), 1 errors found, 64 usage error."
    })
public final class ValidateCommand implements Callable<Integer> {
  enum Format {
    text,
    json,
    github
  }

  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;

  @Option(
      names = "--format",
      defaultValue = "text",
      description =
          "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). github names"
              + " files from the repository's root (GITHUB_WORKSPACE, else the working folder),"
              + " so a project in a subfolder is annotated on the right files.")
  Format format;

  @Option(names = "--strict", description = "Treat warnings as errors.")
  boolean strict;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Project project;
    try {
      project = ProjectLoading.loadReportingAll(projectOptions, spec);
    } catch (dev.mlv.diag.UsageException e) {
      throw e; // -p given empty: a usage error (exit 64) in every format, as the command line is
    } catch (MlvException e) {
      // mlv.yml itself is broken (a tab, a duplicate key, a missing key): that is a finding like
      // any other, so every format reports it where it reports the rest (found by QA: text sent it
      // to stderr, leaving `mlv validate > findings.txt` empty). A project that cannot be found at
      // all has no file to point at: in text, that stays the command's one-paragraph error.
      boolean inProjectFiles = e.diagnostics().stream().allMatch(d -> d.position() != null);
      switch (format) {
        case json -> out.print(DiagnosticRenderer.json(e.diagnostics(), 0, 0));
        case github ->
            out.print(DiagnosticRenderer.github(e.diagnostics(), inRepository(projectRoot())));
        case text -> {
          if (!inProjectFiles) {
            throw e;
          }
          out.print(DiagnosticRenderer.text(e.diagnostics()));
          out.println(summaryLine(true, 0, 0, e.diagnostics()));
        }
      }
      return ExitCodes.ERROR;
    }
    List<Diagnostic> found = new ArrayList<>(project.diagnostics());
    found.addAll(Checker.check(project));
    // Under --strict a warning fails the run, so every output shows it as the error it is.
    List<Diagnostic> all =
        strict
            ? found.stream()
                .map(
                    d ->
                        d.severity() != dev.mlv.diag.Severity.WARNING
                            ? d
                            : Diagnostic.error(d.ruleId(), d.position(), d.message(), d.hint()))
                .toList()
            : found;
    boolean failed = all.stream().anyMatch(Diagnostic::isError);
    switch (format) {
      case json ->
          out.print(DiagnosticRenderer.json(all, project.files().size(), project.views().size()));
      case github ->
          out.print(DiagnosticRenderer.github(all, inRepository(project.config().root())));
      case text -> {
        out.print(DiagnosticRenderer.text(all));
        out.println(summaryLine(failed, project.files().size(), project.views().size(), all));
      }
    }
    return failed ? ExitCodes.ERROR : ExitCodes.OK;
  }

  /** {@code invalid: 3 files, 3 views, 1 error, 0 warnings}: the last line of the text format. */
  private static String summaryLine(
      boolean failed, int files, int views, List<Diagnostic> diagnostics) {
    return (failed ? "invalid: " : "ok: ")
        + DiagnosticRenderer.plural(files, "file")
        + ", "
        + DiagnosticRenderer.plural(views, "view")
        + ", "
        + DiagnosticRenderer.summary(diagnostics);
  }

  /**
   * Where the project's folder lies in the repository GitHub checked out ({@code GITHUB_WORKSPACE},
   * else the working folder, which is that in a workflow step): annotations name files from there.
   * A project outside it keeps its own relative paths.
   */
  private static Path inRepository(Path root) {
    String workspace = System.getenv("GITHUB_WORKSPACE");
    Path base =
        (workspace == null || workspace.isBlank() ? Path.of("") : Path.of(workspace))
            .toAbsolutePath()
            .normalize();
    Path project = root.toAbsolutePath().normalize();
    return project.startsWith(base) ? base.relativize(project) : Path.of("");
  }

  private Path projectRoot() {
    try {
      return ProjectLoading.root(projectOptions);
    } catch (MlvException e) {
      return Path.of("");
    }
  }
}
