package dev.mlv.refresh;

/**
 * The outcome of a whole run. {@code Skipped} means another refresh held the lakehouse, as Fabric
 * skips rather than queues; {@code Interrupted} is a run stopped by Ctrl-C or whose process died.
 */
public enum RunStatus {
  Running,
  Completed,
  Failed,
  Skipped,
  Interrupted,
  Planned
}
