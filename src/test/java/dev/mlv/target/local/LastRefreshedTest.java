package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.lineage.ObjectId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta logs written by hand, as Delta 4.2.0 writes them, without Spark. */
class LastRefreshedTest {
  @TempDir Path dir;

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private static String info(String operation, Instant at, String userMetadata) {
    return "{\"commitInfo\":{\"timestamp\":"
        + at.toEpochMilli()
        + ",\"operation\":\""
        + operation
        + "\""
        + (userMetadata == null ? "" : ",\"userMetadata\":\"" + userMetadata + "\"")
        + "}}\n";
  }

  private static final String ADD =
      "{\"add\":{\"path\":\"part-0.parquet\",\"size\":10,\"dataChange\":true}}\n";
  private static final String METADATA = "{\"metaData\":{\"id\":\"t1\",\"configuration\":{}}}\n";

  private TableState table(List<String> commits, Instant refreshedAt, Instant lastCommit)
      throws IOException {
    Path table = dir.resolve("t");
    Files.createDirectories(table.resolve("_delta_log"));
    for (int v = 0; v < commits.size(); v++) {
      Files.writeString(Warehouse.commitFile(table, v), commits.get(v));
    }
    return new TableState(
        ObjectId.parse("ws.lh.gold.v"),
        table,
        commits.size() - 1,
        refreshedAt == null ? Map.of() : Map.of(LocalTarget.P_REFRESHED, refreshedAt.toString()),
        lastCommit,
        List.of(),
        Optional.empty(),
        List.of(),
        Map.of());
  }

  /** Found by QA: a rename's SET TBLPROPERTIES commit was shown as the view's last refresh. */
  @Test
  void aRenamesPropertyCommitIsNoRefresh() throws IOException {
    Instant created = T0.plusSeconds(2);
    Instant renamed = T0.plusSeconds(3600);
    TableState t =
        table(
            List.of(
                info("CREATE OR REPLACE TABLE AS SELECT", created, null) + METADATA + ADD,
                info("SET TBLPROPERTIES", renamed, null) + METADATA),
            T0,
            renamed);
    assertThat(LastRefreshed.of(t)).isEqualTo(created);
  }

  @Test
  void anIncrementalAppendAfterTheFullRefreshIsTheLastRefresh() throws IOException {
    Instant appended = T0.plusSeconds(60);
    TableState t =
        table(
            List.of(
                info("CREATE OR REPLACE TABLE AS SELECT", T0.plusSeconds(1), null) + METADATA + ADD,
                info("WRITE", appended, ConsumedVersions.PREFIX + "x") + ADD,
                // mlv's incremental refresh that found no new row still refreshed the view
                info("WRITE", T0.plusSeconds(120), ConsumedVersions.PREFIX + "y"),
                info("SET TBLPROPERTIES", T0.plusSeconds(180), DeltaState.ENABLE_CDF) + METADATA,
                info("OPTIMIZE", T0.plusSeconds(240), null)
                    + "{\"remove\":{\"path\":\"part-0.parquet\",\"dataChange\":false}}\n"
                    + "{\"add\":{\"path\":\"part-1.parquet\",\"size\":20,\"dataChange\":false}}\n"),
            T0,
            T0.plusSeconds(240));
    assertThat(LastRefreshed.of(t)).isEqualTo(T0.plusSeconds(120));
    assertThat(appended).isBefore(LastRefreshed.of(t));
  }

  @Test
  void withoutTheTimePropertyTheNewestWriteCounts() throws IOException {
    TableState t =
        table(
            List.of(
                info("CREATE TABLE AS SELECT", T0, null) + METADATA + ADD,
                info("SET TBLPROPERTIES", T0.plusSeconds(10), null) + METADATA),
            null,
            T0.plusSeconds(10));
    assertThat(LastRefreshed.of(t)).isEqualTo(T0);
  }
}
