package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.lineage.ObjectId;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The consumed versions as stored, with the sources' table ids, and as older mlv stored them. */
class SourceVersionsTest {
  private static final ObjectId A = ObjectId.parse("ws.lh.bronze.a");
  private static final ObjectId B = ObjectId.parse("ws.lh.bronze.b");

  @Test
  void versionsAndTableIdsRoundTrip() {
    String text = SourceVersions.format(Map.of(A, 3L, B, 5L), Map.of(A, "0f96ab9e-b67a"), Map.of());
    assertThat(text).isEqualTo("ws.lh.bronze.a=3@0f96ab9e-b67a;ws.lh.bronze.b=5");
    SourceVersions.Read read = SourceVersions.parse(text);
    assertThat(read.versions()).isEqualTo(Map.of(A, 3L, B, 5L));
    assertThat(read.tableIds()).isEqualTo(Map.of(A, "0f96ab9e-b67a"));
    assertThat(read.commits()).isEmpty();
  }

  /** With the id of the commit read at each version, when the log names one. */
  @Test
  void commitIdsRoundTrip() {
    String text =
        SourceVersions.format(
            Map.of(A, 3L, B, 5L),
            Map.of(A, "0f96ab9e-b67a", B, "77aa"),
            Map.of(A, "ccbb93f0-535a"));
    assertThat(text)
        .isEqualTo("ws.lh.bronze.a=3@0f96ab9e-b67a#ccbb93f0-535a;ws.lh.bronze.b=5@77aa");
    SourceVersions.Read read = SourceVersions.parse(text);
    assertThat(read.tableIds()).isEqualTo(Map.of(A, "0f96ab9e-b67a", B, "77aa"));
    assertThat(read.commits()).isEqualTo(Map.of(A, "ccbb93f0-535a"));
  }

  /** State written before ids were kept: the versions as before, every table id unknown. */
  @Test
  void stateWithoutTableIdsKeepsItsVersions() {
    SourceVersions.Read read = SourceVersions.parse("ws.lh.bronze.a=3;ws.lh.bronze.b=5");
    assertThat(read.versions()).isEqualTo(Map.of(A, 3L, B, 5L));
    assertThat(read.tableIds()).isEmpty();
    assertThat(SourceVersions.parse("ws.lh.bronze.a=x@id;ws.lh.bronze.b=5").versions())
        .isEqualTo(Map.of(B, 5L));
  }
}
