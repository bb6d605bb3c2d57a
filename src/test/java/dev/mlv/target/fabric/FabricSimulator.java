package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.Name;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.SqlResult;
import dev.mlv.target.SqlValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An in-process, stateful stand-in for the parts of the Fabric REST API mlv uses, on loopback: Livy
 * sessions and SQL statements, the {@code RefreshMaterializedLakeViews} job (NotStarted →
 * InProgress → Completed or Failed; Deduped while another runs), MLV execution definitions,
 * long-running operations and the {@code ErrorResponse} shape. MLV definitions are answered from
 * the simulator's own catalog, parsed with mlv's MlvParser; rows and Delta history come from a
 * {@link DataPlane}.
 *
 * <p>Faults are injected before a request is handled (429 with Retry-After, 500, 503, dropped
 * connection, 401 for an expired token) or, for submissions mlv can recognise again (statements,
 * job instances, execution definitions), after it was handled with the answer lost. Counters record
 * every submission actually processed, so tests can prove nothing ran twice.
 */
final class FabricSimulator implements AutoCloseable {
  static final String PREFIX = "/v1";
  private static final ObjectMapper JSON = new ObjectMapper();

  static {
    // Without TCP_NODELAY each exchange waits out a delayed ACK (~44 ms on loopback). The JDK
    // reads this once, as its first server starts: surefire sets it on the command line too.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  /** Kinds of injected faults. */
  enum Fault {
    THROTTLE,
    ERROR_500,
    ERROR_503,
    DROP,
    EXPIRED_TOKEN,
    DROP_AFTER
  }

  final class Lakehouse {
    final UUID workspaceId;
    final UUID id;
    final String workspace;
    final String name;
    final DataPlane data;

    /** schema.name → CREATE text as sent. */
    final Map<String, String> mlvs = Collections.synchronizedMap(new LinkedHashMap<>());

    final Map<String, ObjectNode> definitions = new ConcurrentHashMap<>();
    final Map<String, ObjectNode> schedules = Collections.synchronizedMap(new LinkedHashMap<>());
    final Map<String, ObjectNode> jobs = Collections.synchronizedMap(new LinkedHashMap<>());

    Lakehouse(UUID workspaceId, UUID id, String workspace, String name, DataPlane data) {
      this.workspaceId = workspaceId;
      this.id = id;
      this.workspace = workspace;
      this.name = name;
      this.data = data;
    }
  }

  private final class Session {
    final String id = UUID.randomUUID().toString();
    final Lakehouse lakehouse;
    volatile String state = "starting";
    String name = "";
    int polls;
    final Map<Integer, ObjectNode> statements = Collections.synchronizedMap(new LinkedHashMap<>());
    final Map<Integer, Integer> pollsLeft = new ConcurrentHashMap<>();

    Session(Lakehouse lakehouse) {
      this.lakehouse = lakehouse;
    }
  }

  private final HttpServer server;
  private final ExecutorService handlers = Executors.newFixedThreadPool(4);
  private final ScheduledExecutorService jobRunner = Executors.newSingleThreadScheduledExecutor();
  private final Map<UUID, Lakehouse> lakehouses = new ConcurrentHashMap<>();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final Map<String, ObjectNode[]> operations = new ConcurrentHashMap<>();
  private final Random random = new Random(42);

  volatile String token = "simulated-token";
  volatile double faultRate;
  volatile Set<Fault> faults = Set.of();

  /** When set, faults are injected only into requests whose "METHOD path" matches this regex. */
  volatile String faultsOnly;

  /** Faults are injected only once more than this many refresh jobs were submitted. */
  volatile int faultsOnlyAfterJobs = -1;

  /** A job instance is answered without its {@code status} (a malformed answer, for tests). */
  volatile boolean jobStatusMissing;

  /** Polls a statement, session start or job step stays unfinished. */
  volatile int slowPolls = 1;

  /**
   * Statements run while their POST is answered and come back {@code available}, so a client with
   * production poll intervals (the CLI) never waits for one; fault and timing tests leave it off.
   */
  volatile boolean instantStatements;

  /** New Livy sessions are idle at once, as their POST is answered (see {@link #answerAtOnce}). */
  volatile boolean instantSessions;

  /**
   * For a client that polls at production intervals (the CLI: 2 s, growing): statements run as they
   * are posted, sessions start idle, and a job's status and a running operation's state ask for a
   * Retry-After of 20 ms, which the client honours as it would Fabric's. Nothing else changes: the
   * same requests, in the same order, without seconds of waiting between them.
   */
  void answerAtOnce() {
    instantStatements = true;
    instantSessions = true;
    jobPollRetryAfter = "0.02";
    operationPollRetryAfter = "0.02";
  }

  /** Statements containing this text fail as Spark would refuse them (a permission, say). */
  volatile String refuseStatementsContaining;

  /** The session dies once, right after accepting a statement with this text (which still runs). */
  volatile String killSessionAfterAccepting;

  /** Milliseconds between job status moves. */
  volatile long jobStepMs = 5;

  /** The Retry-After (seconds) a running operation's state answer asks for; none when null. */
  volatile String operationPollRetryAfter;

  /** The Retry-After (seconds) a refresh job's status answer asks for. */
  volatile String jobPollRetryAfter = "0";

  /**
   * While set, refresh jobs stay in progress: a test that needs a job still running when it acts
   * holds it, instead of hoping a sleep outlasts its steps on a loaded machine.
   */
  volatile boolean holdJobs;

  /**
   * The status of a refresh job skipped because another runs: Deduped, or Cancelled as Monitor hub
   * (and the job instance API, which reflects it) may show it.
   */
  volatile String skippedStatus = "Deduped";

  /** Whether GET .../sessions lists the sessions (plain Livy does; Fabric does not document it). */
  volatile boolean listSessions = true;

  /** The next this-many refresh jobs fail with Fabric's capacity throttling error code. */
  final AtomicInteger throttleJobs = new AtomicInteger();

  /** Answer execution-definition creates as long-running operations. */
  volatile boolean definitionsAsOperations = true;

  final AtomicInteger requests = new AtomicInteger();
  final AtomicInteger injected = new AtomicInteger();
  final Map<String, AtomicInteger> statementsRun = new ConcurrentHashMap<>();
  final AtomicInteger jobsSubmitted = new AtomicInteger();
  final AtomicInteger definitionsCreated = new AtomicInteger();
  final AtomicInteger sessionsCreated = new AtomicInteger();
  final List<String> requestLog = Collections.synchronizedList(new ArrayList<>());

  /** The execution definition each refresh job was started with, in order (for tests). */
  final List<ObjectNode> jobDefinitions = Collections.synchronizedList(new ArrayList<>());

  /** Execution definitions of this refresh mode are refused with a 403 (for tests). */
  volatile String refuseDefinitionsOfMode;

  FabricSimulator() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(handlers);
    server.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PREFIX);
  }

  Lakehouse addLakehouse(UUID ws, UUID id, String workspace, String name, DataPlane data) {
    Lakehouse l =
        new Lakehouse(
            ws, id, workspace.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT), data);
    lakehouses.put(id, l);
    return l;
  }

  Lakehouse lakehouse(UUID id) {
    return lakehouses.get(id);
  }

  /** Every Livy session dies, as when Fabric reclaims idle sessions. */
  void killSessions() {
    sessions.values().forEach(s -> s.state = "dead");
  }

  int timesRun(String sqlStart) {
    return statementsRun.entrySet().stream()
        .filter(e -> e.getKey().startsWith(sqlStart))
        .mapToInt(e -> e.getValue().get())
        .sum();
  }

  @Override
  public void close() {
    server.stop(0);
    handlers.shutdownNow();
    jobRunner.shutdownNow();
    statementRunner.shutdownNow();
  }

  // ---- HTTP plumbing ----

  private record Reply(int status, JsonNode body, Map<String, String> headers) {}

  private static final class Problem extends RuntimeException {
    final int status;
    final String code;

    Problem(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    requests.incrementAndGet();
    String method = ex.getRequestMethod();
    String path = ex.getRequestURI().getPath();
    byte[] in;
    try (InputStream is = ex.getRequestBody()) {
      in = is.readAllBytes();
    }
    requestLog.add(
        method
            + " "
            + path
            + " "
            + ex.getRequestHeaders().getFirst("Authorization")
            + " "
            + new String(in, StandardCharsets.UTF_8));
    try {
      String auth = ex.getRequestHeaders().getFirst("Authorization");
      if (auth == null || !auth.equals("Bearer " + token)) {
        send(ex, error(401, "TokenNotValid", "The access token is missing or not valid", false));
        return;
      }
      Fault fault = pickFault(method, path);
      if (fault != null && fault != Fault.DROP_AFTER) {
        injected.incrementAndGet();
        switch (fault) {
          case THROTTLE -> {
            Reply r = error(429, "RequestBlocked", "Too many requests", true);
            r.headers().put("Retry-After", "0.01");
            send(ex, r);
          }
          case ERROR_500 -> send(ex, error(500, "InternalServerError", "Simulated failure", true));
          case ERROR_503 -> send(ex, error(503, "ServiceUnavailable", "Simulated outage", true));
          case EXPIRED_TOKEN ->
              send(ex, error(401, "TokenExpired", "Access token has expired", false));
          default -> ex.close(); // the connection drops without an answer
        }
        return;
      }
      JsonNode body = in.length == 0 ? null : JSON.readTree(in);
      Reply reply = route(method, path, ex.getRequestURI().getQuery(), body);
      if (fault == Fault.DROP_AFTER) {
        injected.incrementAndGet();
        ex.close(); // handled, but the answer is lost
        return;
      }
      send(ex, reply);
    } catch (Problem p) {
      send(ex, error(p.status, p.code, p.getMessage(), false));
    } catch (RuntimeException e) {
      send(ex, error(500, "InternalServerError", String.valueOf(e), false));
    }
  }

  private Fault lastFault;

  private Fault pickFault(String method, String path) {
    if (faultRate <= 0 || faults.isEmpty()) {
      return null;
    }
    String only = faultsOnly;
    if (only != null && !(method + " " + path).matches(only)) {
      return null;
    }
    if (jobsSubmitted.get() <= faultsOnlyAfterJobs) {
      return null;
    }
    synchronized (random) {
      if (random.nextDouble() >= faultRate) {
        return null;
      }
      List<Fault> choices = new ArrayList<>(faults);
      boolean recognisable =
          method.equals("POST")
              && (path.endsWith("/statements")
                  || path.endsWith("/sessions")
                  || path.endsWith("/instances")
                  || path.endsWith("/notebooks")
                  || path.endsWith("/mlvexecutiondefinitions")
                  || path.endsWith("/schedules"));
      if (!recognisable) {
        choices.remove(Fault.DROP_AFTER);
      }
      if (lastFault == Fault.EXPIRED_TOKEN) {
        choices.remove(Fault.EXPIRED_TOKEN); // a token fetched just now has not expired
      }
      lastFault = choices.isEmpty() ? null : choices.get(random.nextInt(choices.size()));
      return lastFault;
    }
  }

  private static Reply error(int status, String code, String message, boolean retriable) {
    ObjectNode e = JSON.createObjectNode();
    e.put("errorCode", code);
    e.put("message", message);
    String requestId = UUID.randomUUID().toString();
    e.put("requestId", requestId);
    e.put("isRetriable", retriable);
    Map<String, String> h = new LinkedHashMap<>();
    h.put("RequestId", requestId);
    return new Reply(status, e, h);
  }

  private static Reply ok(int status, JsonNode body) {
    return new Reply(status, body, new LinkedHashMap<>());
  }

  private static void send(HttpExchange ex, Reply r) throws IOException {
    byte[] out = r.body() == null ? new byte[0] : JSON.writeValueAsBytes(r.body());
    r.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(r.status(), out.length == 0 ? -1 : out.length);
    if (out.length > 0) {
      try (OutputStream os = ex.getResponseBody()) {
        os.write(out);
      }
    }
    ex.close();
  }

  // ---- routing ----

  private static final String UUID_RE = "([0-9a-fA-F-]{36})";
  private static final Pattern LIVY =
      Pattern.compile(
          PREFIX
              + "/workspaces/"
              + UUID_RE
              + "/lakehouses/"
              + UUID_RE
              + "/livyapi/versions/2023-12-01/sessions(?:/([^/]+))?(?:/statements(?:/(\\d+))?(/cancel)?)?(/statements)?");
  private static final Pattern DEFS =
      Pattern.compile(
          PREFIX
              + "/workspaces/"
              + UUID_RE
              + "/lakehouses/"
              + UUID_RE
              + "/mlvexecutiondefinitions(?:/([^/]+))?");
  private static final Pattern RUN =
      Pattern.compile(
          PREFIX
              + "/workspaces/"
              + UUID_RE
              + "/lakehouses/"
              + UUID_RE
              + "/jobs/RefreshMaterializedLakeViews/instances");
  private static final Pattern INSTANCES =
      Pattern.compile(
          PREFIX
              + "/workspaces/"
              + UUID_RE
              + "/items/"
              + UUID_RE
              + "/jobs/instances(?:/([^/]+))?(/cancel)?");
  private static final Pattern SCHEDULES =
      Pattern.compile(
          PREFIX
              + "/workspaces/"
              + UUID_RE
              + "/items/"
              + UUID_RE
              + "/jobs/([A-Za-z]+)/schedules(?:/([^/]+))?");
  private static final Pattern OPERATION =
      Pattern.compile(PREFIX + "/operations/([^/]+)(/result)?");

  /**
   * Every list (a GET answering {@code value}) comes in pages of {@code pageSize} elements with a
   * {@code continuationToken} while more follow, as Fabric's paged lists do; 0 answers in one page.
   * Small by default, so that every test reads lists across pages.
   */
  volatile int pageSize = 2;

  private Reply route(String method, String path, String query, JsonNode body) {
    Reply whole = routeWhole(method, path, query, body);
    int size = pageSize;
    if (size <= 0
        || !method.equals("GET")
        || whole.body() == null
        || !whole.body().path("value").isArray()) {
      return whole;
    }
    int from = 0;
    for (String kv : query == null ? new String[0] : query.split("&")) {
      if (kv.startsWith("continuationToken=")) {
        from = Integer.parseInt(kv.substring("continuationToken=".length()).replace("page-", ""));
      }
    }
    ArrayNode all = (ArrayNode) whole.body().path("value");
    ObjectNode page = ((ObjectNode) whole.body()).deepCopy();
    ArrayNode value = page.putArray("value");
    for (int i = from; i < Math.min(all.size(), from + size); i++) {
      value.add(all.get(i));
    }
    if (from + size < all.size()) {
      page.put("continuationToken", "page-" + (from + size));
    }
    return new Reply(whole.status(), page, whole.headers());
  }

  private Reply routeWhole(String method, String path, String query, JsonNode body) {
    Matcher m;
    if ((m = LIVY.matcher(path)).matches()) {
      return livy(
          method,
          lakehouse(m.group(1), m.group(2)),
          m.group(3),
          m.group(4),
          m.group(5) != null,
          path.endsWith("/statements"),
          body);
    } else if ((m = DEFS.matcher(path)).matches()) {
      return definitions(method, lakehouse(m.group(1), m.group(2)), m.group(3), body);
    } else if ((m = RUN.matcher(path)).matches() && method.equals("POST")) {
      return runJob(lakehouse(m.group(1), m.group(2)), body);
    } else if ((m = NOTEBOOKS.matcher(path)).matches()) {
      return notebooks.route(method, m.group(1), m.group(2), m.group(3), body);
    } else if ((m = ITEMS.matcher(path)).matches() && method.equals("GET")) {
      return notebooks.items(m.group(1), query);
    } else if ((m = INSTANCES.matcher(path)).matches() && notebooks.has(m.group(2))) {
      return notebooks.jobs(
          method, m.group(1), m.group(2), m.group(3), m.group(4) != null, query, body);
    } else if ((m = INSTANCES.matcher(path)).matches()) {
      return instances(method, lakehouse(m.group(1), m.group(2)), m.group(3), m.group(4) != null);
    } else if ((m = SCHEDULES.matcher(path)).matches()) {
      return schedules(method, lakehouse(m.group(1), m.group(2)), m.group(3), m.group(4), body);
    } else if ((m = OPERATION.matcher(path)).matches()) {
      return operation(m.group(1), m.group(2) != null);
    }
    throw new Problem(404, "EntityNotFound", "No such resource: " + path);
  }

  private Lakehouse lakehouse(String ws, String lh) {
    Lakehouse l = lakehouses.get(UUID.fromString(lh));
    if (l == null || !l.workspaceId.equals(UUID.fromString(ws))) {
      throw new Problem(404, "ItemNotFound", "The requested lakehouse was not found");
    }
    return l;
  }

  // ---- Livy ----

  private Reply livy(
      String method,
      Lakehouse lh,
      String sessionId,
      String statementId,
      boolean cancel,
      boolean statementsList,
      JsonNode body) {
    if (sessionId == null) {
      if (method.equals("POST")) {
        Session s = new Session(lh);
        s.name = body == null ? "" : body.path("name").asText("");
        // Apache Livy refuses a name a live session already has.
        if (!s.name.isEmpty()
            && sessions.values().stream()
                .anyMatch(
                    o ->
                        o.lakehouse == lh
                            && o.name.equals(s.name)
                            && !Set.of("dead", "killed", "error", "success").contains(o.state))) {
          throw new Problem(400, "InvalidRequest", "Duplicate session name: " + s.name);
        }
        s.polls = slowPolls;
        if (instantSessions) {
          s.state = "idle";
        }
        sessions.put(s.id, s);
        sessionsCreated.incrementAndGet();
        return ok(200, session(s));
      }
      if (!listSessions) {
        throw new Problem(404, "NotFound", "No such API");
      }
      ArrayNode list = JSON.createArrayNode();
      sessions.values().stream().filter(s -> s.lakehouse == lh).forEach(s -> list.add(session(s)));
      ObjectNode r = JSON.createObjectNode();
      r.set("sessions", list);
      return ok(200, r);
    }
    Session s = sessions.get(sessionId);
    if (s == null || s.lakehouse != lh) {
      throw new Problem(404, "SessionNotFound", "Session " + sessionId + " was not found");
    }
    if (statementId == null && !statementsList) {
      if (method.equals("DELETE")) {
        s.state = "dead";
        return ok(200, null);
      }
      if (s.state.equals("starting") && s.polls-- <= 0) {
        s.state = "idle";
      }
      return ok(200, session(s));
    }
    if (s.state.equals("dead")) {
      throw new Problem(404, "SessionNotFound", "Session " + sessionId + " is dead");
    }
    if (statementId == null) {
      if (method.equals("GET")) {
        ArrayNode list = JSON.createArrayNode();
        synchronized (s.statements) {
          s.statements.values().forEach(st -> list.add(st.deepCopy()));
        }
        ObjectNode r = JSON.createObjectNode();
        r.set("statements", list);
        return ok(200, r);
      }
      if (!s.state.equals("idle")) {
        throw new Problem(400, "SessionNotReady", "Session is " + s.state);
      }
      return ok(200, statement(s, body));
    }
    ObjectNode st = s.statements.get(Integer.parseInt(statementId));
    if (st == null) {
      throw new Problem(404, "StatementNotFound", "No statement " + statementId);
    }
    if (cancel) {
      synchronized (st) {
        if (!st.path("state").asText().equals("available")) {
          st.put("state", "cancelled");
        }
      }
      return ok(200, JSON.createObjectNode().put("msg", "canceled"));
    }
    synchronized (st) {
      if (st.path("state").asText().equals("done")
          && s.pollsLeft.merge(st.path("id").asInt(), -1, Integer::sum) < 0) {
        st.put("state", "available");
      }
      ObjectNode shown = st.deepCopy();
      if (shown.path("state").asText().equals("done")) {
        shown.put("state", "running");
        shown.remove("output");
      }
      return ok(200, shown);
    }
  }

  private static ObjectNode session(Session s) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", s.id);
    n.put("name", s.name);
    n.put("state", s.state);
    n.put("kind", "sql");
    return n;
  }

  private final ExecutorService statementRunner = Executors.newSingleThreadExecutor();

  /**
   * Registers the statement and answers at once, as Livy does; it runs in the background and turns
   * {@code available} once done and polled {@link #slowPolls} more times.
   */
  private ObjectNode statement(Session s, JsonNode body) {
    String code = body == null ? "" : body.path("code").asText();
    if (!body.path("kind").asText().equals("sql")) {
      throw new Problem(400, "InvalidRequest", "only kind sql is simulated");
    }
    ObjectNode st = JSON.createObjectNode();
    int id;
    synchronized (s.statements) {
      id = s.statements.size();
      st.put("id", id);
      st.put("code", code);
      st.put("state", "waiting");
      s.statements.put(id, st);
    }
    s.pollsLeft.put(id, slowPolls);
    String sql = code.replaceFirst("^--[^\\n]*\\n", "");
    statementsRun.computeIfAbsent(sql.strip(), k -> new AtomicInteger()).incrementAndGet();
    String killOn = killSessionAfterAccepting;
    if (killOn != null && sql.contains(killOn)) {
      killSessionAfterAccepting = null; // once
      run(s, st, id, sql);
      s.state = "dead";
      synchronized (st) {
        return st.deepCopy().put("state", "running");
      }
    }
    if (instantStatements) {
      run(s, st, id, sql);
      synchronized (st) {
        if (st.path("state").asText().equals("done")) {
          st.put("state", "available");
        }
        return st.deepCopy();
      }
    }
    statementRunner.submit(() -> run(s, st, id, sql));
    synchronized (st) {
      return st.deepCopy();
    }
  }

  private void run(Session s, ObjectNode st, int id, String sql) {
    synchronized (st) {
      if (st.path("state").asText().equals("cancelled")) {
        return;
      }
      st.put("state", "running");
    }
    ObjectNode output = JSON.createObjectNode();
    try {
      String refused = refuseStatementsContaining;
      if (refused != null && sql.contains(refused)) {
        throw new IllegalStateException("[INSUFFICIENT_PERMISSIONS] Insufficient privileges");
      }
      SqlResult r = execute(s.lakehouse, sql);
      output.put("status", "ok");
      output.put("execution_count", id);
      ObjectNode json = output.putObject("data").putObject("application/json");
      ArrayNode fields = json.putObject("schema").put("type", "struct").putArray("fields");
      for (int c = 0; c < r.columns().size(); c++) {
        List<SqlValue> column = new ArrayList<>();
        for (List<SqlValue> row : r.values()) {
          column.add(row.get(c));
        }
        fields
            .addObject()
            .put("name", r.columns().get(c))
            .<ObjectNode>set("type", LivyJson.type(column))
            .put("nullable", true);
      }
      ArrayNode data = json.putArray("data");
      // Livy's livy.rsc.sql.num-rows (1,000 by default): the rest is dropped without a word.
      for (List<SqlValue> row : r.values().subList(0, Math.min(r.values().size(), 1000))) {
        ArrayNode a = data.addArray();
        row.forEach(v -> a.add(LivyJson.value(v)));
      }
    } catch (RuntimeException e) {
      output.put("status", "error");
      output.put("ename", "AnalysisException");
      output.put("evalue", String.valueOf(e.getMessage()));
    }
    synchronized (st) {
      st.set("output", output);
      if (!st.path("state").asText().equals("cancelled")) {
        st.put("state", "done");
      }
    }
  }

  // ---- the SQL a statement runs ----

  private static final Pattern SHOW_SCHEMAS =
      Pattern.compile("(?is)^\\s*SHOW\\s+(SCHEMAS|DATABASES|NAMESPACES)\\s*$");
  private static final Pattern ALTER_TABLE =
      Pattern.compile(
          "(?is)^\\s*ALTER\\s+TABLE\\s+((?:`[^`]*`|[\\w$]+)(?:\\s*\\.\\s*(?:`[^`]*`|[\\w$]+)){0,3})\\s+SET\\s+TBLPROPERTIES.*");

  private String key(Lakehouse lh, Name n) {
    List<String> p = n.parts().stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
    if (p.size() >= 3 && !p.get(p.size() - 3).equals(lh.name)) {
      throw new MlvException("UNSUPPORTED", "the simulator keeps views of its own lakehouse only");
    }
    return p.size() == 1 ? "dbo." + p.get(0) : p.get(p.size() - 2) + "." + p.get(p.size() - 1);
  }

  private SqlResult execute(Lakehouse lh, String sql) {
    MlvParser.Result parsed = MlvParser.parse(Position.start(null), sql);
    if (!parsed.diagnostics().isEmpty() || parsed.statements().size() != 1) {
      throw new MlvException(
          "PARSE_SYNTAX_ERROR", "[PARSE_SYNTAX_ERROR] the statement could not be parsed");
    }
    SqlStatement st = parsed.statements().get(0);
    synchronized (lh) {
      Map<String, String> views = new LinkedHashMap<>(lh.mlvs);
      if (st instanceof SqlStatement.ShowViews s) {
        String schema = s.schema() == null ? "dbo" : s.schema().last().toLowerCase(Locale.ROOT);
        List<List<String>> rows = new ArrayList<>();
        views.keySet().stream()
            .filter(k -> k.startsWith(schema + "."))
            .sorted()
            .forEach(k -> rows.add(List.of(schema, k.substring(schema.length() + 1))));
        return new SqlResult(List.of("namespace", "viewName"), rows, null);
      } else if (st instanceof SqlStatement.ShowCreate s) {
        String text = views.get(key(lh, s.view()));
        if (text == null) {
          throw new MlvException(
              "TABLE_OR_VIEW_NOT_FOUND",
              "[TABLE_OR_VIEW_NOT_FOUND] The materialized lake view "
                  + s.view().text()
                  + " cannot be found.");
        }
        return new SqlResult(List.of("createtab_stmt"), List.of(List.of(text)), null);
      } else if (st instanceof SqlStatement.CreateView c) {
        ViewDefinition def = c.definition();
        String k = key(lh, def.name());
        if (views.containsKey(k) && !def.orReplace()) {
          throw new MlvException(
              "VIEW_EXISTS", "[TABLE_OR_VIEW_ALREADY_EXISTS] " + k + " already exists");
        }
        lh.data.create(views, k, def.statement());
        lh.mlvs.put(k, def.statement());
        return SqlResult.message("OK");
      } else if (st instanceof SqlStatement.Rename r) {
        String from = key(lh, r.from());
        String to = key(lh, r.to());
        if (!views.containsKey(from)) {
          throw new MlvException(
              "TABLE_OR_VIEW_NOT_FOUND", "[TABLE_OR_VIEW_NOT_FOUND] " + from + " cannot be found.");
        }
        lh.data.rename(views, from, to);
        String text = views.get(from);
        // SHOW CREATE shows the view's current name, as Fabric's catalog does.
        Pattern header =
            Pattern.compile(
                "(?is)(MATERIALIZED\\s+LAKE\\s+VIEW\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?)"
                    + Pattern.quote(r.from().text()).replace("\\.", "\\s*\\.\\s*"));
        String renamed = header.matcher(text).replaceFirst("$1" + Matcher.quoteReplacement(to));
        if (renamed.equals(text)) {
          renamed =
              text.replaceFirst(
                  "(?is)(MATERIALIZED\\s+LAKE\\s+VIEW\\s+)\\S+",
                  "$1" + Matcher.quoteReplacement(to));
        }
        lh.mlvs.remove(from);
        lh.mlvs.put(to, renamed);
        return SqlResult.message("OK");
      } else if (st instanceof SqlStatement.Drop d) {
        String k = key(lh, d.view());
        if (!views.containsKey(k)) {
          if (d.ifExists()) {
            return SqlResult.message("OK");
          }
          throw new MlvException(
              "TABLE_OR_VIEW_NOT_FOUND", "[TABLE_OR_VIEW_NOT_FOUND] " + k + " cannot be found.");
        }
        lh.data.drop(views, k);
        lh.mlvs.remove(k);
        return SqlResult.message("OK");
      } else if (st instanceof SqlStatement.Refresh r) {
        DataPlane.Refreshed done = lh.data.refresh(views, List.of(key(lh, r.view())), r.full());
        if (!done.ok()) {
          throw new MlvException("REFRESH_FAILED", done.failure());
        }
        return SqlResult.message("OK");
      }
      String other = ((SqlStatement.Other) st).sql();
      Matcher alter = ALTER_TABLE.matcher(other);
      Name altered =
          alter.matches() ? Name.of(alter.group(1).replace("`", "").replaceAll("\\s", "")) : null;
      // A table of another lakehouse is altered there, by its data plane.
      if (altered != null
          && (altered.parts().size() < 3
              || altered
                  .parts()
                  .get(altered.parts().size() - 3)
                  .toLowerCase(Locale.ROOT)
                  .equals(lh.name))) {
        String k = key(lh, altered);
        if (views.containsKey(k)) {
          throw new MlvException(
              "UNSUPPORTED",
              "[UNSUPPORTED_FEATURE] ALTER TABLE is not supported on a materialized lake view");
        }
      }
      if (SHOW_SCHEMAS.matcher(other).matches()) {
        java.util.TreeSet<String> schemas = new java.util.TreeSet<>();
        views.keySet().forEach(k -> schemas.add(k.substring(0, k.indexOf('.'))));
        for (List<String> row : lh.data.sql(views, other).rows()) {
          String s = row.get(0).toLowerCase(Locale.ROOT);
          if (!s.equals("mlv_history")) { // the local engine's own run history, not Fabric's
            schemas.add(s);
          }
        }
        return new SqlResult(List.of("namespace"), schemas.stream().map(List::of).toList(), null);
      }
      return lh.data.sql(views, other);
    }
  }

  // ---- execution definitions ----

  private Reply definitions(String method, Lakehouse lh, String id, JsonNode body) {
    if (id == null && method.equals("GET")) {
      ObjectNode r = JSON.createObjectNode();
      ArrayNode value = r.putArray("value");
      lh.definitions.values().forEach(value::add);
      return ok(200, r);
    }
    if (id == null && method.equals("POST")) {
      ObjectNode d = validDefinition(lh, body, true);
      d.put("id", UUID.randomUUID().toString());
      lh.definitions.put(d.path("id").asText(), d);
      definitionsCreated.incrementAndGet();
      if (definitionsAsOperations) {
        String op = UUID.randomUUID().toString();
        ObjectNode running = JSON.createObjectNode().put("status", "Running");
        ObjectNode done = JSON.createObjectNode().put("status", "Succeeded");
        operations.put(op, new ObjectNode[] {running, done, d});
        Reply r = ok(202, null);
        r.headers().put("x-ms-operation-id", op);
        r.headers().put("Location", endpoint() + "/operations/" + op);
        r.headers().put("Retry-After", "0");
        return r;
      }
      return ok(201, d);
    }
    ObjectNode d = lh.definitions.get(id);
    if (d == null) {
      throw new Problem(404, "ItemNotFound", "No execution definition " + id);
    }
    switch (method) {
      case "GET" -> {
        return ok(200, d);
      }
      case "PATCH" -> {
        ObjectNode merged = d.deepCopy();
        body.fields().forEachRemaining(e -> merged.set(e.getKey(), e.getValue()));
        validDefinition(lh, merged, false);
        lh.definitions.put(id, merged);
        return ok(200, merged);
      }
      case "DELETE" -> {
        lh.definitions.remove(id);
        return ok(200, null);
      }
      default -> throw new Problem(405, "MethodNotAllowed", method);
    }
  }

  private ObjectNode validDefinition(Lakehouse lh, JsonNode body, boolean create) {
    if (body == null || !body.isObject()) {
      throw new Problem(400, "InvalidRequest", "a JSON body is required");
    }
    if (body.path("displayName").asText("").isBlank()) {
      throw new Problem(400, "InvalidRequest", "displayName is required");
    }
    JsonNode ctx = body.path("currentLakehouseExecutionContext");
    String type = ctx.path("mode").asText("");
    if (!Set.of("All", "Selected").contains(type)) {
      throw new Problem(
          400, "InvalidRequest", "currentLakehouseExecutionContext.mode must be All or Selected");
    }
    if (type.equals("Selected")) {
      if (ctx.path("selectedMlvs").size() == 0) {
        throw new Problem(
            400, "InvalidRequest", "selectedMlvs must not be empty when mode is Selected");
      }
      for (JsonNode m : ctx.path("selectedMlvs")) {
        if (!lh.mlvs.containsKey(m.asText().toLowerCase(Locale.ROOT))) {
          throw new Problem(
              400, "MLVNotFound", "materialized lake view " + m.asText() + " does not exist");
        }
      }
    }
    JsonNode ext = body.path("extendedLineageExecutionContext");
    if (!ext.isMissingNode()) {
      String extType = ext.path("mode").asText("");
      if (!Set.of("All", "Selected").contains(extType)) {
        throw new Problem(
            400, "InvalidRequest", "extendedLineageExecutionContext.mode must be All or Selected");
      }
      if (extType.equals("Selected")) {
        if (ext.path("selectedLakehouses").size() == 0) {
          throw new Problem(
              400, "InvalidRequest", "selectedLakehouses must not be empty when mode is Selected");
        }
        // Each an item reference, as the service documents it.
        for (JsonNode l : ext.path("selectedLakehouses")) {
          try {
            if (!l.path("referenceType").asText().equals("ById")) {
              throw new IllegalArgumentException("referenceType");
            }
            UUID.fromString(l.path("itemId").asText());
            UUID.fromString(l.path("workspaceId").asText());
          } catch (IllegalArgumentException e) {
            throw new Problem(
                400,
                "InvalidRequest",
                "selectedLakehouses holds something other than a ById item reference");
          }
        }
      }
    }
    String mode = body.path("settings").path("refreshMode").asText("Optimal");
    if (!Set.of("Optimal", "Full").contains(mode)) {
      throw new Problem(400, "InvalidRequest", "settings.refreshMode must be Optimal or Full");
    }
    if (mode.equals(refuseDefinitionsOfMode)) {
      throw new Problem(403, "InsufficientPrivileges", "The caller may not create this definition");
    }
    if (create) {
      for (ObjectNode other : lh.definitions.values()) {
        if (other.path("displayName").asText().equals(body.path("displayName").asText())) {
          throw new Problem(409, "ItemDisplayNameAlreadyInUse", "displayName is in use");
        }
      }
    }
    return ((ObjectNode) body).deepCopy();
  }

  private Reply operation(String id, boolean result) {
    ObjectNode[] op = operations.get(id);
    if (op == null) {
      throw new Problem(404, "OperationNotFound", "No operation " + id);
    }
    if (result) {
      return ok(200, op[2]);
    }
    if (op[0] != null) {
      ObjectNode first = op[0];
      op[0] = null;
      Reply running = ok(200, first);
      if (operationPollRetryAfter != null) {
        running.headers().put("Retry-After", operationPollRetryAfter);
      }
      return running;
    }
    Reply r = ok(200, op[1]);
    if (op[2] != null) { // an operation without a result (an update) has no result Location
      r.headers().put("Location", endpoint() + "/operations/" + id + "/result");
    }
    return r;
  }

  // ---- schedules ----

  /** Schedules created or changed, as processed (a lost answer still counts once). */
  final AtomicInteger schedulesWritten = new AtomicInteger();

  private static final Pattern DATE_TIME =
      Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d");
  private static final Pattern HH_MM = Pattern.compile("([01]\\d|2[0-3]):[0-5]\\d");

  private Reply schedules(String method, Lakehouse lh, String jobType, String id, JsonNode body) {
    if (!jobType.equals("RefreshMaterializedLakeViews")) {
      throw new Problem(400, "InvalidJobType", "The job type " + jobType + " is not valid");
    }
    if (id == null && method.equals("GET")) {
      ObjectNode r = JSON.createObjectNode();
      ArrayNode value = r.putArray("value");
      synchronized (lh.schedules) {
        lh.schedules.values().forEach(x -> value.add(x.deepCopy()));
      }
      return ok(200, r);
    }
    if (id == null && method.equals("POST")) {
      ObjectNode created;
      synchronized (lh.schedules) {
        if (lh.schedules.size() >= 20) {
          throw new Problem(
              400,
              "ScheduleExceedsLimit",
              "The number of created schedules for the item exceeds the limit");
        }
        created = validSchedule(lh, body, true);
        String sid = UUID.randomUUID().toString();
        created.put("id", sid);
        created.put("createdDateTime", now() + "Z");
        created.putObject("owner").put("id", UUID.randomUUID().toString()).put("type", "User");
        lh.schedules.put(sid, created);
      }
      schedulesWritten.incrementAndGet();
      Reply r = ok(201, created.deepCopy());
      r.headers()
          .put(
              "Location",
              endpoint()
                  + "/workspaces/"
                  + lh.workspaceId
                  + "/items/"
                  + lh.id
                  + "/jobs/RefreshMaterializedLakeViews/schedules/"
                  + created.path("id").asText());
      return r;
    }
    synchronized (lh.schedules) {
      ObjectNode existing = lh.schedules.get(id);
      if (existing == null) {
        throw new Problem(404, "EntityNotFound", "No schedule " + id);
      }
      switch (method) {
        case "GET" -> {
          return ok(200, existing.deepCopy());
        }
        case "PATCH" -> {
          ObjectNode merged = existing.deepCopy();
          if (body != null) {
            body.fields().forEachRemaining(e -> merged.set(e.getKey(), e.getValue()));
          }
          ObjectNode valid = validSchedule(lh, merged, false);
          lh.schedules.put(id, valid);
          schedulesWritten.incrementAndGet();
          return ok(200, valid.deepCopy());
        }
        case "DELETE" -> {
          lh.schedules.remove(id);
          return ok(200, null);
        }
        default -> throw new Problem(405, "MethodNotAllowed", method);
      }
    }
  }

  // ---- notebook items and RunNotebook jobs ----

  private static final Pattern ITEMS =
      Pattern.compile(PREFIX + "/workspaces/" + UUID_RE + "/items");
  private static final Pattern NOTEBOOKS =
      Pattern.compile(
          PREFIX
              + "/workspaces/"
              + UUID_RE
              + "/notebooks(?:/([^/]+)(?:/(getDefinition|updateDefinition))?)?");

  final Notebooks notebooks = new Notebooks();

  /** Answer notebook creates and definition calls as long-running operations. */
  volatile boolean notebooksAsOperations = true;

  /** When set ("errorCode: message"), every RunNotebook job fails with this failure reason. */
  volatile String failNotebookRuns;

  final AtomicInteger notebookRuns = new AtomicInteger();

  /**
   * Notebook items with their definitions, and the RunNotebook job. A run does not execute Python:
   * it reads the notebook's {@code @fmlv} views with mlv's own PySpark reader and registers each in
   * the catalog of the default lakehouse the job names (or the notebook's metadata does), as a view
   * over the tables the function reads, so that refresh jobs and SHOW MATERIALIZED LAKE VIEWS see
   * it. Like {@code replace=False} in fmlv, a view that exists is kept unless the decorator says
   * {@code replace=True}.
   */
  final class Notebooks {
    /** id → item (id, displayName, description, type, workspaceId) with its parts under "parts". */
    final Map<String, ObjectNode> items = Collections.synchronizedMap(new LinkedHashMap<>());

    final Map<String, ObjectNode> jobs = Collections.synchronizedMap(new LinkedHashMap<>());

    /** lakehouse id → schema.name → fingerprint of the PySpark definition registered. */
    final Map<UUID, Map<String, String>> registered = new ConcurrentHashMap<>();

    boolean has(String id) {
      return items.containsKey(id);
    }

    /** Removes a notebook behind mlv's back, as someone in the Fabric UI would. */
    void deleteBehindMlvsBack(String displayName) {
      items.values().removeIf(n -> n.path("displayName").asText().equals(displayName));
    }

    /** The decoded notebook-content.py of a notebook, by display name. */
    String content(String displayName) {
      synchronized (items) {
        for (ObjectNode n : items.values()) {
          if (n.path("displayName").asText().equals(displayName)) {
            return decode(n.path("parts"), "notebook-content.py");
          }
        }
      }
      throw new AssertionError("no notebook " + displayName);
    }

    private void workspace(String ws) {
      UUID id = UUID.fromString(ws);
      if (lakehouses.values().stream().noneMatch(l -> l.workspaceId.equals(id))) {
        throw new Problem(404, "WorkspaceNotFound", "The requested workspace was not found");
      }
    }

    Reply items(String ws, String query) {
      workspace(ws);
      String type = query == null ? null : query.replaceFirst(".*(?:^|&)type=([^&]*).*", "$1");
      ObjectNode r = JSON.createObjectNode();
      ArrayNode value = r.putArray("value");
      synchronized (items) {
        for (ObjectNode n : items.values()) {
          if (n.path("workspaceId").asText().equals(ws)
              && (type == null || type.equals(n.path("type").asText()))) {
            ObjectNode shown = n.deepCopy();
            shown.remove("parts");
            value.add(shown);
          }
        }
      }
      return ok(200, r);
    }

    Reply route(String method, String ws, String id, String action, JsonNode body) {
      workspace(ws);
      if (id == null && method.equals("POST")) {
        return create(ws, body);
      }
      ObjectNode item = id == null ? null : items.get(id);
      if (item == null || !item.path("workspaceId").asText().equals(ws)) {
        throw new Problem(404, "ItemNotFound", "The requested item was not found");
      }
      if ("getDefinition".equals(action) && method.equals("POST")) {
        ObjectNode r = JSON.createObjectNode();
        ArrayNode parts = r.putObject("definition").putArray("parts");
        item.path("parts").forEach(p -> parts.add(p.deepCopy()));
        // Get Item Definition always returns the platform part too.
        parts
            .addObject()
            .put("path", ".platform")
            .put(
                "payload",
                java.util.Base64.getEncoder()
                    .encodeToString(
                        ("{\"metadata\":{\"type\":\"Notebook\",\"displayName\":\""
                                + item.path("displayName").asText()
                                + "\"}}")
                            .getBytes(StandardCharsets.UTF_8)))
            .put("payloadType", "InlineBase64");
        return answer(200, r);
      }
      if ("updateDefinition".equals(action) && method.equals("POST")) {
        item.set("parts", parts(body == null ? null : body.path("definition")));
        return answer(200, null);
      }
      if (action == null && method.equals("DELETE")) {
        items.remove(id);
        return ok(200, null);
      }
      if (action == null && method.equals("GET")) {
        ObjectNode shown = item.deepCopy();
        shown.remove("parts");
        return ok(200, shown);
      }
      throw new Problem(405, "MethodNotAllowed", method);
    }

    private Reply create(String ws, JsonNode body) {
      String name = body == null ? "" : body.path("displayName").asText("");
      if (name.isBlank()) {
        throw new Problem(400, "InvalidRequest", "displayName is required");
      }
      ArrayNode parts = parts(body.path("definition"));
      synchronized (items) {
        for (ObjectNode n : items.values()) {
          if (n.path("workspaceId").asText().equals(ws)
              && n.path("displayName").asText().equals(name)) {
            throw new Problem(
                409, "ItemDisplayNameAlreadyInUse", "Requested '" + name + "' is already in use");
          }
        }
        ObjectNode item = JSON.createObjectNode();
        item.put("id", UUID.randomUUID().toString());
        item.put("type", "Notebook");
        item.put("displayName", name);
        item.put("description", body.path("description").asText(""));
        item.put("workspaceId", ws);
        item.set("parts", parts);
        items.put(item.path("id").asText(), item);
        ObjectNode shown = item.deepCopy();
        shown.remove("parts");
        return answer(201, shown);
      }
    }

    /** A definition must have a notebook-content part of valid InlineBase64. */
    private ArrayNode parts(JsonNode definition) {
      if (definition == null || !definition.path("parts").isArray()) {
        throw new Problem(400, "InvalidDefinition", "definition.parts is required");
      }
      ArrayNode out = JSON.createArrayNode();
      boolean content = false;
      for (JsonNode p : definition.path("parts")) {
        if (!p.path("payloadType").asText().equals("InlineBase64")) {
          throw new Problem(400, "InvalidDefinition", "payloadType must be InlineBase64");
        }
        try {
          java.util.Base64.getDecoder().decode(p.path("payload").asText());
        } catch (IllegalArgumentException e) {
          throw new Problem(400, "CorruptedPayload", "The provided payload is corrupted");
        }
        content |= p.path("path").asText().startsWith("notebook-content.");
        out.add(p.deepCopy());
      }
      if (!content) {
        throw new Problem(400, "InvalidDefinition", "the definition has no notebook-content part");
      }
      return out;
    }

    private String decode(JsonNode parts, String path) {
      for (JsonNode p : parts) {
        if (p.path("path").asText().equals(path)) {
          return new String(
              java.util.Base64.getDecoder().decode(p.path("payload").asText()),
              StandardCharsets.UTF_8);
        }
      }
      return "";
    }

    /** A long-running operation (202 + x-ms-operation-id) when so configured, else at once. */
    private Reply answer(int status, ObjectNode result) {
      if (!notebooksAsOperations) {
        return ok(status, result);
      }
      String op = UUID.randomUUID().toString();
      operations.put(
          op,
          new ObjectNode[] {
            JSON.createObjectNode().put("status", "Running"),
            JSON.createObjectNode().put("status", "Succeeded"),
            result
          });
      Reply r = ok(202, null);
      r.headers().put("x-ms-operation-id", op);
      r.headers().put("Location", endpoint() + "/operations/" + op);
      r.headers().put("Retry-After", "0");
      return r;
    }

    Reply jobs(
        String method,
        String ws,
        String id,
        String jobId,
        boolean cancel,
        String query,
        JsonNode body) {
      workspace(ws);
      if (jobId == null && method.equals("GET")) {
        ObjectNode r = JSON.createObjectNode();
        ArrayNode value = r.putArray("value");
        synchronized (jobs) {
          jobs.values().stream()
              .filter(j -> j.path("itemId").asText().equals(id))
              .forEach(j -> value.add(j.deepCopy()));
        }
        return ok(200, r);
      }
      if (jobId == null && method.equals("POST")) {
        if (query == null || !query.contains("jobType=RunNotebook")) {
          throw new Problem(400, "InvalidJobType", "a notebook runs jobs of type RunNotebook");
        }
        return run(ws, id, body);
      }
      ObjectNode job = jobs.get(jobId);
      if (job == null || !job.path("itemId").asText().equals(id)) {
        throw new Problem(404, "ItemNotFound", "No job instance " + jobId);
      }
      synchronized (jobs) {
        if (cancel && Set.of("NotStarted", "InProgress").contains(job.path("status").asText())) {
          job.put("status", "Cancelled");
          job.put("endTimeUtc", now());
        }
        Reply r = ok(cancel ? 202 : 200, cancel ? null : job.deepCopy());
        r.headers().put("Retry-After", "0");
        return r;
      }
    }

    private Reply run(String ws, String id, JsonNode body) {
      notebookRuns.incrementAndGet();
      ObjectNode job = JSON.createObjectNode();
      String jobId = UUID.randomUUID().toString();
      job.put("id", jobId);
      job.put("itemId", id);
      job.put("jobType", "RunNotebook");
      job.put("invokeType", "Manual");
      job.put("status", "NotStarted");
      job.put("startTimeUtc", now());
      job.putNull("endTimeUtc");
      job.putNull("failureReason");
      jobs.put(jobId, job);
      String lakehouse =
          body == null
              ? ""
              : body.path("executionData")
                  .path("configuration")
                  .path("defaultLakehouse")
                  .path("id")
                  .asText("");
      jobRunner.schedule(
          () -> {
            synchronized (jobs) {
              if (!job.path("status").asText().equals("NotStarted")) {
                return;
              }
              job.put("status", "InProgress");
            }
            jobRunner.schedule(
                () -> finishRun(id, job, lakehouse), jobStepMs, TimeUnit.MILLISECONDS);
          },
          jobStepMs,
          TimeUnit.MILLISECONDS);
      Reply r = ok(202, null);
      r.headers()
          .put(
              "Location",
              endpoint() + "/workspaces/" + ws + "/items/" + id + "/jobs/instances/" + jobId);
      r.headers().put("Retry-After", "0");
      return r;
    }

    private void finishRun(String id, ObjectNode job, String lakehouseFromJob) {
      String failure = failNotebookRuns;
      if (failure == null) {
        try {
          ObjectNode item = items.get(id);
          if (item == null) {
            throw new MlvException("ItemNotFound", "the notebook was deleted while it ran");
          }
          register(decode(item.path("parts"), "notebook-content.py"), lakehouseFromJob);
        } catch (RuntimeException e) {
          failure = "NotebookExecutionFailed: " + e.getMessage();
        }
      }
      synchronized (jobs) {
        if (!job.path("status").asText().equals("InProgress")) {
          return; // cancelled meanwhile
        }
        job.put("endTimeUtc", now());
        if (failure == null) {
          job.put("status", "Completed");
        } else {
          job.put("status", "Failed");
          int colon = failure.indexOf(": ");
          ObjectNode f = job.putObject("failureReason");
          f.put("errorCode", colon < 0 ? "Failed" : failure.substring(0, colon));
          f.put("message", colon < 0 ? failure : failure.substring(colon + 2));
          f.put("requestId", UUID.randomUUID().toString());
        }
      }
    }

    private static final Pattern DEFAULT_LAKEHOUSE =
        Pattern.compile("\"default_lakehouse\"\\s*:\\s*\"([0-9a-fA-F-]{36})\"");

    /** What running the notebook does to the catalog: each @fmlv view is registered. */
    private void register(String content, String lakehouseFromJob) {
      String lhId = lakehouseFromJob;
      if (lhId.isBlank()) {
        Matcher m = DEFAULT_LAKEHOUSE.matcher(content);
        lhId = m.find() ? m.group(1) : "";
      }
      if (lhId.isBlank()) {
        throw new MlvException(
            "NoDefaultLakehouse", "spark.read.table needs a default lakehouse; none is attached");
      }
      Lakehouse lh = lakehouses.get(UUID.fromString(lhId));
      if (lh == null) {
        throw new MlvException("LakehouseNotFound", "the default lakehouse " + lhId + " is gone");
      }
      dev.mlv.pyspark.PySparkReader.Result read =
          new dev.mlv.pyspark.PySparkReader(dev.mlv.sql.TableExtractor::new)
              .read(java.nio.file.Path.of("notebook-content.py"), content);
      for (dev.mlv.diag.Diagnostic d : read.diagnostics()) {
        if (d.severity() == dev.mlv.diag.Severity.ERROR) {
          throw new MlvException("PySparkError", d.message());
        }
      }
      Map<String, String> mine = registered.computeIfAbsent(lh.id, k -> new ConcurrentHashMap<>());
      for (SqlStatement st : read.statements()) {
        if (!(st instanceof SqlStatement.CreateView cv) || !cv.definition().isPython()) {
          continue;
        }
        ViewDefinition def = cv.definition();
        String k = key(lh, def.name());
        synchronized (lh) {
          if (lh.mlvs.containsKey(k) && !def.orReplace()) {
            continue; // replace=False keeps the registered definition
          }
          // The catalog-only data plane needs the view's sources, not its Python.
          List<String> reads = new ArrayList<>();
          read.facts().get(def).tables().forEach(t -> reads.add(t.dotted()));
          String sql =
              "CREATE OR REPLACE MATERIALIZED LAKE VIEW "
                  + k
                  + " AS SELECT * FROM "
                  + (reads.isEmpty() ? "(SELECT 1 AS one)" : String.join(", ", reads));
          Map<String, String> views = new LinkedHashMap<>(lh.mlvs);
          lh.data.create(views, k, sql);
          lh.mlvs.put(k, sql);
          mine.put(k, def.fingerprint());
        }
      }
    }
  }

  /** Fabric's rules for an item schedule body; see Create Item Schedule. */
  private ObjectNode validSchedule(Lakehouse lh, JsonNode body, boolean create) {
    if (body == null || !body.isObject() || !body.path("enabled").isBoolean()) {
      throw new Problem(400, "InvalidRequest", "enabled (a boolean) is required");
    }
    JsonNode c = body.path("configuration");
    String type = c.path("type").asText("");
    if (!Set.of("Cron", "Daily", "Weekly", "Monthly").contains(type)) {
      throw new Problem(
          400, "InvalidRequest", "configuration.type must be Cron|Daily|Weekly|Monthly");
    }
    for (String f : List.of("startDateTime", "endDateTime")) {
      if (!DATE_TIME.matcher(c.path(f).asText("")).matches()) {
        throw new Problem(
            400, "InvalidRequest", "configuration." + f + " is required as yyyy-MM-ddTHH:mm:ss");
      }
    }
    if (c.path("endDateTime").asText().compareTo(c.path("startDateTime").asText()) <= 0) {
      throw new Problem(400, "InvalidRequest", "endDateTime must be after startDateTime");
    }
    if (c.path("localTimeZoneId").asText("").isBlank()) {
      throw new Problem(400, "InvalidRequest", "configuration.localTimeZoneId is required");
    }
    if (type.equals("Cron")) {
      int interval = c.path("interval").asInt(0);
      // Learn: materialized lake view schedules have a five-minute minimum interval.
      if (interval < 5 || interval > 5270400) {
        throw new Problem(400, "InvalidRequest", "interval must be from 5 to 5270400 minutes");
      }
    } else {
      JsonNode times = c.path("times");
      if (times.size() == 0 || times.size() > 100) {
        throw new Problem(400, "InvalidRequest", "times must list 1 to 100 slots");
      }
      for (JsonNode t : times) {
        if (!HH_MM.matcher(t.asText()).matches()) {
          throw new Problem(400, "InvalidRequest", "times must be hh:mm, not " + t);
        }
      }
    }
    if (type.equals("Weekly")) {
      JsonNode days = c.path("weekdays");
      if (days.size() == 0 || days.size() > 7) {
        throw new Problem(400, "InvalidRequest", "weekdays must list 1 to 7 days");
      }
    }
    if (type.equals("Monthly")) {
      int every = c.path("recurrence").asInt(0);
      String occurrence = c.path("occurrence").path("occurrenceType").asText("");
      if (every < 1 || every > 12 || !Set.of("DayOfMonth", "OrdinalWeekday").contains(occurrence)) {
        throw new Problem(
            400, "InvalidRequest", "a Monthly schedule needs recurrence and occurrence");
      }
    }
    String defId = body.path("executionData").path("mlvExecutionDefinitionId").asText(null);
    if (defId != null && !lh.definitions.containsKey(defId)) {
      throw new Problem(400, "InvalidRequest", "no MLV execution definition " + defId);
    }
    return ((ObjectNode) body).deepCopy();
  }

  /** A schedule made in the Fabric UI: no execution data, so it refreshes the whole lakehouse. */
  String addUiSchedule(UUID lakehouse) {
    Lakehouse lh = lakehouses.get(lakehouse);
    ObjectNode s = JSON.createObjectNode();
    String id = UUID.randomUUID().toString();
    s.put("id", id);
    s.put("enabled", true);
    ObjectNode c = s.putObject("configuration");
    c.put("type", "Daily");
    c.putArray("times").add("06:00");
    c.put("startDateTime", "2026-01-01T00:00:00");
    c.put("endDateTime", "2030-01-01T00:00:00");
    c.put("localTimeZoneId", "UTC");
    lh.schedules.put(id, s);
    return id;
  }

  // ---- jobs ----

  private Reply runJob(Lakehouse lh, JsonNode body) {
    String defId =
        body == null
            ? null
            : body.path("executionData").path("mlvExecutionDefinitionId").asText(null);
    ObjectNode def = null;
    if (defId != null) {
      def = lh.definitions.get(defId);
      if (def == null) {
        throw new Problem(400, "InvalidRequest", "no execution definition " + defId);
      }
    }
    jobsSubmitted.incrementAndGet();
    if (def != null) {
      jobDefinitions.add(def.deepCopy());
    }
    ObjectNode job = JSON.createObjectNode();
    String id = UUID.randomUUID().toString();
    job.put("id", id);
    job.put("itemId", lh.id.toString());
    job.put("jobType", "RefreshMaterializedLakeViews");
    job.put("invokeType", "Manual");
    job.put("rootActivityId", UUID.randomUUID().toString());
    job.put("startTimeUtc", now());
    job.putNull("endTimeUtc");
    job.putNull("failureReason");
    boolean busy;
    synchronized (lh.jobs) {
      busy =
          lh.jobs.values().stream()
              .anyMatch(
                  j -> Set.of("NotStarted", "InProgress").contains(j.path("status").asText()));
      job.put("status", busy ? skippedStatus : "NotStarted");
      if (busy) {
        job.put("endTimeUtc", now());
      }
      lh.jobs.put(id, job);
    }
    if (!busy) {
      ObjectNode d = def;
      jobRunner.schedule(() -> progress(lh, job, d), jobStepMs, TimeUnit.MILLISECONDS);
    }
    Reply r = ok(202, null);
    r.headers()
        .put(
            "Location",
            endpoint()
                + "/workspaces/"
                + lh.workspaceId
                + "/items/"
                + lh.id
                + "/jobs/instances/"
                + id);
    r.headers().put("Retry-After", "0");
    return r;
  }

  private void progress(Lakehouse lh, ObjectNode job, ObjectNode def) {
    synchronized (lh.jobs) {
      if (!job.path("status").asText().equals("NotStarted")) {
        return;
      }
      job.put("status", "InProgress");
    }
    jobRunner.schedule(() -> finish(lh, job, def), jobStepMs, TimeUnit.MILLISECONDS);
  }

  private void finish(Lakehouse lh, ObjectNode job, ObjectNode def) {
    if (holdJobs) {
      jobRunner.schedule(() -> finish(lh, job, def), jobStepMs, TimeUnit.MILLISECONDS);
      return;
    }
    if (throttleJobs.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      synchronized (lh.jobs) {
        job.put("endTimeUtc", now());
        job.put("status", "Failed");
        ObjectNode f = job.putObject("failureReason");
        f.put("errorCode", "MLV_SPARK_JOB_CAPACITY_THROTTLING");
        f.put("message", "The capacity is throttled; Spark could not start the refresh");
        f.put("requestId", UUID.randomUUID().toString());
      }
      return;
    }
    DataPlane.Refreshed done;
    try {
      synchronized (lh) {
        Map<String, String> views = new LinkedHashMap<>(lh.mlvs);
        List<String> keys = new ArrayList<>();
        JsonNode ctx = def == null ? null : def.path("currentLakehouseExecutionContext");
        if (ctx == null || ctx.path("mode").asText().equals("All")) {
          keys.addAll(order(views, views.keySet()));
        } else {
          List<String> selected = new ArrayList<>();
          ctx.path("selectedMlvs").forEach(m -> selected.add(m.asText().toLowerCase(Locale.ROOT)));
          keys.addAll(order(views, selected));
        }
        boolean full =
            def != null && def.path("settings").path("refreshMode").asText().equals("Full");
        done = lh.data.refresh(views, keys, full);
      }
    } catch (RuntimeException e) {
      done = new DataPlane.Refreshed("?", String.valueOf(e.getMessage()));
    }
    synchronized (lh.jobs) {
      if (!job.path("status").asText().equals("InProgress")) {
        return; // cancelled meanwhile
      }
      job.put("endTimeUtc", now());
      if (done.ok()) {
        job.put("status", "Completed");
      } else {
        job.put("status", "Failed");
        ObjectNode f = job.putObject("failureReason");
        f.put("errorCode", "MLV_REFRESH_FAILED");
        f.put("message", done.failedView() + ": " + done.failure().lines().findFirst().orElse(""));
        f.put("requestId", UUID.randomUUID().toString());
      }
    }
  }

  /** Keys in dependency order: a view after every view of the lakehouse it reads. */
  private static List<String> order(Map<String, String> views, java.util.Collection<String> keys) {
    List<String> out = new ArrayList<>();
    java.util.Set<String> wanted = new java.util.LinkedHashSet<>(keys);
    Function<String, List<String>> ups =
        k -> {
          List<String> u = new ArrayList<>();
          String text = views.get(k).toLowerCase(Locale.ROOT);
          for (String other : views.keySet()) {
            if (!other.equals(k) && text.contains(other)) {
              u.add(other);
            }
          }
          return u;
        };
    java.util.Set<String> done = new java.util.HashSet<>();
    for (int pass = 0; pass < views.size() + 1 && done.size() < wanted.size(); pass++) {
      for (String k : wanted) {
        if (!done.contains(k)
            && ups.apply(k).stream().filter(wanted::contains).allMatch(done::contains)) {
          out.add(k);
          done.add(k);
        }
      }
    }
    return out;
  }

  private Reply instances(String method, Lakehouse lh, String id, boolean cancel) {
    if (id == null) {
      ObjectNode r = JSON.createObjectNode();
      ArrayNode value = r.putArray("value");
      synchronized (lh.jobs) {
        lh.jobs.values().forEach(j -> value.add(j.deepCopy()));
      }
      return ok(200, r);
    }
    ObjectNode job = lh.jobs.get(id);
    if (job == null) {
      throw new Problem(404, "ItemNotFound", "No job instance " + id);
    }
    if (cancel && method.equals("POST")) {
      synchronized (lh.jobs) {
        if (Set.of("NotStarted", "InProgress").contains(job.path("status").asText())) {
          job.put("status", "Cancelled");
          job.put("endTimeUtc", now());
        }
      }
      Reply r = ok(202, null);
      r.headers()
          .put(
              "Location",
              endpoint()
                  + "/workspaces/"
                  + lh.workspaceId
                  + "/items/"
                  + lh.id
                  + "/jobs/instances/"
                  + id);
      return r;
    }
    synchronized (lh.jobs) {
      ObjectNode shown = job.deepCopy();
      if (jobStatusMissing) {
        shown.remove("status");
      }
      Reply r = ok(200, shown);
      r.headers().put("Retry-After", jobPollRetryAfter);
      return r;
    }
  }

  /** Job times as Fabric writes them: UTC, without a zone suffix. */
  private static String now() {
    return LocalDateTime.now(ZoneOffset.UTC).toString();
  }
}
