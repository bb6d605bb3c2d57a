package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A commit of a Delta table as DESCRIBE HISTORY shows it: version, time, operation, its write mode
 * ({@code operationParameters.mode}, empty when not shown), rows written and data files removed (-1
 * when not shown).
 */
record DeltaCommit(
    long version,
    Instant time,
    String operation,
    String mode,
    long rows,
    long removedFiles,
    boolean turnsFeedOn) {
  /** What a table that does not exist has: no version. */
  static final DeltaCommit NONE = new DeltaCommit(-1, Instant.EPOCH, "", "", 0, -1, false);

  private static final Pattern MODE = Pattern.compile("\\bmode\\W+(\\w+)");

  /** Operations that always replace the table's rows, as Spark and Delta 4 name them. */
  private static final Set<String> REWRITES =
      Set.of(
          "CREATE OR REPLACE TABLE",
          "CREATE OR REPLACE TABLE AS SELECT",
          "REPLACE TABLE",
          "REPLACE TABLE AS SELECT",
          "TRUNCATE",
          "RESTORE");

  /**
   * Operations that rewrite or clean up files without changing a row (their actions carry
   * dataChange=false): Fabric's documentation does not say what its optimal refresh makes of them.
   */
  private static final Set<String> NO_DATA_CHANGE =
      Set.of("OPTIMIZE", "VACUUM START", "VACUUM END", "REORG", "COMPUTE STATS");

  /** Operations that change the table's schema, properties or protocol. */
  private static final Set<String> METADATA =
      Set.of(
          "SET TBLPROPERTIES",
          "UNSET TBLPROPERTIES",
          "ADD COLUMNS",
          "CHANGE COLUMN",
          "CHANGE COLUMNS",
          "RENAME COLUMN",
          "DROP COLUMNS",
          "REPLACE COLUMNS",
          "UPGRADE PROTOCOL",
          "ADD CONSTRAINT",
          "DROP CONSTRAINT");

  /** One row of DESCRIBE HISTORY, whose maps Livy gives as JSON objects or as Scala's text. */
  static DeltaCommit of(List<String> columns, List<JsonNode> row) {
    long version = Long.parseLong(text(columns, row, "version"));
    Instant time =
        JobClient.time(row.get(Math.max(0, columns.indexOf("timestamp")))).orElse(Instant.EPOCH);
    String operation = text(columns, row, "operation");
    JsonNode metrics = cell(columns, row, "operationMetrics");
    long rows = Math.max(0, metric(metrics, "numOutputRows"));
    // A MERGE names the files it removed from its target numTargetFilesRemoved. With deletion
    // vectors a DELETE removes no file in its metrics (numRemovedFiles 0, measured on Delta 4.2.0)
    // while its log removes the file and adds it back with a vector: count those files too.
    long removed = -1;
    for (String m :
        List.of(
            "numRemovedFiles",
            "numTargetFilesRemoved",
            "numDeletionVectorsAdded",
            "numDeletionVectorsUpdated",
            "numTargetDeletionVectorsAdded",
            "numTargetDeletionVectorsUpdated")) {
      removed = Math.max(removed, metric(metrics, m));
    }
    JsonNode params = cell(columns, row, "operationParameters");
    String mode;
    if (params.isObject()) {
      mode = params.path("mode").asText("");
    } else {
      Matcher x = MODE.matcher(params.asText(""));
      mode = x.find() ? x.group(1) : "";
    }
    String set =
        (params.isObject() ? params.toString() : params.asText("")).toLowerCase(Locale.ROOT);
    boolean feedOn =
        operation.equalsIgnoreCase("SET TBLPROPERTIES")
            && set.matches("(?s).*delta\\.enablechangedatafeed\\W+true\\b.*");
    return new DeltaCommit(version, time, operation, mode, rows, removed, feedOn);
  }

  /**
   * Whether the commit added to the table rather than replacing it: a {@code MERGE}, or a {@code
   * WRITE} that did not overwrite (Delta records {@code INSERT OVERWRITE} and {@code
   * mode("overwrite")} as {@code WRITE} with mode {@code Overwrite}).
   */
  boolean incremental() {
    String op = operation.toUpperCase(Locale.ROOT);
    return op.contains("MERGE") || op.equals("WRITE") && !mode.equalsIgnoreCase("Overwrite");
  }

  /**
   * Whether the operation changes no row: its files carry dataChange=false (OPTIMIZE, REORG), or it
   * has none (VACUUM START and VACUUM END, measured on Delta 4.2.0: commitInfo alone).
   */
  boolean changesNoRow() {
    return NO_DATA_CHANGE.contains(operation.toUpperCase(Locale.ROOT));
  }

  /**
   * What makes this commit certainly not an append (Fabric's optimal refresh needs commits that
   * added files and removed none), or empty when it appended or the history does not tell.
   */
  Optional<String> notAnAppend() {
    String op = operation.toUpperCase(Locale.ROOT);
    if (changesNoRow()) {
      return Optional.empty();
    }
    if (removedFiles > 0
        || REWRITES.contains(op)
        || op.equals("WRITE") && mode.equalsIgnoreCase("Overwrite")) {
      return Optional.of("removed or rewrote data files");
    }
    return METADATA.contains(op)
        ? Optional.of("changed the table's schema, properties or protocol")
        : Optional.empty();
  }

  String describe() {
    return operation.isBlank()
        ? "operation not shown"
        : operation + (mode.isBlank() ? "" : " " + mode);
  }

  private static JsonNode cell(List<String> columns, List<JsonNode> row, String name) {
    int i = columns.indexOf(name);
    return i >= 0 && i < row.size() && row.get(i) != null
        ? row.get(i)
        : com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private static String text(List<String> columns, List<JsonNode> row, String name) {
    return cell(columns, row, name).asText("");
  }

  /** A metric of {@code operationMetrics}, or -1 when it is not there. */
  private static long metric(JsonNode metrics, String name) {
    if (metrics.isObject()) {
      return metrics.has(name) ? metrics.path(name).asLong(-1) : -1;
    }
    Matcher x = Pattern.compile("\\b" + name + "\\W+(\\d+)").matcher(metrics.asText(""));
    return x.find() ? Long.parseLong(x.group(1)) : -1;
  }
}
