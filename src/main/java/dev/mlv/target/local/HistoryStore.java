package dev.mlv.target.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunRenderer;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The run history, kept in the lakehouse as the Delta table {@code mlv_history.runs} (one row per
 * view and run) so any engine can query it. A run that needed no Spark (nothing changed) is parked
 * as a JSON file and written to the table by the next run that starts Spark; a run whose process
 * died leaves a marker that the next run records as Interrupted.
 */
final class HistoryStore {
  static final String SCHEMA = dev.mlv.project.ReservedNames.HISTORY_SCHEMA;
  static final String TABLE = "runs";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path table;
  private final Warehouse warehouse;
  private final String lakehouse;
  private final Path pending;
  private final Path running;
  private final int retainRuns;
  private final Duration retainAge;

  HistoryStore(Warehouse warehouse, ObjectId table, int retainRuns, int retainDays) {
    this.table = warehouse.tableDir(table);
    this.warehouse = warehouse;
    this.lakehouse = table.lakehouse();
    Path state = warehouse.mlvDir(table.lakehouse()).resolve("runs");
    this.pending = state.resolve("pending");
    this.running = state.resolve("running");
    this.retainRuns = retainRuns;
    this.retainAge = Duration.ofDays(retainDays);
  }

  /** Notes that a run started, so a crash leaves a trace. */
  void started(RunReport run) {
    writeJson(running.resolve(run.id() + ".json"), run);
  }

  /** Notes a running run's finished views, so a run killed later keeps them on record. */
  void progress(RunReport run) {
    writeJson(running.resolve(run.id() + ".json"), run);
  }

  /**
   * Moves a renamed view's history to its new name, as its quarantine table moves with it: the rows
   * of the history table and the parked records that name {@code from} name {@code to} after it, so
   * {@code mlv runs} and {@code mlv report} count its earlier runs under the name the project now
   * gives it, beside the quarantined rows of those runs. Done at the rename, not guessed later from
   * names: a view created under the old name afterwards keeps a history of its own.
   */
  void renamed(SparkSession s, ObjectId from, ObjectId to) {
    if (Warehouse.isTable(table)) {
      io.delta.tables.DeltaTable.forPath(s, table.toString())
          .update(
              org.apache.spark.sql.functions.col("view_id").equalTo(from.toString()),
              Map.of("view_id", org.apache.spark.sql.functions.lit(to.toString())));
    }
    for (Path dir : List.of(pending, running)) {
      for (Path f : list(dir)) {
        RunReport r = readJson(f);
        if (r != null && r.views().stream().anyMatch(v -> v.id().equals(from))) {
          writeJson(
              f,
              new RunReport(
                  r.id(),
                  r.status(),
                  r.startedAt(),
                  r.endedAt(),
                  r.target(),
                  r.views().stream().map(v -> v.id().equals(from) ? v.withId(to) : v).toList()));
        }
      }
    }
  }

  /** Forgets a run that started but has nothing to record: its marker goes. */
  void discard(String runId) {
    delete(running.resolve(runId + ".json"));
  }

  /**
   * A run whose process died: with the views it finished, ended when it last noted one (as far as
   * anyone knows), or when it started if it noted none.
   */
  private static RunReport interrupted(RunReport r) {
    Instant ended = r.endedAt() == null ? r.startedAt() : r.endedAt();
    return new RunReport(
        r.id(), RunStatus.Interrupted, r.startedAt(), ended, r.target(), r.views());
  }

  /** Records a finished run: in the Delta table when Spark is up, else parked until it is. */
  void record(RunReport run, Optional<SparkSession> spark) {
    if (spark.isEmpty()) {
      writeJson(pending.resolve(run.id() + ".json"), run);
      delete(running.resolve(run.id() + ".json"));
      return;
    }
    SparkSession s = spark.get();
    List<Path> parked = new ArrayList<>();
    List<Path> crashed = new ArrayList<>();
    Map<String, RunReport> earlier = new LinkedHashMap<>();
    for (Path f : list(pending)) {
      RunReport r = readJson(f);
      // One that cannot be read stays, for 'mlv runs' to warn about, rather than vanish unseen.
      if (r != null) {
        earlier.put(r.id(), r);
        parked.add(f);
      }
    }
    for (Path f : list(running)) {
      RunReport r = readJson(f);
      if (r != null && !r.id().equals(run.id())) {
        // A parked record says how the run ended; its marker is only a leftover.
        earlier.putIfAbsent(r.id(), interrupted(r));
        crashed.add(f);
      }
    }
    // A process killed after its history commit but before it deleted its files leaves records
    // that are already in the table: writing them again would list a completed run as
    // Interrupted, or twice.
    earlier.keySet().removeAll(recorded(earlier.keySet()));
    List<RunReport> batch = new ArrayList<>(earlier.values());
    batch.add(run);
    List<Row> rows = new ArrayList<>();
    for (RunReport r : batch) {
      rows.addAll(rows(r));
    }
    Dataset<Row> df = s.createDataFrame(rows, Schema.ROW_TYPE);
    // One commit for the whole batch keeps the history cheap.
    df.write().format("delta").mode("append").option("mergeSchema", "true").save(table.toString());
    parked.forEach(HistoryStore::delete);
    crashed.forEach(HistoryStore::delete);
    delete(running.resolve(run.id() + ".json"));
    prune(s);
  }

  /** Which of these run ids the history table already holds; reads it only when asked. */
  private Set<String> recorded(Set<String> ids) {
    if (ids.isEmpty() || !Warehouse.isTable(table)) {
      return Set.of();
    }
    Set<String> out = new HashSet<>(HistoryTableReader.runStarts(table).keySet());
    out.retainAll(ids);
    return out;
  }

