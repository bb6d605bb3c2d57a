package dev.mlv.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.schedule.ScheduleChange;
import dev.mlv.schedule.SchedulePlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The versioned JSON form of a plan: what {@code plan --format json} prints and what {@code plan -o
 * FILE} saves for {@code apply FILE}. It holds no secrets: only names, SQL and fingerprints.
 */
public final class PlanJson {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private PlanJson() {}

  public static String write(Plan plan) {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", Plan.FORMAT_VERSION);
    root.put("project", plan.project());
    root.put("target", plan.target());
    root.put("createdAt", plan.createdAt().toString());
    ObjectNode pre = root.putObject("precondition");
    pre.put("stateFingerprint", plan.stateFingerprint());
    pre.put("projectFingerprint", plan.projectFingerprint());
    ObjectNode summary = root.putObject("summary");
    summary.put("create", plan.count(Change.Create.class));
    summary.put("replace", plan.count(Change.Replace.class));
    summary.put("rename", plan.count(Change.Rename.class));
    summary.put("drop", plan.count(Change.Drop.class));
    summary.put("unchanged", plan.count(Change.NoOp.class));
    summary.put("enableCdf", plan.enableCdf().size());
    if (!plan.notebooks().isEmpty()) {
      ObjectNode nb = summary.putObject("notebooks");
      for (String action : List.of("create", "recreate", "update", "delete", "no-op")) {
        nb.put(action, plan.notebooks().stream().filter(n -> action(n).equals(action)).count());
      }
    }
    ArrayNode changes = root.putArray("changes");
    for (Change c : plan.changes()) {
      ObjectNode o = changes.addObject();
      o.put("action", action(c));
      o.put("id", c.id().toString());
      o.put("reason", c.reason());
      if (c instanceof Change.Create cr) {
        o.put("statement", cr.statement());
        o.put("fingerprint", cr.fingerprint());
      } else if (c instanceof Change.Replace r) {
        o.put("statement", r.statement());
        o.put("fingerprint", r.fingerprint());
        o.put("previous", r.previous());
        o.put("diff", r.diff());
        // Only when there are some, so that plans without them read as before.
        if (!r.warnings().isEmpty()) {
          ArrayNode warnings = o.putArray("warnings");
          r.warnings().forEach(warnings::add);
        }
      } else if (c instanceof Change.Rename rn) {
        o.put("from", rn.from().toString());
        o.put("statement", rn.statement());
        o.put("fingerprint", rn.fingerprint());
      } else if (c instanceof Change.Drop d) {
        o.put("previous", d.previous());
      }
    }
    ArrayNode cdf = root.putArray("enableCdf");
    for (EnableCdf e : plan.enableCdf()) {
      ObjectNode o = cdf.addObject();
      o.put("table", e.table().toString());
      ArrayNode readers = o.putArray("readers");
      e.readers().forEach(r -> readers.add(r.toString()));
    }
    ArrayNode refresh = root.putArray("refresh");
    plan.refresh().forEach(id -> refresh.add(id.toString()));
    ArrayNode orphans = root.putArray("orphans");
    plan.orphans().forEach(id -> orphans.add(id.toString()));
    schedules(root, plan.schedules());
    if (!plan.notebooks().isEmpty()) {
      ArrayNode notebooks = root.putArray("notebooks");
      for (NotebookChange n : plan.notebooks()) {
        ObjectNode o = notebooks.addObject();
        o.put("action", action(n));
        o.put("source", n.source());
        o.put("displayName", n.displayName());
        n.notebookId().ifPresent(id -> o.put("notebookId", id));
        ArrayNode views = o.putArray("views");
        n.views().forEach(v -> views.add(v.toString()));
        o.put("reason", n.reason());
      }
    }
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }

  /**
   * What {@code apply --format json} prints when only schedules changed (there is no view run to
   * report): the plan's identity and its {@code schedules} object, as in the plan JSON.
   */
  public static String writeSchedules(Plan plan) {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", Plan.FORMAT_VERSION);
    root.put("project", plan.project());
    root.put("target", plan.target());
    schedules(root, plan.schedules());
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }

