package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * Fabric's {@code ErrorResponse}: a stable {@code errorCode}, a message, the {@code requestId}
 * support asks for, and whether the service says a retry may succeed.
 */
record FabricError(
    int status, String errorCode, String message, String requestId, Optional<Boolean> retriable) {

  /** Reads the error body; a body that is not an ErrorResponse still gives the HTTP status. */
  static FabricError of(int status, JsonNode body, String requestIdHeader) {
    // Some endpoints wrap it as {"error": {...}} (Livy, Entra), Fabric's own as the root object.
    JsonNode e =
        body != null && body.has("error") && body.get("error").isObject()
            ? body.get("error")
            : body;
    String code = text(e, "errorCode").or(() -> text(e, "code")).orElse("HTTP_" + status);
    String message = text(e, "message").orElse(withoutDetails(status));
    String requestId = text(e, "requestId").orElse(requestIdHeader == null ? "" : requestIdHeader);
    Optional<Boolean> retriable =
        e != null && e.has("isRetriable")
            ? Optional.of(e.get("isRetriable").asBoolean())
            : Optional.empty();
    return new FabricError(status, code, message, requestId, retriable);
  }

  /** What a status says when the answer carries no Fabric error (a gateway's page, say). */
  private static String withoutDetails(int status) {
    String meaning =
        switch (status) {
          case 401 -> "the token was refused (expired, or issued for another audience)";
          case 403 ->
              "the identity may not do this; it needs the workspace role Contributor or higher"
                  + " (docs/fabric.md, Permissions)";
          case 404 -> "not found; check the target's workspaceId and lakehouseId";
          default -> "the answer carried no error details";
        };
    return meaning;
  }

  private static Optional<String> text(JsonNode n, String field) {
    if (n == null || !n.hasNonNull(field)) {
      return Optional.empty();
    }
    String s = n.get(field).asText();
    return s.isBlank() ? Optional.empty() : Optional.of(s);
  }

  /** Capacity throttling of the Spark job: Fabric asks to come back later, as with 429. */
  static final String CAPACITY_THROTTLING = "MLV_SPARK_JOB_CAPACITY_THROTTLING";

  /** Fabric Spark's documented code (HTTP 430) when a lakehouse job hits the capacity's limit. */
  static final String TOO_MANY_FOR_CAPACITY = "TooManyRequestsForCapacity";

  /**
   * Capacity throttling codes a job instance can fail with: the Spark job was refused for lack of
   * capacity, not for anything in the views, so the same job may run later.
   */
  static boolean throttling(String code) {
    return code.equals(CAPACITY_THROTTLING) || code.equals(TOO_MANY_FOR_CAPACITY);
  }

  boolean transientFailure() {
    // Capacity contention passes whatever isRetriable says: Spark's documented answer to a
    // submission past the capacity's queue limit is HTTP 430 TooManyRequestsForCapacity.
    if (status == 430 || throttling(errorCode)) {
      return true;
    }
    if (retriable.isPresent()) {
      return retriable.get();
    }
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
  }

  String describe() {
    return errorCode
        + ": "
        + message
        + " (HTTP "
        + status
        + (requestId.isEmpty() ? "" : ", request id " + requestId)
        + ")";
  }
}
