package dev.mlv.target.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.lineage.ObjectId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What Delta Kernel said about each table at its newest version, kept between commands in {@code
 * <warehouse>/.mlv/table-state.json}. Loading a snapshot costs Kernel and Hadoop start-up plus tens
 * of milliseconds per table; a table whose newest commit file is still the very file the entry was
 * made from (same version, size, modification time and file key) has the same properties, so the
 * entry answers instead. Only ever a shortcut: an entry that does not match, or a missing, foreign
 * or unreadable file, means Kernel reads the log as if there were no cache.
 */
final class TableStateCache {
  /**
   * 4: the struct columns' fields; 3: the column names; 2: the table id. An older file is read as
   * none, so each table's log is read once again.
   */
  private static final int FORMAT = 4;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One table's state and the identity of the commit file it was read at. */
  private record Entry(
      long version,
      CommitFile commit,
      Map<String, String> properties,
      long lastCommitMillis,
      List<String> partitionColumns,
      Optional<String> tableId,
      List<String> columns,
      Map<String, List<String>> structs) {}

  /** Who a commit file is: rewriting or recreating it changes at least one of these. */
  private record CommitFile(long size, long modifiedNanos, String key) {
    static Optional<CommitFile> of(Path table, long version) {
      try {
        BasicFileAttributes a =
            Files.readAttributes(Warehouse.commitFile(table, version), BasicFileAttributes.class);
        long nanos = a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
        return Optional.of(new CommitFile(a.size(), nanos, String.valueOf(a.fileKey())));
      } catch (IOException e) {
        return Optional.empty();
      }
    }
  }

  private final Path root;
  private final Path file;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private volatile boolean loaded;
  private volatile boolean changed;

  TableStateCache(Path warehouseRoot) {
    this.root = warehouseRoot.toAbsolutePath().normalize();
    this.file = root.resolve(".mlv").resolve("table-state.json");
  }

  /** The state of {@code table} at {@code version}, if an entry made from that commit file. */
  Optional<TableState> get(ObjectId id, Path table, long version) {
    load();
    Entry e = entries.get(key(table));
    if (e == null || e.version() != version) {
      return Optional.empty();
    }
    Optional<CommitFile> now = CommitFile.of(table, version);
    if (now.isEmpty() || !now.get().equals(e.commit())) {
      return Optional.empty();
    }
    return Optional.of(
        new TableState(
            id,
            table,
            version,
            e.properties(),
            Instant.ofEpochMilli(e.lastCommitMillis()),
            e.partitionColumns(),
            e.tableId(),
            e.columns(),
            e.structs()));
  }

  /** Remembers a state Kernel just read. */
  void put(TableState state) {
    load();
    CommitFile.of(state.path(), state.version())
        .ifPresent(
            c -> {
              entries.put(
                  key(state.path()),
                  new Entry(
                      state.version(),
                      c,
                      state.properties(),
                      state.lastCommit().toEpochMilli(),
                      state.partitionColumns(),
                      state.tableId(),
                      state.columns(),
                      state.structs()));
              changed = true;
            });
  }

  /**
   * Writes the entries back when something new was learnt, leaving out tables that no longer exist.
   * Write then rename, so a reader never sees half a file; a failure is ignored, since the next
   * command simply reads the logs again.
   */
  void save() {
    if (!changed || !Files.isDirectory(root)) {
      return;
    }
    ObjectNode tables = JSON.createObjectNode();
    new TreeMap<>(entries)
        .forEach(
            (k, e) -> {
              if (!Files.isDirectory(root.resolve(k))) {
                return;
              }
              ObjectNode n = tables.putObject(k);
              n.put("version", e.version());
              n.put("size", e.commit().size());
              n.put("modifiedNanos", e.commit().modifiedNanos());
              n.put("fileKey", e.commit().key());
              n.put("lastCommit", e.lastCommitMillis());
              e.partitionColumns().forEach(n.putArray("partitionColumns")::add);
              e.tableId().ifPresent(id -> n.put("tableId", id));
              e.columns().forEach(n.putArray("columns")::add);
              ObjectNode structs = n.putObject("structs");
              e.structs().forEach((c, fields) -> fields.forEach(structs.putArray(c)::add));
              ObjectNode props = n.putObject("properties");
              new TreeMap<>(e.properties()).forEach(props::put);
            });
    ObjectNode doc = JSON.createObjectNode();
    doc.put("format", FORMAT);
    doc.set("tables", tables);
    try {
      Files.createDirectories(file.getParent());
      Path tmp =
          file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
      try {
        Files.writeString(tmp, JSON.writeValueAsString(doc), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
      changed = false;
    } catch (IOException | RuntimeException e) {
      // A cache that cannot be written costs the next command time, nothing else.
    }
  }

  private void load() {
    if (loaded) {
      return;
    }
    synchronized (this) {
      if (loaded) {
        return;
      }
      try {
        if (Files.isRegularFile(file)) {
          JsonNode doc = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
          if (doc.path("format").asInt() == FORMAT) {
            doc.path("tables").fields().forEachRemaining(t -> read(t.getKey(), t.getValue()));
          }
        }
      } catch (IOException | RuntimeException e) {
        entries.clear(); // unreadable: as if there were none
      }
      loaded = true;
    }
  }

  private void read(String key, JsonNode n) {
    Map<String, String> props = new LinkedHashMap<>();
    n.path("properties")
        .fields()
        .forEachRemaining(p -> props.put(p.getKey(), p.getValue().asText()));
    List<String> partitions = new ArrayList<>();
    n.path("partitionColumns").forEach(c -> partitions.add(c.asText()));
    List<String> columns = new ArrayList<>();
    n.path("columns").forEach(c -> columns.add(c.asText()));
    Map<String, List<String>> structs = new LinkedHashMap<>();
    n.path("structs")
        .fields()
        .forEachRemaining(
            c -> {
              List<String> fields = new ArrayList<>();
              c.getValue().forEach(f -> fields.add(f.asText()));
              structs.put(c.getKey(), fields);
            });
    if (!n.path("version").canConvertToLong() || !n.path("modifiedNanos").canConvertToLong()) {
      return;
    }
    entries.put(
        key,
        new Entry(
            n.path("version").asLong(),
            new CommitFile(
                n.path("size").asLong(),
                n.path("modifiedNanos").asLong(),
                n.path("fileKey").asText()),
            props,
            n.path("lastCommit").asLong(),
            partitions,
            Optional.ofNullable(n.path("tableId").textValue()),
            columns,
            structs));
  }

  /** Tables are keyed by their folder relative to the warehouse, so the warehouse can move. */
  private String key(Path table) {
    Path abs = table.toAbsolutePath().normalize();
    Path rel = abs.startsWith(root) ? root.relativize(abs) : abs;
    return rel.toString().replace('\\', '/');
  }
}
