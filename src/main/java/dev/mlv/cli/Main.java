package dev.mlv.cli;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.UsageException;
import dev.mlv.logging.QuietLogging;
import dev.mlv.quality.JunitRenderer;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import picocli.CommandLine;

/** The entry point: one factory for the command line, used by {@code main} and by tests. */
public final class Main {
  static {
    // picocli's factory looks for Groovy's Closure class once (mlv has no Groovy scripts in its
    // annotations); that miss opens every jar on the class path, about 0.15 s of each start.
    if (System.getProperty("picocli.disable.closures") == null) {
      System.setProperty("picocli.disable.closures", "true");
    }
  }

  private Main() {}

  public static void main(String[] args) {
    StandardOutput stdout = StandardOutput.install();
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    int code = run(out, err, args);
    out.flush();
    code = outputWritten(stdout, code, err);
    err.flush();
    // bin/mlv's record of the code, for when the JVM dies after this (see the launcher).
    String codeFile = System.getProperty("mlv.exitCodeFile");
    if (codeFile != null) {
      try {
        java.nio.file.Files.writeString(java.nio.file.Path.of(codeFile), Integer.toString(code));
      } catch (java.io.IOException | RuntimeException e) {
        // Only the launcher's fallback is lost.
      }
    }
    System.exit(code);
  }

  /**
   * {@code code}, or ERROR when what the command printed did not all reach stdout (a full disk
   * behind {@code > file}): the output is incomplete, so success would be a lie. A command that
   * failed already keeps its own code.
   */
  private static int outputWritten(StandardOutput stdout, int code, PrintWriter err) {
    var failure = stdout.failure();
    if (failure.isEmpty()) {
      return code;
    }
    err.println("mlv: could not write the output: " + dev.mlv.diag.IoReason.of(failure.get()));
    return code == ExitCodes.OK || code == ExitCodes.CHANGES ? ExitCodes.ERROR : code;
  }

  /**
   * {@code mlv help [COMMAND]} as {@code mlv [COMMAND] --help}, as git and the shell's own help
   * read it (found by QA: it was an unknown option, and {@code mlv plan help} was suggested).
   */
  static String[] helpAsOption(String[] args) {
    if (args.length == 0 || !args[0].equals("help") || args.length > 2) {
      return args;
    }
    if (args.length == 1) {
      return new String[] {"--help"};
    }
    PrintWriter none = new PrintWriter(java.io.Writer.nullWriter());
    boolean known = createCommandLine(none, none, false).getSubcommands().containsKey(args[1]);
    // An unknown name is said as such, with the nearest command, as 'mlv NAME' says it.
    return known ? new String[] {args[1], "--help"} : new String[] {args[1]};
  }

  /** Runs mlv with {@code args} and returns the exit code; never calls System.exit. */
  public static int run(PrintWriter out, PrintWriter err, String... given) {
    String[] args = helpAsOption(given);
    boolean debug = Arrays.asList(args).contains("--debug");
    // The property reaches code far from the command line, for this command only: a JVM that runs
    // several commands through run() (tests) must not keep Spark's INFO logging after one --debug.
    String debugBefore = System.getProperty(QuietLogging.DEBUG_PROPERTY);
    if (debug) {
      System.setProperty(QuietLogging.DEBUG_PROPERTY, "true");
    }
    try {
      CommandLine cl = createCommandLine(out, err, debug, subcommandsFor(args));
      return cl.execute(args);
    } catch (StackOverflowError | OutOfMemoryError e) {
      // picocli handles exceptions; errors of the JVM itself end up here.
      err.println(
          "mlv: internal error: "
              + e.getClass().getSimpleName()
              + (debug ? "" : " (run with --debug for details)"));
      if (debug) {
        e.printStackTrace(err);
      }
      return ExitCodes.ERROR;
    } finally {
      if (debugBefore == null) {
        System.clearProperty(QuietLogging.DEBUG_PROPERTY);
      } else {
        System.setProperty(QuietLogging.DEBUG_PROPERTY, debugBefore);
      }
      out.flush();
      err.flush();
    }
  }

