package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What is wrong with a seed file, said about the file (at the header or the record where that is
 * known) instead of as the Spark or Delta exception that loading it raised.
 */
final class SeedProblems {
  /** The characters Delta refuses in column names unless column mapping is on. */
  private static final String INVALID_IN_DELTA_NAMES = " ,;{}()\n\t=";

  /** Spark's text for a CSV line FAILFAST refused: the line itself, without its number. */
  private static final Pattern MALFORMED =
      Pattern.compile("Malformed CSV record: (.*?)(?: SQLSTATE.*)?$");

  private final Path file;
  private final Path shown;
  private final Position start;
  private final String table;
  private final boolean csv;

  /** {@code shown} is the file as the message names it (relative to the project). */
  SeedProblems(Path file, Path shown, String table, boolean csv) {
    this.file = file;
    this.shown = shown;
    this.start = Position.start(shown);
    this.table = table;
    this.csv = csv;
  }

  /**
   * Reads the CSV text as RFC 4180 does (a quoted field may hold commas, line breaks and doubled
   * quotes) and refuses, before Spark reads it, a quote that is never closed, which Spark's parser
   * would take to the end of the file, and a header naming one column twice in any case, which
   * Spark would rename silently (a0, A1).
   */
  void checkCsvText() {
    if (!csv) {
      return;
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return; // Spark's read reports what is wrong with the file
    }
    boolean quoted = false;
    int openedAt = -1;
    int headerEnd = -1;
    java.util.List<String> header = new java.util.ArrayList<>();
    // Where each header field starts, so that a name given twice is shown at its second place.
    java.util.List<Integer> fieldStarts = new java.util.ArrayList<>(java.util.List.of(0));
    StringBuilder field = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        if (quoted && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else {
          quoted = !quoted;
          openedAt = quoted ? i : openedAt;
        }
      } else if (!quoted && headerEnd < 0 && (c == ',' || c == '\n' || c == '\r')) {
        header.add(field.toString().strip());
        field.setLength(0);
        if (c != ',') {
          headerEnd = i;
        } else {
          fieldStarts.add(i + 1);
        }
      } else if (headerEnd < 0) {
        field.append(c);
      }
    }
    if (quoted) {
      throw new MlvException(
          Diagnostic.error(
              "SEED_MALFORMED",
              start.advance(text, openedAt),
              "the quote opened here in the seed file for " + table + " is never closed",
              "close the quoted field with \"; write a quote inside it as \"\""));
    }
    if (headerEnd < 0) {
      header.add(field.toString().strip());
    }
    java.util.Map<String, String> seen = new java.util.HashMap<>();
    for (int k = 0; k < header.size(); k++) {
      String name = header.get(k);
      String before = seen.putIfAbsent(name.toLowerCase(java.util.Locale.ROOT), name);
      if (before != null && !name.isEmpty()) {
        int at = fieldStarts.get(k);
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
          at++;
        }
        throw new MlvException(
            Diagnostic.error(
                "SEED_COLUMN",
                start.advance(text, at),
                "the header of the seed file for "
                    + table
                    + " names column '"
                    + name
                    + "' twice ('"
                    + before
                    + "'); column names are not case-sensitive in Spark and Delta",
                "rename one of them"));
      }
    }
  }

  /**
   * Refuses a file with no columns, or with a column name a Delta table cannot hold, before any
   * write: Delta would refuse both with its own wording and no place in the file.
   */
  void checkColumns(StructType schema) {
    if (schema.fields().length == 0) {
      throw new MlvException(
          Diagnostic.error(
              "SEED_EMPTY",
              csv ? start : null,
              csv
                  ? "seed file for " + table + " has no header row, so no columns"
                  : "seed file " + shown + " for " + table + " has no columns",
              csv ? "write the column names on the first line, separated by commas" : null));
    }
    for (StructField f : schema.fields()) {
      for (char c : f.name().toCharArray()) {
        if (INVALID_IN_DELTA_NAMES.indexOf(c) >= 0) {
          throw new MlvException(
              Diagnostic.error(
                  "SEED_COLUMN",
                  csv ? headerPosition(f.name()) : null,
                  "column name '"
                      + f.name()
                      + "' of the seed file "
                      + (csv ? "" : shown + " ")
                      + "for "
                      + table
                      + " has a character Delta tables do not allow in column names"
                      + " (space , ; { } ( ) = tab or newline)",
                  "rename the column in the seed file, for example to '"
                      + f.name().strip().replaceAll("[ ,;{}()\n\t=]+", "_")
                      + "'"));
        }
      }
    }
  }

  /** A failure of reading or writing the seed, said as what is wrong with the file. */
  MlvException failure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String condition = t instanceof SparkThrowable s ? s.getCondition() : null;
      String message = t.getMessage() == null ? "" : t.getMessage();
      if ("MALFORMED_CSV_RECORD".equals(condition)) {
        Matcher m = MALFORMED.matcher(SparkMessages.firstLine(message));
        String record = m.find() ? m.group(1).strip() : "";
        Optional<Position> at = recordPosition(record);
        return new MlvException(
            Diagnostic.error(
                "SEED_MALFORMED",
                at.orElse(null),
                "malformed CSV record"
                    + (record.isEmpty() ? "" : " '" + record + "'")
                    + " in the seed file "
                    + (at.isPresent() ? "" : shown + " ")
                    + "for "
                    + table,
                "every line needs as many fields as the header row, with its quotes closed"),
            e);
      }
      if (condition != null && condition.startsWith("FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER")) {
        return new MlvException(
            Diagnostic.error(
                "SEED_FORMAT",
                start,
                "seed file "
                    + shown
                    + " for "
                    + table
                    + " is not a Parquet file (its footer cannot be read)",
                "write it as Parquet, or set format: csv for a CSV file"),
            e);
      }
    }
    String said =
        SparkMessages.explanation(e)
            .replaceAll("^\\[[A-Z_.]+\\]\\s*", "")
            .replaceAll("\\s*SQLSTATE: \\w+\\s*$", "");
    return new MlvException(
        Diagnostic.error(
            "SEED_FAILED",
            null,
            "loading the seed file " + shown + " into " + table + " failed: " + said,
            null),
        e);
  }

  /** Where the header names {@code column}; the file's start when it cannot be found. */
  private Position headerPosition(String column) {
    String header = lines().stream().findFirst().orElse("");
    int at = header.indexOf(column);
    return at < 0 ? start : start.advance(header, at);
  }

  /** The line that is {@code record}, when exactly one line of the file is. */
  private Optional<Position> recordPosition(String record) {
    if (record.isEmpty()) {
      return Optional.empty();
    }
    List<String> lines = lines();
    int found = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(record)) {
        if (found >= 0) {
          return Optional.empty();
        }
        found = i;
      }
    }
    return found < 0 ? Optional.empty() : Optional.of(new Position(start.file(), found + 1, 1));
  }

  private List<String> lines() {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      // Only a place is lost: the message still names the file.
      return List.of();
    }
  }
}
