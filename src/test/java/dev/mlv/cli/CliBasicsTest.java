package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

class CliBasicsTest {

  @Test
  void helpListsTheCommands() {
    CliRun r = CliRun.of("--help");
    assertThat(r.exitCode()).isZero();
    for (String c : List.of("validate", "lineage", "plan", "apply", "refresh", "runs", "sql")) {
      assertThat(r.out()).contains("  " + c);
    }
  }

  @Test
  void everyExampleFitsOnOneLineOf80Columns() {
    // Picocli wraps a footer line longer than the help's width, so an example's comment ended up
    // alone on the next line, where it reads as a command.
    java.io.PrintWriter none = new java.io.PrintWriter(java.io.Writer.nullWriter());
    for (var e : Main.createCommandLine(none, none, false).getSubcommands().entrySet()) {
      String help = e.getValue().getUsageMessage();
      int examples = help.indexOf("Examples:");
      if (examples < 0) {
        continue;
      }
      for (String line : help.substring(examples).split("\\R")) {
        if (line.isBlank()) {
          break;
        }
        assertThat(line).as(e.getKey()).matches("Examples:|  \\S.*");
      }
    }
  }

  @Test
  void theCommandListGivesEachCommandAWholeOneLineSummary() {
    // Each command's summary is its header; without one, picocli lists the description's first
    // line, cut mid-sentence. In 80 columns the list indents summaries by 14.
    CliRun r = CliRun.of("--help");
    java.io.PrintWriter none = new java.io.PrintWriter(java.io.Writer.nullWriter());
    for (var e : Main.createCommandLine(none, none, false).getSubcommands().entrySet()) {
      String[] header = e.getValue().getCommandSpec().usageMessage().header();
      assertThat(header).as(e.getKey()).hasSize(1);
      assertThat(header[0]).as(e.getKey()).endsWith(".").hasSizeLessThanOrEqualTo(80 - 14);
      assertThat(r.out()).contains(String.format("  %-10s  %s%n", e.getKey(), header[0]));
    }
  }

  /**
   * sql's and quarantine's --format take any letter case and are refused as the other commands'
   * formats are (found by QA: 'JSON' was an unknown format there alone).
   */
  @Test
  void theRowFormatsTakeAnyLetterCase() {
    java.io.PrintWriter none = new java.io.PrintWriter(java.io.Writer.nullWriter());
    for (String command : List.of("sql", "quarantine")) {
      var parsed =
          Main.createCommandLine(none, none, false)
              .parseArgs(command, "--format", "JSON", command.equals("sql") ? "SELECT 1" : "s.v");
      assertThat(parsed.subcommand().matchedOptionValue("--format", (Object) null))
          .as(command)
          .hasToString("json");
    }
    CliRun bad = CliRun.of("sql", "--format", "xml", "SELECT 1");
    assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(bad.err())
        .contains("expected one of [table, csv, json] (case-insensitive) but was 'xml'");
  }

