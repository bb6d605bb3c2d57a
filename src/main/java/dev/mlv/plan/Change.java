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

  /**
   * A deployed view whose definition differs; {@code diff} is a unified diff of the two. {@code
   * warnings} say what the rebuild loses that the view's own refreshes keep (the rows of files an
   * APPEND_ONLY file view ingested before and no longer finds), one sentence each.
   */
  record Replace(
      ObjectId id,
      String statement,
      String fingerprint,
      String previous,
      String diff,
      String reason,
      java.util.List<String> warnings)
      implements Change {

    public Replace {
      warnings = java.util.List.copyOf(warnings);
    }

    /** A replace that loses nothing the view's refreshes keep. */
    public Replace(
        ObjectId id,
        String statement,
        String fingerprint,
        String previous,
        String diff,
        String reason) {
      this(id, statement, fingerprint, previous, diff, reason, java.util.List.of());
    }
  }

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
