package dev.mlv.target.fabric;

import dev.mlv.diag.MlvException;
import dev.mlv.project.FabricTarget;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Decides which hosts may receive a bearer token: HTTPS on Fabric's own hosts, or the one endpoint
 * a project explicitly allowed (plain HTTP only on the loopback interface, for a local simulator).
 */
public final class Endpoints {
  public static final List<String> FABRIC_HOST_SUFFIXES = FabricTarget.FABRIC_HOST_SUFFIXES;

  private Endpoints() {}

  public static boolean isFabricHost(String host) {
    return FabricTarget.isFabricHost(host);
  }

  public static boolean isLoopback(String host) {
    return FabricTarget.isLoopback(host);
  }

  /**
   * Refuses a base endpoint that must not get tokens. {@code allowed} is the project's explicit
   * {@code allow_endpoint: true}.
   */
  static void checkBase(URI base, boolean allowed) {
    String scheme = base.getScheme() == null ? "" : base.getScheme().toLowerCase(Locale.ROOT);
    String host = base.getHost();
    if (scheme.equals("https") && isFabricHost(host)) {
      return;
    }
    if (allowed && scheme.equals("https") && host != null) {
      return;
    }
    if (allowed && scheme.equals("http") && isLoopback(host)) {
      return;
    }
    throw new MlvException(
        "FABRIC_ENDPOINT",
        "refusing to send a token to "
            + scheme
            + "://"
            + host
            + ": the endpoint must be HTTPS on a Fabric host ("
            + String.join(", ", FABRIC_HOST_SUFFIXES.stream().map(s -> "*" + s).toList())
            + "), or explicitly allowed with allow_endpoint: true (plain HTTP only on loopback)");
  }

  /**
   * A URL the service handed back (a {@code Location} header) gets the token only when it is on the
   * base endpoint's host or on a Fabric host over HTTPS.
   */
  static void checkFollowed(URI base, URI next) {
    boolean sameOrigin =
        next.getHost() != null
            && next.getHost().equalsIgnoreCase(base.getHost())
            && next.getPort() == base.getPort()
            && String.valueOf(next.getScheme()).equalsIgnoreCase(base.getScheme());
    boolean fabric = "https".equalsIgnoreCase(next.getScheme()) && isFabricHost(next.getHost());
    if (!sameOrigin && !fabric) {
      throw new MlvException(
          "FABRIC_ENDPOINT",
          "the service pointed to "
              + next.getScheme()
              + "://"
              + next.getHost()
              + ", which is not a Fabric host; refusing to send it a token");
    }
  }
}
