package dev.mlv.cli;

/** {@code mlv refresh --format}: the run report formats, JUnit XML included for CI. */
enum RefreshFormat {
  text,
  json,
  junit
}
