package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.IoReason;
import dev.mlv.diag.Position;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads and validates a project's mlv.yml. YAML is composed to nodes, not bound to classes, so
 * every value keeps its line and column for diagnostics.
 */
public final class ProjectLoader {
  private ProjectLoader() {}

  /** Loads {@code root/mlv.yml}, interpolating {@code ${env:...}} from the process environment. */
  public static LoadResult load(Path root) {
    return load(root, System.getenv());
  }

  /** Loads {@code root/mlv.yml} with {@code env} standing in for the environment. */
  public static LoadResult load(Path root, Map<String, String> env) {
    Path absoluteRoot = root.toAbsolutePath().normalize();
    Path file = absoluteRoot.resolve(ProjectConfig.FILE_NAME);
    Position start = Position.start(file.getFileName());
    if (Files.isDirectory(file)) {
      return failed(
          Diagnostic.error(
              "PROJECT_NOT_FOUND",
              null,
              file + " is a folder, not a file",
              "mlv.yml must be the project file; move the folder away and write mlv.yml there"));
    }
    if (!Files.isRegularFile(file)) {
      return failed(
          Diagnostic.error(
              "PROJECT_NOT_FOUND",
              null,
              "no " + ProjectConfig.FILE_NAME + " in " + absoluteRoot,
              "run mlv inside a project folder, or pass -p DIR"));
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      boolean utf16;
      try {
        utf16 = ProjectBuilder.utf16(Files.readAllBytes(file));
      } catch (IOException unreadable) {
        utf16 = false;
      }
      return failed(
          Diagnostic.error(
              "YAML_SYNTAX",
              ProjectBuilder.firstInvalidByte(file, start),
              utf16
                  ? "mlv.yml is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8"
                  : "mlv.yml is not UTF-8 text (a byte here is not; Windows-1252 or Latin-1"
                      + " text?)",
              "save it as UTF-8"));
    } catch (IOException e) {
      return failed(
          Diagnostic.error("CONFIG_READ", start, "cannot read mlv.yml: " + IoReason.of(e), null));
    }

    Node document;
    try {
      document = compose(text);
    } catch (MarkedYAMLException e) {
      return failed(syntaxError(file, text, e));
    } catch (org.yaml.snakeyaml.reader.ReaderException e) {
      // A control character (a NUL from a bad copy, say): where it is, and which.
      return failed(
          Diagnostic.error(
              "YAML_SYNTAX",
              start.advance(
                  text,
                  text.offsetByCodePoints(
                      0,
                      Math.min(
                          text.codePointCount(0, text.length()), Math.max(0, e.getPosition())))),
              String.format(
                  "mlv.yml holds a character YAML does not allow (U+%04X)", e.getCodePoint()),
              "remove it; YAML allows printable characters, tabs and line breaks"));
    } catch (AliasExpansion e) {
      return failed(
          Diagnostic.error(
              "YAML_SYNTAX",
              start,
              e.getMessage(),
              "anchor plain mappings and merge them (<<: *name), not lists or mappings of aliases"));
    } catch (YAMLException e) {
      return failed(Diagnostic.error("YAML_SYNTAX", start, e.getMessage(), null));
    }
    // "---" alone is a document holding nothing, as empty as no document at all.
    if (document == null
        || (document instanceof org.yaml.snakeyaml.nodes.ScalarNode s
            && org.yaml.snakeyaml.nodes.Tag.NULL.equals(s.getTag()))) {
      return failed(
          Diagnostic.error(
              "CONFIG_MISSING",
              start,
              "mlv.yml is empty",
              "a project needs at least name, workspace, lakehouse and schema"));
    }

    ConfigReader reader = new ConfigReader(absoluteRoot, file, env);
    Optional<ProjectConfig> config = reader.read(document);
    List<Diagnostic> diagnostics = reader.problems().stream().sorted(BY_POSITION).toList();
    return new LoadResult(config, diagnostics);
  }

  private static final Comparator<Diagnostic> BY_POSITION =
      Comparator.comparing(
          Diagnostic::position,
          Comparator.nullsFirst(
              Comparator.comparingInt(Position::line).thenComparingInt(Position::column)));

