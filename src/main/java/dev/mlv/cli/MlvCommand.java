package dev.mlv.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
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
      "Declarative Microsoft Fabric materialized lake views: validate, plan, apply and refresh"
          + " a folder of CREATE MATERIALIZED LAKE VIEW files, locally or in Fabric.",
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
    })
public final class MlvCommand implements Runnable {
  /**
   * The subcommands, in the order help lists them. They are added by {@link Main} rather than in
   * the annotation: picocli builds a model of every command it is given, by reflection, which costs
   * more than the rest of a small {@code mlv validate}; a run needs only its own.
   */
  static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

  private static Map<String, Class<?>> subcommands() {
    Map<String, Class<?>> m = new LinkedHashMap<>();
    m.put("validate", ValidateCommand.class);
    m.put("lineage", LineageCommand.class);
    m.put("plan", PlanCommand.class);
    m.put("apply", ApplyCommand.class);
    m.put("refresh", RefreshCommand.class);
    m.put("explain", ExplainCommand.class);
    m.put("runs", RunsCommand.class);
    m.put("quarantine", QuarantineCommand.class);
    m.put("report", ReportCommand.class);
    m.put("sql", SqlCommand.class);
    m.put("seed", SeedCommand.class);
    m.put("init", InitCommand.class);
    m.put("completion", CompletionCommand.class);
    m.put("shell", ShellCommand.class);
    return Collections.unmodifiableMap(m);
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--debug",
      scope = ScopeType.INHERIT,
      description = "Print stack traces, parser fallbacks and engine logs.")
  boolean debug;

  /** Set by {@code mlv shell} for the commands it runs, so they share its open targets. */
  ShellSession session;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing command");
  }
}
