package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.lineage.Selection;
import dev.mlv.project.Project;
import dev.mlv.target.SqlResult;
import dev.mlv.target.SqlResultRenderer;
import dev.mlv.target.Target;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv quarantine}: the rows a view's refreshes dropped, with the rules each broke. */
@Command(
    name = "quarantine",
    header = "Print the rows a view's refreshes dropped.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print the rows a view's refreshes dropped, with the constraints each row broke."
          + " Newest first, with the run id and the time. Rows are kept for views with"
          + " 'quarantine: true' in mlv.yml, in the table <schema>.<view>__quarantine, for as long as"
          + " the run history keeps the run."
    },
    footer = {
      "",
      "Examples:",
      "  mlv quarantine silver.trials_clean",
      "  mlv quarantine silver.trials_clean --run 20261129-101500-3f2a9c --format csv"
    })
public final class QuarantineCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;

  @Parameters(paramLabel = "VIEW", description = "The view whose dropped rows to print.")
  String view;

  @Option(names = "--run", paramLabel = "ID", description = "Only the rows of this run.")
  String runId;

  @Option(
      names = "--limit",
      defaultValue = "100",
      description = "Rows to print at most (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--format",
      defaultValue = "table",
      description = "table, csv or json (default: ${DEFAULT-VALUE}).")
  RowsFormat format;

  @Override
  public Integer call() {
    if (limit < 1) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--limit must be at least 1");
    }
    // Read-only over what earlier runs stored: a view file broken since must not hide them.
    Project project = ProjectLoading.load(projectOptions, spec);
    SortedSet<ObjectId> views =
        Selection.views(
            project.lineage(), Selection.select(project.lineage(), project.names(), List.of(view)));
    if (views.size() != 1) {
      throw new MlvException(
          "SELECTOR", "'" + view + "' is not one view of the project; name exactly one view");
    }
    ObjectId id = views.first();
    boolean on = project.views().get(id).settings().quality().quarantineOn();
    String targetName = Targets.name(project.config(), targetOptions.target);
    var out = spec.commandLine().getOut();
    try (Target target = Targets.open(project.config(), targetName, spec)) {
      SqlResult rows = target.quarantine(project, id, Optional.ofNullable(runId), limit);
      if (runId != null
          && rows.rows().isEmpty()
          && target.run(runId, dev.mlv.refresh.RunListener.NONE).isEmpty()) {
        // A mistyped id must not read as "that run dropped nothing".
        throw new MlvException(
            "RUN_UNKNOWN", "no run with id '" + runId + "'; 'mlv runs' lists the runs");
      }
      if (rows.columns().isEmpty() || rows.rows().isEmpty()) {
        String name = project.names().display(id);
        spec.commandLine()
            .getErr()
            .println(
                rows.columns().isEmpty()
                    ? "No quarantined rows for "
                        + name
                        + (on
                            ? ": no refresh has dropped a row since quarantine was turned on."
                            : ": quarantine is off for it; set 'quarantine: true' under"
                                + " view_config or defaults in mlv.yml.")
                    : "No quarantined rows for "
                        + name
                        + (runId == null ? "." : " in run " + runId + "."));
        if (format == RowsFormat.json) {
          // A JSON reader gets a document either way: the same shape, no rows.
          out.print(json(project.names().display(id), rows));
        }
        return ExitCodes.OK;
      }
      out.print(
          format == RowsFormat.json
              ? json(project.names().display(id), rows)
              : SqlResultRenderer.render(rows, format.name()));
      return ExitCodes.OK;
    }
  }

  /**
   * The JSON of {@code --format json}: versioned as every mlv JSON document is (found by QA: a bare
   * array), the view and the run asked for, then the rows as {@code mlv sql} gives them.
   */
  private String json(String view, SqlResult rows) {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    var root = mapper.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    root.put("view", view);
    if (runId == null) {
      root.putNull("run");
    } else {
      root.put("run", runId);
    }
    root.set("rows", SqlResultRenderer.rows(rows));
    try {
      return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }

  static final int FORMAT_VERSION = 1;
}
