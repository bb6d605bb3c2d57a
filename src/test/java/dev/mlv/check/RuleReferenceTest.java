package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/rules.md is where a user looks up the id of {@code error[RULE_ID]}, so it must hold a
 * section for every rule id the code can report and none for an id no code reports. The ids are
 * read from the main source tree, from the places a diagnostic is made: {@code Diagnostic.error},
 * {@code Diagnostic.warning}, {@code new Diagnostic(Severity.X, ...)} and the exceptions that make
 * one from an id ({@code MlvException} and its subclasses), following a constant to its value and a
 * helper's rule parameter to the ids its callers pass.
 */
class RuleReferenceTest {
  private static final Path SOURCES = Path.of("src/main/java");
  private static final Path PAGE = Path.of("docs/rules.md");

  private static final Pattern HEADING =
      Pattern.compile("^### `([A-Z][A-Z0-9_]*)`$", Pattern.MULTILINE);
  private static final Pattern LITERAL = Pattern.compile("\"([A-Z][A-Z0-9_]*)\"");
  private static final Pattern CONSTANT = Pattern.compile("(?:([A-Z]\\w*)\\.)?([A-Z][A-Z0-9_]*)");
  private static final Pattern PARAMETER = Pattern.compile("[a-z]\\w*");
  private static final Pattern SUBCLASS = Pattern.compile("class (\\w+) extends MlvException\\b");

  @Test
  void everyRuleTheCodeReportsHasASectionAndEverySectionARule() throws IOException {
    Map<String, String> files = sources();
    Set<String> emitted = emittedRuleIds(files);
    Set<String> documented = new TreeSet<>();
    Matcher m = HEADING.matcher(Files.readString(PAGE, StandardCharsets.UTF_8));
    while (m.find()) {
      documented.add(m.group(1));
    }

    // Guards the scan itself: were it to find nothing, both checks below would pass vacuously.
    assertThat(emitted).contains("UNRESOLVED_COLUMN", "SQL_PARSE", "CONFIG_TYPE", "PLAN_OUT");
    Set<String> undocumented = new TreeSet<>(emitted);
    undocumented.removeAll(documented);
    Set<String> unknown = new TreeSet<>(documented);
    unknown.removeAll(emitted);
    assertThat(undocumented)
        .as("rule ids the code reports but docs/rules.md has no '### `ID`' section for")
        .isEmpty();
    assertThat(unknown).as("sections of docs/rules.md for rule ids no code reports").isEmpty();
  }