  private void prune(SparkSession s) {
    Instant cutoff = Instant.now().minus(retainAge);
    List<Map.Entry<String, Instant>> runs =
        new ArrayList<>(HistoryTableReader.runStarts(table).entrySet());
    runs.sort(Map.Entry.<String, Instant>comparingByValue().reversed());
    List<String> drop = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      if (i >= retainRuns || runs.get(i).getValue().isBefore(cutoff)) {
        drop.add(runs.get(i).getKey());
      }
    }
    if (!drop.isEmpty()) {
      // Not "DELETE FROM delta.`path`": the session's current catalog is a lakehouse, which
      // reads `delta` as a schema name and fails the run as soon as there is history to prune.
      io.delta.tables.DeltaTable.forPath(s, table.toString())
          .delete(org.apache.spark.sql.functions.col("run_id").isin(drop.toArray()));
    }
  }

  /**
   * The most recent runs, newest first, from the table and the parked files; a file that cannot be
   * read is left out with a warning to {@code listener}.
   */
  List<RunReport> list(int limit, RunListener listener) {
    Map<String, RunReport> all = new HashMap<>();
    if (Warehouse.isTable(table)) {
      for (RunReport r : HistoryTableReader.read(table)) {
        all.put(r.id(), r);
      }
    }
    for (Path f : list(pending)) {
      RunReport r = readJson(f, listener);
      if (r != null) {
        all.put(r.id(), r);
      }
    }
    // A marker is a crashed run only when no live process holds the lock for it.
    Optional<String> live =
        RefreshLock.holder(warehouse.root(), lakehouse)
            .filter(
                h ->
                    RefreshLock.isLive(
                        h, RefreshLock.DEFAULT_STALE_AFTER, java.time.Clock.systemUTC()))
            .map(RefreshLock.Holder::runId);
    for (Path f : list(running)) {
      RunReport r = readJson(f, listener);
      if (r != null) {
        all.putIfAbsent(r.id(), live.filter(r.id()::equals).isPresent() ? r : interrupted(r));
      }
    }
    return all.values().stream()
        .sorted(Comparator.comparing(RunReport::startedAt).reversed().thenComparing(RunReport::id))
        .limit(limit)
        .toList();
  }

  private static List<Row> rows(RunReport r) {
    List<Row> out = new ArrayList<>();
    Timestamp started = Timestamp.from(r.startedAt());
    Timestamp ended = r.endedAt() == null ? null : Timestamp.from(r.endedAt());
    if (r.views().isEmpty()) {
      out.add(
          RowFactory.create(
              r.id(),
              r.status().name(),
              r.target(),
              started,
              ended,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null));
    }
    int i = 0;
    for (ViewRun v : r.views()) {
      out.add(
          RowFactory.create(
              r.id(),
              r.status().name(),
              r.target(),
              started,
              ended,
              i++,
              v.id().toString(),
              v.status().name(),
              v.strategy(),
              v.reason(),
              v.rowsWritten(),
              v.rowsDropped(),
              scala.jdk.javaapi.CollectionConverters.asScala(
                  new HashMap<String, Long>(v.violations())),
              v.durationMs(),
              v.error().orElse(null),
              v.files().map(dev.mlv.refresh.FileCounts::ingested).orElse(null),
              v.files().map(dev.mlv.refresh.FileCounts::removed).orElse(null)));
    }
    return out;
  }

  private static List<Path> list(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
      ds.forEach(out::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private static void writeJson(Path file, RunReport run) {
    try {
      Files.createDirectories(file.getParent());
      // Write then rename, so a crash never leaves half a record.
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, RunRenderer.json(run), StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static RunReport readJson(Path file) {
    return readJson(file, RunListener.NONE);
  }

  /** A record we cannot read is not worth failing a command over: null, and a warning. */
  private static RunReport readJson(Path file, RunListener listener) {
    try {
      return RunRenderer.read(JSON.readTree(Files.readString(file, StandardCharsets.UTF_8)));
    } catch (IOException | RuntimeException e) {
      listener.message(RunRenderer.unreadable(file, e));
      return null;
    }
  }

  private static void delete(Path f) {
    try {
      Files.deleteIfExists(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The table's Spark schema, in a class of its own: {@code mlv runs} uses this store without
   * Spark, and a static field of Spark types here would load Spark's type classes for it.
   */
  private static final class Schema {
    static final StructType ROW_TYPE =
        new StructType()
            .add("run_id", DataTypes.StringType, false)
            .add("run_status", DataTypes.StringType, false)
            .add("target", DataTypes.StringType, false)
            .add("run_started_at", DataTypes.TimestampType, false)
            .add("run_ended_at", DataTypes.TimestampType, true)
            .add("view_order", DataTypes.IntegerType, true)
            .add("view_id", DataTypes.StringType, true)
            .add("view_status", DataTypes.StringType, true)
            .add("strategy", DataTypes.StringType, true)
            .add("reason", DataTypes.StringType, true)
            .add("rows_written", DataTypes.LongType, true)
            .add("rows_dropped", DataTypes.LongType, true)
            .add(
                "violations",
                DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType),
                true)
            .add("duration_ms", DataTypes.LongType, true)
            .add("error", DataTypes.StringType, true)
            // A file view's file counts; added after the first release, so a table written before
            // lacks them until the next write merges them in.
            .add("files_ingested", DataTypes.LongType, true)
            .add("files_removed", DataTypes.LongType, true);
  }
}
