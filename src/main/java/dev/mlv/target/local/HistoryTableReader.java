package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.FileCounts;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the history table ({@code mlv_history.runs}, one row per view and run) with Delta Kernel,
 * without Spark: {@code mlv runs} and {@code mlv report} only read it, and starting Spark for that
 * took 20 s to a minute on two cores (found by QA). Spark still writes it.
 */
final class HistoryTableReader {
  private HistoryTableReader() {}

  /** Every run in the table, each with its views in the order they were recorded. */
  static List<RunReport> read(Path table) {
    Engine e = KernelEngine.get();
    Snapshot snapshot = Table.forPath(e, table.toString()).getLatestSnapshot(e);
    Columns c = Columns.of(snapshot.getSchema());
    Map<String, List<Row>> byRun = new TreeMap<>();
    for (Row r : rows(e, snapshot)) {
      byRun.computeIfAbsent(r.getString(c.runId()), k -> new ArrayList<>()).add(r);
    }
    List<RunReport> out = new ArrayList<>();
    for (var run : byRun.entrySet()) {
      List<Row> rs = run.getValue();
      rs.sort(
          Comparator.comparingInt(r -> r.isNullAt(c.viewOrder()) ? -1 : r.getInt(c.viewOrder())));
      Row first = rs.get(0);
      List<ViewRun> views = new ArrayList<>();
      for (Row r : rs) {
        if (!r.isNullAt(c.viewId())) { // a run with no view is one row without one
          views.add(view(r, c));
        }
      }
      out.add(
          new RunReport(
              run.getKey(),
              RunStatus.valueOf(first.getString(c.runStatus())),
              instant(first.getLong(c.startedAt())),
              first.isNullAt(c.endedAt()) ? null : instant(first.getLong(c.endedAt())),
              first.getString(c.target()),
              views));
    }
    return out;
  }

  private static ViewRun view(Row r, Columns c) {
    Map<String, Long> violations = new LinkedHashMap<>();
    if (!r.isNullAt(c.violations())) {
      MapValue m = r.getMap(c.violations());
      ColumnVector keys = m.getKeys();
      ColumnVector values = m.getValues();
      for (int i = 0; i < m.getSize(); i++) {
        violations.put(keys.getString(i), values.isNullAt(i) ? 0L : values.getLong(i));
      }
    }
    // A file view's counts: none for other views, nor in a table written before the columns were.
    Optional<FileCounts> files =
        c.filesIngested() < 0 || r.isNullAt(c.filesIngested())
            ? Optional.empty()
            : Optional.of(
                new FileCounts(r.getLong(c.filesIngested()), r.getLong(c.filesRemoved())));
    return new ViewRun(
        ObjectId.parse(r.getString(c.viewId())),
        ViewStatus.valueOf(r.getString(c.viewStatus())),
        string(r, c.strategy()),
        string(r, c.reason()),
        count(r, c.rowsWritten()),
        count(r, c.rowsDropped()),
        new TreeMap<>(violations),
        count(r, c.durationMs()),
        Optional.ofNullable(string(r, c.error())),
        files);
  }

  private static String string(Row r, int column) {
    return r.isNullAt(column) ? null : r.getString(column);
  }

  private static long count(Row r, int column) {
    return r.isNullAt(column) ? 0 : r.getLong(column);
  }

  /** Kernel's timestamps are microseconds since the epoch, as Spark stored them. */
  private static Instant instant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  /**
   * When each run in the table started, reading two columns: all the retention needs, without a
   * Spark job after every run (the job cost more than the history write itself).
   */
  static Map<String, Instant> runStarts(Path table) {
    Engine e = KernelEngine.get();
    Snapshot snapshot = Table.forPath(e, table.toString()).getLatestSnapshot(e);
    StructType schema = snapshot.getSchema();
    StructType read = new StructType().add(schema.get("run_id")).add(schema.get("run_started_at"));
    Map<String, Instant> out = new LinkedHashMap<>();
    for (Row r : rows(e, snapshot.getScanBuilder().withReadSchema(read).build())) {
      out.putIfAbsent(r.getString(0), instant(r.getLong(1)));
    }
    return out;
  }

  private static List<Row> rows(Engine e, Snapshot snapshot) {
    return rows(e, snapshot.getScanBuilder().build());
  }

  /** The live rows of the scan's files: deletion vectors applied, as Spark reads them. */
  private static List<Row> rows(Engine e, Scan scan) {
    Row state = scan.getScanState(e);
    StructType physical = ScanStateRow.getPhysicalDataReadSchema(state);
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(e)) {
      while (files.hasNext()) {
        try (CloseableIterator<Row> fileRows = files.next().getRows()) {
          while (fileRows.hasNext()) {
            Row file = fileRows.next();
            FileStatus status = InternalScanFileUtils.getAddFileStatus(file);
            CloseableIterator<ColumnarBatch> data =
                e.getParquetHandler()
                    .readParquetFiles(
                        Utils.singletonCloseableIterator(status), physical, Optional.empty())
                    .map(FileReadResult::getData);
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(e, state, file, data)) {
              while (logical.hasNext()) {
                try (CloseableIterator<Row> rows = logical.next().getRows()) {
                  rows.forEachRemaining(out::add);
                }
              }
            }
          }
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return out;
  }

  /** The ordinal of each column in the table's schema; -1 for a file count an old table lacks. */
  private record Columns(
      int runId,
      int runStatus,
      int target,
      int startedAt,
      int endedAt,
      int viewOrder,
      int viewId,
      int viewStatus,
      int strategy,
      int reason,
      int rowsWritten,
      int rowsDropped,
      int violations,
      int durationMs,
      int error,
      int filesIngested,
      int filesRemoved) {
    static Columns of(StructType schema) {
      return new Columns(
          schema.indexOf("run_id"),
          schema.indexOf("run_status"),
          schema.indexOf("target"),
          schema.indexOf("run_started_at"),
          schema.indexOf("run_ended_at"),
          schema.indexOf("view_order"),
          schema.indexOf("view_id"),
          schema.indexOf("view_status"),
          schema.indexOf("strategy"),
          schema.indexOf("reason"),
          schema.indexOf("rows_written"),
          schema.indexOf("rows_dropped"),
          schema.indexOf("violations"),
          schema.indexOf("duration_ms"),
          schema.indexOf("error"),
          schema.indexOf("files_ingested"),
          schema.indexOf("files_removed"));
    }
  }
}
