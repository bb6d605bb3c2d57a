package dev.mlv.cli;

/**
 * {@code --format} of the commands that print rows (sql, quarantine): picocli rejects other values
 * and takes any letter case, as for the other commands' formats (found by QA: these two alone took
 * lower case only).
 */
enum RowsFormat {
  table,
  csv,
  json
}
