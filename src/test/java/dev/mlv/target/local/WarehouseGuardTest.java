package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.FolderName;
import dev.mlv.project.ReservedNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names, however they are spelled in SQL, never make mlv write outside its warehouse. */
class WarehouseGuardTest {
  @TempDir Path tmp;

  @Test
  void namesThatWouldLeaveTheirFolderAreRefused() {
    Warehouse w = new Warehouse(tmp.resolve("wh"));
    for (String bad :
        List.of("..", ".", "../x", "a/b", "/etc", "x\u0000y", "tab\tname", "a\\b", ".mlv", "")) {
      assertThatThrownBy(() -> w.tableDir(new ObjectId("ws", "lh", "gold", bad)))
          .as(bad)
          .isInstanceOf(MlvException.class)
          .hasMessageContaining("UNSAFE_NAME");
      assertThatThrownBy(() -> w.tableDir(new ObjectId("ws", "lh", bad, "t")))
          .as(bad)
          .isInstanceOf(MlvException.class);
      assertThatThrownBy(() -> w.lakehouseDir(bad)).as(bad).isInstanceOf(MlvException.class);
    }
    Path ok = w.tableDir(new ObjectId("ws", "LH", "Gold", "ünï..cödé"));
    assertThat(ok.startsWith(w.root())).isTrue();
    assertThat(ok.getFileName().toString()).isEqualTo("ünï..cödé");
  }

  /** Found by QA: delta.`/path` was refused as a table name to rename, shown in lower case. */
  @Test
  void aTableReadByItsPathIsRefusedInWords() {
    Warehouse w = new Warehouse(tmp.resolve("wh"));
    assertThatThrownBy(() -> w.tableDir(new ObjectId("ws", "lh", "Delta", "/data/Tables/t")))
        .isInstanceOf(MlvException.class)
        .hasMessage(
            "error[UNSAFE_NAME]: delta.`<path>` reads a table by its path, which the local"
                + " lakehouse does not: its tables are read by name (schema.table), as in Fabric's"
                + " materialized lake views; name the table instead");
    // A schema named delta holds tables like any other.
    assertThat(w.tableDir(new ObjectId("ws", "lh", "delta", "t")).getFileName().toString())
        .isEqualTo("t");
  }

  @Test
  void sqlWithAHostileNameFailsWithoutWritingOutside() throws Exception {
    String lh = LocalSparkTestSupport.lakehouse(LocalSparkTestSupport.WORKSPACE, "lh_guard");
    var spark = LocalSparkTestSupport.spark();
    Path root = LocalSparkTestSupport.runtime().warehouse().root();
    spark.sql("CREATE SCHEMA IF NOT EXISTS " + lh + ".dbo");
    for (String sql :
        List.of(
            "CREATE TABLE " + lh + ".dbo.`../../escaped` (id INT) USING delta",
            "CREATE TABLE " + lh + ".`..`.escaped (id INT) USING delta",
            "CREATE TABLE " + lh + ".dbo.`a/b` (id INT) USING delta")) {
      assertThatThrownBy(() -> spark.sql(sql)).as(sql).hasMessageContaining("UNSAFE_NAME");
    }
    assertThat(Files.exists(root.resolve("escaped"))).isFalse();
    assertThat(Files.exists(root.resolve(lh + ".Lakehouse/escaped"))).isFalse();
    assertThat(Files.exists(root.resolve(lh + ".Lakehouse/Tables/escaped"))).isFalse();
  }

  @Test
  void aDroppedTableIsMovedAsideFirstAndLeftoversAreCleared() throws Exception {
    Path schema = Files.createDirectories(tmp.resolve("Tables/gold"));
    Path t = Files.createDirectories(schema.resolve("t/_delta_log"));
    Files.writeString(t.resolve("00000000000000000000.json"), "{}\n");
    // What a drop killed halfway leaves: a hidden folder, invisible to every listing.
    Path leftover = Files.createDirectories(schema.resolve(".dropped-old-1234/_delta_log"));
    Warehouse.deleteTable(schema.resolve("t"));
    assertThat(schema.resolve("t")).doesNotExist();
    assertThat(leftover.getParent()).doesNotExist();
    try (var s = Files.list(schema)) {
      assertThat(s.toList()).isEmpty();
    }
  }

  /**
   * The longest names validate allows fit the folders the warehouse makes of them: a quarantine
   * table of a view at FolderName.TABLE_BYTES (2-byte characters and all) in a schema at
   * SCHEMA_BYTES is made, and dropped through its hidden .dropped-...-uuid sibling.
   */
  @Test
  void theLongestNamesValidateAllowsCanBeMadeAndDropped() throws Exception {
    String view = "é".repeat(FolderName.TABLE_BYTES / 2) + "a".repeat(FolderName.TABLE_BYTES % 2);
    String schema = "s".repeat(FolderName.SCHEMA_BYTES);
    Warehouse w = new Warehouse(tmp.resolve("wh"));
    Path quarantine =
        w.tableDir(new ObjectId("ws", "lh", schema, view + ReservedNames.QUARANTINE_SUFFIX));
    Files.createDirectories(quarantine.resolve("_delta_log"));
    Warehouse.deleteTable(quarantine);
    assertThat(quarantine).doesNotExist();
  }
}
