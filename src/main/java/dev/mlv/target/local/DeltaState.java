package dev.mlv.target.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.engine.Engine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what is deployed in a local warehouse with Delta Kernel and plain JSON, without starting
 * (or loading) Spark, so {@code plan} and {@code status} answer in a second.
 *
 * <p>Snapshots are cached per table folder and reused while the newest commit file is unchanged.
 */
public final class DeltaState {
  /** The userMetadata of the commit with which apply turns a source's change data feed on. */
  static final String ENABLE_CDF = "mlv:enable-change-data-feed";

  private static final Pattern COMMIT_FILE = Pattern.compile("(\\d{20})\\.json");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int THREADS = 8;

  private final Map<String, String> workspaceOf;
  private final String defaultWorkspace;
  private final Map<Path, TableState> cache = new ConcurrentHashMap<>();

  /**
   * First commit times by commit file and its modification time: a recreated table has a new one.
   */
  private final Map<String, Instant> created = new ConcurrentHashMap<>();

  private final Optional<TableStateCache> stored;

  /**
   * @param workspaceOf lakehouse name to workspace name, for the ids of the tables found
   * @param defaultWorkspace the workspace of a lakehouse missing from {@code workspaceOf}
   */
  public DeltaState(Map<String, String> workspaceOf, String defaultWorkspace) {
    this(workspaceOf, defaultWorkspace, Optional.empty());
  }

  /**
   * @param stored what earlier commands learnt about the tables, reused while a table's newest
   *     commit file is unchanged
   */
  DeltaState(
      Map<String, String> workspaceOf, String defaultWorkspace, Optional<TableStateCache> stored) {
    this.stored = stored;
    Map<String, String> folded = new java.util.HashMap<>();
    workspaceOf.forEach((lh, ws) -> folded.put(Warehouse.fold(lh), ws));
    this.workspaceOf = Map.copyOf(folded);
    this.defaultWorkspace = defaultWorkspace;
  }

  /**
   * Every table under {@code <warehouse>/<lh>.Lakehouse/Tables/<schema>/<table>}, sorted by id. A
   * folder counts as a table once its {@code _delta_log} holds a commit file.
   */
  public List<TableState> scan(Path warehouse) {
    return scan(warehouse, workspaceOf);
  }

