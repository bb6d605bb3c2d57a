package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.SqlStatement;
import dev.mlv.target.SqlResultRenderer;
import dev.mlv.target.Target;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The read-run loop of {@code mlv shell} over a JLine terminal: mlv commands run through the same
 * command line as {@code mlv} itself, with the shell's open target, and anything else is Spark SQL
 * up to a {@code ;}.
 */
final class Shell {
  static final Set<String> SHELL_WORDS = Set.of("help", "exit", "quit");
  static final String HISTORY = ".mlv/shell_history";

  private final CommandSpec opener;
  private final Path root;
  private final String targetName;
  private final Terminal terminal;
  // A command or statement is running: a SIGINT of the process is its Ctrl-C.
  private volatile boolean busy;
  private final boolean debug;
  private final CommandLine model;
  private final ShellParser parser;
  private final ShellCompleter completer;

  /** The input line the next read starts on, to place errors in a piped script. */
  private int nextLine = 1;

  /**
   * @param opener the {@code shell} command's spec, through which targets are opened
   * @param root the project folder
   * @param targetName the target commands and SQL use unless they name another
   */
  Shell(CommandSpec opener, Path root, String targetName, Terminal terminal, boolean debug) {
    this.opener = opener;
    this.root = root;
    this.targetName = targetName;
    this.terminal = terminal;
    this.debug = debug;
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    this.model = Main.createCommandLine(none, none, debug);
    Set<String> commands = new TreeSet<>(model.getSubcommands().keySet());
    commands.addAll(SHELL_WORDS);
    this.parser = new ShellParser(commands);
    this.completer = new ShellCompleter(model.getCommandSpec(), SHELL_WORDS);
  }

  /**
   * The process got SIGINT while reading piped input, where no tty turns Ctrl-C into the terminal's
   * INT. During a command or statement it is that command's Ctrl-C, and the shell goes on to the
   * next line once the run is recorded; between them it ends the shell with 130, as the JVM's own
   * handling of the signal did.
   */
  void processInterrupted() {
    if (busy) {
      terminal.raise(Terminal.Signal.INT);
    } else {
      terminal.writer().flush();
      Runtime.getRuntime().exit(ExitCodes.INTERRUPTED);
    }
  }

  ShellCompleter completer() {
    return completer;
  }

  ShellParser parser() {
    return parser;
  }

