package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.MlvException;
import dev.mlv.project.ProjectDefaults;
import dev.mlv.target.UpstreamLakehouse;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fabric's job scheduler for the lakehouse's {@code RefreshMaterializedLakeViews} job and the MLV
 * execution definitions that narrow a run to a selection of views.
 */
final class JobClient {
  static final String JOB_TYPE = "RefreshMaterializedLakeViews";

  /** One job instance as Fabric reports it. */
  record JobInstance(
      String id,
      String status,
      String invokeType,
      Optional<Instant> start,
      Optional<Instant> end,
      Optional<String> failure,
      Optional<String> errorCode) {

    boolean finished() {
      return Set.of("Completed", "Failed", "Cancelled", "Deduped").contains(status);
    }
  }

  /** What one run refreshes: the views of this lakehouse and the upstream lakehouses. */
  record Selection(
      boolean full,
      List<String> views,
      boolean allViews,
      boolean extendedLineage,
      List<UpstreamLakehouse> lakehouses) {}

  private final FabricHttp http;
  private final String lakehouse;
  private final String item;
  private final AtomicReference<URI> running = new AtomicReference<>();

  /**
   * The instances Fabric failed for throttling before the one that ran, by that one's id: one run
   * of mlv, which its record names so that {@code mlv runs} does not list each attempt as a run.
   */
  private final java.util.Map<String, List<String>> throttledBefore =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final JobRuns jobs;

  private final Set<String> cancelledHere = java.util.concurrent.ConcurrentHashMap.newKeySet();

  JobClient(FabricHttp http, UUID workspace, UUID lakehouseId) {
    this.http = http;
    this.jobs = new JobRuns(http);
    this.lakehouse = "/workspaces/" + workspace + "/lakehouses/" + lakehouseId;
    this.item = "/workspaces/" + workspace + "/items/" + lakehouseId;
  }

  // ---- execution definitions ----

  /**
   * The id of an execution definition for exactly this selection: found by its display name (a hash
   * of the selection) and brought up to date, or created.
   */
  String definitionFor(String displayName, Selection s) {
    ObjectNode body = definitionBody(displayName, s);
    String path = lakehouse + "/mlvexecutiondefinitions";
    for (JsonNode d : list(path, "listing MLV execution definitions")) {
      if (displayName.equals(d.path("displayName").asText())) {
        String id = d.path("id").asText();
        if (!same(d, body)) {
          http.send(
              "PATCH",
              http.url(path + "/" + id),
              body,
              "updating MLV execution definition " + displayName,
              true,
              null);
        }
        return id;
      }
    }
    return create(path, displayName, body);
  }

  /** Every execution definition of the lakehouse. */
  List<JsonNode> definitions() {
    return list(lakehouse + "/mlvexecutiondefinitions", "listing MLV execution definitions");
  }

  void deleteDefinition(String id, String displayName) {
    http.send(
        "DELETE",
        http.url(lakehouse + "/mlvexecutiondefinitions/" + id),
        null,
        "deleting MLV execution definition " + displayName,
        true,
        null);
  }

  /** The body of an execution definition for this selection, as mlv sends and compares it. */
  static ObjectNode definitionBody(String displayName, Selection s) {
    ObjectNode body = FabricHttp.JSON.createObjectNode();
    body.put("displayName", displayName);
    body.put("description", "Created by mlv for one refresh selection");
    body.putObject("settings").put("refreshMode", s.full() ? "Full" : "Optimal");
    ObjectNode current = body.putObject("currentLakehouseExecutionContext");
    current.put("mode", s.allViews() ? "All" : "Selected");
    if (!s.allViews()) {
      ArrayNode mlvs = current.putArray("selectedMlvs");
      s.views().forEach(mlvs::add);
    }
    if (s.extendedLineage()) {
      ObjectNode ext = body.putObject("extendedLineageExecutionContext");
      ext.put("mode", s.lakehouses().isEmpty() ? "All" : "Selected");
      if (!s.lakehouses().isEmpty()) {
        ArrayNode lhs = ext.putArray("selectedLakehouses");
        for (UpstreamLakehouse l : s.lakehouses()) {
          lhs.addObject()
              .put("referenceType", "ById")
              .put("itemId", l.lakehouse().toString())
              .put("workspaceId", l.workspace().orElseThrow().toString());
        }
      }
    }
    return body;
  }

  private String create(String path, String displayName, ObjectNode body) {
    // A create whose answer was lost is found by name instead of creating a twin.
    JsonNode created =
        http.send(
                "POST",
                http.url(path),
                body,
                "creating MLV execution definition " + displayName,
                false,
                () ->
                    list(path, "listing MLV execution definitions").stream()
                        .filter(d -> displayName.equals(d.path("displayName").asText()))
                        .findFirst()
                        .map(
                            d ->
                                new FabricHttp.Response(
                                    201, d, Optional.empty(), Optional.empty(), Optional.empty())))
            .body();
    return FabricHttp.required(created, "id", "creating MLV execution definition " + displayName);
  }