  /** Every .java file under src/main/java, by class name, without comments. */
  private static Map<String, String> sources() throws IOException {
    Map<String, String> files = new HashMap<>();
    try (Stream<Path> walk = Files.walk(SOURCES)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
        String name = p.getFileName().toString().replace(".java", "");
        files.put(name, withoutComments(Files.readString(p, StandardCharsets.UTF_8)));
      }
    }
    return files;
  }

  static Set<String> emittedRuleIds(Map<String, String> files) {
    List<String> exceptions = new ArrayList<>(List.of("MlvException"));
    for (String text : files.values()) {
      Matcher m = SUBCLASS.matcher(text);
      while (m.find()) {
        exceptions.add(m.group(1));
      }
    }
    Pattern creation =
        Pattern.compile(
            "(Diagnostic\\.error|Diagnostic\\.warning|new\\s+Diagnostic"
                + "|new\\s+(?:[\\w.]+\\.)?(?:"
                + String.join("|", exceptions)
                + "))\\s*\\(");
    Set<String> ids = new TreeSet<>();
    for (Map.Entry<String, String> file : files.entrySet()) {
      String text = file.getValue();
      Matcher m = creation.matcher(text);
      while (m.find()) {
        List<String> args = arguments(text, m.end());
        String id = args.isEmpty() ? "" : args.get(0);
        if (m.group(1).startsWith("new") && m.group(1).endsWith("Diagnostic")) {
          // new Diagnostic(severity, id, ...): the id is second.
          id = args.size() > 1 ? args.get(1) : "";
        }
        Optional<String> resolved = resolve(files, file.getKey(), id);
        if (resolved.isPresent()) {
          ids.add(resolved.get());
        } else if (PARAMETER.matcher(id).matches()) {
          ids.addAll(passedTo(files, file.getKey(), text, m.start(), id));
        }
        // Anything else is a diagnostic passed on (d.ruleId()) or an exception made from a list
        // or a diagnostic, whose own creation is matched where it is written.
      }
    }
    return ids;
  }

  /** A string literal, or a constant of this class or of a named one, as its value. */
  private static Optional<String> resolve(Map<String, String> files, String self, String arg) {
    Matcher literal = LITERAL.matcher(arg);
    if (literal.matches()) {
      return Optional.of(literal.group(1));
    }
    Matcher constant = CONSTANT.matcher(arg);
    if (!constant.matches()) {
      return Optional.empty();
    }
    String owner = files.get(constant.group(1) == null ? self : constant.group(1));
    if (owner == null) {
      return Optional.empty();
    }
    Matcher value =
        Pattern.compile(
                "static final String " + constant.group(2) + "\\s*=\\s*\"([A-Z][A-Z0-9_]*)\"\\s*;")
            .matcher(owner);
    return value.find() ? Optional.of(value.group(1)) : Optional.empty();
  }

  /**
   * The ids callers pass to a helper whose parameter {@code parameter} becomes the rule id: {@code
   * error(String rule, ...)}, {@code UserFiles.read(file, rule, what)}. Calls are looked for in the
   * helper's own file and, qualified with its class, in every other one.
   */
  private static Set<String> passedTo(
      Map<String, String> files, String self, String text, int at, String parameter) {
    Set<String> ids = new TreeSet<>();
    Matcher method =
        Pattern.compile("(\\w+)\\s*\\(([^()]*)\\)\\s*(?:throws [\\w., ]+)?\\{").matcher(text);
    String name = null;
    List<String> params = List.of();
    while (method.find() && method.start() < at) {
      if (!Set.of("if", "for", "while", "switch", "catch", "synchronized")
          .contains(method.group(1))) {
        name = method.group(1);
        params = List.of(method.group(2).split(","));
      }
    }
    int index = -1;
    for (int i = 0; i < params.size(); i++) {
      String[] words = params.get(i).strip().split("\\s+");
      if (words[words.length - 1].equals(parameter)) {
        index = i;
      }
    }
    // The constructors of Diagnostic and the exceptions pass their own parameter on: their callers
    // are the creations matched above.
    if (name == null || index < 0 || Character.isUpperCase(name.charAt(0))) {
      return ids;
    }
    for (Map.Entry<String, String> file : files.entrySet()) {
      String call = file.getKey().equals(self) ? "(?<![\\w.])" : "(?<![\\w.])" + self + "\\.";
      Matcher m = Pattern.compile(call + name + "\\s*\\(").matcher(file.getValue());
      while (m.find()) {
        List<String> args = arguments(file.getValue(), m.end());
        if (args.size() > index) {
          resolve(files, file.getKey(), args.get(index)).ifPresent(ids::add);
        }
      }
    }
    return ids;
  }

  /** The top-level arguments of the call whose '(' ends just before {@code from}. */
  private static List<String> arguments(String text, int from) {
    List<String> args = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int depth = 0;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        int end = endOfString(text, i);
        current.append(text, i, end);
        i = end - 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) {
          args.add(current.toString().strip());
          return args;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        args.add(current.toString().strip());
        current.setLength(0);
        continue;
      }
      current.append(c);
    }
    return args;
  }

  /** The index just past the string literal starting at {@code start}. */
  private static int endOfString(String text, int start) {
    int i = start + 1;
    while (i < text.length() && text.charAt(i) != '"') {
      i += text.charAt(i) == '\\' ? 2 : 1;
    }
    return i + 1;
  }

  /**
   * The source without comments, and with character literals and text blocks blanked, so that a
   * quote or a parenthesis inside them does not upset the argument splitter.
   */
  static String withoutComments(String source) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < source.length()) {
      if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        out.append("\"\"");
        i = end + 3;
      } else if (source.startsWith("//", i)) {
        int end = source.indexOf('\n', i);
        i = end < 0 ? source.length() : end;
      } else if (source.startsWith("/*", i)) {
        i = source.indexOf("*/", i + 2) + 2;
      } else if (source.charAt(i) == '"') {
        int end = endOfString(source, i);
        out.append(source, i, end);
        i = end;
      } else if (source.charAt(i) == '\'') {
        int end = source.indexOf('\'', i + (source.charAt(i + 1) == '\\' ? 3 : 2));
        out.append("'x'");
        i = end + 1;
      } else {
        out.append(source.charAt(i));
        i++;
      }
    }
    return out.toString();
  }
}
