package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.MlvException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Spark SQL on the lakehouse through Fabric's Livy API. One session serves every statement; its id
 * is kept in a file so the next command reuses it, and a session that is gone or dead is replaced.
 * Each statement carries a unique marker comment, so a submission whose connection dropped is found
 * again instead of being sent twice.
 */
final class LivyClient {
  /** Rows of one statement: column names, Spark's JSON form of each column's type, JSON values. */
  record Result(List<String> columns, List<JsonNode> types, List<List<JsonNode>> rows) {
    /**
     * Whether the answer may be cut short: Fabric's Livy endpoint returns at most {@link #ROW_CAP}
     * rows of a statement and says nothing when it drops the rest.
     */
    boolean capped() {
      return rows.size() >= ROW_CAP;
    }
  }

  /** Livy's default {@code livy.rsc.sql.num-rows}, which Fabric keeps (FINDINGS.md). */
  static final int ROW_CAP = 1000;

  /** A listing mlv decides from: refused when Livy may have cut it, rather than planned wrong. */
  Result listing(String code, String what) {
    Result r = sql(code, what);
    if (r.capped()) {
      throw new MlvException(
          "FABRIC_LIST_CAPPED",
          what
              + " returned "
              + r.rows().size()
              + " rows, the most Fabric's Livy endpoint returns for one statement; mlv cannot"
              + " tell whether the list is whole, so it stops rather than plan from part of it."
              + " Keep fewer than "
              + ROW_CAP
              + " tables and views per schema");
    }
    return r;
  }

  private static final Set<String> SESSION_GONE =
      Set.of("dead", "error", "killed", "success", "shutting_down");
  private static final Set<String> STATEMENT_DONE = Set.of("available", "error", "cancelled");

  private final FabricHttp http;
  private final String sessions;
  private final Path sessionFile;
  private String sessionId;
  private final AtomicReference<URI> inFlight = new AtomicReference<>();

  LivyClient(FabricHttp http, UUID workspace, UUID lakehouse, Path sessionFile) {
    this.http = http;
    this.sessions =
        "/workspaces/"
            + workspace
            + "/lakehouses/"
            + lakehouse
            + "/livyapi/versions/2023-12-01/sessions";
    this.sessionFile = sessionFile;
  }

  /** Runs one SQL statement and waits for its rows; a Spark error becomes an MlvException. */
  Result sql(String code, String what) {
    return sql(code, what, readOnly(code));
  }

  /**
   * As {@link #sql(String, String)}; {@code rerunnable} says the statement may run again after its
   * session died while it ran (a read, CREATE OR REPLACE, DROP IF EXISTS, a property set). Any
   * other statement the session had accepted is not sent again: it may have taken effect, and an
   * INSERT or a RENAME run twice is not the same as run once.
   */
  Result sql(String code, String what, boolean rerunnable) {
    for (int attempt = 0; ; attempt++) {
      String session = session();
      try {
        return runIn(session, code, what);
      } catch (SessionGone e) {
        forget(session);
        if (e.accepted && !rerunnable) {
          throw new MlvException(
              "FABRIC_SESSION_LOST",
              "the Livy session ended while "
                  + what
                  + " ran, after it had accepted the statement; whether it took effect is"
                  + " unknown, so mlv did not run it again: check the lakehouse (mlv plan, or a"
                  + " SELECT) before running it again");
        }
        if (attempt >= 1) {
          throw new MlvException(
              "FABRIC_SESSION", "the Livy session ended twice while running " + what);
        }
      }
    }
  }

  /** A statement whose second run changes nothing the first did not: a read. */
  static boolean readOnly(String code) {
    String first =
        code.replaceAll("(?s)^(\\s|--[^\n]*\n|/\\*.*?\\*/)*", "")
            .split("[\\s(]", 2)[0]
            .toUpperCase(java.util.Locale.ROOT);
    return Set.of("SELECT", "SHOW", "DESCRIBE", "DESC", "EXPLAIN").contains(first);
  }

  /** Cancels the statement now running, if any (on Ctrl-C). */
  void cancelInFlight() {
    URI u = inFlight.get();
    if (u != null) {
      try {
        http.send("POST", URI.create(u + "/cancel"), null, "cancelling a statement", true, null);
      } catch (RuntimeException e) {
        // Best effort: the process is ending.
      }
    }
  }

