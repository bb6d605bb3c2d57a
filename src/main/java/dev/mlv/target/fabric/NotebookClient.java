package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.MlvException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Notebook items of the workspace through Fabric's item and notebook definition APIs (list, create
 * with a definition, get and update the definition, delete; the definition calls are long-running
 * operations, which {@link FabricHttp} follows), and on-demand {@code RunNotebook} jobs.
 */
final class NotebookClient {
  static final String JOB_TYPE = "RunNotebook";

  /** A notebook item as the item list shows it. */
  record Item(String id, String displayName, String description) {}

  private final FabricHttp http;
  private final String workspace;
  private final JobRuns jobs;

  NotebookClient(FabricHttp http, UUID workspaceId) {
    this.http = http;
    this.jobs = new JobRuns(http);
    this.workspace = "/workspaces/" + workspaceId;
  }

  /** Every notebook item of the workspace (the item list is paged). */
  List<Item> list() {
    List<Item> out = new ArrayList<>();
    for (JsonNode n :
        http.list(workspace + "/items?type=Notebook", "listing the workspace's notebooks")) {
      if (n.path("type").asText("Notebook").equals("Notebook")) {
        out.add(
            new Item(
                n.path("id").asText(),
                n.path("displayName").asText(),
                n.path("description").asText("")));
      }
    }
    return out;
  }

  /** The notebook's source ({@code notebook-content.py}); empty when the definition has none. */
  Optional<String> content(String id, String name) {
    FabricHttp.Response r =
        http.send(
            "POST",
            http.url(workspace + "/notebooks/" + id + "/getDefinition"),
            null,
            "reading notebook " + name,
            true,
            null);
    JsonNode parts = r.body() == null ? null : r.body().path("definition").path("parts");
    if (parts == null) {
      return Optional.empty();
    }
    for (JsonNode p : parts) {
      if (p.path("path").asText().equals(NotebookContent.PART)) {
        return Optional.of(
            new String(
                Base64.getDecoder().decode(p.path("payload").asText()), StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }

  private static ObjectNode definition(String content) {
    ObjectNode d = FabricHttp.JSON.createObjectNode();
    ObjectNode part = d.putArray("parts").addObject();
    part.put("path", NotebookContent.PART);
    part.put(
        "payload", Base64.getEncoder().encodeToString(content.getBytes(StandardCharsets.UTF_8)));
    part.put("payloadType", "InlineBase64");
    return d;
  }

  /**
   * Creates the notebook with its content and returns its id. A create whose answer was lost is
   * found by its display name instead of being sent twice.
   */
  String create(String displayName, String description, String content) {
    ObjectNode body = FabricHttp.JSON.createObjectNode();
    body.put("displayName", displayName);
    body.put("description", description);
    body.set("definition", definition(content));
    FabricHttp.Response r =
        http.send(
            "POST",
            http.url(workspace + "/notebooks"),
            body,
            "creating notebook " + displayName,
            false,
            () ->
                list().stream()
                    .filter(i -> i.displayName().equals(displayName))
                    .findFirst()
                    .map(
                        i ->
                            new FabricHttp.Response(
                                201,
                                FabricHttp.JSON.createObjectNode().put("id", i.id()),
                                Optional.empty(),
                                Optional.empty(),
                                Optional.empty())));
    String id = r.body() == null ? "" : r.body().path("id").asText("");
    if (id.isEmpty()) {
      // Some answers to a long-running create carry no item: the list has it.
      id =
          list().stream()
              .filter(i -> i.displayName().equals(displayName))
              .map(Item::id)
              .findFirst()
              .orElseThrow(
                  () ->
                      new MlvException(
                          "FABRIC_API",
                          "Fabric accepted notebook "
                              + displayName
                              + " but it is not in the workspace's item list"));
    }
    return id;
  }

  /** Replaces the notebook's content (sending the same content twice is harmless). */
  void update(String id, String displayName, String content) {
    ObjectNode body = FabricHttp.JSON.createObjectNode();
    body.set("definition", definition(content));
    http.send(
        "POST",
        http.url(workspace + "/notebooks/" + id + "/updateDefinition"),
        body,
        "updating notebook " + displayName,
        true,
        null);
  }

  void delete(String id, String displayName) {
    try {
      http.send(
          "DELETE",
          http.url(workspace + "/notebooks/" + id),
          null,
          "deleting notebook " + displayName,
          true,
          null);
    } catch (FabricApiException e) {
      if (e.status() != 404) { // already gone: what we wanted
        throw e;
      }
    }
  }

  /**
   * Runs the notebook once as a {@code RunNotebook} job with the lakehouse as its default lakehouse
   * and waits for the job to end. A submission whose answer was lost is recognised among the job
   * instances that did not exist before, so the notebook never runs twice.
   */
  JobClient.JobInstance run(
      String id,
      String displayName,
      UUID workspaceId,
      UUID lakehouse,
      String lakehouseName,
      Duration timeout,
      Consumer<JobClient.JobInstance> seen) {
    String instances = workspace + "/items/" + id + "/jobs/instances";
    ObjectNode body = FabricHttp.JSON.createObjectNode();
    ObjectNode lh =
        body.putObject("executionData").putObject("configuration").putObject("defaultLakehouse");
    lh.put("name", lakehouseName);
    lh.put("id", lakehouse.toString());
    lh.put("workspaceId", workspaceId.toString());
    String what = "notebook " + displayName;
    URI instance =
        jobs.start(
            http.url(instances + "?jobType=" + JOB_TYPE),
            body,
            "running " + what,
            () -> instances(instances),
            job -> http.url(instances + "/" + job));
    return jobs.await(
        instance,
        timeout,
        "the run of " + what,
        seen,
        j ->
            new MlvException(
                "NOTEBOOK_TIMEOUT",
                what + " ran past the refresh timeout and its job " + j.id() + " was cancelled"));
  }

  private List<JobClient.JobInstance> instances(String path) {
    // Paged like every Fabric list: a lost submission must be looked for on every page.
    return http.list(path, "listing the notebook's jobs").stream()
        .map(n -> JobClient.instance(n, "listing the notebook's jobs"))
        .toList();
  }
}
