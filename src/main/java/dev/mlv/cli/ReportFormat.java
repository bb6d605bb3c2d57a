package dev.mlv.cli;

/** {@code --format} of the commands that print a plan or a run: picocli rejects other values. */
enum ReportFormat {
  text,
  json
}
