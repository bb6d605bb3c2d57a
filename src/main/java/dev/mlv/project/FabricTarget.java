package dev.mlv.project;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * A Fabric lakehouse reached through the REST API at {@code endpoint}; {@code allowEndpoint}
 * records that the user opted into a host other than the Fabric API (e.g. a test simulator). {@code
 * retryBudget} and {@code statementTimeout}, when set in mlv.yml, replace the built-in time limits
 * of retries and of one Spark statement or operation.
 */
public record FabricTarget(
    String name,
    UUID workspaceId,
    UUID lakehouseId,
    URI endpoint,
    boolean allowEndpoint,
    AuthConfig auth,
    Optional<Duration> retryBudget,
    Optional<Duration> statementTimeout)
    implements TargetConfig {

  public FabricTarget(
      String name,
      UUID workspaceId,
      UUID lakehouseId,
      URI endpoint,
      boolean allowEndpoint,
      AuthConfig auth) {
    this(
        name,
        workspaceId,
        lakehouseId,
        endpoint,
        allowEndpoint,
        auth,
        Optional.empty(),
        Optional.empty());
  }

  public static final URI DEFAULT_ENDPOINT = URI.create("https://api.fabric.microsoft.com/v1");

  /** Host suffixes of the Fabric REST API and the Spark endpoints it hands out. */
  public static final java.util.List<String> FABRIC_HOST_SUFFIXES =
      java.util.List.of(
          ".fabric.microsoft.com", ".pbidedicated.windows.net", ".analysis.windows.net");

  public static boolean isFabricHost(String host) {
    String h = host == null ? "" : host.toLowerCase(java.util.Locale.ROOT);
    return FABRIC_HOST_SUFFIXES.stream().anyMatch(s -> h.endsWith(s) && h.length() > s.length());
  }

  /** A literal loopback address or {@code localhost}; names that merely resolve there are not. */
  public static boolean isLoopback(String host) {
    if (host == null) {
      return false;
    }
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!h.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false;
    }
    try {
      return java.net.InetAddress.getByName(h).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }
}
