package dev.mlv.project;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Fabric's rule for lakehouse names, checked before anything is written or deployed: a name it
 * refuses would pass every local command and fail only when the lakehouse is created in Fabric.
 */
public final class LakehouseName {
  /** Fabric: a letter first, then letters, digits and underscores, at most 123 characters. */
  private static final Pattern FABRIC = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,122}");

  public static final String RULE =
      "a lakehouse name starts with a letter and holds only letters, digits and '_' (at most 123"
          + " characters), as Fabric requires";

  private LakehouseName() {}

  /** Why Fabric would refuse {@code name}, or empty when it accepts it. */
  public static Optional<String> problem(String name) {
    if (FABRIC.matcher(name).matches()) {
      return Optional.empty();
    }
    if (name.isEmpty()) {
      return Optional.of("is empty");
    }
    if (!isAsciiLetter(name.codePointAt(0))) {
      return Optional.of("does not start with a letter (A-Z or a-z)");
    }
    Optional<String> bad =
        name.codePoints()
            .filter(c -> !(isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '_'))
            .mapToObj(c -> c == ' ' ? "a space" : "'" + Character.toString(c) + "'")
            .findFirst();
    return Optional.of(
        bad.map(b -> "holds " + b + ", which Fabric does not allow")
            .orElse("is longer than Fabric's 123 characters"));
  }

  private static boolean isAsciiLetter(int c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }
}
