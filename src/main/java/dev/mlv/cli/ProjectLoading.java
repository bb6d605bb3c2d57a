package dev.mlv.cli;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.project.ProjectLocator;
import dev.mlv.project.ProjectView;
import dev.mlv.sql.QueryFacts;
import dev.mlv.target.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** Finds, reads and builds the project a command works on. */
final class ProjectLoading {
  private ProjectLoading() {}

  /**
   * The project with every file parsed; diagnostics are in the result, not thrown. With --debug,
   * says on stderr which SELECTs needed Spark's parser because Calcite could not parse them.
   */
  static Project load(ProjectOptions options, CommandSpec spec) {
    return load(options, spec, false);
  }

  /**
   * As {@link #load(ProjectOptions, CommandSpec)}, for validate: when mlv.yml's only errors are
   * unknown keys the views are still read, so that the project's errors are all shown at once; the
   * project then holds mlv.yml's errors among its diagnostics.
   */
  static Project loadReportingAll(ProjectOptions options, CommandSpec spec) {
    return load(options, spec, true);
  }

  private static Project load(ProjectOptions options, CommandSpec spec, boolean despiteKeys) {
    Project project = load(options, despiteKeys);
    if (Targets.debug(spec)) {
      for (ProjectView v : project.views().values()) {
        if (v.facts().map(QueryFacts::usedFallback).orElse(false)) {
          spec.commandLine()
              .getErr()
              .println(
                  "debug: "
                      + v.definition().body().position()
                      + ": Calcite could not parse this SELECT; Spark's parser read its lineage");
        }
      }
    }
    return project;
  }

  /** The project's folder: the one -p names, else the nearest holding mlv.yml from here up. */
  static Path root(ProjectOptions options) {
    if (options.project != null && options.project.toString().isBlank()) {
      throw new dev.mlv.diag.UsageException(
          "PROJECT", "-p is empty; give the project folder, or leave -p out to use this one");
    }
    return options.project != null
        ? ProjectLocator.explicit(options.project)
        : ProjectLocator.locate(Path.of(""));
  }

  private static Project load(ProjectOptions options, boolean despiteKeys) {
    LoadResult loaded = ProjectLoader.load(root(options));
    if (loaded.hasErrors() && !(despiteKeys && loaded.config().isPresent())) {
      throw new MlvException(loaded.diagnostics());
    }
    ProjectConfig config = loaded.config().orElseThrow();
    DefinitionFiles.Found found = DefinitionFiles.discover(config);
    List<Diagnostic> earlier = new ArrayList<>(loaded.diagnostics());
    earlier.addAll(found.problems());
    return new ProjectBuilder().build(config, found.files(), earlier);
  }

  /**
   * The project as {@code plan} and {@code apply} need it: no error of loading and none of {@code
   * mlv validate}'s rules either, since a view that breaks one would only fail in Spark or Fabric.
   */
  static Project loadDeployable(ProjectOptions options, CommandSpec spec) {
    Project project = loadValid(options, spec);
    List<Diagnostic> found = dev.mlv.check.Checker.check(project);
    if (found.stream().anyMatch(Diagnostic::isError)) {
      List<Diagnostic> all = new java.util.ArrayList<>(project.diagnostics());
      all.addAll(found);
      throw new MlvException(all);
    }
    return project;
  }

  /**
   * Runs validate's rules again knowing the columns of the tables the project reads and does not
   * define, as {@code target} holds them (a local target reads them from the Delta logs, without
   * Spark; a target that cannot list them cheaply tells none, and nothing more is checked), and
   * refuses to go on when that finds an error: a view reading a column its source lacks would
   * otherwise fail in the middle of apply, after apply changed other views and tables.
   */
  static void checkTableColumns(Project project, Target target) {
    dev.mlv.target.TableSchemas schemas = target.schemas(project);
    dev.mlv.check.TableColumns read =
        dev.mlv.check.TableColumns.sources(
            project, target.name(), schemas.columns(), schemas.structs());
    if (read.tables().isEmpty()) {
      return;
    }
    List<Diagnostic> found = dev.mlv.check.Checker.check(project, read);
    if (found.stream().anyMatch(Diagnostic::isError)) {
      List<Diagnostic> all = new ArrayList<>(project.diagnostics());
      all.addAll(found);
      throw new MlvException(all);
    }
  }

  /** The project, refusing to go on when it has errors (for commands that change things). */
  /**
   * The project for a command that works on the lakehouse, not on the views' definitions ({@code
   * mlv sql SELECT ...}): mlv.yml must be valid (load refuses it otherwise), the view files need
   * not be; when one is not, a warning on stderr says so, and that validate lists the errors.
   */
  static Project loadDespiteViewErrors(ProjectOptions options, CommandSpec spec) {
    Project project = load(options, spec);
    if (project.hasErrors()) {
      long errors = project.diagnostics().stream().filter(Diagnostic::isError).count();
      spec.commandLine()
          .getErr()
          .println(
              "warning: the project has "
                  + dev.mlv.diag.DiagnosticRenderer.plural(errors, "error")
                  + " in its views ('mlv validate' lists them); the SQL runs on the lakehouse as"
                  + " it is");
    }
    return project;
  }

  static Project loadValid(ProjectOptions options, CommandSpec spec) {
    Project project = load(options, spec);
    if (project.hasErrors()) {
      // Every finding, as validate shows it: a JSON failure that counted 0 warnings misled.
      List<Diagnostic> all = new java.util.ArrayList<>(project.diagnostics());
      all.addAll(dev.mlv.check.Checker.check(project));
      throw new MlvException(all);
    }
    return project;
  }
}
