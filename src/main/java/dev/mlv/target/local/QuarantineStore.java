package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.target.SqlResult;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The rows a refresh dropped, kept beside the view as the Delta table {@code
 * <schema>.<view>__quarantine}: the view's columns plus the run id, the names of every constraint
 * the row broke, the time, and the view's Delta version the run committed.
 *
 * <p>Rows are appended only after the view's own commit has landed, so the table never claims rows
 * for a run whose view commit did not happen. A process that dies between the two commits leaves
 * that run's dropped rows unrecorded; the {@code _mlv_view_version} column ties every row to the
 * view commit it belongs to.
 */
final class QuarantineStore {
  static final String SUFFIX = dev.mlv.project.ReservedNames.QUARANTINE_SUFFIX;
  static final String RUN_ID = "_mlv_run_id";
  static final String CONSTRAINTS = "_mlv_constraints";
  static final String QUARANTINED_AT = "_mlv_quarantined_at";
  static final String VIEW_VERSION = "_mlv_view_version";

  private QuarantineStore() {}

  static ObjectId tableOf(ObjectId view) {
    return new ObjectId(view.workspace(), view.lakehouse(), view.schema(), view.name() + SUFFIX);
  }

  /** Quarantine tables are mlv's bookkeeping: neither deployed views nor sources. */
  static boolean isQuarantine(ObjectId table) {
    return dev.mlv.project.ReservedNames.isQuarantine(table);
  }

  /** Columns the quarantine table adds to the view's own. */
  static final List<String> BOOKKEEPING =
      List.of(RUN_ID, CONSTRAINTS, QUARANTINED_AT, VIEW_VERSION);

  /** Rule id of a refresh whose dropped rows could not be kept. */
  static final String QUARANTINE_FAILED = "QUARANTINE_FAILED";

  /**
   * Refuses, before anything is written, a view with a column the quarantine table needs for its
   * own bookkeeping: the rows would be written under the wrong meaning, or not at all after the
   * view's commit had landed.
   */
  static void checkColumns(ObjectId view, List<String> columns) {
    for (String c : columns) {
      if (BOOKKEEPING.stream().anyMatch(b -> b.equalsIgnoreCase(c))) {
        throw new MlvException(
            Diagnostic.error(
                ViewMaterializer.REFRESH_FAILED,
                null,
                "column "
                    + c
                    + " of "
                    + view
                    + " has a name mlv keeps for the quarantine table's bookkeeping ("
                    + String.join(", ", BOOKKEEPING)
                    + "), so its dropped rows cannot be kept; nothing was written",
                "rename the column in the SELECT, or set quarantine: false for this view"));
      }
    }
  }

  /**
   * Appends the dropped rows (the view's columns and {@link #CONSTRAINTS}) in one commit. The
   * view's columns may have changed since the last run: new columns merge in; a column whose type
   * changed cannot, and then the table is rewritten once with that column as text (earlier rows are
   * kept). Runs after the view's own commit, so a failure says that the view's data did land.
   */
  static void append(
      ObjectId table, Path dir, Dataset<Row> dropped, String runId, long viewVersion, Instant at) {
    try {
      Dataset<Row> rows =
          dropped
              .withColumn(RUN_ID, functions.lit(runId))
              .withColumn(QUARANTINED_AT, functions.lit(Timestamp.from(at)))
              .withColumn(VIEW_VERSION, functions.lit(viewVersion));
      try {
        asText(rows, dir)
            .write()
            .format("delta")
            .mode("append")
            .option("mergeSchema", "true")
            .save(dir.toString());
      } catch (Exception e) { // AnalysisException is checked in Java's eyes, thrown unchecked
        if (!Warehouse.isTable(dir)) {
          throw e;
        }
        withEarlierRows(rows, dir)
            .write()
            .format("delta")
            .mode("overwrite")
            .option("overwriteSchema", "true")
            .save(dir.toString());
      }
    } catch (Exception e) {
      throw new MlvException(
          Diagnostic.error(
              QUARANTINE_FAILED,
              null,
              "the view's new data is committed (Delta version "
                  + viewVersion
                  + "), but the rows its DROP rules removed could not be written to "
                  + table
                  + ": "
                  + SparkMessages.explanation(e),
              "fix the cause and run 'mlv refresh --full' on the view to record its dropped rows"),
          e);
    }
  }