  /** {@code mlv help} and {@code mlv help plan}, as git reads them (found by QA: exit 64). */
  @Test
  void helpAsACommandPrintsTheSameHelp() {
    CliRun top = CliRun.of("help");
    assertThat(top.exitCode()).as(top.toString()).isZero();
    assertThat(top.out()).isEqualTo(CliRun.of("--help").out());
    CliRun plan = CliRun.of("help", "plan");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out()).isEqualTo(CliRun.of("plan", "--help").out());
    CliRun unknown = CliRun.of("help", "plna");
    assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err()).contains("did you mean 'plan'?");
  }

  @Test
  void versionNamesTheEngine() {
    CliRun r = CliRun.of("--version");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("mlv ").contains("Spark 4.1.1").contains("Delta Lake 4.2.0");
  }

  /**
   * Every command's help lists -V, --version; it printed nothing and exited 0 under a subcommand
   * (found by QA: 'mlv validate -V' in a CI script passed without checking anything).
   */
  /** Every subcommand, for the cases that hold for each. */
  static java.util.stream.Stream<String> commands() {
    return java.util.stream.Stream.of(
        "validate",
        "lineage",
        "plan",
        "apply",
        "refresh",
        "runs",
        "sql",
        "seed",
        "init",
        "completion",
        "shell",
        "explain",
        "quarantine",
        "report");
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("commands")
  void versionIsPrintedUnderEveryCommand(String command) {
    CliRun r = CliRun.of(command, "-V");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo(CliRun.of("--version").out());
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("commands")
  void everyCommandHasHelpWithAnExample(String command) {
    CliRun r = CliRun.of(command, "--help");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Usage: mlv " + command).contains("Examples:");
  }

  @Test
  void quarantineOfAViewWithoutQuarantineIsADocumentWithNoRows() throws Exception {
    CliRun r =
        CliRun.of(
            "quarantine",
            "gold.formula_preference",
            "--format",
            "json",
            "-p",
            "examples/medallion");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    var doc = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
    assertThat(doc.path("formatVersion").asInt()).as(r.out()).isEqualTo(1);
    assertThat(doc.path("view").asText()).isEqualTo("gold.formula_preference");
    assertThat(doc.path("run").isNull()).isTrue();
    assertThat(doc.path("rows").isArray()).isTrue();
    assertThat(doc.path("rows")).isEmpty();
    assertThat(r.err()).contains("quarantine is off");
    // the view quarantine's help and the example's README suggest has it on
    CliRun suggested = CliRun.of("quarantine", "silver.trials_clean", "-p", "examples/medallion");
    assertThat(suggested.exitCode()).as(suggested.toString()).isZero();
    assertThat(suggested.err()).doesNotContain("quarantine is off");
  }

  @Test
  void usageErrorsHaveTheirOwnExitCodeAndNoStackTrace() {
    CliRun r = CliRun.of("validate", "--no-such-option");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err())
        .contains("mlv: unknown option '--no-such-option' for mlv validate\n")
        .doesNotContain("\tat ");
    assertThat(CliRun.of("validate", "--fromat", "json").err())
        .contains("unknown option '--fromat' for mlv validate; did you mean '--format'?");
    // A command's option given before the command (found by QA): the line as it should be.
    CliRun before = CliRun.of("-p", "proj", "validate", "--format", "json");
    assertThat(before.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(before.err())
        .contains(
            "mlv: unknown option '-p' for mlv; a command's options go after the command: mlv"
                + " validate -p proj --format json\n");
    assertThat(CliRun.of("-x", "validate").err()).contains("mlv: unknown option '-x' for mlv\n");
    // SQL starting with a -- comment is read as an option: say how to pass it (found by QA).
    CliRun comment = CliRun.of("sql", "-- the top rows\nSELECT 1 AS a");
    assertThat(comment.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(comment.err())
        .contains(
            "mlv: '-- the top rows' was read as an option; to pass SQL that starts with a --"
                + " comment, put -- before it: mlv sql -- \"-- ...\"");
    CliRun badUuid =
        CliRun.of("refresh", "-p", "examples/medallion", "--upstream-lakehouse", "notauuid");
    assertThat(badUuid.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(badUuid.err())
        .contains(
            "Invalid value for option '--upstream-lakehouse' ([WORKSPACE_ID/]LAKEHOUSE_ID):"
                + " 'notauuid' is not an upstream lakehouse: give its id (a UUID, for a lakehouse"
                + " in the target's workspace) or WORKSPACE_ID/LAKEHOUSE_ID\n")
        .doesNotContain("Exception");
    assertThat(CliRun.of("sql", "-p", "examples/medallion").err())
        .startsWith("mlv: Missing required argument");
    CliRun unknown = CliRun.of("frobnicate");
    assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err())
        .contains("mlv: unknown command 'frobnicate'; the commands are validate");
    assertThat(CliRun.of("valdate").err()).contains("did you mean 'validate'?");
    assertThat(CliRun.of("validate", "extra").err())
        .contains("mlv validate takes no arguments, but was given 'extra'");
    CliRun emptyOut = CliRun.of("plan", "-p", "examples/medallion", "-o", "");
    assertThat(emptyOut.exitCode()).as(emptyOut.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(emptyOut.err()).contains("-o is empty; give the plan a file name");
    CliRun emptyProject = CliRun.of("validate", "-p", "");
    assertThat(emptyProject.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(emptyProject.err()).contains("-p is empty");
    CliRun none = CliRun.of();
    assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(none.err()).isEqualTo("mlv: missing command\nTry 'mlv --help'.\n");
    CliRun noSql = CliRun.of("sql", "-p", "examples/medallion", "  -- nothing here\n");
    assertThat(noSql.exitCode()).as(noSql.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(noSql.err()).contains("holds no statement");
    for (String limit : new String[] {"0", "-3"}) {
      CliRun runs = CliRun.of("runs", "--limit", limit);
      assertThat(runs.exitCode()).as(runs.toString()).isEqualTo(ExitCodes.USAGE);
      assertThat(runs.err()).contains("--limit must be at least 1");
    }
  }

  @Test
  void aMissingProjectIsAOneParagraphError() {
    CliRun r = CliRun.of("validate", "-p", "/nonexistent/project");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("does not exist").doesNotContain("\tat ");
    assertThat(r.err()).contains("  hint: check the path given with -p");
    CliRun file = CliRun.of("validate", "-p", "examples/medallion/mlv.yml");
    assertThat(file.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(file.err()).contains("mlv.yml is a file; -p takes the project folder");
    // A view's file: the project that holds it is named (found by QA: it named the file's folder).
    CliRun view = CliRun.of("validate", "-p", "examples/medallion/views/silver/trials_clean.sql");
    assertThat(view.err())
        .contains(
            "trials_clean.sql is a file; -p takes the project folder (the project holding this"
                + " file: "
                + java.nio.file.Path.of("examples/medallion").toAbsolutePath()
                + ")");
    // A folder without mlv.yml: a project not made yet, or the wrong folder.
    CliRun empty = CliRun.of("validate", "-p", "src/test/java");
    assertThat(empty.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(empty.err())
        .contains(
            "(given with -p)\n  hint: run 'mlv init src/test/java' to make a project there,"
                + " or pass -p the project folder");
  }

  @Test
  void aCommandAskedForJsonFailsWithJsonOnStdout(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    java.nio.file.Files.writeString(
        project.resolve("views/broken.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.broken AS\nSELECT order_id FROM bronze.orders WHERE (\n");
    String p = project.toString();
    for (String[] args :
        new String[][] {
          {"plan", "--format", "json", "-p", p},
          {"lineage", "--format", "json", "-p", p},
          {"refresh", "--dry-run", "--format", "json", "-p", p}
        }) {
      CliRun r = CliRun.of(args);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      com.fasterxml.jackson.databind.JsonNode doc =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
      assertThat(doc.path("command").asText()).isEqualTo(args[0]);
      assertThat(doc.path("status").asText()).isEqualTo("Failed");
      assertThat(doc.path("errors").asInt()).as(r.out()).isPositive();
      assertThat(doc.path("diagnostics").get(0).path("file").asText()).endsWith("broken.sql");
      assertThat(doc.path("diagnostics").get(0).path("line").asInt()).isEqualTo(2);
      assertThat(r.err()).contains("broken.sql:2:");
    }
    // Text output stays on stderr alone.
    CliRun text = CliRun.of("plan", "-p", p);
    assertThat(text.out()).isEmpty();

    // A CI reading JUnit XML gets a report with the failure rather than an empty file; an unknown
    // key in mlv.yml fails the loading itself.
    java.nio.file.Files.writeString(
        project.resolve("mlv.yml"),
        java.nio.file.Files.readString(project.resolve("mlv.yml")) + "colour: red\n");
    CliRun junit = CliRun.of("refresh", "--format", "junit", "-p", p);
    assertThat(junit.exitCode()).as(junit.toString()).isEqualTo(ExitCodes.ERROR);
    org.w3c.dom.Document xml =
        javax.xml.parsers.DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new org.xml.sax.InputSource(new java.io.StringReader(junit.out())));
    org.w3c.dom.Element suites = xml.getDocumentElement();
    assertThat(suites.getTagName()).isEqualTo("testsuites");
    assertThat(suites.getAttribute("tests")).isEqualTo("1");
    assertThat(suites.getAttribute("failures")).isEqualTo("1");
    org.w3c.dom.Element failure = (org.w3c.dom.Element) xml.getElementsByTagName("failure").item(0);
    assertThat(failure.getTextContent()).as(junit.out()).contains("colour");
    assertThat(junit.err()).contains("colour");
  }

  /**
   * A usage error (exit 64) under --format json prints the failure document on stdout too, the
   * human message staying on stderr (found by QA: stdout was empty, while a selector naming nothing
   * printed the document). Picocli's own errors and the commands' own usage errors alike.
   */
  @Test
  void aUsageErrorAskedForJsonPrintsTheFailureDocument() throws Exception {
    String p = "examples/medallion";
    for (String[] args :
        new String[][] {
          {"refresh", "--dry-run", "--format", "json", "-p", p, "colour:red"},
          {"refresh", "--dry-run", "--format=json", "-p", p, "--bogus"},
          {"plan", "--format", "JSON", "-p", p, "--bogus"},
          {"lineage", "-p", p, "--format", "json", "colour:red"},
          {"runs", "--format", "json", "--limit", "0"},
          {"validate", "--format", "json", "-p", ""},
        }) {
      CliRun r = CliRun.of(args);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
      assertThat(r.err()).as(r.toString()).contains("Try 'mlv " + args[0] + " --help'.");
      com.fasterxml.jackson.databind.JsonNode doc =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
      assertThat(doc.path("errors").asInt()).as(r.toString()).isEqualTo(1);
      String message = doc.path("diagnostics").get(0).path("message").asText();
      assertThat(r.err()).as(r.toString()).contains(message);
      // validate's json keeps its own shape, as it does for every other failure.
      assertThat(doc.has("command")).as(r.toString()).isEqualTo(!args[0].equals("validate"));
      if (doc.has("command")) {
        assertThat(doc.path("command").asText()).isEqualTo(args[0]);
        assertThat(doc.path("status").asText()).isEqualTo("Failed");
      }
    }
    // Text, another format, a --format after -- (a selector), or a command without json: nothing.
    for (String[] args :
        new String[][] {
          {"refresh", "--dry-run", "-p", p, "colour:red"},
          {"refresh", "--format", "xml", "-p", p},
          {"validate", "-p", p, "--", "--format", "json"},
          {"init", "--format", "json", "--bogus"},
        }) {
      CliRun r = CliRun.of(args);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
      assertThat(r.out()).as(r.toString()).isEmpty();
    }
  }

  @Test
  void pathsAndSelectorsTheUserGotWrongAreErrorsNotInternalErrors(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    String p = project.toString();
    java.nio.file.Path file = java.nio.file.Files.createFile(dir.resolve("afile"));
    CliRun[] runs = {
      CliRun.of("lineage", "+", "-p", p),
      CliRun.of("plan", "-p", p, "-o", dir.resolve("missing/plan.json").toString()),
      CliRun.of("plan", "-p", p, "-o", dir.toString()),
      CliRun.of("init", file.toString()),
      CliRun.of("apply", dir.toString(), "-p", p),
      CliRun.of("sql", "-f", dir.toString(), "-p", p),
      CliRun.of("apply", writeFile(dir.resolve("bad.json"), "{\n  \"a\": [1,\n"), "-p", p),
      CliRun.of("init", "-", "--workspace", "sales.ws"),
    };
    for (CliRun r : runs) {
      // A selector or an option value that cannot be used is a usage error; the others are the
      // user's paths.
      assertThat(r.exitCode())
          .as(r.toString())
          .isEqualTo(r == runs[0] || r == runs[7] ? ExitCodes.USAGE : ExitCodes.ERROR);
      assertThat(r.err()).as(r.toString()).doesNotContain("internal error", "\tat ");
    }
    assertThat(runs[0].err()).contains("error[SELECTOR]: empty name in selector '+'");
    // Before any plan is printed: a plan that cannot be saved is not shown either.
    assertThat(runs[1].err())
        .contains("cannot save the plan to " + dir.resolve("missing/plan.json"))
        .contains("does not exist");
    assertThat(runs[1].out()).isEmpty();
    assertThat(runs[2].err()).contains("is a folder; give the plan a file name");
    assertThat(runs[2].out()).isEmpty();
    assertThat(runs[3].err()).contains("is a file; mlv init makes a project in a folder");
    assertThat(runs[4].err()).contains("error[PLAN_FILE]: plan file " + dir + " is a folder");
    assertThat(runs[5].err()).contains("error[SQL_FILE]: SQL file " + dir + " is a folder");
    // A byte order mark is not SQL (found by QA: Spark's parser refused it at 1:1).
    CliRun bom =
        CliRun.of(
            "sql", "-f", writeFile(dir.resolve("bom.sql"), "\uFEFF-- nothing to run\r\n"), "-p", p);
    assertThat(bom.exitCode()).as(bom.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(bom.err()).contains("holds no statement (only blanks or comments)");
    assertThat(runs[6].err())
        .contains(dir.resolve("bad.json") + ":3:1: error[PLAN_FILE]: ")
        .contains("is not a saved mlv plan: its JSON is malformed")
        .doesNotContain("Source");
    assertThat(runs[7].err()).contains("must not hold a dot");

    // A commit file damaged by hand names its table, for plan and for a dry run alike.
    java.nio.file.Path log =
        project.resolve(
            ".mlv/warehouse/my_lakehouse.Lakehouse/Tables/silver/orders_clean/_delta_log");
    java.nio.file.Files.createDirectories(log);
    java.nio.file.Files.writeString(log.resolve("00000000000000000000.json"), "garbage\n");
    for (String command : new String[] {"plan", "refresh"}) {
      CliRun r =
          command.equals("plan")
              ? CliRun.of("plan", "-p", p)
              : CliRun.of("refresh", "--dry-run", "-p", p);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(r.err())
          .as(r.toString())
          .contains("error[DELTA_LOG]: cannot read the Delta log of ")
          .contains("silver.orders_clean")
          .contains("Could not parse JSON: garbage")
          .doesNotContain("internal error", "\tat ");
    }
  }

  @Test
  void aSavedPlanWithNoChangesSaysSoAndRefusesPrune(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    // With no views, plan and apply read the Delta logs only: no Spark.
    try (var files = java.nio.file.Files.walk(project.resolve("views"))) {
      files
          .sorted(java.util.Comparator.reverseOrder())
          .filter(f -> !f.equals(project.resolve("views")))
          .forEach(f -> f.toFile().delete());
    }
    String p = project.toString();
    String planFile = dir.resolve("plan.json").toString();
    assertThat(CliRun.of("plan", "-o", planFile, "-p", p).exitCode()).isZero();

    CliRun fresh = CliRun.of("apply", "-p", p);
    CliRun saved = CliRun.of("apply", planFile, "-p", p);
    assertThat(saved.exitCode()).as(saved.toString()).isZero();
    assertThat(saved.out()).contains("No changes.").isEqualTo(fresh.out());
    CliRun json = CliRun.of("apply", planFile, "--format", "json", "-p", p);
    assertThat(json.exitCode()).as(json.toString()).isZero();
    var doc = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
    assertThat(doc.path("summary").path("create").isInt()).as(json.out()).isTrue();
    assertThat(doc.path("changes").isArray()).isTrue();

    // The saved plan fixed what to drop; --prune beside it would be silently ignored.
    CliRun prune = CliRun.of("apply", planFile, "--prune", "-p", p);
    assertThat(prune.exitCode()).as(prune.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(prune.err()).contains("'mlv plan --prune -o FILE'");
    assertThat(prune.out()).isEmpty();
  }

  /**
   * A broken view file does not stop Spark SQL on the lakehouse, so its SELECT can be tried out: a
   * warning says the project has errors (found by QA: any error in any view refused every
   * statement). A statement that works on the views' definitions still needs them valid.
   */
  @Test
  void sparkSqlRunsWhileAViewFileIsBroken(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    String p = project.toString();
    java.nio.file.Files.writeString(
        project.resolve("views/silver/broken.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.broken AS\nSELECT id FORM bronze.orders\n");
    CliRun select = CliRun.of("sql", "-p", p, "SELECT 40 + 2 AS answer");
    assertThat(select.exitCode()).as(select.toString()).isZero();
    assertThat(select.out()).contains("42");
    assertThat(select.err())
        .isEqualTo(
            "warning: the project has 1 error in its views ('mlv validate' lists them); the SQL"
                + " runs on the lakehouse as it is\n");
    CliRun refresh = CliRun.of("sql", "-p", p, "REFRESH MATERIALIZED LAKE VIEW silver.broken");
    assertThat(refresh.exitCode()).as(refresh.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(refresh.err()).contains("views/silver/broken.sql:2:").contains("error[SQL_PARSE]");
  }

  @Test
  void aSavedPlanIsStaleOnceTheViewsSettingsInMlvYmlChange(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    String p = project.toString();
    String planFile = dir.resolve("plan.json").toString();
    // The line after the plan gives the apply command to run, with the plan's -p (found by QA:
    // after -t dev it left -t out, and that apply refused the plan as stale).
    assertThat(CliRun.of("plan", "-o", planFile, "-p", p, "-t", "local").out())
        .contains("; apply it with 'mlv apply -p " + p + " -t local " + planFile + "'.");
    assertThat(CliRun.of("plan", "-o", planFile, "-p", p).out())
        .contains("; apply it with 'mlv apply -p " + p + " " + planFile + "'.");
    // The plan turns change data feed on for the views' sources; this setting says not to.
    java.nio.file.Path yml = project.resolve("mlv.yml");
    java.nio.file.Files.writeString(
        yml, java.nio.file.Files.readString(yml) + "defaults:\n  enable_cdf: false\n");
    CliRun stale = CliRun.of("apply", planFile, "--auto-approve", "-p", p);
    assertThat(stale.exitCode()).as(stale.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(stale.err())
        .contains("error[PLAN_STALE]: the project's definitions, or their settings in mlv.yml,");
  }

  @Test
  void applyWithStdinClosedPutsTheErrorOnALineOfItsOwn(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    String p = dir.resolve("p").toString();
    assertThat(CliRun.of("init", p).exitCode()).isZero();
    var stdin = System.in;
    CliRun text;
    CliRun json;
    try {
      System.setIn(new java.io.ByteArrayInputStream(new byte[0]));
      text = CliRun.of("apply", "-p", p);
      System.setIn(new java.io.ByteArrayInputStream(new byte[0]));
      json = CliRun.of("apply", "--format", "json", "-p", p);
    } finally {
      System.setIn(stdin);
    }
    assertThat(text.exitCode()).as(text.toString()).isEqualTo(ExitCodes.ERROR);
    // stdout and stderr meet on one terminal: the question's line ends before the error.
    assertThat(text.out()).endsWith("Only 'yes' is accepted: \n");
    assertThat(json.err())
        .as(json.toString())
        .contains("Only 'yes' is accepted: \nerror[CONFIRM]: ");
  }

  @Test
  void aFileThatCannotBeWrittenOrReadSaysWhy(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    String p = project.toString();
    // /proc takes no new file: the temporary file beside the output cannot be made.
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.isRegularFile(java.nio.file.Path.of("/proc/version")));
    for (String command : new String[] {"plan", "report"}) {
      CliRun r = CliRun.of(command, "-o", "/proc/version", "-p", p);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(r.err())
          .as(r.toString())
          .containsPattern(
              "error\\[(PLAN_OUT|REPORT_WRITE)\\]: cannot save the (plan|report) to /proc/version: [a-z][a-z /-]+ \\(writing"
                  + " /proc/version.tmp beside it\\)");
    }
  }

  @Test
  void dashOIsStandardOutputAndADeviceIsWrittenNotReplaced(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    String p = project.toString();
    java.nio.file.Path dash = java.nio.file.Path.of("-");
    org.junit.jupiter.api.Assumptions.assumeFalse(java.nio.file.Files.exists(dash));
    try {
      CliRun plan = CliRun.of("plan", "-o", "-", "-p", p);
      assertThat(plan.exitCode()).as(plan.toString()).isZero();
      // The plan file's JSON, as --format json prints it, and nothing else on stdout.
      assertThat(plan.out()).startsWith("{").doesNotContain("Saved the plan", "Plan for");
      dev.mlv.plan.PlanJson.read(plan.out(), "stdout");
      CliRun report = CliRun.of("report", "-o", "-", "-p", p);
      assertThat(report.exitCode()).as(report.toString()).isZero();
      assertThat(report.out()).startsWith("<!DOCTYPE html>");
      assertThat(report.err()).startsWith("wrote the report to standard output: ");
      assertThat(dash).doesNotExist();
    } finally {
      java.nio.file.Files.deleteIfExists(dash);
    }
    // A device through a link of the test's own, so that nothing can replace /dev/full itself.
    java.nio.file.Path full = java.nio.file.Path.of("/dev/full");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.exists(full) && !java.nio.file.Files.isRegularFile(full));
    java.nio.file.Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("full"), full);
    for (String command : new String[] {"plan", "report"}) {
      CliRun r = CliRun.of(command, "-o", link.toString(), "-p", p);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(r.err())
          .as(r.toString())
          .containsPattern(
              "error\\[(PLAN_OUT|REPORT_WRITE)\\]: cannot save the (plan|report) to "
                  + java.util.regex.Pattern.quote(link.toString())
                  + ": No space left on device\n")
          .doesNotContain("\tat ", "wrote ");
      assertThat(r.out()).doesNotContain("Saved the plan");
      assertThat(java.nio.file.Files.isSymbolicLink(link)).isTrue();
    }
    assertThat(java.nio.file.Files.isRegularFile(full)).isFalse();
  }

  @Test
  void anUnreadableMlvYmlSaysWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    java.nio.file.Path project = dir.resolve("p");
    assertThat(CliRun.of("init", project.toString()).exitCode()).isZero();
    String p = project.toString();
    // root reads any file, so this runs only elsewhere.
    java.nio.file.Path yml = project.resolve("mlv.yml");
    yml.toFile().setReadable(false, false);
    try {
      org.junit.jupiter.api.Assumptions.assumeFalse(java.nio.file.Files.isReadable(yml));
      CliRun r = CliRun.of("validate", "-p", p);
      assertThat(r.err()).contains("cannot read mlv.yml: permission denied");
    } finally {
      yml.toFile().setReadable(true, false);
    }
  }

  @Test
  void refreshingASourceTableSaysHowToSelectItsReaders(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    String p = dir.resolve("p").toString();
    assertThat(CliRun.of("init", p).exitCode()).isZero();
    // Succeeding at refreshing nothing would hide the mistake, as a selector naming nothing does.
    for (String command : new String[] {"refresh", "plan"}) {
      CliRun r =
          command.equals("refresh")
              ? CliRun.of("refresh", "--dry-run", "bronze.orders", "-p", p)
              : CliRun.of("plan", "bronze.orders", "-p", p);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(r.err())
          .as(r.toString())
          .isEqualTo(
              "error[NO_VIEW]: nothing to "
                  + command
                  + ": the selection holds no view, only the source table bronze.orders;"
                  + " 'bronze.orders+' selects the views that read it\n");
    }
    CliRun real = CliRun.of("refresh", "bronze.orders", "-p", p);
    assertThat(real.exitCode()).as(real.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(real.err()).contains("'bronze.orders+' selects the views");
    // The lineage of a table alone is a fair question.
    CliRun lineage = CliRun.of("lineage", "--format", "text", "bronze.orders", "-p", p);
    assertThat(lineage.exitCode()).as(lineage.toString()).isZero();
    assertThat(lineage.out()).contains("bronze.orders");
    // With no selector, a project without views yet has nothing to refresh, and that is fine.
    CliRun all = CliRun.of("refresh", "--dry-run", "-p", p);
    assertThat(all.err()).doesNotContain("NO_VIEW");
  }

  @Test
  void anUpperCaseWorkspaceOrLakehouseStillShowsShortNames(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    String p = dir.resolve("q").toString();
    CliRun init = CliRun.of("init", p, "--workspace", "Contoso", "--lakehouse", "SalesLH");
    assertThat(init.exitCode()).as(init.toString()).isZero();
    for (String[] args :
        new String[][] {
          {"lineage", "--format", "text", "-p", p},
          {"plan", "-p", p},
          {"refresh", "--dry-run", "-p", p}
        }) {
      CliRun r = CliRun.of(args);
      // Nothing is deployed yet, so the dry run says the refresh would fail.
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(args[0].equals("refresh") ? 1 : 0);
      assertThat(r.out()).as(args[0]).contains("silver.orders_clean");
      assertThat(r.out() + r.err()).as(args[0]).doesNotContainIgnoringCase("contoso.");
    }
  }

  @Test
  void initRefusesALakehouseNameFabricRefusesBeforeWritingAnything(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    for (String lakehouse : new String[] {"Has Space", "1st_lh", "sales-lh", "l\u00e4ke"}) {
      java.nio.file.Path p = dir.resolve("q");
      CliRun r = CliRun.of("init", p.toString(), "--lakehouse", lakehouse);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
      assertThat(r.err()).contains("--lakehouse '" + lakehouse + "'").contains("letters, digits");
      assertThat(p).doesNotExist();
    }
    assertThat(CliRun.of("init", "-", "--lakehouse", "Has Space").err())
        .contains("holds a space, which Fabric does not allow");
    // Workspace names may hold blanks.
    CliRun ok = CliRun.of("init", dir.resolve("w").toString(), "--workspace", "Sales EU");
    assertThat(ok.exitCode()).as(ok.toString()).isZero();
  }

  @Test
  void initWritesAnyWorkspaceOrLakehouseNameAsYamlReadsItBack(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    String p = dir.resolve("q").toString();
    // A lakehouse name is letters, digits and '_', but YAML still reads 'yes' as a boolean.
    CliRun r = CliRun.of("init", p, "--workspace", "Sales \"EU\": 1", "--lakehouse", "yes");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    CliRun lineage = CliRun.of("lineage", "--format", "json", "-p", p);
    assertThat(lineage.exitCode()).as(lineage.toString()).isZero();
    assertThat(lineage.out())
        .contains("\"workspace\" : \"sales \\\"eu\\\": 1\"")
        .contains("\"lakehouse\" : \"yes\"");
    assertThat(InitCommand.scalar("yes")).isEqualTo("\"yes\"");
    assertThat(InitCommand.scalar("sales_lh")).isEqualTo("sales_lh");
    assertThat(InitCommand.shellWord("/tmp/my project's")).isEqualTo("'/tmp/my project'\\''s'");
    assertThat(InitCommand.shellWord("/tmp/p-1")).isEqualTo("/tmp/p-1");
    CliRun empty = CliRun.of("init", dir.resolve("e").toString(), "--name", "");
    assertThat(empty.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(empty.err()).contains("--name must not be empty");
    CliRun noLakehouse = CliRun.of("init", dir.resolve("e").toString(), "--lakehouse", "");
    assertThat(noLakehouse.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(noLakehouse.err()).contains("--lakehouse must not be empty");
    assertThat(CliRun.of("plan", "-p", "examples/medallion", "--detailed-exit").err())
        .contains("did you mean '--detailed-exitcode'?");
    assertThat(CliRun.of("validate", "-x").err())
        .contains("mlv: unknown option '-x' for mlv validate");
  }

  @Test
  void initKeepsTheNameGivenAndAnExistingGitignore(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path repo = dir.resolve("repo");
    java.nio.file.Files.createDirectories(repo);
    writeFile(repo.resolve(".gitignore"), "target/");
    CliRun r = CliRun.of("init", repo.toString(), "--name", "a: b # c");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .doesNotContain("created .gitignore")
        .contains("appended .mlv/ to the existing .gitignore");
    assertThat(java.nio.file.Files.readString(repo.resolve(".gitignore")))
        .isEqualTo("target/\n# the local lakehouse and mlv's caches\n.mlv/\n");
    assertThat(java.nio.file.Files.readString(repo.resolve("mlv.yml")))
        .contains("\nname: \"a: b # c\"\n");
    assertThat(CliRun.of("validate", "-p", repo.toString()).exitCode()).isZero();
    // a .gitignore that already ignores .mlv/ is left as it is
    java.nio.file.Path other = dir.resolve("other");
    java.nio.file.Files.createDirectories(other);
    writeFile(other.resolve(".gitignore"), "/.mlv/\n");
    CliRun kept = CliRun.of("init", other.toString());
    assertThat(kept.out()).contains("kept .gitignore (it already ignores .mlv/)");
    assertThat(java.nio.file.Files.readString(other.resolve(".gitignore"))).isEqualTo("/.mlv/\n");
    CliRun twoLines = CliRun.of("init", dir.resolve("t").toString(), "--name", "a\nb");
    assertThat(twoLines.exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void initMakesAValidProjectAndNeverOverwrites(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    CliRun r = CliRun.of("init", dir.resolve("sales").toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("created mlv.yml")
        .contains("created views/silver/orders_clean.sql");
    CliRun v = CliRun.of("validate", "-p", dir.resolve("sales").toString());
    assertThat(v.exitCode()).as(v.toString()).isZero();
    assertThat(v.out()).contains("2 views, 0 errors, 0 warnings");
    CliRun lineage = CliRun.of("lineage", "--dot", "-p", dir.resolve("sales").toString());
    assertThat(lineage.exitCode()).as(lineage.toString()).isZero();
    assertThat(lineage.out()).contains("digraph").contains("silver.orders_clean");
    CliRun plan = CliRun.of("plan", "--detailed-exitcode", "-p", dir.resolve("sales").toString());
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(ExitCodes.CHANGES);
    assertThat(plan.out()).contains("2 to create");
    assertThat(dir.resolve("sales/.github/workflows/mlv.yml"))
        .content()
        .contains("mlv validate", "mlv plan --detailed-exitcode", "mlv lineage --dot");
    assertThat(dir.resolve("sales/.gitignore")).content().contains(".mlv/");
    CliRun again = CliRun.of("init", dir.resolve("sales").toString());
    assertThat(again.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(again.err())
        .contains("mlv.yml, ")
        .contains("views/gold/daily_revenue.sql")
        .contains("already exist; mlv init never overwrites files");
    // nothing was half-written: the files that did not exist are not created either
    java.nio.file.Path partial = dir.resolve("partial");
    CliRun.of("init", partial.toString());
    assertThat(partial.resolve("seeds/orders.csv").toFile().delete()).isTrue();
    assertThat(CliRun.of("init", partial.toString()).exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(partial.resolve("seeds/orders.csv")).doesNotExist();
  }

  /**
   * A project made in a subfolder of a git repository gets a workflow that runs mlv there, and a
   * note that GitHub reads workflows only from the repository's root (found by QA: the workflow ran
   * 'mlv validate' in the repository's root and sat where GitHub never runs it).
   */
  @Test
  void initInASubfolderOfARepositoryPointsItsWorkflowAtTheProject(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Files.createDirectories(dir.resolve("repo/.git"));
    CliRun r = CliRun.of("init", dir.resolve("repo/data/sales").toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains(
            "note: GitHub runs workflows only from the repository's root: move"
                + " .github/workflows/mlv.yml to "
                + dir.resolve("repo/.github/workflows")
                + " (it already runs mlv in data/sales)");
    assertThat(dir.resolve("repo/data/sales/.github/workflows/mlv.yml"))
        .content()
        .contains("defaults:\n  run: {working-directory: 'data/sales'}\njobs:\n");
    // At the repository's root: the workflow as it was, and no note.
    java.nio.file.Files.createDirectories(dir.resolve("root/.git"));
    CliRun atRoot = CliRun.of("init", dir.resolve("root").toString());
    assertThat(atRoot.out()).doesNotContain("note:");
    assertThat(dir.resolve("root/.github/workflows/mlv.yml"))
        .content()
        .doesNotContain("working-directory");
  }

  /** Found by QA: --no-color with --color=always was taken silently (as never). */
  @Test
  void noColorAndColorAlwaysAreAUsageError() {
    CliRun both =
        CliRun.of(
            "refresh", "-p", "examples/medallion", "--dry-run", "--no-color", "--color=always");
    assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(both.err()).contains("--no-color and --color=always ask for two things; use one");
  }

  /** Found by QA: a mistyped target listed the targets, with no suggestion. */
  @Test
  void aMistypedTargetIsNamedBack() {
    CliRun typo = CliRun.of("plan", "-p", "examples/medallion", "-t", "Locl");
    assertThat(typo.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(typo.err())
        .contains("error[TARGET_UNKNOWN]: no target named 'Locl' in ")
        .contains("mlv.yml; did you mean 'local'?");
    CliRun far = CliRun.of("plan", "-p", "examples/medallion", "-t", "production");
    assertThat(far.err()).contains("mlv.yml; known targets: local");
  }

  @Test
  void completionScriptsComeFromTheCommandModel() throws Exception {
    CliRun bash = CliRun.of("completion", "bash");
    assertThat(bash.exitCode()).isZero();
    assertThat(bash.out())
        .contains("complete -F")
        .contains("refresh")
        .contains("--detailed-exitcode");
    // the script really loads in bash and registers completion for mlv
    java.nio.file.Path script = java.nio.file.Files.createTempFile("mlv-completion", ".bash");
    java.nio.file.Files.writeString(script, bash.out());
    Process p =
        new ProcessBuilder("bash", "-c", "source \"$0\" && complete -p mlv", script.toString())
            .redirectErrorStream(true)
            .start();
    String registered = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(registered).isZero();
    assertThat(registered).contains("-F _complete_mlv mlv");
    // Names come from 'mlv lineage' with the -p typed (a stub mlv here says what it got): views
    // only for the commands that take only views, each escaped so the shell reads it as one word.
    String stub =
        "mlv() { case \"$*\" in"
            + " 'lineage -p /proj --format names --views-only')"
            + "   printf '%s\\n' 'silver.`clean orders`' 'silver.`a\\b`' silver.other ;;"
            + " 'lineage -p /proj --format names')"
            + "   printf '%s\\n' bronze.orders 'silver.`clean orders`' ;;"
            + " *) return 1 ;; esac; };"
            + " offered() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(( $# - 1 )); _complete_mlv;"
            + "   printf '%s\\n' \"${COMPREPLY[@]}\" ---; };"
            + " offered mlv explain -p /proj '';"
            + " offered mlv refresh -p /proj silver.o;"
            + " offered mlv lineage -p /proj '';"
            + " offered mlv plan -p /proj 'silver.\\`c';"
            // what is offered runs as typed: bash reads the escaped word back as the name
            + " eval \"printf '<%s>' $(offered mlv explain -p /proj 'silver.\\`a' | head -1)\"";
    String completed = completedInBash(stub);
    assertThat(completed)
        .isEqualTo(
            String.join(
                "\n",
                "silver.\\`clean\\ orders\\`",
                "silver.\\`a\\\\b\\`",
                "silver.other",
                "---",
                "silver.other",
                "---",
                "bronze.orders",
                "silver.\\`clean\\ orders\\`",
                "---",
                "silver.\\`clean\\ orders\\`",
                "---",
                "<silver.`a\\b`>"));
    java.nio.file.Files.delete(script);
    // picocli's script serves zsh too, loading compinit only when it is not loaded yet.
    CliRun zsh = CliRun.of("completion", "zsh");
    assertThat(zsh.out()).isEqualTo(bash.out()).contains("if ! type compdef > /dev/null; then");
    assertThat(CliRun.of("completion", "fish").exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  /**
   * What mlv's bash completion script prints when {@code stub} (a stub mlv and the words typed)
   * runs after it in bash; compopt complains outside a real completion, so stderr is dropped.
   */
  private static String completedInBash(String stub) throws Exception {
    java.nio.file.Path script = java.nio.file.Files.createTempFile("mlv-completion", ".bash");
    try {
      java.nio.file.Files.writeString(script, CliRun.of("completion", "bash").out());
      Process names =
          new ProcessBuilder("bash", "-c", "source \"$0\" && " + stub, script.toString())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String completed = new String(names.getInputStream().readAllBytes());
      assertThat(names.waitFor()).as(completed).isZero();
      return completed;
    } finally {
      java.nio.file.Files.delete(script);
    }
  }

  @Test
  void completionMatchesTheWholeWordThatBashSplitAtAColon() throws Exception {
    // bash splits at ':' (COMP_WORDBREAKS): an interactive bash gives the function
    // 'tag:s' as tag, :, s (the words below are what it gave). Offered in full, a name would
    // have been pasted after the last ':' (tag:silver.other), so the offers drop what the word
    // already has up to it.
    String stub =
        "mlv() { case \"$*\" in"
            + " 'lineage -p /proj --format names --views-only')"
            + "   printf '%s\\n' 'silver.`a:b`' 'silver.`a:c`' silver.other ;;"
            + " *) return 1 ;; esac; };"
            + " typed() { COMP_LINE=$1; COMP_POINT=${#1}; shift; COMP_WORDS=(\"$@\");"
            + "   COMP_CWORD=$(( $# - 1 )); _complete_mlv; printf '%s\\n' \"${COMPREPLY[@]}\" ---; };"
            + " typed 'mlv refresh -p /proj silver.\\`a:' mlv refresh -p /proj 'silver.\\`a' :;"
            + " typed 'mlv refresh -p /proj silver.\\`a:c' mlv refresh -p /proj 'silver.\\`a' : c;"
            + " typed 'mlv refresh -p /proj tag:s' mlv refresh -p /proj tag : s;"
            // a blank before the ':' keeps the words apart
            + " typed 'mlv refresh -p /proj x :s' mlv refresh -p /proj x : s;"
            + " typed 'mlv refresh -p /proj silver.o' mlv refresh -p /proj silver.o";
    String completed = completedInBash(stub);
    assertThat(completed)
        .isEqualTo(
            String.join(
                "\n",
                "b\\`",
                "c\\`",
                "---",
                "c\\`",
                "---",
                "---",
                "---",
                "silver.other",
                "---",
                ""));
  }

  @Test
  void completionKeepsAPlusBeforeANameAndOffersTheTagsAfterTag() throws Exception {
    // The words are what an interactive bash gives: it splits tag:d at the ':'.
    String stub =
        "mlv() { case \"$*\" in"
            + " 'lineage -p /proj --format names --views-only')"
            + "   printf '%s\\n' silver.orders silver.other gold.x ;;"
            + " 'lineage -p /proj --format names --tags') printf '%s\\n' tag:daily tag:pii ;;"
            + " *) return 1 ;; esac; };"
            + " typed() { COMP_LINE=$1; COMP_POINT=${#1}; shift; COMP_WORDS=(\"$@\");"
            + "   COMP_CWORD=$(( $# - 1 )); _complete_mlv; printf '%s\\n' \"${COMPREPLY[@]}\" ---; };"
            + " typed 'mlv refresh -p /proj +silver.or' mlv refresh -p /proj +silver.or;"
            + " typed 'mlv plan -p /proj +' mlv plan -p /proj +;"
            + " typed 'mlv refresh -p /proj tag:' mlv refresh -p /proj tag :;"
            + " typed 'mlv lineage -p /proj +tag:d' mlv lineage -p /proj +tag : d";
    String completed = completedInBash(stub);
    assertThat(completed)
        .isEqualTo(
            String.join(
                "\n",
                "+silver.orders",
                "---",
                "+silver.orders",
                "+silver.other",
                "+gold.x",
                "---",
                "daily",
                "pii",
                "---",
                "daily",
                "---",
                ""));
    // The tags mlv completes from: lineage's hidden --tags lists them as selectors.
    assertThat(CliRun.of("lineage", "-p", "examples/medallion", "--tags").out())
        .isEqualTo("tag:quality\n");
  }

  private static String writeFile(java.nio.file.Path file, String text) throws java.io.IOException {
    return java.nio.file.Files.writeString(file, text).toString();
  }
}
