package dev.mlv.diag;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Comparator;
import java.util.List;

/** Prints diagnostics for people ({@code text}), programs ({@code json}) or GitHub Actions. */
public final class DiagnosticRenderer {
  public static final int FORMAT_VERSION = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private DiagnosticRenderer() {}

  /** Sorted by file, line, column, so output is stable. */
  public static List<Diagnostic> sorted(List<Diagnostic> diagnostics) {
    return diagnostics.stream()
        .sorted(
            Comparator.comparing(
                    (Diagnostic d) ->
                        d.position() == null || d.position().file() == null
                            ? ""
                            : d.position().file().toString())
                .thenComparingInt(d -> d.position() == null ? 0 : d.position().line())
                .thenComparingInt(d -> d.position() == null ? 0 : d.position().column())
                .thenComparing(Diagnostic::ruleId)
                .thenComparing(Diagnostic::message))
        .toList();
  }

  public static String text(List<Diagnostic> diagnostics) {
    StringBuilder sb = new StringBuilder();
    for (Diagnostic d : sorted(diagnostics)) {
      sb.append(d.format()).append('\n');
    }
    return sb.toString();
  }

  public static String summary(List<Diagnostic> diagnostics) {
    long errors = diagnostics.stream().filter(Diagnostic::isError).count();
    long warnings = diagnostics.stream().filter(d -> d.severity() == Severity.WARNING).count();
    return plural(errors, "error") + ", " + plural(warnings, "warning");
  }

  /** "1 view", "2 views". */
  public static String plural(long n, String word) {
    return n + " " + word + (n == 1 ? "" : "s");
  }

  public static String json(List<Diagnostic> diagnostics, int files, int views) {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    root.put("files", files);
    root.put("views", views);
    return write(withDiagnostics(root, diagnostics));
  }

  /**
   * The JSON a command asked for with {@code --format json} prints on stdout when it fails before
   * it has anything else to print, so a program reading stdout gets the reason, not nothing.
   */
  public static String jsonFailure(String command, List<Diagnostic> diagnostics) {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    root.put("command", command);
    root.put("status", "Failed");
    return write(withDiagnostics(root, diagnostics));
  }

  private static ObjectNode withDiagnostics(ObjectNode root, List<Diagnostic> diagnostics) {
    root.put("errors", diagnostics.stream().filter(Diagnostic::isError).count());
    root.put(
        "warnings", diagnostics.stream().filter(d -> d.severity() == Severity.WARNING).count());
    ArrayNode arr = root.putArray("diagnostics");
    for (Diagnostic d : sorted(diagnostics)) {
      ObjectNode o = arr.addObject();
      o.put("severity", d.severity().label());
      o.put("rule", d.ruleId());
      if (d.position() != null && d.position().file() != null) {
        o.put("file", d.position().file().toString().replace('\\', '/'));
      } else {
        o.putNull("file");
      }
      // No place (a usage error, an unknown run): null, not a line 0 no editor can go to.
      if (d.position() != null && d.position().line() > 0) {
        o.put("line", d.position().line());
        o.put("column", d.position().column());
      } else {
        o.putNull("line");
        o.putNull("column");
      }
      o.put("message", d.message());
      if (d.hint() == null) {
        o.putNull("hint");
      } else {
        o.put("hint", d.hint());
      }
    }
    return root;
  }

  private static String write(ObjectNode root) {
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }

  /**
   * GitHub workflow commands: {@code ::error file=f,line=l,col=c,title=RULE::message}, each file
   * under {@code prefix} (where the project's folder lies in the repository: GitHub places an
   * annotation by its path from the repository's root).
   */
  public static String github(List<Diagnostic> diagnostics, java.nio.file.Path prefix) {
    StringBuilder sb = new StringBuilder();
    for (Diagnostic d : sorted(diagnostics)) {
      String level =
          switch (d.severity()) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case INFO -> "notice";
          };
      sb.append("::").append(level);
      StringBuilder props = new StringBuilder();
      if (d.position() != null && d.position().file() != null) {
        String file = prefix.resolve(d.position().file()).toString().replace('\\', '/');
        props.append(" file=").append(property(file));
        props.append(",line=").append(d.position().line());
        props.append(",col=").append(d.position().column());
        props.append(",title=").append(property(d.ruleId()));
      } else {
        props.append(" title=").append(property(d.ruleId()));
      }
      sb.append(props);
      String msg = d.hint() == null ? d.message() : d.message() + "\nhint: " + d.hint();
      sb.append("::").append(data(msg)).append('\n');
    }
    return sb.toString();
  }

  // Escaping rules of GitHub's workflow commands.
  private static String data(String s) {
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
  }

  private static String property(String s) {
    return data(s).replace(":", "%3A").replace(",", "%2C");
  }
}
