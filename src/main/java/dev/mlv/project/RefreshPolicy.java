package dev.mlv.project;

/** How a view may be refreshed: let mlv decide, or force one strategy. */
public enum RefreshPolicy {
  AUTO,
  FULL,
  INCREMENTAL
}