  /**
   * As {@link #scan(Path)}, the tables of a lakehouse given the workspace {@code workspaceOf} names
   * (else the default one): what a project's names reach, which the warehouse's folders do not
   * tell.
   */
  public List<TableState> scan(Path warehouse, Map<String, String> workspaceOf) {
    Map<String, String> folded = new java.util.HashMap<>();
    workspaceOf.forEach((lh, ws) -> folded.putIfAbsent(Warehouse.fold(lh), ws));
    List<ObjectIdAndPath> candidates = candidates(new Warehouse(warehouse).root(), folded);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(THREADS, candidates.size())),
            r -> {
              Thread t = new Thread(r, "mlv-delta-state");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<TableState>> futures = new ArrayList<>();
      for (ObjectIdAndPath c : candidates) {
        futures.add(pool.submit(() -> read(c.id(), c.path())));
      }
      List<TableState> tables = new ArrayList<>();
      for (Future<TableState> f : futures) {
        TableState state = f.get();
        if (state != null) {
          tables.add(state);
        }
      }
      tables.sort(Comparator.comparing(TableState::id));
      return tables;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading Delta state", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The state of one table folder, or null when it holds no commit (yet). */
  TableState read(ObjectId id, Path table) {
    OptionalLong latest = Warehouse.latestCommit(table);
    if (latest.isEmpty()) {
      cache.remove(table);
      return null;
    }
    TableState cached = cache.get(table);
    if (cached != null && cached.version() == latest.getAsLong() && cached.id().equals(id)) {
      return cached;
    }
    if (stored.isPresent()) {
      Optional<TableState> known = stored.get().get(id, table, latest.getAsLong());
      if (known.isPresent()) {
        cache.put(table, known.get());
        return known.get();
      }
    }
    Engine e = KernelEngine.get();
    TableState state;
    try {
      Snapshot snapshot = Table.forPath(e, table.toString()).getLatestSnapshot(e);
      state =
          new TableState(
              id,
              table,
              snapshot.getVersion(),
              snapshot.getTableProperties(),
              Instant.ofEpochMilli(snapshot.getTimestamp(e)),
              snapshot.getPartitionColumnNames(),
              tableId(snapshot),
              snapshot.getSchema().fieldNames(),
              structs(snapshot.getSchema()));
    } catch (RuntimeException broken) {
      // A damaged log (a commit file cut short or edited by hand) is the table's problem: say
      // which table, not which Kernel class gave up.
      String m =
          broken.getMessage() == null ? broken.getClass().getSimpleName() : broken.getMessage();
      throw new MlvException(
          "DELTA_LOG",
          "cannot read the Delta log of "
              + id
              + " ("
              + table.resolve("_delta_log")
              + "): "
              + SparkMessages.firstLine(m)
              + ". Restore the damaged commit file, or drop the table and refresh the view again.");
    }
    cache.put(table, state);
    stored.ifPresent(c -> c.put(state));
    return state;
  }

  /**
   * The field names of each struct column, and of each array of structs (Spark reads {@code a.f} of
   * one as the array of the elements' f), by column name; and of each struct within those, by its
   * path ({@link dev.mlv.check.TableColumns#structKey}).
   */
  static Map<String, List<String>> structs(io.delta.kernel.types.StructType schema) {
    Map<String, List<String>> out = new java.util.LinkedHashMap<>();
    for (io.delta.kernel.types.StructField f : schema.fields()) {
      structs(List.of(f.getName()), f.getDataType(), out);
    }
    return out;
  }

  private static void structs(
      List<String> path, io.delta.kernel.types.DataType type, Map<String, List<String>> out) {
    if (type instanceof io.delta.kernel.types.ArrayType array) {
      type = array.getElementType();
    }
    if (type instanceof io.delta.kernel.types.StructType struct) {
      out.put(dev.mlv.check.TableColumns.structKey(path), struct.fieldNames());
      for (io.delta.kernel.types.StructField f : struct.fields()) {
        List<String> inner = new java.util.ArrayList<>(path);
        inner.add(f.getName());
        structs(inner, f.getDataType(), out);
      }
    }
  }

  /**
   * The table's {@code metaData.id}. Kernel's public Snapshot does not expose it (Delta 4.2), its
   * implementation does; another Snapshot gives none, and the id counts as unknown.
   */
  private static Optional<String> tableId(Snapshot snapshot) {
    return snapshot instanceof io.delta.kernel.internal.SnapshotImpl impl
        ? Optional.ofNullable(impl.getMetadata().getId())
        : Optional.empty();
  }

  /**
   * The table id at {@code version}, when the log still holds that version (and what it needs to
   * rebuild it); empty when it does not, or the table is gone.
   */
  Optional<String> tableIdAt(Path table, long version) {
    Engine e = KernelEngine.get();
    try {
      return tableId(Table.forPath(e, table.toString()).getSnapshotAsOfVersion(e, version));
    } catch (RuntimeException gone) {
      return Optional.empty();
    }
  }

  /** The table's column names, in order; none when it has no commit. */
  List<String> columnNames(Path table) {
    return schema(table).map(t -> t.fieldNames()).orElse(List.of());
  }

  /** The names of the table's top-level decimal columns. */
  List<String> decimalColumns(Path table) {
    return schema(table)
        .map(
            t ->
                t.fields().stream()
                    .filter(f -> f.getDataType() instanceof io.delta.kernel.types.DecimalType)
                    .map(io.delta.kernel.types.StructField::getName)
                    .toList())
        .orElse(List.of());
  }

  private static Optional<io.delta.kernel.types.StructType> schema(Path table) {
    if (Warehouse.latestCommit(table).isEmpty()) {
      return Optional.empty();
    }
    Engine e = KernelEngine.get();
    return Optional.of(Table.forPath(e, table.toString()).getLatestSnapshot(e).getSchema());
  }

  /** Keeps what this reader learnt for the next command (see {@link TableStateCache}). */
  void save() {
    stored.ifPresent(TableStateCache::save);
  }

  /**
   * The commits after {@code afterVersion}, oldest first, from {@code _delta_log/*.json}. Delta
   * deletes old commit files after its log retention (30 days by default): when the first commit
   * returned is not {@code afterVersion + 1}, the history is incomplete and the caller must not
   * assume appends only.
   */
  public List<CommitInfo> commitsSince(Path table, long afterVersion) {
    Path log = table.resolve("_delta_log");
    List<Long> versions = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(log, "*.json")) {
      for (Path f : files) {
        Matcher m = COMMIT_FILE.matcher(f.getFileName().toString());
        if (m.matches() && Long.parseLong(m.group(1)) > afterVersion) {
          versions.add(Long.parseLong(m.group(1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    versions.sort(null);
    List<CommitInfo> commits = new ArrayList<>(versions.size());
    for (long v : versions) {
      commits.add(readCommit(Warehouse.commitFile(table, v), v));
    }
    return commits;
  }

  /**
   * When the table was created: its first commit's time, if the log still holds that commit. Every
   * view reading the table asks; the file is read once per command.
   */
  Optional<Instant> createdAt(Path table) {
    Path first = Warehouse.commitFile(table, 0);
    try {
      String key = first + "@" + Files.getLastModifiedTime(first).toMillis();
      return Optional.of(created.computeIfAbsent(key, k -> commitTime(first)));
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The {@code txnId} Delta wrote in the commitInfo of {@code version} (a UUID per commit), if that
   * commit is still a JSON file of the log and names one: it tells the commit a refresh read from
   * another that took its version number later (the table's folder restored from a copy).
   */
  Optional<String> commitIdAt(Path table, long version) {
    Path file = Warehouse.commitFile(table, version);
    try {
      String key = file + "@" + Files.getLastModifiedTime(file).toMillis();
      // Every view reading the table asks for the same commit: the file is read once per command.
      return commitIds.computeIfAbsent(
          key,
          k -> {
            JsonNode id = commitInfo(file).path("txnId");
            return id.isTextual() ? Optional.of(id.asText()) : Optional.empty();
          });
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty(); // cleaned up after a checkpoint: nothing to compare with
    } catch (IOException e) {
      throw unreadable(file, e);
    }
  }

  /** Commit ids by commit file and its modification time, as {@link #created}. */
  private final Map<String, Optional<String>> commitIds = new ConcurrentHashMap<>();

  /**
   * A commit's commitInfo, read only as far as that line (Delta writes it first; a table's first
   * commit can list thousands of files after it); a missing node when the commit has none.
   */
  private static JsonNode commitInfo(Path file) {
    try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.contains("\"commitInfo\"")) {
          return JSON.readTree(line).path("commitInfo");
        }
      }
      return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    } catch (IOException e) {
      throw unreadable(file, e);
    }
  }

  /** A commit's time: its commitInfo's, else the file's. */
  private static Instant commitTime(Path file) {
    JsonNode info = commitInfo(file);
    JsonNode ts =
        info.has("inCommitTimestamp") ? info.get("inCommitTimestamp") : info.get("timestamp");
    if (ts != null && ts.canConvertToLong()) {
      return Instant.ofEpochMilli(ts.asLong());
    }
    try {
      return Files.getLastModifiedTime(file).toInstant();
    } catch (IOException e) {
      throw unreadable(file, e);
    }
  }

  private static final String ROW_TRACKING_DOMAIN = "delta.rowTracking";

  static CommitInfo readCommit(Path file, long version) {
    String operation = "UNKNOWN";
    Instant timestamp = null;
    boolean added = false;
    boolean removed = false;
    boolean other = false;
    // A file action without the flag changes data (the protocol's default).
    boolean changesData = false;
    long addedBytes = 0;
    List<String> newFiles = new ArrayList<>();
    String userMetadata = null;
    try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode action = JSON.readTree(line);
        if (action.has("add")) {
          added = true;
          addedBytes += action.get("add").path("size").asLong(0);
          if (action.get("add").path("dataChange").asBoolean(true)) {
            changesData = true;
            newFiles.add(action.get("add").path("path").asText(""));
          }
        } else if (action.has("remove")) {
          removed = true;
          changesData |= action.get("remove").path("dataChange").asBoolean(true);
        } else if (action.has("txn")) {
          // A streaming (or txnAppId) writer's idempotency mark: no row changes with it, and
          // Delta's change data feed and streaming source read the commit's files as inserts.
          continue;
        } else if (action.has("domainMetadata")
            && ROW_TRACKING_DOMAIN.equals(action.get("domainMetadata").path("domain").asText(""))) {
          // Row tracking's high-water mark of row ids, which every append to such a table moves:
          // bookkeeping, no row changes with it.
          continue;
        } else if (action.has("commitInfo")) {
          JsonNode info = action.get("commitInfo");
          operation = info.path("operation").asText(operation);
          if (info.hasNonNull("userMetadata")) {
            userMetadata = info.get("userMetadata").asText();
          }
          // In-commit timestamps, when enabled, are the table's own clock; else the writer's.
          JsonNode ts =
              info.has("inCommitTimestamp") ? info.get("inCommitTimestamp") : info.get("timestamp");
          if (ts != null && ts.canConvertToLong()) {
            timestamp = Instant.ofEpochMilli(ts.asLong());
          }
        } else {
          other = true; // metaData, protocol, cdc, domainMetadata...
        }
      }
      if (timestamp == null) {
        timestamp = Files.getLastModifiedTime(file).toInstant();
      }
    } catch (IOException e) {
      throw unreadable(file, e);
    }
    // mlv's own commit that only turned change data feed on changed no row: it counts as an
    // append of nothing, so a view reading the table stays incremental, and one that only a full
    // refresh can serve is skipped rather than rebuilt for it (found by QA: apply adding an
    // incremental view on a shared source made the next refresh rebuild an AVG view beside it).
    boolean feedTurnedOn = !added && !removed && ENABLE_CDF.equals(userMetadata);
    boolean appendOnly = !removed && (!other || feedTurnedOn);
    // OPTIMIZE (also ZORDER BY, a clustered table's, auto compaction) and REORG ... APPLY (PURGE)
    // rewrite files with dataChange=false and nothing else, measured on Delta 4.2.0: the same rows
    // in other files. Delta's change data feed and streaming source skip such a commit, so it
    // counts as an append of nothing (and its files as no new data). So does a commit with no
    // file, metadata or protocol action at all: VACUUM's START and END commits (commitInfo only,
    // written by every VACUUM on Delta 4.2.0), mlv's own incremental append of no rows, and
    // mlv's own turning on of the feed.
    boolean dataChange = (other && !feedTurnedOn) || changesData;
    if (!dataChange) {
      return new CommitInfo(
          version, operation, true, timestamp, 0, userMetadata, removed, false, List.of(), false);
    }
    return new CommitInfo(
        version,
        operation,
        appendOnly,
        timestamp,
        addedBytes,
        userMetadata,
        removed,
        true,
        List.copyOf(newFiles),
        changesData);
  }

  /**
   * A commit file that cannot be read or parsed: Delta writes each one whole and never rewrites it,
   * so a damaged one was changed outside Delta, and mlv cannot tell what the table holds.
   */
  static RuntimeException unreadable(Path file, IOException e) {
    Path table = file.getParent().getParent();
    String why =
        e instanceof com.fasterxml.jackson.core.JsonProcessingException j
            ? "it is not valid JSON (" + j.getOriginalMessage() + ")"
            : e instanceof java.nio.file.AccessDeniedException
                ? "permission denied"
                : String.valueOf(e.getMessage());
    return new dev.mlv.diag.MlvException(
        dev.mlv.diag.Diagnostic.error(
            "DELTA_LOG_DAMAGED",
            null,
            "the Delta log of the table in "
                + table
                + " cannot be read: "
                + file.getFileName()
                + ": "
                + why,
            "Delta writes a commit file whole and never changes it, so this one was damaged"
                + " outside Delta: restore it from a backup, or remove the table's folder and"
                + " create the table again ('mlv seed' for a seeded source, 'mlv apply' for a"
                + " view)"),
        e);
  }

  private record ObjectIdAndPath(ObjectId id, Path path) {}

  private List<ObjectIdAndPath> candidates(Path root, Map<String, String> workspaceOf) {
    List<ObjectIdAndPath> result = new ArrayList<>();
    for (Path lakehouseDir : Warehouse.subfolders(root)) {
      String lakehouse = Warehouse.lakehouseOf(lakehouseDir);
      if (lakehouse == null) {
        continue;
      }
      String workspace = workspaceOf.getOrDefault(Warehouse.fold(lakehouse), defaultWorkspace);
      for (Path schema : Warehouse.subfolders(lakehouseDir.resolve("Tables"))) {
        for (Path table : Warehouse.subfolders(schema)) {
          result.add(
              new ObjectIdAndPath(
                  new ObjectId(
                      workspace,
                      lakehouse,
                      schema.getFileName().toString(),
                      table.getFileName().toString()),
                  table));
        }
      }
    }
    return result;
  }
}
