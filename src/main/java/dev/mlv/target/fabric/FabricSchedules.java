package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.lineage.Selection;
import dev.mlv.project.Project;
import dev.mlv.schedule.Recurrence;
import dev.mlv.schedule.Schedule;
import dev.mlv.schedule.ScheduleChange;
import dev.mlv.schedule.ScheduleLimits;
import dev.mlv.schedule.SchedulePlan;
import dev.mlv.schedule.ScheduleSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The schedules of mlv.yml as item schedules of the lakehouse's {@code
 * RefreshMaterializedLakeViews} job. Each managed schedule runs its own MLV execution definition
 * (referenced from the schedule's {@code executionData}), named {@code mlv-schedule
 * <project>/<schedule>}: that name, kept by Fabric, is how mlv recognises its schedules on any
 * machine. A schedule whose definition does not carry it was made elsewhere (the Fabric UI, another
 * tool) and is never changed or deleted.
 */
public final class FabricSchedules implements dev.mlv.schedule.Schedules {
  static final String MARKER = "mlv-schedule ";

  /** Fabric's schedule date-times: local to the schedule's time zone, seconds, no offset. */
  private static final java.time.format.DateTimeFormatter DATE_TIME =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

  private final FabricHttp http;
  private final JobClient jobs;
  private final String path;
  private final String target;

  FabricSchedules(FabricHttp http, JobClient jobs, UUID workspace, UUID lakehouse, String target) {
    this.http = http;
    this.jobs = jobs;
    this.path =
        "/workspaces/"
            + workspace
            + "/items/"
            + lakehouse
            + "/jobs/"
            + JobClient.JOB_TYPE
            + "/schedules";
    this.target = target;
  }

  /** A schedule on the target; {@code name} is set when mlv manages it for this project. */
  private record Deployed(
      String id, JsonNode body, Optional<String> name, Optional<JsonNode> definition) {}

  /** What the project wants for one schedule: the definition and the schedule bodies. */
  private record Wanted(Schedule schedule, ObjectNode definition, ObjectNode body) {}

  /** Compares the declared schedules with the target's, read-only. */
  @Override
  public SchedulePlan plan(Project project) {
    return diff(project, wanted(project), deployed(project)).plan();
  }

  /**
   * Makes the target's schedules match the project, after checking that they are still what {@code
   * planned} showed. {@code say} gets one line per change.
   */
  @Override
  public void apply(Project project, SchedulePlan planned, Consumer<String> say) {
    Map<String, Wanted> wanted = wanted(project);
    Diff diff = diff(project, wanted, deployed(project));
    if (!diff.plan().changes().equals(planned.changes())) {
      throw new MlvException(
          "PLAN_STALE",
          "the schedules on target '"
              + target
              + "' changed since the plan was made; run 'mlv plan' again");
    }
    for (ScheduleChange c : diff.plan().changes()) {
      if (c instanceof ScheduleChange.Create) {
        say.accept("  creating schedule " + c.name());
        create(wanted.get(c.name()));
      } else if (c instanceof ScheduleChange.Update) {
        say.accept("  updating schedule " + c.name());
        Wanted w = wanted.get(c.name());
        String def = definition(w);
        ObjectNode body = w.body().deepCopy();
        body.putObject("executionData").put("mlvExecutionDefinitionId", def);
        http.send(
            "PATCH",
            http.url(path + "/" + c.id()),
            body,
            "updating schedule " + c.name(),
            true,
            null);
      } else if (c instanceof ScheduleChange.Delete) {
        say.accept("  deleting schedule " + c.name());
        deleted(
            () ->
                http.send(
                    "DELETE",
                    http.url(path + "/" + c.id()),
                    null,
                    "deleting schedule " + c.name(),
                    true,
                    null));
        Deployed d = diff.managed().get(c.name());
        // A twin of a declared schedule shares its definition, which stays.
        if (d.id().equals(c.id()) && !wanted.containsKey(c.name())) {
          d.definition()
              .ifPresent(
                  def ->
                      deleted(
                          () ->
                              jobs.deleteDefinition(
                                  def.path("id").asText(), def.path("displayName").asText())));
        }
      }
    }
  }

  /** A DELETE retried after its answer was lost finds the resource gone: that is success. */
  private static void deleted(Runnable delete) {
    try {
      delete.run();
    } catch (FabricApiException e) {
      if (e.status() != 404) {
        throw e;
      }
    }
  }

  private String definition(Wanted w) {
    JsonNode d = w.definition();
    JobClient.Selection s = selection(w.schedule(), d);
    return jobs.definitionFor(d.path("displayName").asText(), s);
  }