  /**
   * The node tree of the YAML text, with positions. What {@code Yaml.compose} does, without
   * building a {@code Yaml}: its constructor's type descriptions ask for a System.Logger, and the
   * JDK looks for a logger service in every jar on the class path (0.1 s of each start).
   */
  private static Node compose(String text) {
    LoaderOptions options = new LoaderOptions();
    // A project with many views merges one anchored mapping into each (<<: *strict), so aliases
    // are not counted (snakeyaml's default, 50, and the 20 used before refused 21 views: found by
    // QA); what they expand to is, below.
    options.setMaxAliasesForCollections(Integer.MAX_VALUE);
    options.setAllowRecursiveKeys(false);
    options.setNestingDepthLimit(30);
    Node document =
        new Composer(
                new ParserImpl(new StreamReader(new StringReader(text)), options),
                new Resolver(),
                options)
            .getSingleNode();
    if (document != null && expandedSize(document, new IdentityHashMap<>()) > MAX_EXPANDED) {
      // Aliases of aliases expand exponentially ("billion laughs"): reading would never end.
      throw new AliasExpansion();
    }
    return document;
  }

  /** A document whose aliases expand beyond {@link #MAX_EXPANDED} values. */
  private static final class AliasExpansion extends YAMLException {
    AliasExpansion() {
      super(
          "invalid YAML: mlv.yml expands to more than "
              + MAX_EXPANDED
              + " values through its aliases (an alias of a mapping or list that itself holds"
              + " aliases repeats all of them)");
    }
  }

  /** More values than any project file holds once its aliases are expanded. */
  private static final long MAX_EXPANDED = 1_000_000;

  /** How many nodes {@code node} is once every alias in it is expanded; each node counted once. */
  private static long expandedSize(Node node, Map<Node, Long> known) {
    Long size = known.get(node);
    if (size != null) {
      return size;
    }
    long total = 1;
    if (node instanceof SequenceNode list) {
      for (Node item : list.getValue()) {
        total = Math.min(MAX_EXPANDED + 1, total + expandedSize(item, known));
      }
    } else if (node instanceof MappingNode map) {
      for (NodeTuple entry : map.getValue()) {
        total =
            Math.min(
                MAX_EXPANDED + 1,
                total
                    + expandedSize(entry.getKeyNode(), known)
                    + expandedSize(entry.getValueNode(), known));
      }
    }
    known.put(node, total);
    return total;
  }

  private static LoadResult failed(Diagnostic diagnostic) {
    return new LoadResult(Optional.empty(), List.of(diagnostic));
  }

  private static Diagnostic syntaxError(Path file, String text, MarkedYAMLException e) {
    Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
    if (mark != null && e.getContextMark() != null && mark.getIndex() >= text.length()) {
      // The file ended inside a [ or { or quote: its opening is the place to fix, and the end of
      // the text may be a line past the last one, where no editor or CI annotation can point.
      mark = e.getContextMark();
    }
    Path shown = file.getFileName();
    Position at =
        mark == null
            ? Position.start(shown)
            : new Position(shown, mark.getLine() + 1, mark.getColumn() + 1);
    String problem = e.getProblem() == null ? "invalid YAML" : e.getProblem();
    boolean tab = problem.contains("\\t(TAB)");
    if (tab) {
      problem = "a tab character where YAML expects spaces";
    }
    if (problem.contains("<stream end>")) {
      Optional<Position> open = unclosedFlow(shown, text);
      if (open.isPresent()) {
        char bracket = text.charAt(Position.offsetAt(text, open.get().line(), open.get().column()));
        return Diagnostic.error(
            "YAML_SYNTAX",
            open.get(),
            "invalid YAML: this '" + bracket + "' is never closed: the file ends inside it",
            "close it with '" + (bracket == '[' ? ']' : '}') + "' where its items end");
      }
    }
    if (problem.contains("but found another document")) {
      return Diagnostic.error(
          "YAML_SYNTAX",
          at,
          "invalid YAML: a second YAML document starts here; the file must hold one",
          "remove this '---' line, or move what follows it into the first document");
    }
    Optional<String[]> indentation = indentation(problem, e);
    if (indentation.isPresent()) {
      return Diagnostic.error(
          "YAML_SYNTAX", at, "invalid YAML: " + indentation.get()[0], indentation.get()[1]);
    }
    StringBuilder message = new StringBuilder("invalid YAML: ").append(problem);
    if (e.getContext() != null) {
      message.append(" (").append(e.getContext());
      if (e.getContextMark() != null) {
        message
            .append(" at line ")
            .append(e.getContextMark().getLine() + 1)
            .append(", column ")
            .append(e.getContextMark().getColumn() + 1);
      }
      message.append(')');
    }
    String hint = tab ? "indent with spaces; YAML does not allow tabs" : syntaxHint(problem, e);
    return Diagnostic.error("YAML_SYNTAX", at, message.toString(), hint);
  }