  /** Reads and runs until {@code exit} or the end of input; returns the shell's exit code. */
  int run() {
    Path history = root.resolve(HISTORY);
    try {
      Files.createDirectories(history.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LineReader reader =
        LineReaderBuilder.builder()
            .terminal(terminal)
            .appName("mlv")
            .parser(parser)
            .completer(completer)
            .variable(LineReader.HISTORY_FILE, history)
            .variable(LineReader.SECONDARY_PROMPT_PATTERN, "%P...> ")
            .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
            .option(LineReader.Option.CASE_INSENSITIVE, true)
            .build();
    PrintWriter out = terminal.writer();
    String prompt = "mlv> ";
    int last = ExitCodes.OK;
    int failed = ExitCodes.OK; // a script piped in fails if any of its commands did
    try (ShellSession session = new ShellSession(opener, terminal, q -> ask(reader, q))) {
      out.println(
          "mlv shell on "
              + root
              + " (target "
              + targetName
              + "). Type an mlv command, SQL ending with ';', help, or exit.");
      out.flush();
      refreshNames(session);
      // Piped input is a script: its errors are placed by its own line numbers.
      boolean script = terminal.getType().startsWith(Terminal.TYPE_DUMB);
      while (true) {
        String line;
        try {
          line = reader.readLine(prompt);
        } catch (UserInterruptException e) {
          continue;
        } catch (EndOfFileException e) {
          if (e.getPartialLine() != null && !e.getPartialLine().isBlank()) {
            out.println("mlv: the input ended inside a statement without ';'; it was not run");
            failed = ExitCodes.ERROR;
          }
          break;
        }
        String text = line.strip();
        Position at =
            script
                ? new Position(null, nextLine, 1).advance(line, Math.max(0, line.indexOf(text)))
                : Position.start(null);
        nextLine += (int) line.chars().filter(c -> c == '\n').count() + 1;
        if (text.isEmpty()) {
          continue;
        }
        String first = ShellParser.firstWord(text).toLowerCase(Locale.ROOT);
        if (first.equals("exit") || first.equals("quit")) {
          break;
        }
        if (ShellParser.leavesStatement(text)) {
          out.println("(the unfinished statement was not run)");
          break;
        }
        last =
            guarded(
                out,
                debug,
                () ->
                    parser.isCommand(text)
                        ? command(reader.getParsedLine().words(), session, out)
                        : sql(text, at, session, out));
        if (last != ExitCodes.OK && failed == ExitCodes.OK) {
          failed = last;
        }
        out.flush();
        refreshNames(session);
      }
    } finally {
      try {
        reader.getHistory().save();
      } catch (IOException e) {
        terminal.writer().println("mlv: could not save the shell history: " + e.getMessage());
      }
      out.flush();
    }
    return failed;
  }

  private String ask(LineReader reader, String question) {
    parser.answering(true);
    reader.variable(LineReader.DISABLE_HISTORY, true);
    try {
      String answer = reader.readLine(question);
      nextLine++; // an answer is a line of the input too
      return answer;
    } catch (UserInterruptException | EndOfFileException e) {
      return null;
    } finally {
      reader.variable(LineReader.DISABLE_HISTORY, false);
      parser.answering(false);
    }
  }

  private int command(List<String> typed, ShellSession session, PrintWriter out) {
    // A line ending in blanks (as Tab completion leaves it) parses with an empty last word.
    List<String> words = new ArrayList<>(typed);
    while (words.size() > 1 && words.get(words.size() - 1).isEmpty()) {
      words.remove(words.size() - 1);
    }
    String first = words.get(0).toLowerCase(Locale.ROOT);
    List<String> args = new ArrayList<>();
    if (first.equals("help")) {
      if (words.size() == 1) {
        model.usage(out);
        out.println();
        out.println("In the shell: every command above, without 'mlv'; the project and target");
        out.println("are the shell's unless -p or -t say otherwise. Other input is Spark SQL,");
        out.println("run when a line ends with ';'. Tab completes; 'exit' or Ctrl-D leaves.");
        return ExitCodes.OK;
      }
      if (!model.getSubcommands().containsKey(words.get(1).toLowerCase(Locale.ROOT))) {
        out.println("mlv: unknown command '" + words.get(1) + "'; 'help' lists them");
        return ExitCodes.USAGE;
      }
      args.add(words.get(1).toLowerCase(Locale.ROOT));
      args.add("--help");
    } else if (first.equals("shell")) {
      out.println("mlv: already in the shell");
      return ExitCodes.USAGE;
    } else if (!model.getSubcommands().containsKey(first)) {
      // A misspelt command, which the parser did not read as the start of SQL.
      out.println(
          "mlv: unknown command '"
              + words.get(0)
              + "'; "
              + dev.mlv.diag.Suggestions.nearest(first, model.getSubcommands().keySet())
                  .map(c -> "did you mean '" + c + "'? ")
                  .orElse("")
              + "'help' lists the commands; SQL starts with a statement keyword such as SELECT");
      out.println("(exit code " + ExitCodes.USAGE + ")");
      return ExitCodes.USAGE;
    } else {
      args.addAll(words);
      args.set(0, first);
      CommandLine sub = model.getSubcommands().get(first);
      List<String> defaults = new ArrayList<>();
      if (sub.getCommandSpec().findOption("-p") != null && !hasOption(words, "-p", "--project")) {
        defaults.add("-p");
        defaults.add(root.toString());
      }
      if (sub.getCommandSpec().findOption("-t") != null && !hasOption(words, "-t", "--target")) {
        defaults.add("-t");
        defaults.add(targetName);
      }
      args.addAll(1, defaults);
    }
    CommandLine cl = Main.createCommandLine(out, out, debug);
    MlvCommand top = (MlvCommand) cl.getCommandSpec().userObject();
    top.session = session;
    top.debug = debug;
    Thread worker = Thread.currentThread();
    session.commandStarting();
    Terminal.SignalHandler previous =
        terminal.handle(Terminal.Signal.INT, s -> session.cancelCommand(worker));
    busy = true;
    try {
      int code = cl.execute(args.toArray(String[]::new));
      if (code != ExitCodes.OK) {
        out.println("(exit code " + code + ")");
      }
      return code;
    } finally {
      busy = false;
      terminal.handle(Terminal.Signal.INT, previous);
      Thread.interrupted(); // a Ctrl-C that came after the command ended is spent
    }
  }

  private static boolean hasOption(List<String> words, String shortName, String longName) {
    return words.stream()
        .anyMatch(
            w ->
                w.equals(shortName)
                    || w.equals(longName)
                    || w.startsWith(longName + "=")
                    || (w.startsWith(shortName) && !w.startsWith("--")));
  }

  private int sql(String text, Position at, ShellSession session, PrintWriter out) {
    Target[] running = new Target[1];
    Terminal.SignalHandler previous =
        terminal.handle(
            Terminal.Signal.INT,
            s -> {
              if (running[0] != null) {
                running[0].cancelRunning();
              }
            });
    busy = true;
    try {
      MlvParser.Result parsed = MlvParser.parse(at, text);
      if (!parsed.diagnostics().isEmpty()) {
        throw new MlvException(parsed.diagnostics());
      }
      Project project = project();
      Target target = session.target(project.config(), targetName);
      running[0] = target;
      target.checkSql(project, parsed.statements());
      for (SqlStatement st : parsed.statements()) {
        long t0 = System.nanoTime();
        dev.mlv.target.SqlResult result = target.sql(project, st, RunOutput.quiet(out));
        out.print(SqlResultRenderer.render(result, "table"));
        if (!result.columns().isEmpty() && result.message() != null) {
          out.println(result.message());
        }
        out.printf(Locale.ROOT, "Time: %.2f s%n", (System.nanoTime() - t0) / 1e9);
        out.flush();
      }
      return ExitCodes.OK;
    } catch (MlvException e) {
      out.println(e.getMessage());
    } finally {
      busy = false;
      terminal.handle(Terminal.Signal.INT, previous);
    }
    return ExitCodes.ERROR;
  }

  /**
   * Runs one line of input. Whatever it throws, a Spark exception Java does not know as checked
   * (AnalysisException ended a piped script, found by QA) or an error of the JVM, is said in one
   * paragraph, with the stack trace only under --debug, and the shell goes on to the next line.
   */
  static int guarded(PrintWriter out, boolean debug, java.util.function.IntSupplier line) {
    try {
      return line.getAsInt();
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      String message = e.getMessage() == null ? "" : e.getMessage().strip();
      out.println(
          "mlv: internal error: "
              + e.getClass().getSimpleName()
              + (message.isEmpty() ? "" : ": " + message.lines().findFirst().orElse(""))
              + (debug ? "" : " (run with --debug for details)"));
      if (debug) {
        e.printStackTrace(out);
      }
      return ExitCodes.ERROR;
    }
  }

  private Project project() {
    ProjectOptions options = new ProjectOptions();
    options.project = root;
    return ProjectLoading.load(options, opener);
  }

  /**
   * Re-reads the names completion offers: the project's views and sources, and every table the
   * target holds with its columns. Best effort: a project that does not load keeps the old names.
   */
  private void refreshNames(ShellSession session) {
    try {
      Project project = project();
      completer.tags(
          dev.mlv.lineage.Selection.tagSelectors(
              project.lineage(), new java.util.TreeSet<>(project.lineage().nodes().keySet())));
      Map<String, List<String>> names = new LinkedHashMap<>();
      for (ObjectId id : project.lineage().nodes().keySet()) {
        names.put(project.names().display(id), List.of());
      }
      Target target = session.target(project.config(), targetName);
      target.columns(project).forEach((id, cols) -> names.put(project.names().display(id), cols));
      completer.tables(names);
    } catch (RuntimeException e) {
      if (debug) {
        terminal.writer().println("debug: completion names not refreshed: " + e);
      }
    }
  }
}
