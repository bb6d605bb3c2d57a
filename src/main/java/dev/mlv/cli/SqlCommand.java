package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.project.Project;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.SqlStatement;
import dev.mlv.target.SqlResult;
import dev.mlv.target.SqlResultRenderer;
import dev.mlv.target.Target;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv sql}: Spark SQL and MLV management SQL against the target's lakehouse. */
@Command(
    name = "sql",
    header = "Run Spark SQL against the target's lakehouse.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run Spark SQL against the target's lakehouse: load and inspect tables, and the MLV"
          + " statements SHOW MATERIALIZED LAKE VIEWS, SHOW CREATE, ALTER ... RENAME TO, DROP,"
          + " REFRESH ... [FULL] and CREATE MATERIALIZED LAKE VIEW. Writes into a materialized lake"
          + " view (INSERT, UPDATE, DELETE, MERGE, TRUNCATE, CREATE OR REPLACE TABLE, RESTORE) are"
          + " refused, as Fabric refuses them.",
      "",
      "The table and CSV show values as Spark's show() does: arrays [1, 2], structs {1, z}, maps"
          + " {k -> 1}, binary as hex [00 FF]. In CSV (RFC 4180) NULL is an empty field and the"
          + " empty string is \"\". JSON is an array of row objects with JSON types: exact"
          + " numbers, NaN and Infinity as strings, booleans, arrays, structs as objects, maps as"
          + " objects (as [{\"key\": k, \"value\": v}] when the keys are not strings), binary as"
          + " base64, dates and timestamps as ISO-8601 strings, NULL as null. With several"
          + " statements, JSON is one array holding each statement's array of rows, in order; a"
          + " statement without a result set (INSERT, CREATE) gives an empty array, and in CSV"
          + " and JSON its status line goes to stderr. When a statement fails, those before it"
          + " have run and their results are printed; the error follows on stderr."
    },
    footer = {
      "",
      "Examples:",
      "  mlv sql \"SELECT * FROM gold.formula_preference ORDER BY 2 DESC\"",
      "  mlv sql \"SHOW MATERIALIZED LAKE VIEWS IN silver\"",
      "  mlv sql -f load_bronze.sql --format csv"
    })
public final class SqlCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProjectOptions projectOptions;
  @Mixin TargetOptions targetOptions;

  static final class Input {
    @Parameters(
        paramLabel = "STATEMENT",
        description = "SQL to run; several statements separated by ';'.")
    String statement;

    @Option(
        names = {"-f", "--file"},
        paramLabel = "FILE",
        description = "Read the SQL from FILE.")
    Path file;
  }

  @ArgGroup(multiplicity = "1")
  Input input;

  @Option(
      names = "--format",
      defaultValue = "table",
      description = "Result format: table, csv or json (default: ${DEFAULT-VALUE}).")
  RowsFormat format;

  @Override
  public Integer call() throws IOException {
    String text;
    Path source = null;
    if (input.file != null) {
      text = UserFiles.read(input.file, "SQL_FILE", "SQL file");
      source = input.file;
    } else {
      text = input.statement;
    }
    MlvParser.Result parsed = MlvParser.parse(Position.start(source), text);
    if (!parsed.diagnostics().isEmpty()) {
      throw new MlvException(parsed.diagnostics());
    }
    if (parsed.statements().isEmpty()) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          (source == null ? "the SQL given" : "SQL file " + source)
              + " holds no statement (only blanks or comments)");
    }
    Project project =
        parsed.statements().stream().allMatch(SqlCommand::readsTheLakehouseOnly)
            ? ProjectLoading.loadDespiteViewErrors(projectOptions, spec)
            : ProjectLoading.loadValid(projectOptions, spec);
    String targetName = Targets.name(project.config(), targetOptions.target);
    var out = spec.commandLine().getOut();
    List<SqlResult> results = new ArrayList<>();
    try (Target target = Targets.open(project.config(), targetName, spec)) {
      target.checkSql(project, parsed.statements());
      runAll(target, project, parsed.statements(), results);
    } finally {
      // With JSON, one document once all ran. When a statement fails, those before it ran (an
      // INSERT is committed): their results are printed, as the table format prints them, and the
      // error follows on stderr (found by QA: they were dropped for the failure document). A
      // first statement's failure keeps that document, as nothing ran.
      if (!results.isEmpty()) {
        out.print(SqlResultRenderer.json(results, parsed.statements().size()));
        out.flush();
      }
    }
    return ExitCodes.OK;
  }

  /**
   * Whether a statement works on the lakehouse alone, not on the project's definitions: Spark SQL
   * and the SHOW statements. Those run even while a view file of the project is broken, so that its
   * SELECT can be tried out (found by QA: any error in any view refused every statement).
   */
  private static boolean readsTheLakehouseOnly(SqlStatement st) {
    return st instanceof SqlStatement.Other
        || st instanceof SqlStatement.ShowViews
        || st instanceof SqlStatement.ShowCreate;
  }

  /** Runs each statement, printing its result unless JSON, which {@code results} collects. */
  private void runAll(
      Target target, Project project, List<SqlStatement> statements, List<SqlResult> results) {
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    boolean table = format == RowsFormat.table;
    for (SqlStatement st : statements) {
      SqlResult result = target.sql(project, st, RunOutput.quiet(err));
      boolean said = result.message() != null && !result.message().isEmpty();
      if (format == RowsFormat.json) {
        results.add(result);
      } else if (table || !result.columns().isEmpty()) {
        out.print(SqlResultRenderer.render(result, format.name()));
        out.flush();
      }
      if (said && (!table || !result.columns().isEmpty())) {
        // A note on a result, or in CSV and JSON a statement's status line ("Created ..."):
        // on stderr, so that the output stays parseable.
        err.println(result.message());
      }
    }
  }
}