  private void create(Wanted w) {
    String def = definition(w);
    ObjectNode body = w.body().deepCopy();
    body.putObject("executionData").put("mlvExecutionDefinitionId", def);
    // A create whose answer was lost is found by its definition instead of creating a twin.
    http.send(
        "POST",
        http.url(path),
        body,
        "creating schedule " + w.schedule().name(),
        false,
        () ->
            jobs.list(path, "listing schedules").stream()
                .filter(
                    s ->
                        def.equals(
                            s.path("executionData").path("mlvExecutionDefinitionId").asText()))
                .findFirst()
                .map(
                    s ->
                        new FabricHttp.Response(
                            201, s, Optional.empty(), Optional.empty(), Optional.empty())));
  }

  private static JobClient.Selection selection(Schedule s, JsonNode definition) {
    List<String> views = new ArrayList<>();
    definition
        .path("currentLakehouseExecutionContext")
        .path("selectedMlvs")
        .forEach(v -> views.add(v.asText()));
    return new JobClient.Selection(
        s.refreshMode() == Schedule.RefreshMode.FULL, views, s.allViews(), false, List.of());
  }

  // ---- desired ----

  private String displayName(Project project, Schedule s) {
    return MARKER + project.config().name() + "/" + s.name();
  }

  private Map<String, Wanted> wanted(Project project) {
    Map<String, Wanted> out = new LinkedHashMap<>();
    for (Schedule s : project.config().schedules()) {
      if (!s.appliesTo(target)) {
        continue;
      }
      List<String> views = new ArrayList<>();
      if (!s.allViews()) {
        SortedSet<ObjectId> picked;
        try {
          picked =
              Selection.views(
                  project.lineage(),
                  Selection.select(project.lineage(), project.names(), s.views()));
        } catch (MlvException e) {
          throw new MlvException(
              "CONFIG_SCHEDULE",
              s.at()
                  + ": schedule '"
                  + s.name()
                  + "' selects views mlv cannot find: "
                  + e.getMessage());
        }
        for (var layer : project.lineage().layers()) {
          layer.stream().filter(picked::contains).map(ObjectId::shortName).forEach(views::add);
        }
        if (views.isEmpty()) {
          throw new MlvException(
              "CONFIG_SCHEDULE",
              s.at() + ": schedule '" + s.name() + "' selects no view of this project");
        }
      }
      JobClient.Selection sel =
          new JobClient.Selection(
              s.refreshMode() == Schedule.RefreshMode.FULL, views, s.allViews(), false, List.of());
      out.put(
          s.name(), new Wanted(s, JobClient.definitionBody(displayName(project, s), sel), body(s)));
    }
    return out;
  }

  /** The schedule body Fabric's Create/Update Item Schedule take, without executionData. */
  static ObjectNode body(Schedule s) {
    ObjectNode body = FabricHttp.JSON.createObjectNode();
    body.put("enabled", s.enabled());
    ObjectNode c = body.putObject("configuration");
    Recurrence r = s.recurrence();
    c.put("type", r.type());
    c.put("startDateTime", s.start().format(DATE_TIME));
    c.put("endDateTime", s.end().format(DATE_TIME));
    c.put("localTimeZoneId", s.timeZone());
    if (r instanceof Recurrence.Cron cron) {
      c.put("interval", cron.minutes());
    } else if (r instanceof Recurrence.Daily d) {
      strings(c.putArray("times"), d.times());
    } else if (r instanceof Recurrence.Weekly w) {
      strings(c.putArray("times"), w.times());
      strings(c.putArray("weekdays"), w.weekdays());
    } else if (r instanceof Recurrence.Monthly m) {
      strings(c.putArray("times"), m.times());
      c.put("recurrence", m.everyMonths());
      ObjectNode o = c.putObject("occurrence");
      if (m.dayOfMonth().isPresent()) {
        o.put("occurrenceType", "DayOfMonth");
        o.put("dayOfMonth", m.dayOfMonth().get());
      } else {
        o.put("occurrenceType", "OrdinalWeekday");
        o.put("weekIndex", m.weekIndex().orElseThrow());
        o.put("weekday", m.weekday().orElseThrow());
      }
    }
    return body;
  }

  private static void strings(ArrayNode a, List<String> values) {
    values.forEach(a::add);
  }

  // ---- deployed ----

  private List<Deployed> deployed(Project project) {
    Map<String, JsonNode> definitions = new LinkedHashMap<>();
    for (JsonNode d : jobs.definitions()) {
      definitions.put(d.path("id").asText(), d);
    }
    String prefix = MARKER + project.config().name() + "/";
    List<Deployed> out = new ArrayList<>();
    for (JsonNode s : jobs.list(path, "listing the lakehouse's refresh schedules")) {
      String defId = s.path("executionData").path("mlvExecutionDefinitionId").asText("");
      Optional<JsonNode> def = Optional.ofNullable(definitions.get(defId));
      Optional<String> name =
          def.map(d -> d.path("displayName").asText(""))
              .filter(n -> n.startsWith(prefix))
              .map(n -> n.substring(prefix.length()));
      out.add(new Deployed(s.path("id").asText(), s, name, def));
    }
    return out;
  }

