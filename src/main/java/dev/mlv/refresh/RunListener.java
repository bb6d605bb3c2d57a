package dev.mlv.refresh;

import dev.mlv.lineage.ObjectId;

/** Receives progress of a run as it happens, for the terminal or a log. */
public interface RunListener {
  RunListener NONE = new RunListener() {};

  default void viewStarted(ObjectId id, Strategy strategy) {}

  default void viewFinished(ViewRun run) {}

  default void message(String text) {}
}