  /** Written only when the project declares schedules, so plans without them read as before. */
  private static void schedules(ObjectNode root, SchedulePlan sp) {
    if (sp.isEmpty()) {
      return;
    }
    ObjectNode o = root.putObject("schedules");
    sp.ignored().ifPresent(i -> o.put("ignored", i));
    ObjectNode summary = o.putObject("summary");
    summary.put("create", sp.count(ScheduleChange.Create.class));
    summary.put("update", sp.count(ScheduleChange.Update.class));
    summary.put("delete", sp.count(ScheduleChange.Delete.class));
    summary.put("unchanged", sp.count(ScheduleChange.NoOp.class));
    ArrayNode changes = o.putArray("changes");
    for (ScheduleChange c : sp.changes()) {
      ObjectNode x = changes.addObject();
      x.put("action", scheduleAction(c));
      x.put("name", c.name());
      x.put("id", c.id());
      x.put("summary", c.summary());
      x.put("reason", c.reason());
    }
    ArrayNode unmanaged = o.putArray("unmanaged");
    sp.unmanaged().forEach(unmanaged::add);
  }

  private static String scheduleAction(ScheduleChange c) {
    if (c instanceof ScheduleChange.Create) {
      return "create";
    } else if (c instanceof ScheduleChange.Update) {
      return "update";
    } else if (c instanceof ScheduleChange.Delete) {
      return "delete";
    }
    return "no-op";
  }

  private static SchedulePlan readSchedules(JsonNode o) {
    if (o == null || o.isMissingNode() || o.isNull()) {
      return SchedulePlan.NONE;
    }
    List<ScheduleChange> changes = new ArrayList<>();
    for (JsonNode c : o.withArray("changes")) {
      String name = text(c, "name");
      String id = text(c, "id");
      String summary = text(c, "summary");
      String reason = text(c, "reason");
      changes.add(
          switch (text(c, "action")) {
            case "create" -> new ScheduleChange.Create(name, id, summary, reason);
            case "update" -> new ScheduleChange.Update(name, id, summary, reason);
            case "delete" -> new ScheduleChange.Delete(name, id, summary, reason);
            case "no-op" -> new ScheduleChange.NoOp(name, id, summary, reason);
            default ->
                throw new IllegalArgumentException("unknown schedule action " + c.path("action"));
          });
    }
    List<String> unmanaged = new ArrayList<>();
    o.withArray("unmanaged").forEach(u -> unmanaged.add(u.asText()));
    JsonNode ignored = o.get("ignored");
    return new SchedulePlan(
        changes,
        unmanaged,
        ignored == null || !ignored.isTextual()
            ? java.util.Optional.empty()
            : java.util.Optional.of(ignored.asText()));
  }

  static String action(Change c) {
    if (c instanceof Change.Create) {
      return "create";
    } else if (c instanceof Change.Replace) {
      return "replace";
    } else if (c instanceof Change.Rename) {
      return "rename";
    } else if (c instanceof Change.Drop) {
      return "drop";
    }
    return "no-op";
  }

  static String action(NotebookChange n) {
    if (n instanceof NotebookChange.Create) {
      return "create";
    } else if (n instanceof NotebookChange.Recreate) {
      return "recreate";
    } else if (n instanceof NotebookChange.Update) {
      return "update";
    } else if (n instanceof NotebookChange.Delete) {
      return "delete";
    }
    return "no-op";
  }

  private static NotebookChange notebook(JsonNode n) {
    String source = text(n, "source");
    String name = text(n, "displayName");
    String reason = text(n, "reason");
    List<ObjectId> views = new ArrayList<>();
    n.withArray("views").forEach(v -> views.add(ObjectId.parse(v.asText())));
    return switch (text(n, "action")) {
      case "create" -> new NotebookChange.Create(source, name, views, reason);
      case "recreate" -> new NotebookChange.Recreate(source, name, views, reason);
      case "update" ->
          new NotebookChange.Update(source, name, text(n, "notebookId"), views, reason);
      case "delete" ->
          new NotebookChange.Delete(source, name, text(n, "notebookId"), views, reason);
      case "no-op" -> new NotebookChange.NoOp(source, name, text(n, "notebookId"), views, reason);
      default -> throw new IllegalArgumentException("unknown action " + n.path("action"));
    };
  }

