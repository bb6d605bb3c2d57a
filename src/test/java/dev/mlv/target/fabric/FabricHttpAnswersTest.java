package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.mlv.diag.MlvException;
import dev.mlv.project.AuthConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Answers the simulator never gives but a real network can: a long-running operation that never
 * ends or ends Undefined, a success whose body is not JSON, a create without an id. Each must be
 * one clear error, never a hang or a NullPointerException.
 */
@org.junit.jupiter.api.Timeout(60) // the bug these tests guard against was an endless poll
class FabricHttpAnswersTest {
  static final java.util.UUID WS =
      java.util.UUID.fromString("11111111-2222-3333-4444-555555555555");
  static final java.util.UUID LH =
      java.util.UUID.fromString("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee");

  HttpServer server;
  FabricHttp http;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    answer("/v1/undefined", 202, "", "op-undefined");
    answer("/v1/running", 202, "", "op-running");
    answer("/v1/operations/op-undefined", 200, "{\"status\":\"Undefined\"}", null);
    answer("/v1/operations/op-running", 200, "{\"status\":\"Running\"}", null);
    answer("/v1/html", 200, "<html><body>Gateway says hello</body></html>", null);
    answer("/v1/noid", 201, "{\"displayName\":\"x\"}", null);
    answer("/v1/forbidden", 403, "<html>Forbidden</html>", null);
    answer(
        "/v1/workspaces/" + WS + "/items/" + LH + "/jobs/instances",
        200,
        "{\"value\":[null,{\"id\":null}]}",
        null);
    java.util.concurrent.atomic.AtomicInteger capacityCalls =
        new java.util.concurrent.atomic.AtomicInteger();
    server.createContext(
        "/v1/busy-capacity",
        exchange -> {
          boolean first = capacityCalls.getAndIncrement() == 0;
          byte[] bytes =
              (first
                      ? "{\"errorCode\":\"TooManyRequestsForCapacity\",\"message\":\"[TooManyRequestsForCapacity]"
                          + " This spark job can't be run because you have hit a spark compute or"
                          + " API rate limit.\",\"isRetriable\":false}"
                      : "{\"id\":\"s1\"}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(first ? 430 : 200, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
    RetryPolicy shortOperations =
        new RetryPolicy(
            Duration.ofMillis(1),
            Duration.ofMillis(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofMillis(5),
            Duration.ofMillis(20),
            Duration.ofMillis(300),
            Duration.ofSeconds(5));
    http =
        new FabricHttp(
            URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1"),
            true,
            TokenSource.of(new AuthConfig.TokenFromEnv("T"), Map.of("T", "token")),
            shortOperations);
  }

  private void answer(String path, int status, String body, String operationId) {
    server.createContext(
        path,
        exchange -> {
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          if (operationId != null) {
            exchange.getResponseHeaders().add("x-ms-operation-id", operationId);
          }
          exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
          if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
          }
          exchange.close();
        });
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void capacityThrottlingByHttp430IsRetriedLikeA429() {
    org.assertj.core.api.Assertions.assertThat(
            http.post("/busy-capacity", null, "starting a Livy session").body().path("id").asText())
        .isEqualTo("s1");
  }

  /** Found by QA: such a list was shown by 'mlv runs' as two Running runs of 1970. */
  @Test
  void aListedJobWithoutIdOrStatusIsABrokenAnswerNotARun() {
    assertThatThrownBy(() -> new JobClient(http, WS, LH).instances())
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("FABRIC_RESPONSE")
        .hasMessageContaining("listing refresh jobs failed: Fabric's answer has no 'id'");
  }

  @Test
  void anOperationThatEndsUndefinedIsAnError() {
    assertThatThrownBy(() -> http.post("/undefined", null, "creating X"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("FABRIC_OPERATION")
        .hasMessageContaining(
            "creating X: Fabric's operation op-undefined ended in state Undefined");
  }

  @Test
  void anOperationThatNeverEndsIsGivenUpWithinTheTimeLimit() {
    assertThatThrownBy(() -> http.post("/running", null, "creating Y"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("FABRIC_OPERATION_TIMEOUT")
        .hasMessageContaining("op-running did not end within");
  }

  @Test
  void aSuccessWhoseBodyIsNotJsonIsAnErrorNamingTheCall() {
    assertThatThrownBy(() -> http.get("/html", "listing jobs"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("FABRIC_RESPONSE")
        .hasMessageContaining(
            "listing jobs failed: Fabric answered HTTP 200 with a body that is not JSON"
                + " (<html><body>Gateway says hello</body></html>)");
  }

  @Test
  void aCreateWhoseAnswerHasNoIdIsAnError() {
    assertThatThrownBy(
            () ->
                FabricHttp.required(
                    http.post("/noid", null, "creating Z").body(), "id", "creating Z"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("creating Z failed: Fabric's answer has no 'id'");
  }

  @Test
  void anErrorWithoutFabricsDetailsSaysWhatItsStatusMeans() {
    assertThatThrownBy(() -> http.get("/forbidden", "listing schemas"))
        .isInstanceOf(FabricApiException.class)
        .hasMessageContaining(
            "HTTP_403: the identity may not do this; it needs the workspace role Contributor")
        .hasMessageNotContaining("HTTP 403 (HTTP 403)");
  }
}
