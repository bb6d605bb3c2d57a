package dev.mlv.project;

import java.net.URI;
import java.util.UUID;

/**
 * A Fabric lakehouse reached through the REST API at {@code endpoint}; {@code allowEndpoint}
 * records that the user opted into a host other than the Fabric API (e.g. a test simulator).
 */
public record FabricTarget(
    String name,
    UUID workspaceId,
    UUID lakehouseId,
    URI endpoint,
    boolean allowEndpoint,
    AuthConfig auth)
    implements TargetConfig {

  public static final URI DEFAULT_ENDPOINT = URI.create("https://api.fabric.microsoft.com/v1");
}
