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

  public Secret(String envName, String value) {
    this.envName = Objects.requireNonNull(envName);
    this.value = Objects.requireNonNull(value);
  }

  /** The environment variable the value came from, safe to name in messages. */
  public String envName() {
    return envName;
  }

  public String reveal() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret s && envName.equals(s.envName) && value.equals(s.value);
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