  private static final class SessionGone extends RuntimeException {
    /** The session had accepted the statement (it died while it was polled). */
    final boolean accepted;

    SessionGone(boolean accepted) {
      super(null, null, false, false);
      this.accepted = accepted;
    }
  }

  private Result runIn(String session, String code, String what) {
    String marker = "-- mlv:" + UUID.randomUUID() + "\n";
    String tagged = marker + code;
    ObjectNode body = FabricHttp.JSON.createObjectNode().put("code", tagged).put("kind", "sql");
    URI statements = http.url(sessions + "/" + session + "/statements");
    FabricHttp.Response submitted;
    try {
      submitted =
          http.send(
              "POST", statements, body, what, false, () -> findSubmitted(statements, marker, what));
    } catch (FabricApiException e) {
      if (e.status() == 404 || e.status() == 410) {
        throw new SessionGone(false);
      }
      throw e;
    }
    String id = FabricHttp.required(submitted.body(), "id", what);
    URI statement = URI.create(statements + "/" + id);
    inFlight.set(statement);
    try {
      Instant deadline = Instant.now().plus(http.policy().statementTimeout());
      Duration wait = http.policy().pollInitial();
      JsonNode st = submitted.body();
      while (!STATEMENT_DONE.contains(st.path("state").asText())) {
        if (Instant.now().isAfter(deadline)) {
          cancelInFlight();
          throw new MlvException(
              "FABRIC_STATEMENT_TIMEOUT",
              what
                  + " did not finish within "
                  + RetryPolicy.describe(http.policy().statementTimeout())
                  + " (statement_timeout on the target in mlv.yml) and was cancelled");
        }
        FabricHttp.sleep(wait, what);
        wait = http.policy().nextPoll(wait);
        try {
          st = http.send("GET", statement, null, what, true, null).body();
        } catch (FabricApiException e) {
          if (e.status() == 404 || e.status() == 410) {
            throw new SessionGone(true);
          }
          throw e;
        }
      }
      return result(st, what);
    } finally {
      inFlight.set(null);
    }
  }

  /** A statement lost in transit: did the session get it? Found by its marker comment. */
  private Optional<FabricHttp.Response> findSubmitted(URI statements, String marker, String what) {
    try {
      JsonNode list = http.send("GET", statements, null, what, true, null).body();
      for (JsonNode s : list.path("statements")) {
        if (s.path("code").asText().startsWith(marker)) {
          return Optional.of(
              new FabricHttp.Response(
                  200, s, Optional.empty(), Optional.empty(), Optional.empty()));
        }
      }
    } catch (FabricApiException e) {
      // The session itself may be gone; the retry will find out.
    }
    return Optional.empty();
  }

  private static Result result(JsonNode st, String what) {
    JsonNode output = st.path("output");
    String state = st.path("state").asText();
    if (state.equals("cancelled")) {
      throw new MlvException("INTERRUPTED", what + " was cancelled");
    }
    if (!output.path("status").asText().equals("ok")) {
      String evalue = output.path("evalue").asText("");
      if (evalue.isBlank()) {
        evalue = output.path("ename").asText("the statement failed");
      }
      // Spark's messages end with a plan or a JVM stack: the first lines say what is wrong.
      String message = String.join(" ", evalue.lines().limit(2).map(String::strip).toList());
      throw new MlvException("SPARK_SQL", what + " failed: " + message);
    }
    JsonNode json = output.path("data").path("application/json");
    List<String> columns = new ArrayList<>();
    List<JsonNode> types = new ArrayList<>();
    for (JsonNode f : json.path("schema").path("fields")) {
      columns.add(f.path("name").asText());
      types.add(f.path("type"));
    }
    List<List<JsonNode>> rows = new ArrayList<>();
    for (JsonNode r : json.path("data")) {
      List<JsonNode> row = new ArrayList<>();
      r.forEach(row::add);
      rows.add(row);
    }
    return new Result(columns, types, rows);
  }

  // ---- the session ----

  private synchronized String session() {
    if (sessionId != null) {
      return sessionId;
    }
    Optional<String> saved = readSessionFile();
    if (saved.isPresent() && usable(saved.get())) {
      sessionId = saved.get();
      return sessionId;
    }
    sessionId = create();
    writeSessionFile(sessionId);
    return sessionId;
  }

