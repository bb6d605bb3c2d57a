package dev.mlv.target.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The refresh commit a view got after a given version, read from its {@code _delta_log} as plain
 * JSON, so it can be asked while Spark shuts down. A refresh commit is one that carries the view's
 * refresh state: a CREATE OR REPLACE whose metadata holds {@code mlv.definition}, or rows whose
 * user metadata records the consumed source versions or the ingested files. A commit that only
 * turned change data feed on is not one. Asked under the lakehouse's refresh lock, such a commit
 * after the version the view had when the run started writing it is that run's.
 *
 * @param rowsWritten what Delta counted in the commit's operation metrics, 0 when it counted none
 */
record LandedCommit(long version, long rowsWritten) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The newest refresh commit of {@code table} after {@code before} (none: any commit). */
  static Optional<LandedCommit> after(Path table, OptionalLong before) {
    OptionalLong latest = Warehouse.latestCommit(table);
    long floor = before.orElse(-1);
    for (long v = latest.orElse(-1); v > floor; v--) {
      Path file = Warehouse.commitFile(table, v);
      if (!Files.exists(file)) {
        break; // Delta cleaned it up: not a commit this run could just have made
      }
      Optional<LandedCommit> c = read(file, v);
      if (c.isPresent()) {
        return c;
      }
    }
    return Optional.empty();
  }

  private static Optional<LandedCommit> read(Path file, long version) {
    boolean refresh = false;
    long rows = 0;
    try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.contains("\"commitInfo\"") && !line.contains("\"metaData\"")) {
          continue; // add and remove actions, thousands in a big commit
        }
        JsonNode action = JSON.readTree(line);
        if (action.has("metaData")) {
          refresh |=
              action.get("metaData").path("configuration").hasNonNull(LocalTarget.P_DEFINITION);
        } else if (action.has("commitInfo")) {
          JsonNode info = action.get("commitInfo");
          String meta = info.path("userMetadata").asText("");
          refresh |=
              meta.startsWith(ConsumedVersions.PREFIX) || meta.contains(IngestedFiles.MARKER);
          rows = rows(info.path("operationMetrics"));
        }
      }
    } catch (IOException e) {
      throw DeltaState.unreadable(file, e);
    }
    return refresh ? Optional.of(new LandedCommit(version, rows)) : Optional.empty();
  }

  /** A write counts its output rows; a MERGE its inserted and updated ones. */
  private static long rows(JsonNode metrics) {
    if (metrics.has("numOutputRows")) {
      return count(metrics.get("numOutputRows"));
    }
    return count(metrics.path("numTargetRowsInserted"))
        + count(metrics.path("numTargetRowsUpdated"));
  }

  private static long count(JsonNode metric) {
    try {
      return metric.isMissingNode() ? 0 : Long.parseLong(metric.asText());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
