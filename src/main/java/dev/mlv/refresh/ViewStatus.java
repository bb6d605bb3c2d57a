package dev.mlv.refresh;

/** The outcome of one view in a run; {@code Planned} only in dry runs. */
public enum ViewStatus {
  Completed,
  Failed,
  Skipped,
  Planned
}
