package dev.mlv.target;

import java.util.Optional;
import java.util.UUID;

/**
 * A lakehouse upstream of the target's, named for a refresh with extended lineage. Fabric
 * references it by workspace and item id; a lakehouse given without its workspace is taken to be in
 * the target's workspace.
 */
public record UpstreamLakehouse(Optional<UUID> workspace, UUID lakehouse) {

  /**
   * {@code LAKEHOUSE_ID} or {@code WORKSPACE_ID/LAKEHOUSE_ID}, both UUIDs.
   *
   * @throws IllegalArgumentException saying what is expected
   */
  public static UpstreamLakehouse parse(String text) {
    String[] parts = text.strip().split("/", -1);
    if (parts.length > 2) {
      throw invalid(text);
    }
    UUID lakehouse = uuid(parts[parts.length - 1], text);
    Optional<UUID> workspace =
        parts.length == 2 ? Optional.of(uuid(parts[0], text)) : Optional.empty();
    return new UpstreamLakehouse(workspace, lakehouse);
  }

  private static final java.util.regex.Pattern UUID_TEXT =
      java.util.regex.Pattern.compile(
          "\\p{XDigit}{8}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{12}");

  /** The canonical form only: UUID.fromString also takes "1-2-3-4-5". */
  private static UUID uuid(String part, String text) {
    String p = part.strip();
    if (!UUID_TEXT.matcher(p).matches()) {
      throw invalid(text);
    }
    return UUID.fromString(p);
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException(
        "'"
            + text
            + "' is not an upstream lakehouse: give its id (a UUID, for a lakehouse in the"
            + " target's workspace) or WORKSPACE_ID/LAKEHOUSE_ID");
  }

  /** This lakehouse with {@code fallback} as its workspace when none was given. */
  public UpstreamLakehouse in(UUID fallback) {
    return new UpstreamLakehouse(Optional.of(workspace.orElse(fallback)), lakehouse);
  }

  /** As a user writes it. */
  public String spelled() {
    return workspace.map(w -> w + "/").orElse("") + lakehouse;
  }
}