  static CommandLine createCommandLine(PrintWriter out, PrintWriter err, boolean debug) {
    return createCommandLine(out, err, debug, MlvCommand.SUBCOMMANDS.keySet());
  }

  /**
   * The subcommands a run of {@code args} needs: the one it names, none for a bare {@code
   * --version}, and all of them for help, completion, the shell, or anything unrecognised (so
   * picocli's suggestions and usage stay complete).
   */
  static Collection<String> subcommandsFor(String... args) {
    List<String> list = Arrays.asList(args);
    String first = list.stream().filter(a -> !a.startsWith("-")).findFirst().orElse(null);
    boolean help = list.contains("-h") || list.contains("--help");
    if (first == null) {
      return !help && (list.contains("-V") || list.contains("--version"))
          ? List.of()
          : MlvCommand.SUBCOMMANDS.keySet();
    }
    if (MlvCommand.SUBCOMMANDS.containsKey(first)
        && !first.equals("completion")
        && !first.equals("shell")) {
      return List.of(first);
    }
    return MlvCommand.SUBCOMMANDS.keySet();
  }

  static CommandLine createCommandLine(
      PrintWriter out, PrintWriter err, boolean debug, Collection<String> subcommands) {
    CommandLine cl = new CommandLine(new MlvCommand());
    for (String name : subcommands) {
      cl.addSubcommand(name, MlvCommand.SUBCOMMANDS.get(name));
    }
    // After the subcommands: picocli hands the factory down only to those already added.
    cl.setHelpFactory(QualifiedNameHelp.FACTORY);
    WatchedWriter watched = new WatchedWriter(out);
    cl.setOut(watched);
    cl.setErr(err);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine c = ex.getCommandLine();
          String message = optionBeforeCommand(ex, args).orElseGet(() -> usageMessage(ex));
          c.getErr().println("mlv: " + message);
          c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help'.");
          // Nothing was parsed reliably, so the format is read from the words themselves.
          failureDocument(
              watched,
              c,
              formatIn(args, c.getCommandSpec()),
              List.of(
                  dev.mlv.diag.Diagnostic.error(
                      "USAGE",
                      null,
                      message,
                      "see '" + c.getCommandSpec().qualifiedName() + " --help'")));
          return ExitCodes.USAGE;
        });
    cl.setExecutionExceptionHandler(
        (thrown, c, parseResult) -> {
          PrintWriter e = c.getErr();
          // A path the user gave (or its folder) is missing, taken or not writable: their problem
          // to fix, not mlv's, so no "internal error".
          Exception ex =
              fileProblem(thrown) instanceof java.nio.file.FileSystemException f
                  ? new MlvException("FILE", "mlv: " + describe(f), thrown)
                  : thrown;
          if (ex instanceof UsageException u) {
            e.println(u.getMessage());
            e.println("Try '" + c.getCommandSpec().qualifiedName() + " --help'.");
            failureDocument(watched, c, formatAskedFor(parseResult), u.diagnostics());
            return ExitCodes.USAGE;
          } else if (ex instanceof MlvException m) {
            e.println(m.getMessage());
            if (debug && m.getCause() != null) {
              m.getCause().printStackTrace(e);
            }
            failureDocument(watched, c, formatAskedFor(parseResult), m.diagnostics());
            if (m instanceof dev.mlv.diag.BusyException) {
              return ExitCodes.SKIPPED_CONCURRENT;
            }
          } else if (ex instanceof UserInterrupt) {
            e.println("mlv: interrupted");
            return ExitCodes.INTERRUPTED;
          } else {
            e.println(
                "mlv: internal error: "
                    + ex.getClass().getSimpleName()
                    + (ex.getMessage() == null ? "" : ": " + firstLine(ex.getMessage()))
                    + (debug ? "" : " (run with --debug for details)"));
            if (debug) {
              ex.printStackTrace(e);
            }
          }
          return ExitCodes.ERROR;
        });
    return cl;
  }

  /**
   * When a command given {@code --format json} (or junit) fails before it printed anything, the
   * reason as a document on stdout, so a program reading stdout gets one rather than nothing.
   * validate's json keeps its own shape.
   */
  private static void failureDocument(
      WatchedWriter watched, CommandLine c, String format, List<dev.mlv.diag.Diagnostic> found) {
    if (watched.written() || format == null) {
      return;
    }
    String command = c.getCommandSpec().qualifiedName(" ").replaceFirst("^mlv ", "");
    if ("json".equalsIgnoreCase(format)) {
      watched.print(
          command.equals("validate")
              ? DiagnosticRenderer.json(found, 0, 0)
              : DiagnosticRenderer.jsonFailure(command, found));
    } else if ("junit".equalsIgnoreCase(format)) {
      // A CI reading the XML report gets a failed test, not an empty file.
      watched.print(JunitRenderer.failure(command, found));
    } else {
      return;
    }
    watched.flush();
  }

  /**
   * The {@code --format} among {@code args} (before a {@code --}), when {@code command} has such an
   * option and takes that value; else null. For a command line picocli could not parse.
   */
  static String formatIn(String[] args, CommandLine.Model.CommandSpec command) {
    CommandLine.Model.OptionSpec option = command.findOption("--format");
    if (option == null || option.completionCandidates() == null) {
      return null;
    }
    String given = null;
    for (int i = 0; i < args.length && !args[i].equals("--"); i++) {
      if (args[i].equals("--format") && i + 1 < args.length) {
        given = args[++i];
      } else if (args[i].startsWith("--format=")) {
        given = args[i].substring("--format=".length());
      }
    }
    for (String value : option.completionCandidates()) {
      if (value.equalsIgnoreCase(given)) {
        return value;
      }
    }
    return null;
  }

  /** The {@code --format} the command that ran was given, or null. */
  private static String formatAskedFor(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult leaf = parsed;
    while (leaf.subcommand() != null) {
      leaf = leaf.subcommand();
    }
    Object format = leaf.matchedOptionValue("--format", null);
    return format == null ? null : format.toString();
  }

  /** stdout, remembering whether anything was printed on it. */
  private static final class WatchedWriter extends PrintWriter {
    private boolean written;

    WatchedWriter(PrintWriter out) {
      super(out, true);
    }

    boolean written() {
      return written;
    }

    @Override
    public void write(int c) {
      written = true;
      super.write(c);
    }

    @Override
    public void write(char[] buf, int off, int len) {
      written |= len > 0;
      super.write(buf, off, len);
    }

    @Override
    public void write(String s, int off, int len) {
      written |= len > 0;
      super.write(s, off, len);
    }
  }

  /**
   * Picocli's message, except for an argument nothing takes, where "Unmatched argument at index 0"
   * says less than naming the unknown command or the command that takes no such argument.
   */
  /**
   * {@code mlv -p DIR validate} (found by QA): an option of the command given before it, which mlv
   * itself does not take; the message shows the line with the command first.
   */
  static java.util.Optional<String> optionBeforeCommand(
      CommandLine.ParameterException ex, String[] args) {
    CommandLine top = ex.getCommandLine();
    if (top.getParent() != null
        || !(ex instanceof CommandLine.UnmatchedArgumentException u)
        || u.getUnmatched().isEmpty()) {
      return java.util.Optional.empty();
    }
    String given = u.getUnmatched().get(0);
    String word = given.contains("=") ? given.substring(0, given.indexOf('=')) : given;
    for (int i = 0; i < args.length; i++) {
      CommandLine sub = top.getSubcommands().get(args[i]);
      if (sub != null) {
        if (sub.getCommandSpec().findOption(word) == null) {
          return java.util.Optional.empty();
        }
        List<String> line = new java.util.ArrayList<>(List.of(args).subList(i, args.length));
        line.addAll(1, List.of(args).subList(0, i));
        return java.util.Optional.of(
            "unknown option '"
                + word
                + "' for mlv; a command's options go after the command: mlv "
                + String.join(" ", line));
      }
    }
    return java.util.Optional.empty();
  }

  static String usageMessage(CommandLine.ParameterException ex) {
    if (ex instanceof CommandLine.UnmatchedArgumentException u
        && !u.getUnmatched().isEmpty()
        && u.getUnmatched().get(0).startsWith("-")
        && u.getUnmatched().get(0).length() > 1) {
      return unknownOption(u);
    }
    if (!(ex instanceof CommandLine.UnmatchedArgumentException u)
        || u.getUnmatched().isEmpty()
        || u.getUnmatched().get(0).startsWith("-")) {
      // picocli's "Error: " prefix and a converter's exception class say nothing to a user.
      return ex.getMessage()
          .replaceFirst("^Error: ", "")
          .replaceAll(" \\((?:[a-z]\\w*\\.)+\\w*(?:Exception|Error): [^)]*\\)", "");
    }
    String word = u.getUnmatched().get(0);
    CommandLine c = ex.getCommandLine();
    if (c.getParent() == null) {
      // Picocli's own suggestions reach far ("frobnicate": validate); a near miss only.
      java.util.Optional<String> near =
          dev.mlv.diag.Suggestions.nearest(word, c.getSubcommands().keySet());
      return "unknown command '"
          + word
          + "'"
          + (word.equals("help")
              ? "; use 'mlv --help', or 'mlv COMMAND --help' for one command"
              : near.map(n -> "; did you mean '" + n + "'?")
                  .orElse("; the commands are " + String.join(", ", c.getSubcommands().keySet())));
    }
    String name = c.getCommandSpec().qualifiedName();
    return c.getCommandSpec().positionalParameters().isEmpty()
        ? name + " takes no arguments, but was given '" + word + "'"
        : "unexpected argument '" + word + "' for " + name;
  }

  /** An unknown {@code --option}: the near miss among the command's own, if there is one. */
  private static String unknownOption(CommandLine.UnmatchedArgumentException u) {
    String given = u.getUnmatched().get(0);
    if (given.startsWith("--") && given.chars().anyMatch(Character::isWhitespace)) {
      // No option has a blank in it: SQL that starts with a -- comment (found by QA).
      String first = given.lines().findFirst().orElse(given).strip();
      return "'"
          + (first.length() > 40 ? first.substring(0, 37) + "..." : first)
          + "' was read as an option; to pass SQL that starts with a -- comment, put -- before"
          + " it: "
          + u.getCommandLine().getCommandSpec().qualifiedName()
          + " -- \"-- ...\"";
    }
    String word = given.contains("=") ? given.substring(0, given.indexOf('=')) : given;
    java.util.List<String> names = new java.util.ArrayList<>();
    u.getCommandLine().getCommandSpec().options().stream()
        .filter(o -> !o.hidden())
        .forEach(o -> names.addAll(java.util.List.of(o.names())));
    List<String> longNames = names.stream().filter(n -> n.startsWith("--")).toList();
    // --detailed-exit: the one option it begins; else a near miss (--fromat).
    List<String> begun = longNames.stream().filter(n -> n.startsWith(word)).toList();
    java.util.Optional<String> near =
        word.startsWith("--") && begun.size() == 1
            ? java.util.Optional.of(begun.get(0))
            : dev.mlv.diag.Suggestions.nearest(word, longNames);
    return "unknown option '"
        + word
        + "' for "
        + u.getCommandLine().getCommandSpec().qualifiedName()
        + near.map(n -> "; did you mean '" + n + "'?").orElse("");
  }

  /** The file-system exception behind {@code ex}, if that is what it is. */
  private static Throwable fileProblem(Throwable ex) {
    Throwable t = ex;
    while (t instanceof java.io.UncheckedIOException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  static String describe(java.nio.file.FileSystemException f) {
    String reason = dev.mlv.diag.IoReason.of(f);
    String file = f.getFile() == null ? "a file" : f.getFile();
    String other = f.getOtherFile() == null ? "" : " (with " + f.getOtherFile() + ")";
    return "cannot use " + file + other + ": " + reason + ".";
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /** Thrown when the user interrupts a long command. */
  static final class UserInterrupt extends RuntimeException {
    UserInterrupt() {
      super("interrupted", null, false, false);
    }
  }
}