  /**
   * The new rows and every row the table holds, for a table whose column types no longer match the
   * view's: a column whose type changed becomes text on both sides, so earlier runs' rows stay
   * readable under the same run ids. The overwrite reads the table version it replaces, as Delta
   * allows.
   */
  private static Dataset<Row> withEarlierRows(Dataset<Row> rows, Path dir) {
    Dataset<Row> earlier = rows.sparkSession().read().format("delta").load(dir.toString());
    Map<String, DataType> earlierTypes = new HashMap<>();
    for (StructField f : earlier.schema().fields()) {
      earlierTypes.put(f.name().toLowerCase(Locale.ROOT), f.dataType());
    }
    for (StructField f : rows.schema().fields()) {
      DataType before = earlierTypes.get(f.name().toLowerCase(Locale.ROOT));
      if (before != null && !before.sameType(f.dataType())) {
        String earlierName =
            java.util.Arrays.stream(earlier.columns())
                .filter(c -> c.equalsIgnoreCase(f.name()))
                .findFirst()
                .orElseThrow();
        earlier =
            earlier.withColumn(
                earlierName,
                functions.col(SparkRuntime.quote(earlierName)).cast(DataTypes.StringType));
        rows =
            rows.withColumn(
                f.name(), functions.col(SparkRuntime.quote(f.name())).cast(DataTypes.StringType));
      }
    }
    return earlier.unionByName(rows, true);
  }

  /** The rows with a column the table already holds as text (see above) written as text too. */
  private static Dataset<Row> asText(Dataset<Row> rows, Path dir) {
    if (!Warehouse.isTable(dir)) {
      return rows;
    }
    StructType table = rows.sparkSession().read().format("delta").load(dir.toString()).schema();
    for (StructField f : rows.schema().fields()) {
      for (StructField t : table.fields()) {
        if (t.name().equalsIgnoreCase(f.name())
            && t.dataType().sameType(DataTypes.StringType)
            && !f.dataType().sameType(DataTypes.StringType)) {
          rows =
              rows.withColumn(
                  f.name(), functions.col(SparkRuntime.quote(f.name())).cast(DataTypes.StringType));
        }
      }
    }
    return rows;
  }

  /** Bookkeeping shown as text, as the report prints it; the constraints stay an array. */
  private static final java.util.Set<String> BOOKKEEPING_SHOWN =
      java.util.Set.of(RUN_ID, QUARANTINED_AT);

