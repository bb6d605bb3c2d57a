package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.StrategyDecider;
import dev.mlv.refresh.StrategyDecider.NonAppend;
import dev.mlv.refresh.StrategyDecider.SourceLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Answers the strategy decision's questions about a source from its Delta log, with Delta Kernel
 * and plain JSON and without Spark: change data feed on, partition columns, and the commits since
 * the version the view consumed.
 */
final class SourceLogReader implements StrategyDecider.SourceLogs {
  private final DeltaState state;
  private final Warehouse warehouse;

  SourceLogReader(DeltaState state, Warehouse warehouse) {
    this.state = state;
    this.warehouse = warehouse;
  }

  @Override
  public SourceLog since(ObjectId source, long consumedVersion) {
    Path dir = warehouse.tableDir(source);
    TableState t = state.read(source, dir);
    if (t == null) {
      return new SourceLog(false, List.of(), Optional.empty(), false, 0, 0);
    }
    boolean cdf = "true".equalsIgnoreCase(t.properties().get("delta.enableChangeDataFeed"));
    if (consumedVersion >= t.version()) {
      return new SourceLog(cdf, t.partitionColumns(), Optional.empty(), true, 0, 0);
    }
    List<CommitInfo> commits = state.commitsSince(dir, consumedVersion);
    // The feed reads an append's rows from the files it added: after an OPTIMIZE compacted them, a
    // VACUUM past its retention deletes them, and reading the feed fails (FILE_NOT_EXIST).
    boolean complete =
        !commits.isEmpty()
            && commits.get(0).version() == consumedVersion + 1
            && commits.stream().flatMap(c -> c.newFiles().stream()).allMatch(f -> onDisk(dir, f));
    Optional<NonAppend> nonAppend =
        commits.stream()
            .filter(c -> !c.appendOnly())
            .findFirst()
            .map(c -> new NonAppend(c.version(), c.operation(), c.removedFiles()));
    long appended = commits.stream().mapToLong(CommitInfo::addedBytes).sum();
    // apply's own commit that turns the feed on is no rewrite, but the commits before it in the
    // range wrote no change data: the view cannot read their rows from the feed.
    OptionalLong turnedOn = OptionalLong.empty();
    for (int i = 1; i < commits.size(); i++) {
      if (DeltaState.ENABLE_CDF.equals(commits.get(i).userMetadata())) {
        turnedOn = OptionalLong.of(commits.get(i).version());
      }
    }
    return new SourceLog(
        cdf,
        t.partitionColumns(),
        nonAppend,
        complete,
        appended,
        dataBytes(dir),
        turnedOn,
        !complete || commits.stream().anyMatch(CommitInfo::dataChange),
        commits.stream().anyMatch(c -> !c.dataChange() && c.removedFiles()));
  }

  /**
   * Whether a file a commit added is still there: a path of the log is a URI, relative to the table
   * or absolute (a shallow clone's); one on another file system counts as there.
   */
  private static boolean onDisk(Path dir, String path) {
    try {
      java.net.URI uri = new java.net.URI(path);
      if (uri.getScheme() == null) {
        return Files.exists(dir.resolve(uri.getPath()));
      }
      return !uri.getScheme().equals("file") || Files.exists(Path.of(uri));
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      return true;
    }
  }

  @Override
  public Optional<Instant> createdAt(ObjectId source) {
    return state.createdAt(warehouse.tableDir(source));
  }

  @Override
  public Optional<String> tableId(ObjectId source) {
    TableState t = state.read(source, warehouse.tableDir(source));
    return t == null ? Optional.empty() : t.tableId();
  }

  @Override
  public Optional<List<String>> columns(ObjectId source) {
    TableState t = state.read(source, warehouse.tableDir(source));
    return t == null ? Optional.empty() : Optional.of(t.columns());
  }

  @Override
  public Optional<String> tableIdAt(ObjectId source, long version) {
    return state.tableIdAt(warehouse.tableDir(source), version);
  }

  @Override
  public Optional<String> commitIdAt(ObjectId source, long version) {
    return state.commitIdAt(warehouse.tableDir(source), version);
  }

  /**
   * The bytes of the table's data files on disk. Files removed but not yet vacuumed count too, so
   * this errs towards incremental refresh.
   */
  static long dataBytes(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .filter(p -> !dir.relativize(p).toString().startsWith("_"))
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  return 0;
                }
              })
          .sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
