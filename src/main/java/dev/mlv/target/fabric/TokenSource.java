package dev.mlv.target.fabric;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.identity.AzureCliCredentialBuilder;
import com.azure.identity.ClientSecretCredentialBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import dev.mlv.diag.MlvException;
import dev.mlv.project.AuthConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The one bearer token of a Fabric target: fetched when first needed, shared by every thread,
 * fetched again shortly before it expires or when the service rejects it. The token is never
 * returned by {@link #toString()} nor put in an exception.
 */
public final class TokenSource {
  public static final String SCOPE = "https://api.fabric.microsoft.com/.default";

  /** Renew this long before expiry, so a call never starts with a token about to lapse. */
  static final Duration EARLY = Duration.ofMinutes(5);

  /** A token and when it stops working. */
  record Issued(String value, Instant expiresAt) {
    @Override
    public String toString() {
      return "Issued[****, expiresAt=" + expiresAt + "]";
    }
  }

  private final String mode;
  private final Supplier<Issued> fetch;
  private final Clock clock;
  private Issued current;
  private int fetches;

  TokenSource(String mode, Supplier<Issued> fetch, Clock clock) {
    this.mode = mode;
    this.fetch = fetch;
    this.clock = clock;
  }

  /** The token source for an {@code auth:} block; {@code env} supplies {@code token} mode. */
  public static TokenSource of(AuthConfig auth, Map<String, String> env) {
    Clock clock = Clock.systemUTC();
    if (auth instanceof AuthConfig.TokenFromEnv t) {
      return new TokenSource(
          auth.mode(),
          () -> {
            String v = env.get(t.envName());
            if (v == null || v.isBlank()) {
              throw new MlvException(
                  "FABRIC_AUTH",
                  "auth mode 'token' reads the bearer token from the environment variable "
                      + t.envName()
                      + (v == null ? ", which is not set" : ", which is empty"));
            }
            // The variable holds no expiry; a rejected token is read again once, then fails.
            return new Issued(v.strip(), Instant.MAX);
          },
          clock);
    }
    TokenCredential credential = credential(auth);
    return new TokenSource(auth.mode(), () -> azure(credential, auth), clock);
  }

  private static TokenCredential credential(AuthConfig auth) {
    if (auth instanceof AuthConfig.ServicePrincipal s) {
      return new ClientSecretCredentialBuilder()
          .tenantId(s.tenantId())
          .clientId(s.clientId())
          .clientSecret(s.clientSecret().reveal())
          .build();
    }
    if (auth instanceof AuthConfig.AzureCli) {
      return new AzureCliCredentialBuilder().build();
    }
    return new DefaultAzureCredentialBuilder().build();
  }

  private static Issued azure(TokenCredential credential, AuthConfig auth) {
    try {
      AccessToken t = credential.getTokenSync(new TokenRequestContext().addScopes(SCOPE));
      return new Issued(t.getToken(), t.getExpiresAt().toInstant());
    } catch (RuntimeException e) {
      throw new MlvException(
          "FABRIC_AUTH",
          "could not get a Fabric token with auth mode '" + auth.mode() + "': " + reason(e, auth));
    }
  }

  /**
   * Why sign-in failed, in a sentence: the network when the sign-in service could not be reached,
   * else the identity library's own advice (its first lines; the rest is a stack of causes),
   * without the wrapping exceptions' class names.
   */
  static String reason(Throwable e, AuthConfig auth) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof java.net.ConnectException
          || c instanceof java.net.UnknownHostException
          || c instanceof java.net.http.HttpTimeoutException
          || c instanceof java.net.SocketTimeoutException) {
        return "the Microsoft Entra sign-in service could not be reached ("
            + c.getClass().getSimpleName()
            + (c.getMessage() == null ? "" : ": " + c.getMessage())
            + "); check the network, a proxy (HTTPS_PROXY) and the tenant";
      }
    }
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    m = m.replaceAll("(?:[a-z][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): ", "");
    // A secret short enough to occur by chance in any text is not searched for: masking every
    // 's' garbles the message and tells what the secret is.
    if (auth instanceof AuthConfig.ServicePrincipal s
        && s.clientSecret().isSet()
        && s.clientSecret().reveal().length() >= 8) {
      m = m.replace(s.clientSecret().reveal(), "****");
    }
    return String.join(" ", m.lines().limit(3).toList());
  }

  /** A token valid for at least a few more minutes. */
  public synchronized String token() {
    Instant now = clock.instant();
    if (current == null
        || (!current.expiresAt().equals(Instant.MAX)
            && now.isAfter(current.expiresAt().minus(EARLY)))) {
      current = fetch.get();
      fetches++;
    }
    return current.value();
  }

  /** The service refused {@code rejected}: the next call fetches a new one. */
  public synchronized void invalidate(String rejected) {
    if (current != null && current.value().equals(rejected)) {
      current = null;
    }
  }

  synchronized int fetches() {
    return fetches;
  }

  String mode() {
    return mode;
  }

  @Override
  public String toString() {
    return "TokenSource[" + mode + "]";
  }
}