  static boolean same(JsonNode existing, ObjectNode wanted) {
    return DefinitionShape.of(existing).equals(DefinitionShape.of(wanted));
  }

  /**
   * What mlv sets in an execution definition, read from one as Fabric returns it: the service adds
   * fields of its own (an environment in the settings, say) and may list names in another order or
   * case, and none of that is a difference mlv must PATCH away.
   */
  record DefinitionShape(
      String refreshMode,
      String viewsMode,
      Set<String> views,
      String lineageMode,
      Set<String> lakehouses) {

    static DefinitionShape of(JsonNode d) {
      JsonNode current = d.path("currentLakehouseExecutionContext");
      JsonNode ext = d.path("extendedLineageExecutionContext");
      Set<String> views = new java.util.TreeSet<>();
      current.path("selectedMlvs").forEach(v -> views.add(v.asText().toLowerCase(Locale.ROOT)));
      Set<String> lakehouses = new java.util.TreeSet<>();
      ext.path("selectedLakehouses")
          .forEach(
              l ->
                  lakehouses.add(
                      (l.path("workspaceId").asText() + "/" + l.path("itemId").asText())
                          .toLowerCase(Locale.ROOT)));
      return new DefinitionShape(
          d.path("settings").path("refreshMode").asText("Optimal"),
          current.path("mode").asText(""),
          views,
          ext.isObject() ? ext.path("mode").asText("") : "",
          lakehouses);
    }
  }

  /** Every element of a paged Fabric list. */
  List<JsonNode> list(String path, String what) {
    return http.list(path, what);
  }

  // ---- job instances ----

  /**
   * Starts one refresh job and returns its instance URL. A submission whose connection dropped is
   * recognised among the instances that did not exist before, so it is never started twice.
   */
  URI start(Optional<String> definitionId) {
    ObjectNode body = FabricHttp.JSON.createObjectNode();
    definitionId.ifPresent(
        id -> body.putObject("executionData").put("mlvExecutionDefinitionId", id));
    URI u =
        jobs.start(
            http.url(lakehouse + "/jobs/" + JOB_TYPE + "/instances"),
            body,
            "starting the " + JOB_TYPE + " job",
            this::instances,
            id -> http.url(item + "/jobs/instances/" + id));
    running.set(u);
    return u;
  }

  /**
   * Starts the job and waits for it; a job that Fabric failed for capacity throttling is started
   * again after a backoff, until the retry budget is spent. Only one instance is ever in flight:
   * the next starts after the throttled one has ended.
   */
  JobInstance runThrottled(
      Optional<String> definitionId,
      Duration timeout,
      java.util.function.Consumer<JobInstance> seen,
      java.util.function.Consumer<String> say) {
    Instant deadline = Instant.now().plus(http.policy().retryBudget());
    java.util.Random random = new java.util.Random();
    List<String> throttled = new ArrayList<>();
    for (int attempt = 0; ; attempt++) {
      JobInstance done = await(start(definitionId), timeout, seen);
      if (!done.status().equals("Failed")
          || !done.errorCode().filter(FabricError::throttling).isPresent()) {
        return ran(done, throttled);
      }
      Duration wait = http.policy().backoff(attempt, random);
      if (Instant.now().plus(wait).isAfter(deadline)) {
        say.accept(
            "  job "
                + done.id()
                + " was throttled by the capacity and the retry budget of "
                + RetryPolicy.describe(http.policy().retryBudget())
                + " (retry_budget) is spent; giving up");
        return ran(done, throttled);
      }
      throttled.add(done.id());
      say.accept(
          "  job "
              + done.id()
              + " was throttled by the capacity ("
              + done.errorCode().orElseThrow()
              + "); starting it again in "
              + Math.max(1, wait.toSeconds())
              + " s");
      FabricHttp.sleep(wait, "waiting to restart the throttled refresh job");
    }
  }

  private JobInstance ran(JobInstance done, List<String> throttled) {
    if (!throttled.isEmpty()) {
      throttledBefore.put(done.id(), List.copyOf(throttled));
    }
    return done;
  }

  /** The instances throttled and started again before {@code jobId}, oldest first; none if none. */
  List<String> throttledBefore(String jobId) {
    return throttledBefore.getOrDefault(jobId, List.of());
  }

  /** Polls the instance until it ends, with growing intervals (or the service's Retry-After). */
  JobInstance await(URI instance, Duration timeout, java.util.function.Consumer<JobInstance> seen) {
    AtomicReference<JobInstance> timedOut = new AtomicReference<>();
    try {
      return jobs.await(
          instance,
          timeout,
          "the refresh job",
          seen,
          j -> {
            timedOut.set(j);
            return new MlvException(
                "REFRESH_TIMEOUT",
                "the refresh job "
                    + j.id()
                    + " ran past the refresh timeout ("
                    + ProjectDefaults.durationText(timeout)
                    + ") and was cancelled");
          });
    } catch (MlvException e) {
      JobInstance j = timedOut.get();
      if (j == null) {
        throw new OutcomeUnknown(instance, e);
      }
      // Cancelled by mlv: the run is reported view by view, as the local target does.
      return new JobInstance(
          j.id(),
          "Cancelled",
          j.invokeType(),
          j.start(),
          Optional.of(Instant.now()),
          Optional.of(e.getMessage()),
          Optional.of(RUN_TIMEOUT));
    } finally {
      running.set(null);
    }
  }

