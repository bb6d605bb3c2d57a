package dev.mlv.refresh;

import dev.mlv.lineage.ObjectId;

/** Receives progress of a run as it happens, for the terminal or a log. */
public interface RunListener {
  RunListener NONE = new RunListener() {};

  default void viewStarted(ObjectId id, Strategy strategy) {}

  default void viewFinished(ViewRun run) {}

  /**
   * The exception behind a view's failure, as the view fails: the run keeps only its text, and
   * {@code --debug} prints its stack trace.
   */
  default void viewFailed(ObjectId id, Throwable cause) {}

  default void message(String text) {}
}
