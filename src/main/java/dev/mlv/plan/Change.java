package dev.mlv.plan;

import dev.mlv.lineage.ObjectId;

/**
 * One thing {@code apply} will do to a view, with the reason shown to the user. {@code statement}
 * is the CREATE text from the project, applied as {@code CREATE OR REPLACE}.
 */
public sealed interface Change {

  /** The view the change leaves behind (the new name for a rename). */
  ObjectId id();

  String reason();

  /** A view of the project that the target does not have. */
  record Create(ObjectId id, String statement, String fingerprint, String reason)
      implements Change {}

  /** A deployed view whose definition differs; {@code diff} is a unified diff of the two. */
  record Replace(
      ObjectId id,
      String statement,
      String fingerprint,
      String previous,
      String diff,
      String reason)
      implements Change {}

  /**
   * A deployed view that left the project while a new one with the same definition appeared: {@code
   * ALTER ... RENAME TO} keeps the data instead of recomputing it.
   */
  record Rename(ObjectId from, ObjectId id, String statement, String fingerprint, String reason)
      implements Change {}

  /** A deployed view that mlv created and the project no longer has. */
  record Drop(ObjectId id, String previous, String reason) implements Change {}

  /** Deployed and unchanged (possibly reformatted). */
  record NoOp(ObjectId id, String reason) implements Change {}
}
