package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.MlvException;
import dev.mlv.project.AuthConfig;
import dev.mlv.project.Secret;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The one sentence a failed sign-in is reported with. */
class TokenSourceReasonTest {
  private static AuthConfig spn(String secret) {
    return new AuthConfig.ServicePrincipal("t", "c", new Secret("FABRIC_CLIENT_SECRET", secret));
  }

  @Test
  void anUnreachableSignInServiceIsSaidToBeTheNetwork() {
    RuntimeException e =
        new RuntimeException(
            "java.util.concurrent.ExecutionException: com.microsoft.aad.msal4j"
                + ".MsalClientException: java.io.UncheckedIOException: java.net.ConnectException",
            new ExecutionException(
                new UncheckedIOException(new java.io.IOException(new ConnectException()))));
    assertThat(TokenSource.reason(e, spn("s")))
        .isEqualTo(
            "the Microsoft Entra sign-in service could not be reached (ConnectException); check"
                + " the network, a proxy (HTTPS_PROXY) and the tenant");
  }

  @Test
  void theServicesAdviceIsKeptWithoutTheWrappersClassNamesAndTheSecretIsMasked() {
    String secret = "abcDEF123456~secret";
    RuntimeException e =
        new RuntimeException(
            "java.util.concurrent.ExecutionException: com.microsoft.aad.msal4j"
                + ".MsalServiceException: AADSTS7000215: Invalid client secret provided ("
                + secret
                + ").\nTrace ID: 1\nCorrelation ID: 2\nTimestamp: 3");
    assertThat(TokenSource.reason(e, spn(secret)))
        .isEqualTo(
            "AADSTS7000215: Invalid client secret provided (****). Trace ID: 1 Correlation ID: 2");
  }

  @Test
  void aSecretTooShortToSearchForDoesNotGarbleTheMessage() {
    RuntimeException e = new RuntimeException("AADSTS90002: Tenant 'contoso' not found.");
    assertThat(TokenSource.reason(e, spn("s")))
        .isEqualTo("AADSTS90002: Tenant 'contoso' not found.");
  }

  @Test
  void anEmptyTokenVariableIsSaidToBeEmptyNotUnset() {
    var auth = new AuthConfig.TokenFromEnv("FABRIC_TOKEN");
    assertThatThrownBy(() -> TokenSource.of(auth, Map.of("FABRIC_TOKEN", " ")).token())
        .isInstanceOf(MlvException.class)
        .hasMessageEndingWith("environment variable FABRIC_TOKEN, which is empty");
    assertThatThrownBy(() -> TokenSource.of(auth, Map.of()).token())
        .hasMessageEndingWith("environment variable FABRIC_TOKEN, which is not set");
  }
}
