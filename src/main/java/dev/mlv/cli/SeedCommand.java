package dev.mlv.cli;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.lineage.DisplayWidth;
import dev.mlv.project.Project;
import dev.mlv.target.local.LocalTarget;
import dev.mlv.target.local.Seeder;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv seed}: load the sources' seed files into the local lakehouse. */
@Command(
    name = "seed",
    header = "Load the seed files mlv.yml declares for sources.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Load the seed files that mlv.yml declares for sources (CSV with a header row, or"
          + " Parquet) into Delta tables of the local lakehouse, replacing their content. In Fabric"
          + " the same sources are existing lakehouse tables, so seed works only on local targets."
    },
    footer = {"", "Examples:", "  mlv seed", "  mlv seed bronze.formulas"})
public final class SeedCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;

  @Parameters(
      paramLabel = "SOURCE",
      arity = "0..*",
      description = "Sources to load (default: all with a seed).")
  List<String> sources;

  @Override
  public Integer call() {
    Project project = ProjectLoading.loadValid(projectOptions, spec);
    String targetName = Targets.name(project.config(), targetOptions.target);
    try (LocalTarget target = Targets.openLocal(project.config(), targetName, spec)) {
      List<Seeder.Loaded> loaded;
      try {
        loaded =
            target.seed(
                project,
                sources == null ? List.of() : sources,
                // What the target says on its own (a Ctrl-C's outcome), on stderr.
                RunOutput.progress(spec.commandLine().getErr(), project.names(), false));
      } catch (Seeder.PartlyLoaded e) {
        // Say which sources did load before the errors about those that did not.
        print(project, e.loaded());
        throw e;
      }
      print(project, loaded);
    }
    return ExitCodes.OK;
  }

  private void print(Project project, List<Seeder.Loaded> loaded) {
    var out = spec.commandLine().getOut();
    for (var l : loaded) {
      out.printf(
          "seeded %s %11s (version %d)%n",
          DisplayWidth.padRight(project.names().display(l.table()), 40),
          DiagnosticRenderer.plural(l.rows(), "row"),
          l.version());
      for (String change : l.schemaChanges()) {
        // Views reading the table may no longer resolve, or now compute with another type.
        spec.commandLine()
            .getErr()
            .printf(
                "warning: %s: %s (types are inferred from the seed file on every load)%n",
                project.names().display(l.table()), change);
      }
    }
    out.flush();
  }
}
