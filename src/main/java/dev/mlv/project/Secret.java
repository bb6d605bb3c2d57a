package dev.mlv.project;

import java.util.Objects;

/**
 * A value read from an environment variable that must never be printed: {@link #toString()} masks
 * it, and it has no getter a serializer could pick up. Only the code that sends it to the identity
 * provider calls {@link #reveal()}.
 */
public final class Secret {
  private final String envName;
  private final String value;

  /**
   * @param value the variable's value, or null when it is not set: the project still loads (so
   *     validate and lineage work in CI without credentials) and {@link #reveal()} fails instead
   */
  public Secret(String envName, String value) {
    this.envName = Objects.requireNonNull(envName);
    this.value = value;
  }

  public boolean isSet() {
    return value != null;
  }

  /** The environment variable the value came from, safe to name in messages. */
  public String envName() {
    return envName;
  }

  /** The value; a clear error naming the variable when it is not set. */
  public String reveal() {
    if (value == null) {
      throw new dev.mlv.diag.MlvException(
          "CONFIG_ENV",
          "environment variable " + envName + " is not set; the target's credentials need it");
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret s && envName.equals(s.envName) && Objects.equals(value, s.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(envName, value);
  }

  @Override
  public String toString() {
    return "****";
  }
}