  /**
   * Following a job that Fabric accepted failed (its status kept failing past the retry budget):
   * the job may still run and change views, which the error says, with the instance to look up.
   */
  static final class OutcomeUnknown extends MlvException {
    private final transient String jobId;

    OutcomeUnknown(URI instance, MlvException cause) {
      super(
          cause.diagnostics().get(0).ruleId(),
          cause.diagnostics().get(0).message()
              + "; refresh job "
              + idOf(instance)
              + " was started and may still be running in Fabric: 'mlv runs "
              + idOf(instance)
              + "' shows how it ended",
          cause);
      this.jobId = idOf(instance);
    }

    String jobId() {
      return jobId;
    }

    private static String idOf(URI instance) {
      String path = instance.getPath();
      return path.substring(path.lastIndexOf('/') + 1);
    }
  }

  /** The error code of a job mlv cancelled because it ran past the refresh timeout. */
  static final String RUN_TIMEOUT = "RUN_TIMEOUT";

  void cancel(URI instance) {
    cancelledHere.add(OutcomeUnknown.idOf(instance));
    jobs.cancel(instance, "the refresh job");
  }

  /**
   * Whether this process asked Fabric to cancel the job of this id: a job Fabric reports {@code
   * Cancelled} that mlv did not cancel is one Fabric skipped, or one cancelled by someone else.
   */
  boolean cancelledHere(String jobId) {
    return cancelledHere.contains(jobId);
  }

  /** The instance id of the job this process started and still waits for, if any. */
  Optional<String> runningId() {
    return Optional.ofNullable(running.get()).map(OutcomeUnknown::idOf);
  }

  /**
   * Cancels the job instance of this id, best effort: Ctrl-C in the shell stops the wait for it
   * first, so it is no longer the one {@link #cancelRunning} knows.
   */
  void cancel(String jobId) {
    try {
      cancel(http.url(item + "/jobs/instances/" + jobId));
    } catch (RuntimeException e) {
      // Best effort: the job is then listed from Fabric as it ends.
    }
  }

  /** Cancels the job this process started and still waits for (on Ctrl-C). */
  void cancelRunning() {
    URI u = running.get();
    if (u != null) {
      try {
        cancel(u);
      } catch (RuntimeException e) {
        // Best effort: the process is ending.
      }
    }
  }

  List<JobInstance> instances() {
    List<JobInstance> out = new ArrayList<>();
    for (JsonNode n : list(item + "/jobs/instances", "listing refresh jobs")) {
      if (n.path("jobType").asText(JOB_TYPE).equals(JOB_TYPE)) {
        out.add(instance(n, "listing refresh jobs"));
      }
    }
    return out;
  }

  Optional<JobInstance> instance(String id) {
    if (!id.matches("[0-9a-fA-F-]{36}")) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          instance(
              http.get(item + "/jobs/instances/" + id, "reading job " + id), "reading job " + id));
    } catch (FabricApiException e) {
      if (e.status() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * A job instance as Fabric answers it. One without an id or a status is a broken answer, not a
   * job: listed, it would show as a run that never ends, and polled, as one still running.
   */
  static JobInstance instance(JsonNode n, String what) {
    FabricHttp.required(n, "id", what);
    FabricHttp.required(n, "status", what);
    JsonNode f = n.path("failureReason");
    boolean none = f.isMissingNode() || f.isNull();
    Optional<String> failure =
        none
            ? Optional.empty()
            : Optional.of(
                f.path("errorCode").asText("Failed") + ": " + f.path("message").asText(""));
    return new JobInstance(
        n.path("id").asText(),
        n.path("status").asText(),
        n.path("invokeType").asText(""),
        time(n.path("startTimeUtc")),
        time(n.path("endTimeUtc")),
        failure,
        none ? Optional.empty() : Optional.ofNullable(f.path("errorCode").asText(null)));
  }

  /** Fabric writes job times without a zone suffix; they are UTC. */
  static Optional<Instant> time(JsonNode n) {
    if (n.isMissingNode() || n.isNull() || n.asText().isBlank()) {
      return Optional.empty();
    }
    String t = n.asText();
    try {
      return Optional.of(Instant.parse(t));
    } catch (DateTimeParseException e) {
      try {
        // Spark prints "2026-01-01 10:00:00.123"; Fabric's job times have the T.
        return Optional.of(LocalDateTime.parse(t.replace(' ', 'T')).toInstant(ZoneOffset.UTC));
      } catch (DateTimeParseException e2) {
        return Optional.empty();
      }
    }
  }
}