  private synchronized void forget(String session) {
    if (session.equals(sessionId)) {
      sessionId = null;
    }
    try {
      Files.deleteIfExists(sessionFile);
    } catch (IOException e) {
      // The next command will find the session dead and replace it again.
    }
  }

  private boolean usable(String id) {
    try {
      JsonNode s = http.get(sessions + "/" + id, "reading the Livy session");
      return !SESSION_GONE.contains(s.path("state").asText());
    } catch (FabricApiException e) {
      if (e.status() == 404 || e.status() == 410) {
        return false;
      }
      throw e;
    }
  }

  /**
   * The sessions there are before a create, or empty when they cannot be listed: Fabric documents
   * creating, reading and deleting a session but not listing them, so a listing that fails only
   * costs the recovery of a create whose answer was lost, never the session itself.
   */
  private Optional<Set<String>> sessionIds() {
    try {
      Set<String> ids = new java.util.HashSet<>();
      for (JsonNode n : http.get(sessions, "listing Livy sessions").path("sessions")) {
        ids.add(n.path("id").asText());
      }
      return Optional.of(ids);
    } catch (FabricApiException e) {
      return Optional.empty();
    }
  }

  private Optional<FabricHttp.Response> newSession(Optional<Set<String>> listed, String name) {
    if (listed.isEmpty()) {
      return Optional.empty();
    }
    Set<String> before = listed.get();
    try {
      for (JsonNode n : http.get(sessions, "listing Livy sessions").path("sessions")) {
        if (!before.contains(n.path("id").asText()) && name.equals(n.path("name").asText())) {
          return Optional.of(
              new FabricHttp.Response(
                  200, n, Optional.empty(), Optional.empty(), Optional.empty()));
        }
      }
    } catch (RuntimeException e) {
      // The listing failed too: the retry will find out.
    }
    return Optional.empty();
  }

  private String create() {
    // A name of this create's own: another mlv's session, started at the same moment, is not
    // taken for it, and a service that wants names unique among live sessions gets them.
    String name = "mlv-" + UUID.randomUUID().toString().substring(0, 8);
    ObjectNode body = FabricHttp.JSON.createObjectNode().put("name", name);
    // A create whose answer was lost is found among the sessions that were not there before,
    // instead of starting a second one that would hold capacity until Fabric reclaims it.
    Optional<Set<String>> before = sessionIds();
    JsonNode s =
        http.send(
                "POST",
                http.url(sessions),
                body,
                "starting a Livy session",
                false,
                () -> newSession(before, name))
            .body();
    String id = FabricHttp.required(s, "id", "starting a Livy session");
    Instant deadline = Instant.now().plus(http.policy().sessionStartTimeout());
    Duration wait = http.policy().pollInitial();
    while (true) {
      String state = s.path("state").asText();
      if (state.equals("idle") || state.equals("busy")) {
        return id;
      }
      if (SESSION_GONE.contains(state)) {
        throw new MlvException(
            "FABRIC_SESSION",
            "the new Livy session " + id + " ended while starting (" + state + ")");
      }
      if (Instant.now().isAfter(deadline)) {
        throw new MlvException(
            "FABRIC_SESSION",
            "the Livy session did not start within "
                + http.policy().sessionStartTimeout().toSeconds()
                + " s (state "
                + state
                + ")");
      }
      FabricHttp.sleep(wait, "starting a Livy session");
      wait = http.policy().nextPoll(wait);
      s = http.get(sessions + "/" + id, "starting a Livy session");
    }
  }

  private Optional<String> readSessionFile() {
    try {
      if (Files.isRegularFile(sessionFile)) {
        String id = Files.readString(sessionFile, StandardCharsets.UTF_8).strip();
        // Only an id we wrote: anything else is not put into a URL.
        if (id.matches("[A-Za-z0-9-]{1,64}")) {
          return Optional.of(id);
        }
      }
    } catch (IOException e) {
      // An unreadable file is as good as none.
    }
    return Optional.empty();
  }

  private void writeSessionFile(String id) {
    try {
      Files.createDirectories(sessionFile.getParent());
      Files.writeString(sessionFile, id + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      // Reuse is an optimisation; without the file the next command starts a session.
    }
  }
}
