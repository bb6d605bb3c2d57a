package dev.mlv.project;

/** How a Fabric target obtains its bearer token; one record per {@code auth.mode}. */
public sealed interface AuthConfig {

  /** The {@code mode:} value in mlv.yml. */
  String mode();

  /** Azure's default credential chain (managed identity, environment, CLI...). */
  record DefaultChain() implements AuthConfig {
    @Override
    public String mode() {
      return "default";
    }
  }

  /** A service principal; the secret always comes from an environment variable. */
  record ServicePrincipal(String tenantId, String clientId, Secret clientSecret)
      implements AuthConfig {
    @Override
    public String mode() {
      return "spn";
    }
  }

  /** The signed-in Azure CLI account. */
  record AzureCli() implements AuthConfig {
    @Override
    public String mode() {
      return "cli";
    }
  }

  /**
   * A ready bearer token read from {@code envName} when the target is used, so an expired or absent
   * token fails the command that needs it, not every command.
   */
  record TokenFromEnv(String envName) implements AuthConfig {
    public static final String DEFAULT_ENV = "FABRIC_TOKEN";

    @Override
    public String mode() {
      return "token";
    }
  }
}