  /** The newest quarantined rows of a view, optionally of one run, as text cells. */
  static SqlResult read(SparkSession spark, Path table, Optional<String> runId, int limit) {
    if (!Warehouse.isTable(table)) {
      return new SqlResult(List.of(), List.of(), null);
    }
    Dataset<Row> df = spark.read().format("delta").load(table.toString());
    if (runId.isPresent()) {
      df = df.filter(functions.col(RUN_ID).equalTo(runId.get()));
    }
    // Bookkeeping first, so a reader sees why before what.
    List<String> columns = new ArrayList<>(List.of(RUN_ID, CONSTRAINTS, QUARANTINED_AT));
    // Every bookkeeping column the docs list, the view commit's version too (found by QA: left
    // out, so a reader could not tie a row to its commit).
    if (List.of(df.columns()).contains(VIEW_VERSION)) {
      columns.add(VIEW_VERSION);
    }
    for (String c : df.columns()) {
      if (!columns.contains(c)) {
        columns.add(c);
      }
    }
    // Quoted: Spark reads an unquoted k.id as field id of a column k.
    Column[] select =
        columns.stream().map(c -> functions.col(SparkRuntime.quote(c))).toArray(Column[]::new);
    Dataset<Row> selected =
        df.orderBy(functions.col(QUARANTINED_AT).desc(), functions.col(RUN_ID).desc())
            .select(select)
            .limit(limit);
    org.apache.spark.sql.types.StructField[] fields = selected.schema().fields();
    List<Row> rows = selected.collectAsList();
    List<List<String>> cells = new ArrayList<>();
    List<List<dev.mlv.target.SqlValue>> values = new ArrayList<>();
    for (Row r : rows) {
      List<String> line = new ArrayList<>();
      List<dev.mlv.target.SqlValue> typed = new ArrayList<>();
      for (int i = 0; i < r.length(); i++) {
        // The view's own columns and the constraints keep their types (JSON numbers, arrays),
        // and read as mlv sql shows them; the run id and time are shown as text.
        boolean bookkeeping =
            BOOKKEEPING_SHOWN.contains(columns.get(i)) || columns.get(i).equals(CONSTRAINTS);
        dev.mlv.target.SqlValue value =
            SparkValues.of(r.isNullAt(i) ? null : r.get(i), fields[i].dataType());
        String text =
            r.isNullAt(i)
                ? null
                : bookkeeping ? cell(r.get(i)) : dev.mlv.target.SqlValue.display(value);
        line.add(text);
        typed.add(
            BOOKKEEPING_SHOWN.contains(columns.get(i))
                ? (text == null ? null : new dev.mlv.target.SqlValue.Text(text))
                : value);
      }
      cells.add(line);
      values.add(typed);
    }
    List<String> types = java.util.Arrays.stream(fields).map(f -> f.dataType().typeName()).toList();
    return new SqlResult(columns, cells, null, values, types);
  }

  private static String cell(Object v) {
    if (v instanceof scala.collection.Seq<?> seq) {
      return String.join(
          ",",
          scala.jdk.javaapi.CollectionConverters.asJava(seq).stream()
              .map(String::valueOf)
              .toList());
    }
    if (v instanceof Timestamp t) {
      return t.toInstant().toString();
    }
    return String.valueOf(v);
  }

  /** Keeps only the rows of runs the history still holds: retention follows the run history. */
  static void prune(SparkSession spark, Path table, Collection<String> retainedRuns) {
    if (!Warehouse.isTable(table)) {
      return;
    }
    Column stale = functions.not(functions.col(RUN_ID).isin(retainedRuns.toArray()));
    // Each delete is a Delta commit (~1 s): look first, write only when something goes.
    if (spark.read().format("delta").load(table.toString()).filter(stale).limit(1).count() > 0) {
      io.delta.tables.DeltaTable.forPath(spark, table.toString()).delete(stale);
    }
  }

  /** The quarantine of a view whose settings ask for one, under the running run's id. */
  static Optional<ViewMaterializer.QuarantineTarget> target(
      Project project, ObjectId view, String runId) {
    ProjectView v = project.views().get(view);
    if (v == null || !v.settings().quality().quarantineOn()) {
      return Optional.empty();
    }
    return Optional.of(new ViewMaterializer.QuarantineTarget(tableOf(view), runId));
  }

  /**
   * Prunes the project's quarantine tables to the runs the history keeps. Runs after the history is
   * recorded, and only when Spark is already up: a run that needed no Spark dropped no rows.
   */
  static void pruneAll(
      LocalTarget target, Project project, HistoryStore history, RunListener listener) {
    if (!target.sparkStarted()) {
      return;
    }
    try {
      SparkSession spark = null;
      List<String> retained = null;
      for (ObjectId view : project.views().keySet()) {
        Path table = target.warehouse().tableDir(tableOf(view));
        if (!Warehouse.isTable(table)) {
          continue;
        }
        if (spark == null) {
          spark = target.sparkSession();
          retained =
              history.list(Integer.MAX_VALUE, RunListener.NONE).stream()
                  .map(RunReport::id)
                  .toList();
        }
        prune(spark, table, retained);
      }
    } catch (RuntimeException e) {
      // The run is recorded; stale quarantined rows are pruned by the next run instead.
      listener.message(
          "warning: quarantine tables could not be pruned ("
              + SparkMessages.explanation(e)
              + "); the next run tries again");
    }
  }
}