  /** Reads a saved plan; a file that is not one gives a clear error, never a stack trace. */
  public static Plan read(String json, String source) {
    try {
      JsonNode root = JSON.readTree(json);
      if (root == null || !root.isObject()) {
        throw new IllegalArgumentException("not a JSON object");
      }
      // Any JSON can be passed here (a run report, a lineage graph): say what it lacks as a plan
      // before its version, which other mlv documents share.
      if (!root.path("precondition").isObject() || !root.path("changes").isArray()) {
        throw new IllegalArgumentException("it has no \"precondition\" or \"changes\"");
      }
      JsonNode version = root.path("formatVersion");
      if (!version.isInt() || version.asInt() != Plan.FORMAT_VERSION) {
        throw new MlvException(
            "PLAN_FILE",
            source
                + " is a plan of formatVersion "
                + (version.isMissingNode() ? "(none)" : version.toString())
                + ", and this mlv reads formatVersion "
                + Plan.FORMAT_VERSION
                + "; make it again with 'mlv plan -o FILE'");
      }
      List<Change> changes = new ArrayList<>();
      for (JsonNode c : root.withArray("changes")) {
        ObjectId id = ObjectId.parse(text(c, "id"));
        String reason = text(c, "reason");
        changes.add(
            switch (text(c, "action")) {
              case "create" ->
                  new Change.Create(id, text(c, "statement"), text(c, "fingerprint"), reason);
              case "replace" ->
                  new Change.Replace(
                      id,
                      text(c, "statement"),
                      text(c, "fingerprint"),
                      text(c, "previous"),
                      text(c, "diff"),
                      reason,
                      texts(c, "warnings"));
              case "rename" ->
                  new Change.Rename(
                      ObjectId.parse(text(c, "from")),
                      id,
                      text(c, "statement"),
                      text(c, "fingerprint"),
                      reason);
              case "drop" -> new Change.Drop(id, text(c, "previous"), reason);
              case "no-op" -> new Change.NoOp(id, reason);
              default -> throw new IllegalArgumentException("unknown action " + c.path("action"));
            });
      }
      List<EnableCdf> cdf = new ArrayList<>();
      for (JsonNode e : root.withArray("enableCdf")) {
        List<ObjectId> readers = new ArrayList<>();
        e.withArray("readers").forEach(r -> readers.add(ObjectId.parse(r.asText())));
        cdf.add(new EnableCdf(ObjectId.parse(text(e, "table")), readers));
      }
      List<ObjectId> refresh = new ArrayList<>();
      root.withArray("refresh").forEach(r -> refresh.add(ObjectId.parse(r.asText())));
      List<ObjectId> orphans = new ArrayList<>();
      root.withArray("orphans").forEach(r -> orphans.add(ObjectId.parse(r.asText())));
      List<NotebookChange> notebooks = new ArrayList<>();
      if (root.has("notebooks")) {
        root.withArray("notebooks").forEach(n -> notebooks.add(notebook(n)));
      }
      JsonNode pre = root.path("precondition");
      return new Plan(
          text(root, "project"),
          text(root, "target"),
          Instant.parse(text(root, "createdAt")),
          text(pre, "stateFingerprint"),
          text(pre, "projectFingerprint"),
          changes,
          cdf,
          refresh,
          orphans,
          readSchedules(root.get("schedules")),
          notebooks);
    } catch (JsonProcessingException e) {
      // Jackson's own message names a redacted source; the position is said once, as file:line:col.
      String why = dev.mlv.diag.JsonProblem.reason(e);
      throw new MlvException(
          dev.mlv.diag.Diagnostic.error(
              "PLAN_FILE",
              dev.mlv.diag.JsonProblem.position(java.nio.file.Path.of(source), e),
              source + " is not a saved mlv plan: its JSON is malformed (" + why + ")",
              "make one with 'mlv plan -o FILE'"));
    } catch (IllegalArgumentException | java.time.DateTimeException e) {
      throw new MlvException(
          "PLAN_FILE",
          source
              + " is not a saved mlv plan ("
              + e.getMessage().lines().findFirst().orElse("")
              + "); make one with 'mlv plan -o FILE'");
    }
  }

  /** An optional array of text, absent in plans saved by an earlier mlv. */
  private static List<String> texts(JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new IllegalArgumentException("field '" + field + "' is not an array");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : v) {
      if (!e.isTextual()) {
        throw new IllegalArgumentException("field '" + field + "' holds a value that is not text");
      }
      out.add(e.asText());
    }
    return out;
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull() || !v.isTextual()) {
      throw new IllegalArgumentException("missing text field '" + field + "'");
    }
    return v.asText();
  }
}
