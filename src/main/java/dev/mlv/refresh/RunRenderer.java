package dev.mlv.refresh;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.lineage.DisplayWidth;
import dev.mlv.lineage.NameResolver;
import java.util.List;
import java.util.Map;

/** The run report for people and, versioned, for programs. */
public final class RunRenderer {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private RunRenderer() {}

  public static String text(RunReport run, NameResolver names) {
    StringBuilder sb = new StringBuilder();
    sb.append("Run ")
        .append(run.id())
        .append(" on ")
        .append(run.target())
        .append(": ")
        .append(run.status())
        .append(" in ")
        .append(seconds(run.durationMs()))
        .append('\n');
    if (run.views().isEmpty()) {
      sb.append("  (no views)\n");
    }
    // As wide as the longest name (34 at least), so the strategies and reasons stay in line.
    int width =
        Math.max(
            34,
            run.views().stream()
                .mapToInt(v -> DisplayWidth.of(names.display(v.id())))
                .max()
                .orElse(0));
    for (ViewRun v : run.views()) {
      sb.append(
          String.format(
              "  %-9s %s %-11s %s%n",
              v.status(),
              DisplayWidth.padRight(names.display(v.id()), width),
              v.strategy(),
              v.reason()));
      if (v.status() == ViewStatus.Completed && !"skip".equals(v.strategy())) {
        sb.append(
            String.format(
                "            rows written %d, %s, %s%n",
                v.rowsWritten(),
                v.dropsMeasured()
                    ? "dropped " + v.rowsDropped() + violations(v.violations())
                    : "dropped: " + NOT_REPORTED,
                seconds(v.durationMs())));
        v.files()
            .ifPresent(
                f ->
                    sb.append(
                        String.format(
                            "            files ingested %d, removed %d%n",
                            f.ingested(), f.removed())));
      }
      v.error()
          .ifPresent(e -> e.lines().forEach(l -> sb.append("            ").append(l).append('\n')));
    }
    sb.append(summary(run.views())).append('\n');
    return sb.toString();
  }

  /**
   * The last line of the text report. A view the strategy skipped is Completed in the model, as in
   * Fabric, but "completed" would read as refreshed here: it is counted as unchanged.
   */
  static String summary(List<ViewRun> views) {
    long planned = views.stream().filter(v -> v.status() == ViewStatus.Planned).count();
    if (planned > 0) {
      return DiagnosticRenderer.plural(planned, "view") + " planned";
    }
    long upToDate =
        views.stream()
            .filter(v -> v.status() == ViewStatus.Completed && "skip".equals(v.strategy()))
            .count();
    long completed = views.stream().filter(v -> v.status() == ViewStatus.Completed).count();
    long failed = views.stream().filter(v -> v.status() == ViewStatus.Failed).count();
    long skipped = views.stream().filter(v -> v.status() == ViewStatus.Skipped).count();
    return DiagnosticRenderer.plural(views.size(), "view")
        + ": "
        + (completed - upToDate)
        + " refreshed, "
        + upToDate
        + " unchanged (no new data in their sources), "
        + failed
        + " failed, "
        + skipped
        + " skipped";
  }

  /** How a view whose drops no one counted reads, in place of a count. */
  public static final String NOT_REPORTED = "not reported by Fabric";

  /** The rules that caught rows; "violations: pos=0" beside "dropped 0" said nothing. */
  private static String violations(Map<String, Long> violations) {
    StringBuilder sb = new StringBuilder();
    violations.forEach(
        (k, v) -> {
          if (v > 0) {
            sb.append(' ').append(k).append('=').append(v);
          }
        });
    return sb.isEmpty() ? "" : " (violations:" + sb + ")";
  }

  private static String seconds(long ms) {
    return String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
  }

  public static ObjectNode node(RunReport run) {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", RunReport.FORMAT_VERSION);
    ObjectNode r = root.putObject("run");
    r.put("id", run.id());
    r.put("status", run.status().name());
    // A skipped run has no views to say why it did nothing (found by QA: only stderr said).
    r.put("reason", run.reason());
    r.put("target", run.target());
    r.put("startedAt", run.startedAt().toString());
    if (run.endedAt() == null) {
      r.putNull("endedAt");
    } else {
      r.put("endedAt", run.endedAt().toString());
    }
    ArrayNode views = root.putArray("views");
    for (ViewRun v : run.views()) {
      ObjectNode o = views.addObject();
      o.put("id", v.id().toString());
      o.put("status", v.status().name());
      o.put("strategy", v.strategy());
      o.put("reason", v.reason());
      o.put("rowsWritten", v.rowsWritten());
      // Unknown drops are null, never 0, and say why; only such views carry dropsNotMeasured.
      if (v.dropsMeasured()) {
        o.put("rowsDropped", v.rowsDropped());
        ObjectNode viol = o.putObject("violations");
        v.violations().forEach(viol::put);
      } else {
        o.putNull("rowsDropped");
        o.putNull("violations");
        o.put("dropsNotMeasured", v.dropsNotMeasured().get());
      }
      o.put("durationMs", v.durationMs());
      // Only file-ingesting views carry it, so older readers of other views see no change.
      v.files()
          .ifPresent(
              f -> o.putObject("files").put("ingested", f.ingested()).put("removed", f.removed()));
      if (v.error().isPresent()) {
        o.put("error", v.error().get());
      } else {
        o.putNull("error");
      }
    }
    return root;
  }

