package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaStateTest {

  private static final String WS = "ws_state";
  private static SparkSession spark;
  private static Warehouse warehouse;
  private static Instant start;

  @BeforeAll
  static void tables() throws IOException {
    LocalSparkTestSupport.lakehouse(WS, "lh_state");
    spark = LocalSparkTestSupport.spark();
    warehouse = LocalSparkTestSupport.runtime().warehouse();
    start = Instant.now().minusSeconds(1);
    spark.sql("CREATE SCHEMA lh_state.gold");
    spark.sql(
        "CREATE TABLE lh_state.gold.kpis USING delta TBLPROPERTIES ('mlv.fingerprint' = 'abc')"
            + " AS SELECT 1 AS id, 'x' AS kpi");
    // What a failed CTAS leaves behind, and a folder that never was a table: neither is a table.
    Files.createDirectories(
        warehouse.schemaDir("lh_state", "gold").resolve("failed/_delta_log/_staged_commits"));
    Files.createDirectories(warehouse.schemaDir("lh_state", "gold").resolve("empty"));
  }

  private static List<TableState> stateOfLhState(DeltaState state) {
    return state.scan(warehouse.root()).stream()
        .filter(t -> t.id().lakehouse().equals("lh_state"))
        .toList();
  }

  /** A commit file cut short (by hand, by a full disk): a positioned error, no internal error. */
  @Test
  void aDamagedCommitFileIsAnErrorNamingTheTableAndTheFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t/_delta_log/00000000000000000000.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"commitInfo\":{\"timestamp\":17");
    assertThatThrownBy(() -> DeltaState.readCommit(file, 0))
        .isInstanceOf(MlvException.class)
        .satisfies(
            e -> {
              var d = ((MlvException) e).diagnostics().get(0);
              assertThat(d.ruleId()).isEqualTo("DELTA_LOG_DAMAGED");
              assertThat(d.message())
                  .contains(dir.resolve("t").toString())
                  .contains("00000000000000000000.json: it is not valid JSON");
              assertThat(d.hint()).contains("restore it from a backup");
            });
  }

  @Test
  void scanFindsTablesWithVersionPropertiesAndCommitTime() {
    DeltaState state = new DeltaState(Map.of("LH_State", WS), "ws_default");
    List<TableState> tables = stateOfLhState(state);

    assertThat(tables)
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.id()).isEqualTo(new ObjectId(WS, "lh_state", "gold", "kpis"));
              assertThat(t.path())
                  .isEqualTo(warehouse.schemaDir("lh_state", "gold").resolve("kpis"));
              assertThat(t.version()).isZero();
              assertThat(t.properties()).containsEntry("mlv.fingerprint", "abc");
              assertThat(t.lastCommit()).isBetween(start, Instant.now());
            });
    // Unchanged tables come from the cache.
    assertThat(stateOfLhState(state).get(0)).isSameAs(tables.get(0));
    // A lakehouse not in the map belongs to the default workspace.
    assertThat(stateOfLhState(new DeltaState(Map.of(), "ws_default")).get(0).id().workspace())
        .isEqualTo("ws_default");
  }

  @Test
  void commitsSinceTellsAppendsFromRewrites() {
    spark.sql("CREATE TABLE lh_state.gold.events (id INT) USING delta");
    spark.sql("INSERT INTO lh_state.gold.events VALUES (1), (2)");
    spark.sql("DELETE FROM lh_state.gold.events WHERE id = 1");
    Path events = warehouse.schemaDir("lh_state", "gold").resolve("events");
    DeltaState state = new DeltaState(Map.of(), WS);

    List<CommitInfo> all = state.commitsSince(events, -1);
    assertThat(all).extracting(CommitInfo::version).containsExactly(0L, 1L, 2L);
    assertThat(all)
        .extracting(CommitInfo::operation)
        .containsExactly("CREATE TABLE", "WRITE", "DELETE");
    assertThat(all).extracting(CommitInfo::appendOnly).containsExactly(false, true, false);
    assertThat(all).allSatisfy(c -> assertThat(c.timestamp()).isBetween(start, Instant.now()));
    assertThat(state.commitsSince(events, 1)).extracting(CommitInfo::version).containsExactly(2L);
    assertThat(state.commitsSince(events, 2)).isEmpty();

    TableState latest =
        stateOfLhState(state).stream()
            .filter(t -> t.id().name().equals("events"))
            .findFirst()
            .orElseThrow();
    assertThat(latest.version()).isEqualTo(2);
  }

  @Test
  void mlvsOwnCommitTurningTheFeedOnCountsAsAnAppendOfNothingButOtherPropertyCommitsDoNot() {
    spark.sql("CREATE TABLE lh_state.gold.feed (id INT) USING delta");
    spark.sql("ALTER TABLE lh_state.gold.feed SET TBLPROPERTIES ('x' = 'y')");
    spark.conf().set("spark.databricks.delta.commitInfo.userMetadata", DeltaState.ENABLE_CDF);
    try {
      spark.sql(
          "ALTER TABLE lh_state.gold.feed SET TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    } finally {
      spark.conf().unset("spark.databricks.delta.commitInfo.userMetadata");
    }
    spark.sql("ALTER TABLE lh_state.gold.feed ADD COLUMNS (z INT)");
    Path feed = warehouse.schemaDir("lh_state", "gold").resolve("feed");
    try {
      assertThat(new DeltaState(Map.of(), WS).commitsSince(feed, 0))
          .extracting(CommitInfo::appendOnly, CommitInfo::dataChange)
          .containsExactly(tuple(false, true), tuple(true, false), tuple(false, true));
    } finally {
      spark.sql("DROP TABLE lh_state.gold.feed"); // the scan test counts this lakehouse's tables
    }
  }

  /**
   * A commit of Structured Streaming, or of a batch writer that sets {@code txnAppId}, carries a
   * {@code txn} action (the writer's idempotency mark) beside the files it adds: Delta's change
   * data feed reads its files as inserts, like any append's.
   */
  @Test
  void aStreamingAppendWithATxnActionIsAnAppend(@TempDir Path checkpoint) throws Exception {
    spark.sql("CREATE TABLE lh_state.gold.stream (id INT) USING delta");
    spark.sql("CREATE TABLE lh_state.gold.stream_in (id INT) USING delta");
    spark.sql("INSERT INTO lh_state.gold.stream_in VALUES (1), (2)");
    Path stream = warehouse.schemaDir("lh_state", "gold").resolve("stream");
    try {
      spark.conf().set("spark.databricks.delta.write.txnAppId", "loader");
      spark.conf().set("spark.databricks.delta.write.txnVersion", "1");
      try {
        spark.sql("INSERT INTO lh_state.gold.stream VALUES (3)");
      } finally {
        spark.conf().unset("spark.databricks.delta.write.txnAppId");
        spark.conf().unset("spark.databricks.delta.write.txnVersion");
      }
      spark
          .readStream()
          .format("delta")
          .load(warehouse.schemaDir("lh_state", "gold").resolve("stream_in").toString())
          .writeStream()
          .format("delta")
          .outputMode("append")
          .option("checkpointLocation", checkpoint.toString())
          .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow())
          .start(stream.toString())
          .awaitTermination();
      assertThat(Files.readString(Warehouse.commitFile(stream, 1))).contains("\"txn\"");
      assertThat(Files.readString(Warehouse.commitFile(stream, 2))).contains("\"txn\"");
      assertThat(new DeltaState(Map.of(), WS).commitsSince(stream, 0))
          .extracting(CommitInfo::operation, CommitInfo::appendOnly)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("WRITE", true),
              org.assertj.core.groups.Tuple.tuple("STREAMING UPDATE", true));
    } finally {
      // the scan test counts this lakehouse's tables
      spark.sql("DROP TABLE lh_state.gold.stream");
      spark.sql("DROP TABLE lh_state.gold.stream_in");
    }
  }

  /** An append to a table with row tracking moves its row-id high-water mark, and is an append. */
  @Test
  void anAppendToARowTrackingTableIsAnAppend() throws Exception {
    spark.sql(
        "CREATE TABLE lh_state.gold.tracked (id INT) USING delta TBLPROPERTIES"
            + " ('delta.enableRowTracking' = 'true', 'delta.enableChangeDataFeed' = 'true')");
    Path table = warehouse.schemaDir("lh_state", "gold").resolve("tracked");
    try {
      spark.sql("INSERT INTO lh_state.gold.tracked VALUES (1), (2)");
      assertThat(Files.readString(Warehouse.commitFile(table, 1)))
          .contains("\"domainMetadata\"")
          .contains("delta.rowTracking");
      spark.sql("DELETE FROM lh_state.gold.tracked WHERE id = 1");
      assertThat(new DeltaState(Map.of(), WS).commitsSince(table, 0))
          .extracting(CommitInfo::operation, CommitInfo::appendOnly)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("WRITE", true),
              org.assertj.core.groups.Tuple.tuple("DELETE", false));
    } finally {
      // the scan test counts this lakehouse's tables
      spark.sql("DROP TABLE lh_state.gold.tracked");
    }
  }

  /**
   * OPTIMIZE, with ZORDER BY or without, auto compaction and REORG ... APPLY (PURGE) rewrite files
   * with dataChange=false and write no other action (Delta 4.2.0): no row changes, so each counts
   * as an append of nothing, and its compacted files as no new bytes.
   */
  @Test
  void aCommitThatOnlyRewritesFilesWithoutDataChangeIsAnAppendOfNothing() throws Exception {
    spark.sql(
        "CREATE TABLE lh_state.gold.compacted (id INT) USING delta TBLPROPERTIES"
            + " ('delta.enableDeletionVectors' = 'true')");
    Path table = warehouse.schemaDir("lh_state", "gold").resolve("compacted");
    try {
      spark.sql(
          "INSERT INTO lh_state.gold.compacted SELECT /*+ REPARTITION(3) */ * FROM range(30)");
      spark.sql("DELETE FROM lh_state.gold.compacted WHERE id = 5");
      spark.sql("REORG TABLE lh_state.gold.compacted APPLY (PURGE)");
      spark.sql("INSERT INTO lh_state.gold.compacted VALUES (40)");
      spark.sql("OPTIMIZE lh_state.gold.compacted ZORDER BY (id)");
      spark.conf().set("spark.databricks.delta.autoCompact.enabled", "true");
      spark.conf().set("spark.databricks.delta.autoCompact.minNumFiles", "2");
      try {
        spark.sql("INSERT INTO lh_state.gold.compacted VALUES (41)");
      } finally {
        spark.conf().unset("spark.databricks.delta.autoCompact.enabled");
        spark.conf().unset("spark.databricks.delta.autoCompact.minNumFiles");
      }
      List<CommitInfo> commits = new DeltaState(Map.of(), WS).commitsSince(table, 0);
      assertThat(commits)
          .extracting(
              CommitInfo::operation,
              CommitInfo::appendOnly,
              CommitInfo::dataChange,
              c -> c.addedBytes() > 0)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("WRITE", true, true, true),
              org.assertj.core.groups.Tuple.tuple("DELETE", false, true, true),
              org.assertj.core.groups.Tuple.tuple("REORG", true, false, false),
              org.assertj.core.groups.Tuple.tuple("WRITE", true, true, true),
              org.assertj.core.groups.Tuple.tuple("OPTIMIZE", true, false, false),
              org.assertj.core.groups.Tuple.tuple("WRITE", true, true, true),
              org.assertj.core.groups.Tuple.tuple("OPTIMIZE", true, false, false));
      assertThat(Files.readString(Warehouse.commitFile(table, 7))).contains("\"auto\":true");
    } finally {
      // the scan test counts this lakehouse's tables
      spark.sql("DROP TABLE lh_state.gold.compacted");
    }
  }

  /**
   * Every VACUUM writes a VACUUM START and a VACUUM END commit holding only commitInfo (Delta
   * 4.2.0, also when it deletes nothing): no row changes, so each counts as an append of nothing,
   * and a source with only such commits since (after an OPTIMIZE or alone) has no data change.
   */
  @Test
  void vacuumCommitsChangeNoRow() throws Exception {
    spark.sql("CREATE TABLE lh_state.gold.vacuumed (id INT) USING delta");
    Path table = warehouse.schemaDir("lh_state", "gold").resolve("vacuumed");
    // Its file listing runs one task per 10,000 by default: minutes on two cores.
    spark.conf().set("spark.sql.sources.parallelPartitionDiscovery.parallelism", "2");
    spark.conf().set("spark.databricks.delta.retentionDurationCheck.enabled", "false");
    try {
      spark.sql("INSERT INTO lh_state.gold.vacuumed VALUES (1)");
      spark.sql("INSERT INTO lh_state.gold.vacuumed VALUES (2)");
      spark.sql("OPTIMIZE lh_state.gold.vacuumed");
      spark.sql("VACUUM lh_state.gold.vacuumed RETAIN 0 HOURS");
      spark.sql("VACUUM lh_state.gold.vacuumed");
      DeltaState state = new DeltaState(Map.of(), WS);
      assertThat(state.commitsSince(table, 2))
          .extracting(CommitInfo::operation, CommitInfo::appendOnly, CommitInfo::dataChange)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("OPTIMIZE", true, false),
              org.assertj.core.groups.Tuple.tuple("VACUUM START", true, false),
              org.assertj.core.groups.Tuple.tuple("VACUUM END", true, false),
              org.assertj.core.groups.Tuple.tuple("VACUUM START", true, false),
              org.assertj.core.groups.Tuple.tuple("VACUUM END", true, false));
      assertThat(Files.readString(Warehouse.commitFile(table, 4)))
          .contains("\"numFilesToDelete\":\"2\"")
          .doesNotContain("\"add\"")
          .doesNotContain("\"remove\"");
      ObjectId id = new ObjectId(WS, "lh_state", "gold", "vacuumed");
      SourceLogReader logs = new SourceLogReader(state, warehouse);
      assertThat(logs.since(id, 2).dataChanged()).isFalse();
      assertThat(logs.since(id, 5).dataChanged()).isFalse();
      assertThat(logs.since(id, 1).dataChanged()).isTrue();
      // OPTIMIZE's commit rewrote files; VACUUM's touched none, which the skip's reason tells
      // apart.
      assertThat(logs.since(id, 2).filesRewritten()).isTrue();
      assertThat(logs.since(id, 3).filesRewritten()).isFalse();
      // The first VACUUM deleted the files of both appends, which the OPTIMIZE had compacted: the
      // change data feed from version 2 on cannot read the second append's rows any more.
      assertThat(logs.since(id, 1).historyComplete()).isFalse();
      assertThat(logs.since(id, 2).historyComplete()).isTrue();
    } finally {
      spark.conf().unset("spark.sql.sources.parallelPartitionDiscovery.parallelism");
      spark.conf().unset("spark.databricks.delta.retentionDurationCheck.enabled");
      // the scan test counts this lakehouse's tables
      spark.sql("DROP TABLE lh_state.gold.vacuumed");
    }
  }

  @Test
  void storedStateAnswersForAnUnchangedCommitFileOnly(@TempDir Path other) throws IOException {
    Warehouse copy = new Warehouse(other);
    Path table = copy.schemaDir("lh_cache", "gold").resolve("kpis");
    copyTree(warehouse.schemaDir("lh_state", "gold").resolve("kpis"), table);
    ObjectId id = new ObjectId(WS, "lh_cache", "gold", "kpis");
    DeltaState first = withStore(copy);
    assertThat(first.read(id, table).properties()).containsEntry("mlv.fingerprint", "abc");
    String tableId = first.read(id, table).tableId().orElseThrow();
    assertThat(Files.readString(Warehouse.commitFile(table, 0)))
        .contains("\"metaData\":{\"id\":\"" + tableId + "\"");
    assertThat(first.tableIdAt(table, 0)).contains(tableId);
    assertThat(first.tableIdAt(table, 7)).isEmpty();
    first.save();
    Path file = other.resolve(".mlv/table-state.json");
    assertThat(file).exists();

    // Doctor the stored entry: a reader that answers from it shows the change.
    Files.writeString(file, Files.readString(file).replace("\"abc\"", "\"from-store\""));
    TableState stored = withStore(copy).read(id, table);
    assertThat(stored.properties()).containsEntry("mlv.fingerprint", "from-store");
    assertThat(stored.version()).isZero();
    assertThat(stored.id()).isEqualTo(id);
    assertThat(stored.tableId()).contains(tableId);

    // The same version written anew (a table dropped and created again) is read from the log.
    Path commit = Warehouse.commitFile(table, 0);
    byte[] bytes = Files.readAllBytes(commit);
    Files.delete(commit);
    Files.write(commit, bytes);
    Files.setLastModifiedTime(
        commit, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(5)));
    assertThat(withStore(copy).read(id, table).properties())
        .containsEntry("mlv.fingerprint", "abc");

    // A file that is not ours, or not whole, is as good as none.
    Files.writeString(file, "{\"format\": 1, \"tables\": {\"lh_cache.Lakehouse");
    assertThat(withStore(copy).read(id, table).properties())
        .containsEntry("mlv.fingerprint", "abc");
  }

  private static DeltaState withStore(Warehouse w) {
    return new DeltaState(Map.of(), WS, java.util.Optional.of(new TableStateCache(w.root())));
  }

  @Test
  void readsWithoutSparkOnTheClassPath() throws Exception {
    String out = KernelProbe.run(warehouse.root(), "ws_probe");
    assertThat(out).contains("ws_probe.lh_state.gold.kpis v0 {");
    assertThat(out).contains("mlv.fingerprint=abc");
    assertThat(out).doesNotContain("failed", "empty", "SPARK ON CLASS PATH");
  }

  @Test
  void scansTwoHundredTablesQuickly(@TempDir Path other) throws IOException {
    Path kpis = warehouse.schemaDir("lh_state", "gold").resolve("kpis");
    Warehouse copy = new Warehouse(other);
    for (int i = 0; i < 200; i++) {
      copyTree(kpis, copy.schemaDir("lh_bench" + (i % 4), "s" + (i % 10)).resolve("t" + i));
    }
    DeltaState state = new DeltaState(Map.of(), WS);
    state.scan(copy.root()).size(); // warm up Kernel's classes, as a long-running process would
    copyTree(kpis, copy.schemaDir("lh_bench0", "s0").resolve("late"));
    long t0 = System.nanoTime();
    List<TableState> tables = new DeltaState(Map.of(), WS).scan(copy.root());
    Duration took = Duration.ofNanos(System.nanoTime() - t0);

    assertThat(tables).hasSize(201).allSatisfy(t -> assertThat(t.version()).isZero());
    assertThat(took).as("scan of 201 tables").isLessThan(Duration.ofSeconds(5));
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
