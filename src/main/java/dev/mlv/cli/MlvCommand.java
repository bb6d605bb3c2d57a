package dev.mlv.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** {@code mlv}: the top command; it only holds the subcommands and the global options. */
@Command(
    name = "mlv",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Declarative Microsoft Fabric materialized lake views: validate, plan, apply and refresh",
      "a folder of CREATE MATERIALIZED LAKE VIEW files, locally or in Fabric.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  mlv validate -p examples/medallion",
      "  mlv lineage --dot > lineage.dot",
      "",
      "Exit codes: 0 success, 1 error, 2 changes present (plan --detailed-exitcode),",
      "3 skipped because another refresh is running, 4 quality gate exceeded (refresh),",
      "64 usage error."
    },
    subcommands = {
      ValidateCommand.class,
      LineageCommand.class,
      PlanCommand.class,
      ApplyCommand.class,
      RefreshCommand.class,
      ExplainCommand.class,
      RunsCommand.class,
      QuarantineCommand.class,
      ReportCommand.class,
      SqlCommand.class,
      SeedCommand.class,
      InitCommand.class,
      CompletionCommand.class
    })
public final class MlvCommand implements Runnable {
  @Spec CommandSpec spec;

  @Option(
      names = "--debug",
      scope = ScopeType.INHERIT,
      description = "Print stack traces, parser fallbacks and engine logs.")
  boolean debug;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing command; see 'mlv --help'");
  }
}
