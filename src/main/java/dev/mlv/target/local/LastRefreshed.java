package dev.mlv.target.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When a view last took new data, as {@code SHOW MATERIALIZED LAKE VIEWS} gives it: the newest
 * commit that refreshed it (an incremental refresh and a file view's ingestion do not rewrite the
 * table's properties), or the time a full refresh wrote in {@code mlv.refreshedAt} when that is
 * later. A commit that changed only metadata (a rename's {@code SET TBLPROPERTIES}, turning change
 * data feed on) or rewrote files without changing a row (OPTIMIZE, VACUUM) is no refresh.
 */
final class LastRefreshed {
  /** How far back to look for a refresh before falling back on the property. */
  private static final int MAX_WALK = 1000;

  private LastRefreshed() {}

  static Instant of(TableState t) {
    Optional<Instant> written = written(t);
    for (long v = t.version(); v >= 0 && v > t.version() - MAX_WALK; v--) {
      Path file = Warehouse.commitFile(t.path(), v);
      if (!Files.exists(file)) {
        break;
      }
      CommitInfo c = DeltaState.readCommit(file, v);
      if (written.isPresent() && !c.timestamp().isAfter(written.get())) {
        // Older than the full refresh the property records: nothing later refreshed the view.
        break;
      }
      if (refreshes(c)) {
        return c.timestamp();
      }
    }
    return written.orElse(t.lastCommit());
  }

  /** Whether the commit wrote the view's rows, or was a refresh of mlv's that found none. */
  static boolean refreshes(CommitInfo c) {
    String meta = c.userMetadata() == null ? "" : c.userMetadata();
    return c.rowsChanged()
        || c.operation().contains("AS SELECT")
        || meta.startsWith(ConsumedVersions.PREFIX)
        || meta.contains(IngestedFiles.MARKER);
  }

  private static Optional<Instant> written(TableState t) {
    String text = t.properties().get(LocalTarget.P_REFRESHED);
    try {
      return Optional.ofNullable(text).map(Instant::parse);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
