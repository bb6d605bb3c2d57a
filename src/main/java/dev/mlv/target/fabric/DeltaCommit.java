package dev.mlv.target.fabric;

import java.time.Instant;
import java.util.Locale;

/**
 * A commit of a Delta table as DESCRIBE HISTORY shows it: version, time, operation, its write mode
 * ({@code operationParameters.mode}, empty when not shown) and rows written.
 */
record DeltaCommit(long version, Instant time, String operation, String mode, long rows) {
  /** What a table that does not exist has: no version. */
  static final DeltaCommit NONE = new DeltaCommit(-1, Instant.EPOCH, "", "", 0);

  /**
   * Whether the commit added to the table rather than replacing it: a {@code MERGE}, or a {@code
   * WRITE} that did not overwrite (Delta records {@code INSERT OVERWRITE} and {@code
   * mode("overwrite")} as {@code WRITE} with mode {@code Overwrite}).
   */
  boolean incremental() {
    String op = operation.toUpperCase(Locale.ROOT);
    return op.contains("MERGE") || op.equals("WRITE") && !mode.equalsIgnoreCase("Overwrite");
  }

  String describe() {
    return operation.isBlank()
        ? "operation not shown"
        : operation + (mode.isBlank() ? "" : " " + mode);
  }
}
