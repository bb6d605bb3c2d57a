package dev.mlv.target.fabric;

import dev.mlv.diag.MlvException;

/**
 * A Fabric call that failed for good: it carries the service's error code and request id, never the
 * request's headers or body, so it cannot leak a token.
 */
final class FabricApiException extends MlvException {
  private final transient FabricError error;

  FabricApiException(String what, FabricError error) {
    super("FABRIC_" + error.errorCode(), what + " failed: " + error.describe());
    this.error = error;
  }

  FabricError error() {
    return error;
  }

  int status() {
    return error.status();
  }
}
