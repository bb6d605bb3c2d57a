package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The source versions a view's newest refresh consumed. A full refresh writes them as the table
 * property {@code mlv.sources} in its CREATE OR REPLACE commit; an incremental refresh appends or
 * rewrites rows, which cannot set a property, so it writes them as the commit's user metadata.
 * Either way the versions land in the same commit as the rows: the newest commit that carries them
 * wins.
 */
final class ConsumedVersions {
  static final String PREFIX = "mlv.sources=";

  /** How far back to look before trusting the table property. */
  private static final int MAX_WALK = 1000;

  private ConsumedVersions() {}

  /**
   * The versions, table ids and commit ids the refresh read (see {@link SourceVersions}), and when.
   */
  record Consumed(
      Map<ObjectId, Long> sources,
      Map<ObjectId, String> tableIds,
      Map<ObjectId, String> commits,
      Optional<Instant> refreshedAt) {
    static Consumed of(SourceVersions.Read read, Optional<Instant> refreshedAt) {
      return new Consumed(read.versions(), read.tableIds(), read.commits(), refreshedAt);
    }
  }

  static String userMetadata(
      Map<ObjectId, Long> sources, Map<ObjectId, String> tableIds, Map<ObjectId, String> commits) {
    return PREFIX + SourceVersions.format(sources, tableIds, commits);
  }

  static Consumed of(TableState t) {
    Consumed fromProperty =
        Consumed.of(
            SourceVersions.parse(t.properties().get(LocalTarget.P_SOURCES)),
            Optional.ofNullable(t.properties().get(LocalTarget.P_REFRESHED)).map(Instant::parse));
    Path table = t.path();
    for (long v = t.version(); v >= 0 && v > t.version() - MAX_WALK; v--) {
      Path file = Warehouse.commitFile(table, v);
      if (!Files.exists(file)) {
        break;
      }
      CommitInfo c = DeltaState.readCommit(file, v);
      if (c.userMetadata() != null && c.userMetadata().startsWith(PREFIX)) {
        return Consumed.of(
            SourceVersions.parse(c.userMetadata().substring(PREFIX.length())),
            Optional.of(c.timestamp()));
      }
      if (c.operation().contains("AS SELECT")) {
        return fromProperty;
      }
    }
    return fromProperty;
  }
}
