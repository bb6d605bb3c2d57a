package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.mlv.diag.MlvException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Every call to the Fabric REST API goes through here: the bearer token, bounded retries of
 * transient failures (429 with {@code Retry-After}, 5xx, capacity throttling, dropped connections)
 * with exponential backoff and jitter up to a deadline, one new token after a 401, and long-running
 * operations followed to their result. A failure that stays is a {@link FabricApiException} with
 * Fabric's error code and request id.
 */
final class FabricHttp {
  /**
   * Decimals read as BigDecimal, trailing zeros kept: a DECIMAL(38,18) in a Livy result is exact.
   */
  static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .configure(
              com.fasterxml.jackson.databind.cfg.JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES,
              false);

  /** A successful response: status, the headers we use, and the JSON body (null when empty). */
  record Response(
      int status,
      JsonNode body,
      Optional<String> location,
      Optional<Duration> retryAfter,
      Optional<String> operationId) {}

  private final URI base;
  private final TokenSource tokens;
  private final RetryPolicy policy;
  private final HttpClient client;
  private final Random random = new Random();

  FabricHttp(URI base, boolean allowEndpoint, TokenSource tokens, RetryPolicy policy) {
    Endpoints.checkBase(base, allowEndpoint);
    String b = base.toString();
    this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
    this.tokens = tokens;
    this.policy = policy;
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(policy.requestTimeout())
            // Redirects would carry the token to wherever they point: never follow them blindly.
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  RetryPolicy policy() {
    return policy;
  }

  URI url(String path) {
    return URI.create(base + path);
  }

  JsonNode get(String path, String what) {
    return send("GET", url(path), null, what, true, null).body();
  }

  /**
   * Every element of a paged Fabric list: {@code value}, page after page while the answer holds a
   * {@code continuationToken}.
   */
  List<JsonNode> list(String path, String what) {
    List<JsonNode> out = new ArrayList<>();
    String next = path;
    for (int page = 0; page < 1000 && next != null; page++) {
      JsonNode r = get(next, what);
      r.path("value").forEach(out::add);
      String token = r.path("continuationToken").asText(null);
      next =
          token == null || token.isBlank()
              ? null
              : path
                  + (path.contains("?") ? "&" : "?")
                  + "continuationToken="
                  + java.net.URLEncoder.encode(token, java.nio.charset.StandardCharsets.UTF_8);
    }
    return out;
  }

  Response post(String path, JsonNode body, String what) {
    return send("POST", url(path), body, what, false, null);
  }

  /**
   * Sends one request, retrying what may be retried. A request that is not {@code idempotent} and
   * lost its connection is first checked with {@code reconcile}: when the service did receive it,
   * the resource found is the answer and nothing is sent twice.
   */
  Response send(
      String method,
      URI uri,
      JsonNode body,
      String what,
      boolean idempotent,
      Supplier<Optional<Response>> reconcile) {
    Endpoints.checkFollowed(base, uri);
    Instant deadline = Instant.now().plus(policy.retryBudget());
    int attempt = 0;
    boolean renewed = false;
    while (true) {
      String token = tokens.token();
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .timeout(policy.requestTimeout())
              .header("Authorization", "Bearer " + token)
              .header("Accept", "application/json");
      if (body != null) {
        b.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
      } else {
        b.method(method, HttpRequest.BodyPublishers.noBody());
      }
      HttpResponse<String> r;
      try {
        r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      } catch (IOException e) {
        if (!idempotent && reconcile != null) {
          Optional<Response> found = reconcile.get();
          if (found.isPresent()) {
            return found.get();
          }
        }
        String cause = e.getClass().getSimpleName();
        pause(
            policy.backoff(attempt++, random),
            deadline,
            what,
            "the connection failed (" + cause + ")");
        continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MlvException("INTERRUPTED", what + " was interrupted");
      }
      int status = r.statusCode();
      if (status < 400) {
        Response ok = response(r, what);
        if (status == 202 && ok.operationId().isPresent()) {
          return followOperation(ok, what);
        }
        return ok;
      }
      FabricError error =
          FabricError.of(status, parse(r.body()), r.headers().firstValue("RequestId").orElse(null));
      if (status == 401 && !renewed) {
        tokens.invalidate(token);
        renewed = true;
        continue;
      }
      if (error.transientFailure()) {
        Duration wait = retryAfter(r).orElseGet(() -> policy.backoff(0, random));
        wait = status == 429 ? wait : max(wait, policy.backoff(attempt, random));
        attempt++;
        pause(wait, deadline, what, error.describe());
        continue;
      }
      throw new FabricApiException(what, error);
    }
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** Waits before the next attempt, or gives up when the wait would pass the deadline. */
  private void pause(Duration wait, Instant deadline, String what, String lastError) {
    if (Instant.now().plus(wait).isAfter(deadline)) {
      throw new MlvException(
          "FABRIC_UNAVAILABLE",
          what
              + " kept failing for its retry budget of "
              + RetryPolicy.describe(policy.retryBudget())
              + " (retry_budget on the target in mlv.yml): "
              + lastError);
    }
    sleep(wait, what);
  }

  static void sleep(Duration d, String what) {
    try {
      Thread.sleep(Math.max(0, d.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MlvException("INTERRUPTED", what + " was interrupted");
    }
  }

  /** Polls {@code /operations/{id}} until the operation ends; its result when it has one. */
  private Response followOperation(Response accepted, String what) {
    String id = accepted.operationId().orElseThrow();
    Duration wait = accepted.retryAfter().orElse(policy.pollInitial());
    Instant deadline = Instant.now().plus(policy.statementTimeout());
    while (true) {
      if (Instant.now().plus(wait).isAfter(deadline)) {
        throw new MlvException(
            "FABRIC_OPERATION_TIMEOUT",
            what
                + ": Fabric's operation "
                + id
                + " did not end within "
                + RetryPolicy.describe(policy.statementTimeout())
                + " (statement_timeout on the target in mlv.yml); check the item in the"
                + " workspace before running the command again");
      }
      sleep(wait, what);
      Response r = send("GET", url("/operations/" + id), null, what, true, null);
      String status = r.body().path("status").asText();
      switch (status) {
        case "Undefined" ->
            // Fabric's documented end state for an operation whose outcome it lost.
            throw new MlvException(
                "FABRIC_OPERATION",
                what
                    + ": Fabric's operation "
                    + id
                    + " ended in state Undefined (neither succeeded nor failed); check the item"
                    + " in the workspace before running the command again");
        case "Succeeded" -> {
          if (r.location().isPresent()) {
            return send("GET", URI.create(r.location().get()), null, what, true, null);
          }
          return r;
        }
        case "Failed" -> {
          JsonNode e = r.body().path("error");
          throw new FabricApiException(
              what, FabricError.of(400, e.isMissingNode() ? r.body() : e, null));
        }
        default -> wait = r.retryAfter().orElse(policy.nextPoll(wait));
      }
    }
  }

  private static Response response(HttpResponse<String> r, String what) {
    JsonNode body = parse(r.body());
    if (body == null && r.body() != null && !r.body().isBlank()) {
      String start = r.body().strip().lines().findFirst().orElse("");
      throw new MlvException(
          "FABRIC_RESPONSE",
          what
              + " failed: Fabric answered HTTP "
              + r.statusCode()
              + " with a body that is not JSON ("
              + (start.length() > 80 ? start.substring(0, 80) + "..." : start)
              + "); a proxy or gateway between mlv and Fabric may have answered instead"
              + r.headers().firstValue("RequestId").map(id -> ", request id " + id).orElse(""));
    }
    return new Response(
        r.statusCode(),
        body == null ? MissingNode.getInstance() : body,
        r.headers().firstValue("Location"),
        retryAfter(r),
        r.headers().firstValue("x-ms-operation-id"));
  }

  static Optional<Duration> retryAfter(HttpResponse<?> r) {
    return r.headers()
        .firstValue("Retry-After")
        .flatMap(
            v -> {
              try {
                return Optional.of(
                    Duration.ofMillis((long) (Double.parseDouble(v.strip()) * 1000)));
              } catch (NumberFormatException e) {
                return Optional.empty();
              }
            });
  }

  /** A field an answer must carry (the id of what was created); its absence is Fabric's fault. */
  static String required(JsonNode body, String field, String what) {
    String value = body.path(field).asText("");
    if (value.isBlank()) {
      throw new MlvException(
          "FABRIC_RESPONSE",
          what + " failed: Fabric's answer has no '" + field + "': " + abbreviate(body.toString()));
    }
    return value;
  }

  private static String abbreviate(String text) {
    return text.length() > 120 ? text.substring(0, 120) + "..." : text;
  }

  static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      return null;
    }
  }
}
