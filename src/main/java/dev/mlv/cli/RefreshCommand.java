package dev.mlv.cli;

import dev.mlv.check.RefreshPolicyCheck;
import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Severity;
import dev.mlv.lineage.ObjectId;
import dev.mlv.lineage.Selection;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunReport;
import dev.mlv.target.Target;
import dev.mlv.target.UpstreamLakehouse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv refresh}: bring the selected views up to date, in dependency order. */
@Command(
    name = "refresh",
    header = "Refresh views in dependency order: skip, incremental or full.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Refresh the selected views in dependency order, views with no dependency between them"
          + " side by side. A view whose sources have no new commit since its last refresh is"
          + " skipped; a failed view's descendants are skipped with the reason. A refresh that starts"
          + " while another runs on the same lakehouse is skipped, not queued (exit code 3). A view"
          + " that drops more rows than its max_dropped_rows or max_dropped_ratio in mlv.yml fails"
          + " the refresh's quality gate (exit code 4)."
    },
    footer = {
      "",
      "Examples:",
      "  mlv refresh",
      "  mlv refresh silver.trials_clean+ --full",
      "  mlv refresh --dry-run --format json",
      "  mlv refresh -t prod --extended-lineage           # all upstream lakehouses",
      "  mlv refresh -t prod --upstream-lakehouse 6f1c... # one upstream lakehouse"
    })
public final class RefreshCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;
  @Mixin ProgressOptions progressOptions;

  @Parameters(
      paramLabel = "SELECTOR",
      arity = "0..*",
      description = "Views to refresh (default: all)." + Selection.SYNTAX)
  List<String> selectors;

  @Option(names = "--full", description = "Recompute every selected view from all its data.")
  boolean full;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      description = "Views refreshed at once (default: defaults.parallelism in mlv.yml).")
  Integer parallelism;

  @Option(
      names = "--dry-run",
      description =
          "Print the strategy each view would get, and why; change nothing. Exits 1 when a"
              + " view would fail (not deployed, a missing source or column) or be skipped"
              + " for it.")
  boolean dryRun;

  @Option(
      names = "--format",
      defaultValue = "text",
      description =
          "Run report format: text, json or junit (JUnit XML, a test case per view and"
              + " constraint) (default: ${DEFAULT-VALUE}).")
  RefreshFormat format;

  @Option(
      names = "--quiet",
      description = "No progress lines on stderr; warnings are still printed.")
  boolean quiet;

  @Option(
      names = "--extended-lineage",
      description =
          "Fabric targets only: also refresh the views of the lakehouses upstream of this one."
              + " Without --upstream-lakehouse every upstream lakehouse is included (Fabric's"
              + " default).")
  boolean extendedLineage;

  @Option(
      names = "--upstream-lakehouse",
      paramLabel = "[WORKSPACE_ID/]LAKEHOUSE_ID",
      converter = UpstreamLakehouseConverter.class,
      description =
          "Fabric targets only: include just this upstream lakehouse in the refresh: its id, or"
              + " WORKSPACE_ID/LAKEHOUSE_ID for one in another workspace (without it, the target's"
              + " workspace); repeat for more. Implies --extended-lineage.")
  List<UpstreamLakehouse> upstreamLakehouses;

  /** Reads {@code --upstream-lakehouse} values, so that a bad one is a usage error at once. */
  static final class UpstreamLakehouseConverter
      implements picocli.CommandLine.ITypeConverter<UpstreamLakehouse> {
    @Override
    public UpstreamLakehouse convert(String value) {
      try {
        return UpstreamLakehouse.parse(value);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  @Override
  public Integer call() {
    if (parallelism != null && parallelism < 1) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--parallelism must be at least 1");
    }
    Project project = ProjectLoading.loadValid(projectOptions, spec);
    SortedSet<ObjectId> views =
        Selection.views(project.lineage(), project.names(), selectors, "refresh");
    warnStrictPolicies(project, views);
    Duration timeout = project.config().defaults().refreshTimeout();
    int n = parallelism != null ? parallelism : project.config().defaults().parallelism();
    String targetName = Targets.name(project.config(), targetOptions.target);
    try (Target target = Targets.open(project.config(), targetName, spec)) {
      ExtendedLineage.request(target, extendedLineage, upstreamLakehouses);
      RunReport run;
      try (var progress =
          RunOutput.progress(spec, project.names(), quiet || dryRun, progressOptions)) {
        run =
            target.refresh(
                project, new RefreshRequest(views, full, n, timeout, dryRun, Map.of()), progress);
      }
      int code =
          QualityOutput.finish(
              spec.commandLine().getOut(), spec.commandLine().getErr(), run, project, format);
      long doomed = run.views().stream().filter(v -> v.wouldFail() || v.wouldBeSkipped()).count();
      if (dryRun && doomed > 0 && code == ExitCodes.OK) {
        // The summary comes after the table it sums up, also where both streams share a screen;
        // it says no "above", as the table may have gone to a file.
        spec.commandLine().getOut().flush();
        spec.commandLine()
            .getErr()
            .println(
                "error: "
                    + doomed
                    + (doomed == 1 ? " view" : " views")
                    + " would fail or be skipped, each for the reason given with it; the refresh"
                    + " would exit 1");
        return ExitCodes.ERROR;
      }
      return code;
    }
  }

  /**
   * validate and plan refuse a view whose refresh_policy is incremental but whose SQL rules that
   * out; a refresh still runs it (in full), so it says why the policy is not honoured.
   */
  private void warnStrictPolicies(Project project, SortedSet<ObjectId> views) {
    for (ObjectId id : views) {
      var view = project.views().get(id);
      if (view == null) {
        continue;
      }
      RefreshPolicyCheck.check(project, view)
          .ifPresent(
              d ->
                  spec.commandLine()
                      .getErr()
                      .println(
                          new Diagnostic(
                                  Severity.WARNING,
                                  d.ruleId(),
                                  d.position(),
                                  d.message()
                                      + "; each refresh that does not skip it rebuilds it in full",
                                  d.hint())
                              .format()));
    }
  }
}
