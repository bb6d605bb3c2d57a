package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DESCRIBE HISTORY rows as Livy answers them: maps as JSON objects or as Scala's text. */
class DeltaCommitTest {
  private static final List<String> COLUMNS =
      List.of("version", "timestamp", "operation", "operationParameters", "operationMetrics");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static DeltaCommit commit(String operation, String parameters, String metrics)
      throws Exception {
    List<JsonNode> row = new ArrayList<>();
    row.add(JSON.readTree("7"));
    row.add(JSON.readTree("\"2026-01-01 00:00:07\""));
    row.add(JSON.getNodeFactory().textNode(operation));
    row.add(
        parameters.startsWith("{")
            ? JSON.readTree(parameters)
            : JSON.getNodeFactory().textNode(parameters));
    row.add(
        metrics.startsWith("{") ? JSON.readTree(metrics) : JSON.getNodeFactory().textNode(metrics));
    return DeltaCommit.of(COLUMNS, row);
  }

  @Test
  void anAppendIsNotNamedAndAnOverwriteOrAFileRemovingCommitIs() throws Exception {
    DeltaCommit append =
        commit("WRITE", "{\"mode\":\"Append\"}", "{\"numFiles\":\"1\",\"numOutputRows\":\"5\"}");
    assertThat(append.version()).isEqualTo(7);
    assertThat(append.rows()).isEqualTo(5);
    assertThat(append.notAnAppend()).isEmpty();

    assertThat(commit("WRITE", "Map(mode -> Overwrite)", "Map(numOutputRows -> 5)").notAnAppend())
        .contains("removed or rewrote data files");
    assertThat(commit("DELETE", "{}", "{\"numRemovedFiles\":\"2\"}").notAnAppend())
        .contains("removed or rewrote data files");
    assertThat(
            commit("CREATE OR REPLACE TABLE AS SELECT", "Map()", "Map(numOutputRows -> 1)")
                .notAnAppend())
        .contains("removed or rewrote data files");
    // A DELETE on a table with deletion vectors, as Delta 4.2.0 records it: no file removed in its
    // metrics, one vector added (its log removes the file and adds it back with the vector).
    assertThat(
            commit(
                    "DELETE",
                    "{\"predicate\":\"[\\\"(k#4413 = 1)\\\"]\"}",
                    "{\"numRemovedFiles\":\"0\",\"numDeletionVectorsAdded\":\"1\","
                        + "\"numDeletionVectorsUpdated\":\"0\",\"numAddedFiles\":\"0\","
                        + "\"numDeletedRows\":\"1\"}")
                .notAnAppend())
        .contains("removed or rewrote data files");
    assertThat(
            commit(
                    "DELETE",
                    "Map(predicate -> [\"(k#4413 = 1)\"])",
                    "Map(numRemovedFiles -> 0, numDeletionVectorsAdded -> 1, numDeletedRows -> 1)")
                .notAnAppend())
        .contains("removed or rewrote data files");
    assertThat(commit("ADD COLUMNS", "Map()", "Map()").notAnAppend())
        .contains("changed the table's schema, properties or protocol");
  }

  @Test
  void whatTheHistoryDoesNotSettleIsLeftToFabric() throws Exception {
    // A MERGE that only inserted removed no file; an OPTIMIZE changes no row.
    assertThat(commit("MERGE", "{}", "{\"numTargetFilesRemoved\":\"0\"}").notAnAppend()).isEmpty();
    assertThat(commit("MERGE", "{}", "{\"numTargetFilesRemoved\":\"3\"}").notAnAppend())
        .isPresent();
    assertThat(commit("OPTIMIZE", "{}", "{\"numRemovedFiles\":\"4\"}").notAnAppend()).isEmpty();
  }

  @Test
  void turningTheFeedOnIsToldApartFromOtherPropertyChanges() throws Exception {
    assertThat(
            commit(
                    "SET TBLPROPERTIES",
                    "{\"properties\":\"{\\\"delta.enableChangeDataFeed\\\":\\\"true\\\"}\"}",
                    "{}")
                .turnsFeedOn())
        .isTrue();
    assertThat(
            commit(
                    "SET TBLPROPERTIES",
                    "Map(properties -> {\"delta.enableChangeDataFeed\":\"false\"})",
                    "Map()")
                .turnsFeedOn())
        .isFalse();
  }
}
