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

  /**
   * A line for the user; one starting {@code warning:} says something was lost (a run not recorded,
   * a record skipped), so {@code --quiet} still prints it.
   */
  default void message(String text) {}
}