  /**
   * The run a {@link #node} wrote, back again; how parked and Fabric run records are read. A file
   * that is not such a record fails with an IllegalArgumentException saying what is wrong in it, in
   * a few words ({@link #unreadable}).
   */
  public static RunReport read(com.fasterxml.jackson.databind.JsonNode root) {
    if (!root.path("run").isObject()) {
      throw new IllegalArgumentException("it has no \"run\" object");
    }
    com.fasterxml.jackson.databind.JsonNode run = root.path("run");
    java.util.List<ViewRun> views = new java.util.ArrayList<>();
    int at = 0;
    for (com.fasterxml.jackson.databind.JsonNode v : root.path("views")) {
      String where = "views[" + at++ + "]";
      java.util.Map<String, Long> violations = new java.util.LinkedHashMap<>();
      v.path("violations")
          .fields()
          .forEachRemaining(e -> violations.put(e.getKey(), e.getValue().asLong()));
      com.fasterxml.jackson.databind.JsonNode files = v.path("files");
      com.fasterxml.jackson.databind.JsonNode error = v.path("error");
      com.fasterxml.jackson.databind.JsonNode unmeasured = v.path("dropsNotMeasured");
      views.add(
          new ViewRun(
              viewId(v.path("id"), where + ".id"),
              named(ViewStatus.class, v.path("status"), where + ".status"),
              v.path("strategy").asText(),
              v.path("reason").asText(),
              v.path("rowsWritten").asLong(),
              v.path("rowsDropped").asLong(),
              violations,
              v.path("durationMs").asLong(),
              error.isNull() || error.isMissingNode()
                  ? java.util.Optional.empty()
                  : java.util.Optional.of(error.asText()),
              files.isObject()
                  ? java.util.Optional.of(
                      new FileCounts(
                          files.path("ingested").asLong(), files.path("removed").asLong()))
                  : java.util.Optional.empty(),
              unmeasured.isTextual()
                  ? java.util.Optional.of(unmeasured.asText())
                  : java.util.Optional.empty()));
    }
    com.fasterxml.jackson.databind.JsonNode ended = run.path("endedAt");
    return new RunReport(
        run.path("id").asText(),
        named(RunStatus.class, run.path("status"), "run.status"),
        instant(run.path("startedAt"), "run.startedAt"),
        ended.isNull() || ended.isMissingNode() ? null : instant(ended, "run.endedAt"),
        run.path("target").asText(),
        views);
  }

  /**
   * The warning for a run record that is skipped because it cannot be read, one line: {@code
   * problem} is an I/O error, a JSON syntax error or what {@link #read} found wrong.
   */
  public static String unreadable(java.nio.file.Path file, Exception problem) {
    String why;
    if (problem instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
      com.fasterxml.jackson.core.JsonLocation l = j.getLocation();
      why =
          "it is not JSON"
              + (l == null ? "" : " (line " + l.getLineNr() + ", column " + l.getColumnNr() + ")");
    } else if (problem instanceof java.io.IOException io) {
      why = "cannot read it: " + dev.mlv.diag.IoReason.of(io);
    } else {
      why = problem.getMessage();
    }
    return "warning: run record " + file + " is skipped: " + why;
  }

  private static <E extends Enum<E>> E named(
      Class<E> type, com.fasterxml.jackson.databind.JsonNode value, String where) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(value.asText())) {
        return e;
      }
    }
    String known =
        String.join(
            ", ", java.util.Arrays.stream(type.getEnumConstants()).map(Enum::name).toList());
    throw new IllegalArgumentException(
        value.isMissingNode()
            ? where + " is missing"
            : where + " '" + value.asText() + "' is not one of " + known);
  }

  private static java.time.Instant instant(
      com.fasterxml.jackson.databind.JsonNode value, String where) {
    try {
      return java.time.Instant.parse(value.asText());
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException(
          where
              + (value.isMissingNode() ? " is missing" : " '" + value.asText() + "' is not a time")
              + " such as 2026-01-01T00:00:00Z");
    }
  }

  private static dev.mlv.lineage.ObjectId viewId(
      com.fasterxml.jackson.databind.JsonNode value, String where) {
    try {
      return dev.mlv.lineage.ObjectId.parse(value.asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          where + " '" + value.asText() + "' is not a view's workspace.lakehouse.schema.name");
    }
  }

  public static String json(RunReport run) {
    return write(node(run));
  }

  public static String jsonList(List<RunReport> runs) {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", RunReport.FORMAT_VERSION);
    ArrayNode arr = root.putArray("runs");
    for (RunReport r : runs) {
      ObjectNode n = node(r);
      n.remove("formatVersion");
      arr.add(n);
    }
    return write(root);
  }

  private static String write(ObjectNode node) {
    try {
      return JSON.writeValueAsString(node) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }
}