  private record Diff(SchedulePlan plan, Map<String, Deployed> managed) {}

  private Diff diff(Project project, Map<String, Wanted> wanted, List<Deployed> deployed) {
    Map<String, Deployed> managed = new LinkedHashMap<>();
    List<String> unmanaged = new ArrayList<>();
    List<Deployed> twins = new ArrayList<>();
    for (Deployed d : deployed) {
      if (d.name().isEmpty()) {
        unmanaged.add(d.id() + " (" + describe(d.body()) + ")");
      } else if (managed.putIfAbsent(d.name().get(), d) != null) {
        twins.add(d);
      }
    }
    int total = unmanaged.size() + wanted.size();
    if (total > ScheduleLimits.MAX_PER_ITEM) {
      throw new MlvException(
          "SCHEDULE_LIMIT",
          "target '"
              + target
              + "' would have "
              + total
              + " refresh schedules ("
              + wanted.size()
              + " from mlv.yml, "
              + unmanaged.size()
              + " made elsewhere); Fabric allows at most "
              + ScheduleLimits.MAX_PER_ITEM
              + " per lakehouse. Nothing was sent; remove schedules from mlv.yml or in Fabric");
    }
    List<ScheduleChange> changes = new ArrayList<>();
    for (Wanted w : wanted.values()) {
      String name = w.schedule().name();
      String summary = ScheduleSummary.of(w.schedule());
      Deployed d = managed.get(name);
      if (d == null) {
        changes.add(
            new ScheduleChange.Create(name, "", summary, "declared in mlv.yml, not on the target"));
        continue;
      }
      List<String> differs = new ArrayList<>();
      if (!covers(d.body().path("configuration"), w.body().path("configuration"))) {
        differs.add("timing");
      }
      if (d.body().path("enabled").asBoolean(true) != w.schedule().enabled()) {
        differs.add(w.schedule().enabled() ? "enabled" : "disabled");
      }
      JobClient.DefinitionShape has = JobClient.DefinitionShape.of(d.definition().orElseThrow());
      JobClient.DefinitionShape wants = JobClient.DefinitionShape.of(w.definition());
      if (!has.viewsMode().equals(wants.viewsMode()) || !has.views().equals(wants.views())) {
        differs.add("views");
      }
      if (!has.refreshMode().equals(wants.refreshMode())) {
        differs.add("refresh mode");
      }
      changes.add(
          differs.isEmpty()
              ? new ScheduleChange.NoOp(name, d.id(), summary, "as declared")
              : new ScheduleChange.Update(
                  name, d.id(), summary, String.join(", ", differs) + " changed in mlv.yml"));
    }
    for (Map.Entry<String, Deployed> e : managed.entrySet()) {
      if (!wanted.containsKey(e.getKey())) {
        changes.add(
            new ScheduleChange.Delete(
                e.getKey(),
                e.getValue().id(),
                describe(e.getValue().body()),
                "created by mlv, no longer in mlv.yml"));
      }
    }
    for (Deployed twin : twins) {
      changes.add(
          new ScheduleChange.Delete(
              twin.name().orElseThrow(),
              twin.id(),
              describe(twin.body()),
              "a second schedule of mlv's with this name"));
    }
    return new Diff(new SchedulePlan(changes, unmanaged, Optional.empty()), managed);
  }

  /** Whether every field mlv sends has the same value on the target (Fabric may add others). */
  private static boolean covers(JsonNode deployed, JsonNode wanted) {
    if (wanted.isObject()) {
      for (var it = wanted.fields(); it.hasNext(); ) {
        var f = it.next();
        if (!covers(deployed.path(f.getKey()), f.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (wanted.isTextual()) {
      // Fabric may echo date-times with fractions or a zone suffix.
      String d = deployed.asText("");
      return d.equals(wanted.asText())
          || d.startsWith(wanted.asText() + ".")
          || d.equals(wanted.asText() + "Z");
    }
    return wanted.equals(deployed);
  }

  /** A schedule as Fabric keeps it, in one line. */
  static String describe(JsonNode schedule) {
    JsonNode c = schedule.path("configuration");
    String type = c.path("type").asText("?");
    String when =
        switch (type) {
          case "Cron" -> "every " + c.path("interval").asText("?") + " min";
          case "Daily" -> "daily at " + join(c.path("times"));
          case "Weekly" -> join(c.path("weekdays")) + " at " + join(c.path("times"));
          case "Monthly" -> "monthly at " + join(c.path("times"));
          default -> type;
        };
    return when
        + " ("
        + c.path("localTimeZoneId").asText("?")
        + ")"
        + (schedule.path("enabled").asBoolean(true) ? "" : ", disabled");
  }

  private static String join(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(v -> out.add(v.asText()));
    return String.join(", ", out);
  }
}
