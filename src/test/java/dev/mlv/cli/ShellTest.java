package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.project.Project;
import dev.mlv.target.Target;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.Parser.ParseContext;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code mlv shell} driven through a JLine dumb terminal, as a person would type into it. */
class ShellTest {
  @TempDir static Path dir;
  static Path project;

  @BeforeAll
  static void scaffold() {
    project = dir.resolve("shop");
    CliRun init = CliRun.of("init", project.toString());
    assertThat(init.exitCode()).as(init.toString()).isZero();
  }

  private static CommandLine.Model.CommandSpec shellSpec() {
    StringWriter sink = new StringWriter();
    CommandLine cl = Main.createCommandLine(new PrintWriter(sink), new PrintWriter(sink), false);
    return cl.getSubcommands().get("shell").getCommandSpec();
  }

  private record Ran(int code, String out) {}

  private static Ran ran(String input) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code;
    try (Terminal t = terminal(input, out)) {
      code = new Shell(shellSpec(), project, "local", t, false).run();
    }
    return new Ran(code, out.toString(StandardCharsets.UTF_8));
  }

  /** A terminal that types {@code input} and keeps what is printed in {@code out}. */
  private static Terminal terminal(String input, ByteArrayOutputStream out) throws Exception {
    return new DumbTerminal(
        "test",
        "dumb",
        new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
        out,
        StandardCharsets.UTF_8);
  }

  @Test
  void blanksAfterACommandExitInsideSqlAndAnInputEndingMidStatementBehave() throws Exception {
    // Tab completion leaves a blank after the word; exit on a line of unfinished SQL leaves.
    Ran completed = ran("validate  \nSELECT 1\nexit\n");
    assertThat(completed.out())
        .doesNotContain("Unmatched argument")
        .contains("(the unfinished statement was not run)");
    assertThat(completed.code()).as(completed.out()).isZero();

    Ran cut = ran("validate\nSELECT 1\n");
    assertThat(cut.out()).contains("the input ended inside a statement without ';'");
    assertThat(cut.code()).isEqualTo(ExitCodes.ERROR);

    // A script fails if any of its commands did, not only the last.
    Ran early = ran("explain nope.x\nvalidate\n");
    assertThat(early.code()).as(early.out()).isEqualTo(ExitCodes.ERROR);
    // As its help says: the code is the first failure's (1), not the last's (64).
    Ran twice = ran("explain nope.x\nlineage +\n");
    assertThat(twice.out()).contains("(exit code 64)");
    assertThat(twice.code()).as(twice.out()).isEqualTo(ExitCodes.ERROR);

    Ran help = ran("help nope\n");
    assertThat(help.out()).contains("mlv: unknown command 'nope'");
    assertThat(help.code()).isEqualTo(ExitCodes.USAGE);

    // A misspelt command is refused at once, not read as SQL that swallows the lines up to the
    // next ';' (found by QA: 'refrsh' ate the commands after it).
    Ran typo = ran("refrsh --dry-run\nvalidate\nbogus-command\nexit\n");
    assertThat(typo.out())
        .contains(
            "mlv: unknown command 'refrsh'; did you mean 'refresh'? 'help' lists the commands;")
        .contains("mlv: unknown command 'bogus-command'; 'help' lists the commands;")
        .contains("ok: ")
        .doesNotContain("unfinished statement");
    assertThat(typo.code()).as(typo.out()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void ctrlCDuringAStatementCancelsItAndTheShellGoesOn() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String input =
        "SELECT count(*) AS n FROM range(0, 50000000000, 1, 2);\nSELECT 41 + 1 AS after;\n";
    try (Terminal t = terminal(input, out)) {
      java.util.concurrent.CompletableFuture<Integer> code =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> new Shell(shellSpec(), project, "local", t, false).run());
      long deadline = System.nanoTime() + java.time.Duration.ofMinutes(2).toNanos();
      while (!jobRunning() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      t.raise(Terminal.Signal.INT);
      assertThat(code.get(2, java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(ExitCodes.ERROR);
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("cancel").contains("42");
  }

  /**
   * Ctrl-C during a local 'refresh' command: its Spark job is cancelled, the run is recorded
   * Interrupted (exit code 130), the view keeps its previous version and the shell goes on.
   */
  @Test
  void ctrlCDuringALocalRefreshStopsItAndTheShellGoesOn() throws Exception {
    Path slowShop = dir.resolve("slow_shop");
    CliRun init = CliRun.of("init", slowShop.toString());
    assertThat(init.exitCode()).as(init.toString()).isZero();
    // Ten minutes of sleep for a row with order_id > 100, none for the seeded ones.
    Files.writeString(
        slowShop.resolve("views/silver/slow.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.slow AS SELECT order_id, reflect("
            + "'java.lang.Thread', 'sleep', CAST(CASE WHEN order_id > 100 THEN 600000 ELSE 0 END"
            + " AS BIGINT)) AS slept FROM bronze.orders\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String input =
        "seed\n"
            + "apply --auto-approve --no-progress\n"
            + "INSERT INTO bronze.orders VALUES (900, 'C9', 1.0, DATE'2026-11-03');\n"
            + "refresh silver.slow --full --no-progress\n"
            + "SELECT count(*) AS n FROM silver.slow WHERE order_id = 900;\n"
            + "runs\n";
    try (Terminal t = terminal(input, out)) {
      java.util.concurrent.CompletableFuture<Integer> code =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> new Shell(shellSpec(), slowShop, "local", t, false).run());
      long deadline = System.nanoTime() + java.time.Duration.ofMinutes(3).toNanos();
      // Started by apply, then by refresh: the second is the one to stop.
      while (started(out, "started   silver.slow (full)") < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      while (!jobRunning() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(jobRunning()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
      t.raise(Terminal.Signal.INT);
      assertThat(code.get(3, java.util.concurrent.TimeUnit.MINUTES))
          .isEqualTo(ExitCodes.INTERRUPTED);
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .contains("stopped after 0 of 1 view")
        .contains("recorded as Interrupted")
        .contains("the run was interrupted while this view was written; it was left as it was")
        .contains("(exit code 130)")
        .contains("n\n-\n0\n(1 row)")
        .containsPattern("(?m)^\\S+ +Interrupted +.* 1 view, 1 failed")
        .doesNotContain("\tat ");
  }

  /**
   * Found by QA: RENAME TO a quarantine table's name was an internal error that lost the view and,
   * as Spark's AnalysisException is checked, went past the shell's handler and ended a piped
   * script. Now the rename is refused (RESERVED_NAME) before anything moves and the next line runs.
   */
  @Test
  void aRenameToAReservedNameIsRefusedAndTheNextLineRuns() throws Exception {
    Path shop = dir.resolve("reserved_shop");
    CliRun init = CliRun.of("init", shop.toString());
    assertThat(init.exitCode()).as(init.toString()).isZero();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String input =
        "seed\n"
            + "apply --auto-approve --no-progress\n"
            + "ALTER MATERIALIZED LAKE VIEW silver.orders_clean"
            + " RENAME TO silver.orders_clean__quarantine;\n"
            + "SELECT 41 + 1 AS after;\n";
    int code;
    try (Terminal t = terminal(input, out)) {
      code = new Shell(shellSpec(), shop, "local", t, false).run();
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(printed).isEqualTo(ExitCodes.ERROR);
    assertThat(printed)
        .contains("error[RESERVED_NAME]: silver.orders_clean__quarantine is a name mlv keeps")
        .contains("after\n-----\n   42")
        .doesNotContain("internal error");
    Path silver = shop.resolve(".mlv/warehouse");
    try (var found = Files.walk(silver)) {
      assertThat(found.map(f -> f.getFileName().toString()))
          .contains("orders_clean")
          .noneMatch(n -> n.contains("__quarantine"));
    }
  }

  /**
   * Whatever a line throws is one paragraph, the trace only with --debug, and not the shell's end.
   */
  @Test
  void anUnexpectedExceptionOfALineIsOneParagraph() {
    StringWriter said = new StringWriter();
    // As Spark throws its AnalysisException: a checked exception no signature declares.
    int code =
        Shell.guarded(
            new PrintWriter(said, true),
            false,
            () -> {
              throw ShellTest.<RuntimeException>sneaky(
                  new Exception("[TABLE_OR_VIEW_NOT_FOUND] no such table\nmore text"));
            });
    assertThat(code).isEqualTo(ExitCodes.ERROR);
    assertThat(said.toString())
        .isEqualTo(
            "mlv: internal error: Exception: [TABLE_OR_VIEW_NOT_FOUND] no such table (run with"
                + " --debug for details)\n");
    StringWriter debug = new StringWriter();
    Shell.guarded(
        new PrintWriter(debug, true),
        true,
        () -> {
          throw new IllegalStateException("boom");
        });
    assertThat(debug.toString())
        .startsWith("mlv: internal error: IllegalStateException: boom\n")
        .contains("\tat ");
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  private static int started(ByteArrayOutputStream out, String line) {
    String text = out.toString(StandardCharsets.UTF_8);
    int n = 0;
    for (int at = text.indexOf(line); at >= 0; at = text.indexOf(line, at + 1)) {
      n++;
    }
    return n;
  }

  private static boolean jobRunning() {
    return org.apache.spark.sql.SparkSession.getDefaultSession().isDefined()
        && org.apache.spark.sql.SparkSession.getDefaultSession()
                .get()
                .sparkContext()
                .statusTracker()
                .getActiveJobIds()
                .length
            > 0;
  }

  /** Runs the shell on {@code input} and returns everything it printed. */
  private static String session(String input) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Terminal t = terminal(input, out)) {
      new Shell(shellSpec(), project, "local", t, false).run();
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void runsCommandsAndMultiLineSqlAndKeepsHistory() throws Exception {
    String out =
        session(
            "validate\n"
                + "seed\n"
                + "apply\n"
                + "validate\n"
                + "SELECT order_id, amount\n"
                + "  FROM bronze.orders -- a comment; not the end\n"
                + "  WHERE amount > 100 AND customer_id <> 'x;y'\n"
                + "  ORDER BY order_id;\n"
                + "help plan\n"
                + "lineage --nope\n"
                + "SELECT * FROM no_such.table;\n"
                + "exit\n");
    assertThat(out)
        .contains("ok: 2 files, 2 views, 0 errors, 0 warnings")
        .contains("seeded bronze.orders")
        // apply's confirmation is read through the shell: the next line is its answer, not a
        // command
        .contains("Apply these changes? Only 'yes' is accepted: ")
        .contains("Apply cancelled: the answer was 'validate', not 'yes'.")
        // the statement ran once, after its last line, as an aligned table
        .contains(
            "order_id | amount\n---------+-------\n       1 |  120.5\n       4 |  240.0\n(2 rows)")
        .contains("Usage: mlv plan")
        .contains("mlv: unknown option '--nope' for mlv lineage")
        .contains("(exit code 64)")
        // placed by the line of the piped input it is on (an answer counts as a line)
        .contains("<input>:11:15: ")
        .contains("no_such");
    assertThat(out).doesNotContain("\tat ");
    List<String> history = Files.readAllLines(project.resolve(".mlv/shell_history"));
    assertThat(String.join("\n", history)).contains("validate").contains("help plan");
    // bronze.orders is deployed now (one Spark use per test class keeps this suite quick)
    completesCommandsOptionsValuesNamesAndColumns();
  }

  private void completesCommandsOptionsValuesNamesAndColumns() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Terminal t =
        new DumbTerminal(
            "test", "dumb", new ByteArrayInputStream(new byte[0]), out, StandardCharsets.UTF_8)) {
      Shell shell = new Shell(shellSpec(), project, "local", t, false);
      try (ShellSession s = new ShellSession(shellSpec(), null, q -> null)) {
        ProjectOptions o = new ProjectOptions();
        o.project = project;
        Project p = ProjectLoading.load(o, shellSpec());
        java.util.Map<String, List<String>> names = new java.util.LinkedHashMap<>();
        s.target(p.config(), "local")
            .columns(p)
            .forEach((id, cols) -> names.put(p.names().display(id), cols));
        shell.completer().tables(names);
      }
      LineReader reader =
          LineReaderBuilder.builder()
              .terminal(t)
              .parser(shell.parser())
              .completer(shell.completer())
              .build();
      assertThat(complete(reader, shell, "ref")).contains("refresh");
      assertThat(complete(reader, shell, "refresh --fu")).contains("--full");
      assertThat(complete(reader, shell, "plan --format ")).contains("text", "json");
      assertThat(complete(reader, shell, "lineage ")).contains("bronze.orders");
      assertThat(complete(reader, shell, "SELECT * FROM bronze.orders WHERE cust"))
          .contains("customer_id", "bronze.orders", "WHERE");
      assertThat(complete(reader, shell, "SELECT o.am")).contains("o.amount");
      // After FROM, and after a schema's name, tables only (found by QA: silver.order_date and
      // such were offered, and Tab inserted their common prefix).
      assertThat(complete(reader, shell, "SELECT * FROM bronze.or"))
          .contains("bronze.orders")
          .doesNotContain("customer_id", "bronze.customer_id", "WHERE");
      assertThat(complete(reader, shell, "SELECT bronze.or")).doesNotContain("bronze.customer_id");
      // Tab after a blank, nothing typed yet: the columns, tables and words (found by QA: it
      // threw StringIndexOutOfBoundsException into the terminal).
      assertThat(complete(reader, shell, "SELECT 1 ")).contains("customer_id", "FROM");
      assertThat(complete(reader, shell, "SELECT * FROM bronze.orders ")).contains("WHERE");
    }
  }

  private static List<String> complete(LineReader reader, Shell shell, String line) {
    var parsed = shell.parser().parse(line, line.length(), ParseContext.COMPLETE);
    List<Candidate> candidates = new ArrayList<>();
    shell.completer().complete(reader, parsed, candidates);
    return ShellCompleter.values(candidates);
  }

  @Test
  void commandsInsideShareOneOpenTarget() throws Exception {
    try (ShellSession s = new ShellSession(shellSpec(), null, q -> "yes")) {
      ProjectOptions o = new ProjectOptions();
      o.project = project;
      Project p = ProjectLoading.load(o, shellSpec());
      Target first = s.target(p.config(), "local");
      Target lease = s.lease(p.config(), "local");
      lease.close(); // what a command does at its end
      assertThat(s.target(p.config(), "local")).isSameAs(first);
      assertThat(lease.name()).isEqualTo("local");
      // a command run with the session reaches the same open target through Targets.open
      CommandLine cl =
          Main.createCommandLine(
              new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
      ((MlvCommand) cl.getCommandSpec().userObject()).session = s;
      CommandLine runs = cl.getSubcommands().get("runs");
      assertThat(Targets.session(runs.getCommandSpec())).isSameAs(s);
      assertThat(Targets.openLocal(p.config(), "local", runs.getCommandSpec())).isSameAs(first);
    }
  }

  @Test
  void sqlRunsOnlyWhenItEndsWithASemicolonOutsideQuotesAndComments() {
    assertThat(ShellParser.endsStatement("SELECT 1;")).isTrue();
    assertThat(ShellParser.endsStatement("SELECT 1;  -- done")).isTrue();
    assertThat(ShellParser.endsStatement("SELECT ';'")).isFalse();
    assertThat(ShellParser.endsStatement("SELECT 1 -- ;")).isFalse();
    assertThat(ShellParser.endsStatement("SELECT 1 /* ; */")).isFalse();
    assertThat(ShellParser.endsStatement("SELECT 'it''s';")).isTrue();
    assertThat(ShellParser.endsStatement("SELECT `a;b`")).isFalse();
    assertThat(ShellParser.endsStatement("SELECT 'open;")).isFalse();
    // A raw string's backslash escapes nothing (found by QA: r"a\" swallowed the lines after).
    assertThat(ShellParser.endsStatement("SELECT r\"a\\\" AS x;")).isTrue();
    assertThat(ShellParser.endsStatement("SELECT R'a\\';")).isTrue();
    assertThat(ShellParser.endsStatement("SELECT 'a\\';")).isFalse();
    assertThat(ShellParser.endsStatement("SELECT bar'a\\';")).isFalse();
    ShellParser p = new ShellParser(java.util.Set.of("refresh", "exit"));
    assertThat(p.isCommand("refresh silver.x+")).isTrue();
    assertThat(p.isCommand("  SELECT 1")).isFalse();
    // The SQL statements that begin with a command's word are SQL.
    assertThat(p.isCommand("REFRESH MATERIALIZED LAKE VIEW gold.x FULL;")).isFalse();
    assertThat(p.isCommand("refresh table bronze.t;")).isFalse();
    assertThat(p.isCommand("refresh --full")).isTrue();
    // A misspelt command, or a word with a hyphen, starts no SQL; a SQL keyword always does.
    assertThat(p.isCommand("refrsh --full")).isTrue();
    assertThat(p.isCommand("no-such-thing")).isTrue();
    assertThat(p.isCommand("SELEC 1;")).isFalse();
    assertThat(p.isCommand("reset;")).isFalse();
    ShellParser withExplain = new ShellParser(java.util.Set.of("explain"));
    assertThat(withExplain.isCommand("EXPLAIN SELECT 1;")).isFalse();
    assertThat(withExplain.isCommand("explain gold.x")).isTrue();
    assertThatThrownBy(() -> p.parse("yes", 3, ParseContext.ACCEPT_LINE))
        .isInstanceOf(org.jline.reader.EOFError.class);
    // apply's question takes "yes" as it is, without a ';'
    p.answering(true);
    assertThat(p.parse("yes", 3, ParseContext.ACCEPT_LINE).words()).containsExactly("yes");
  }

  @Test
  void aBacktickedNameIsOneWordWithItsBackticks() {
    ShellParser p = new ShellParser(java.util.Set.of("lineage"));
    String line = "lineage silver.`clean orders`,`raw data`.t+ 'a b' `x`y z";
    assertThat(p.parse(line, line.length(), ParseContext.ACCEPT_LINE).words())
        .containsExactly("lineage", "silver.`clean orders`,`raw data`.t+", "a b", "`x`y", "z");
  }
}