  /**
   * The innermost '[' or '{' of a flow collection the text leaves open, skipping quoted text and
   * comments: SnakeYAML reports such a file at its end, past the last line, or at the flow node it
   * expected there (found by QA: "expected the node content, but found '<stream end>'").
   */
  static Optional<Position> unclosedFlow(Path shown, String text) {
    java.util.Deque<int[]> open = new java.util.ArrayDeque<>();
    int line = 1;
    int column = 0;
    char quote = 0;
    boolean comment = false;
    char raw = '\n'; // the character before this one
    char before = '\n'; // the last one that is not a blank
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isLowSurrogate(c)) {
        column++; // columns count characters, as Position's do
      }
      if (c == '\n') {
        comment = false;
        line++;
        column = 0;
        raw = c;
        if (open.isEmpty()) {
          before = c; // a new line of a block; in a flow, a line break is a blank
        }
        continue;
      }
      if (comment) {
        continue;
      }
      if (quote != 0) {
        if (quote == '"' && c == '\\') {
          i++;
          column++;
        } else if (quote == '\''
            && c == '\''
            && i + 1 < text.length()
            && text.charAt(i + 1) == '\'') {
          i++;
          column++;
        } else if (c == quote) {
          quote = 0;
          before = c;
        }
        raw = c;
        continue;
      }
      if (c == '#' && (raw == ' ' || raw == '\t' || raw == '\n')) {
        comment = true;
      } else if ((c == '"' || c == '\'') && opensValue(before, !open.isEmpty())) {
        quote = c;
      } else if ((c == '[' || c == '{') && opensValue(before, !open.isEmpty())) {
        open.push(new int[] {line, column});
      } else if ((c == ']' || c == '}') && !open.isEmpty()) {
        open.pop();
      }
      if (c != ' ' && c != '\t' && !comment) {
        before = c;
      }
      raw = c;
    }
    return open.isEmpty()
        ? Optional.empty()
        : Optional.of(new Position(shown, open.peek()[0], open.peek()[1]));
  }

  /** Whether a value may start after {@code before}, the last character that was not a blank. */
  private static boolean opensValue(char before, boolean inFlow) {
    return before == ':'
        || before == '-'
        || before == '\n'
        || (inFlow && (before == ',' || before == '[' || before == '{'));
  }

  /**
   * A line indented to no level of the block around it, said in words: SnakeYAML's own message
   * names its tokens ("expected <block end>, but found '?'"), which no file holds (found by QA).
   * The message and the hint, or empty for another problem.
   */
  private static Optional<String[]> indentation(String problem, MarkedYAMLException e) {
    if (!problem.startsWith("expected <block end>, but found ") || e.getContextMark() == null) {
      return Optional.empty();
    }
    String block =
        "line "
            + (e.getContextMark().getLine() + 1)
            + ", column "
            + (e.getContextMark().getColumn() + 1);
    boolean list = e.getContext() != null && e.getContext().contains("collection");
    if (problem.endsWith("'?'") && list) {
      return Optional.of(
          new String[] {
            "this key is indented as the '-' of the list at "
                + block
                + ", so it belongs to no item of that list",
            "indent it as the keys of the item above it (as its first key, after '- '), or start a"
                + " new item with '- '"
          });
    }
    if (problem.endsWith("'?'") || problem.endsWith("'<block mapping start>'")) {
      return Optional.of(
          new String[] {
            "this line is indented to no level of the block at "
                + block
                + ": less than the line above it and more than the keys of that block",
            "indent it exactly as the keys it belongs with"
          });
    }
    if (problem.endsWith("'<block sequence start>'") || problem.endsWith("'-'")) {
      return Optional.of(
          new String[] {
            "this list item's '-' is indented to no level of the lines above it",
            "indent its '-' as the other items of the list"
          });
    }
    return Optional.empty();
  }

  private static String syntaxHint(String problem, MarkedYAMLException e) {
    if (problem.contains("end of stream")
        && e.getContext() != null
        && e.getContext().contains("quoted")) {
      return "close the quote that starts at the position in parentheses";
    }
    if (problem.contains("mapping values are not allowed")) {
      return "check this line's indentation, or quote a value that contains ': '";
    }
    return "check the indentation and quoting at this position";
  }
}
