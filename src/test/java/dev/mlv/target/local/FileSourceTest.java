package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.local.FileReader.Group;
import dev.mlv.target.local.IngestedFiles.SourceFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of file ingestion that need no Spark session: options, paths, listing, schemas. */
class FileSourceTest {
  @TempDir Path dir;

  private static ViewDefinition view(String options, String properties) {
    String sql =
        "CREATE MATERIALIZED LAKE VIEW b.raw USING OneLake_Files OPTIONS ("
            + options
            + ")"
            + (properties == null ? "" : " TBLPROPERTIES (" + properties + ")");
    return ((SqlStatement.CreateView)
            MlvParser.parse(Position.start(Path.of("v.sql")), sql).statements().get(0))
        .definition();
  }

  @Test
  void defaultsAreNoHeaderCommaDynamicAndAppendOnly() {
    FileSource s = FileSource.of(view("'format' = 'CSV', 'path' = 'landing'", null));
    assertThat(s)
        .isEqualTo(
            new FileSource(
                "landing",
                FileSource.Format.CSV,
                false,
                ',',
                FileSource.SchemaMode.DYNAMIC,
                FileSource.RefreshMode.APPEND_ONLY));
    FileSource m =
        FileSource.of(
            view(
                "'format' = 'parquet', 'path' = 'x'",
                "'Schema_Mode' = 'fixed', 'refresh_mode' = 'MIRROR'"));
    assertThat(m.schemaMode()).isEqualTo(FileSource.SchemaMode.FIXED);
    assertThat(m.refreshMode()).isEqualTo(FileSource.RefreshMode.MIRROR);
  }

  @Test
  void otherOptionsAndPathsWithSpacesAreRejectedAtTheirPosition() {
    assertThatThrownBy(
            () ->
                FileSource.of(
                    view(
                        "'format' = 'csv', 'path' = 'abfss://w@h/lh.Lakehouse/Files/a%20b',"
                            + " 'nullValue' = 'NA'",
                        null)))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("v.sql:1:133: error[FILE_OPTION]: unsupported option 'nullvalue'")
        .hasMessageContaining("supported options are format, path, header and delimiter")
        .hasMessageContaining("error[FILE_PATH_SPACE]")
        .hasMessageContaining("Fabric does not currently accept");
  }

  @Test
  void aMappedOneLakeUrlResolvesBelowItsLongestMappedFolder() {
    Path wh = dir.resolve("wh");
    SourceFolders folders =
        new SourceFolders(
            Map.of(
                "abfss://ws@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/",
                    dir.resolve("all"),
                "abfss://ws@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/orders",
                    dir.resolve("orders")),
            new Warehouse(wh),
            dir);
    assertThat(
            folders
                .resolve(
                    "abfss://WS@onelake.dfs.fabric.microsoft.com/LH.Lakehouse/Files/orders/2025/")
                .folder())
        .isEqualTo(dir.resolve("orders/2025"));
    assertThat(
            folders
                .resolve("abfss://ws@onelake.dfs.fabric.microsoft.com/other.Lakehouse/Files/x")
                .folder())
        .isEqualTo(wh.resolve("other.Lakehouse/Files/x"));
    assertThat(folders.resolve("landing/x").folder()).isEqualTo(dir.resolve("landing/x"));
  }

  @Test
  void aOneLakeUrlThatClimbsOutOfItsFolderIsRefused() {
    Path wh = dir.resolve("wh");
    SourceFolders folders =
        new SourceFolders(
            Map.of(
                "abfss://ws@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/orders",
                dir.resolve("orders")),
            new Warehouse(wh),
            dir);
    String base = "abfss://ws@onelake.dfs.fabric.microsoft.com/";
    assertThatThrownBy(() -> folders.resolve(base + "lh.Lakehouse/Files/orders/../../../secret/"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("error[FILE_PATH_DOTS]")
        .hasMessageContaining("outside " + dir.resolve("orders"));
    assertThatThrownBy(() -> folders.resolve(base + "other.Lakehouse/Files/a/../../../../x"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("outside " + wh.resolve("other.Lakehouse/Files"));
    assertThat(folders.resolve(base + "other.Lakehouse/Files/a/../b").folder())
        .isEqualTo(wh.resolve("other.Lakehouse/Files/b"));
  }

  @Test
  void repeatedHeaderNamesGetTheirPositionAndThenASuffixUntilNoNameCollides() throws IOException {
    FileReader reader =
        new FileReader(
            null,
            FileSource.of(view("'format' = 'csv', 'header' = 'true', 'path' = 'x'", null)),
            dir);
    Path file = dir.resolve("h.csv");
    // As Spark numbers them: a repeated name gets its position.
    Files.writeString(file, "id,A,a, ,name\n");
    assertThat(reader.csvColumns(file, "h.csv")).containsExactly("id", "A1", "a2", "_c3", "name");
    // The repeated a at position 1 would be a1, which the header's own a1 holds; a1_2 is free.
    Files.writeString(file, "a,a,a1\n");
    assertThat(reader.csvColumns(file, "h.csv")).containsExactly("a0", "a1_2", "a1");
    // A blank name is _c<i>, which may be a real header name as well; so may a suffixed name.
    Files.writeString(file, ",_c0\n");
    assertThat(reader.csvColumns(file, "h.csv")).containsExactly("_c00", "_c01");
    Files.writeString(file, "b,b,b1,b1_2\n");
    assertThat(reader.csvColumns(file, "h.csv")).containsExactly("b0", "b1_3", "b1", "b1_2");
  }

  @Test
  void aFileThatIsNotParquetInAParquetFolderIsNamedInOneClearParagraph() throws IOException {
    FileReader reader =
        new FileReader(null, FileSource.of(view("'format' = 'parquet', 'path' = 'x'", null)), dir);
    Files.writeString(dir.resolve("README.txt"), "hello, this is a readme\n");
    Files.writeString(dir.resolve("tiny"), "PAR1");
    for (String name : List.of("README.txt", "tiny")) {
      assertThatThrownBy(
              () ->
                  reader.groups(
                      FileReader.list(dir).stream().filter(f -> f.path().equals(name)).toList()))
          .isInstanceOf(MlvException.class)
          .hasMessageContaining("error[FILE_OPTION]: file '" + name + "' is not a Parquet file")
          .hasMessageContaining("hint: move it out of the folder")
          .hasMessageNotContaining("LocalInputFile")
          .hasMessageNotContaining("magic number");
    }
  }

  @Test
  void aPathThatNamesAFileIsSaidToBeAFileNotAMissingFolder() throws IOException {
    Files.createDirectories(dir.resolve("landing"));
    Files.writeString(dir.resolve("landing/orders.csv"), "id\n1\n");
    Warehouse wh = new Warehouse(dir.resolve("wh"));
    FileIngestor ingestor =
        new FileIngestor(
            () -> {
              throw new AssertionError("listing a folder needs no Spark");
            },
            wh,
            new SourceFolders(Map.of(), wh, dir));
    dev.mlv.lineage.ObjectId id = new dev.mlv.lineage.ObjectId("ws", "lh", "b", "raw");
    assertThatThrownBy(
            () ->
                ingestor.changes(
                    id,
                    FileSource.of(view("'format' = 'csv', 'path' = 'landing/orders.csv'", null))))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining(
            "error[FILE_OPTION]: source path "
                + dir.resolve("landing/orders.csv")
                + " is a file, not a folder (path 'landing/orders.csv'")
        .hasMessageNotContaining("does not exist")
        .hasMessageContaining(
            "hint: the path of a file view names the folder that holds its"
                + " files: write 'landing/'");
    assertThatThrownBy(
            () ->
                ingestor.changes(
                    id, FileSource.of(view("'format' = 'csv', 'path' = 'landing/none'", null))))
        .hasMessageContaining("source folder " + dir.resolve("landing/none") + " does not exist");
  }

  @Test
  void aPartitionColumnTheFilesDoNotGiveFailsTheRefreshInOneParagraphAtTheColumn() {
    ViewDefinition d =
        ((SqlStatement.CreateView)
                MlvParser.parse(
                        Position.start(Path.of("views/bronze/raw.sql")),
                        "CREATE MATERIALIZED LAKE VIEW b.region\nPARTITIONED BY (id, region)\n"
                            + "USING OneLake_Files OPTIONS ('format' = 'csv', 'header' = 'true',"
                            + " 'path' = 'x')")
                    .statements()
                    .get(0))
            .definition();
    StructType files =
        new StructType()
            .add("id", DataTypes.StringType)
            .add("name", DataTypes.StringType)
            .add(FileReader.PATH_COLUMN, DataTypes.StringType);
    assertThatThrownBy(() -> FileIngestor.partitionColumns("b.region", d, files, false))
        .isInstanceOf(MlvException.class)
        .hasMessage(
            "views/bronze/raw.sql:2:21: error[PARTITION_COLUMN]: refresh of b.region failed:"
                + " PARTITIONED BY column region is not a column of the view; its files give the"
                + " columns id, name, __filepath__; nothing was written\n"
                + "  hint: partition by one of those columns, or remove PARTITIONED BY and"
                + " partition a downstream view");
    StructType none = new StructType().add(FileReader.PATH_COLUMN, DataTypes.StringType);
    assertThatThrownBy(() -> FileIngestor.partitionColumns("b.region", d, none, true))
        .hasMessageContaining("the folder has no file to read yet, so its only column is");
    FileIngestor.partitionColumns("b.region", d, files.add("REGION", DataTypes.StringType), false);
  }

  @Test
  void aBinaryFileReadAsCsvIsNamedAsNotUtf8Text() throws IOException {
    Path file = dir.resolve("blob.csv");
    Files.write(file, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, '\n'});
    FileReader reader =
        new FileReader(null, FileSource.of(view("'format' = 'csv', 'path' = 'x'", null)), dir);
    assertThatThrownBy(() -> reader.csvColumns(file, "blob.csv"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining(
            "error[FILE_OPTION]: file 'blob.csv' is not UTF-8 text, so not a valid CSV file")
        .hasMessageNotContaining("Input length");
    // A bad byte far past the header, where Spark would put U+FFFD in its place without a word.
    Path late = dir.resolve("late.csv");
    StringBuilder rows = new StringBuilder("id,note\n");
    for (int i = 0; i < 2000; i++) {
      rows.append(i).append(",padding-padding\n");
    }
    byte[] head = rows.toString().getBytes(StandardCharsets.UTF_8);
    byte[] bytes = java.util.Arrays.copyOf(head, head.length + 6);
    System.arraycopy(new byte[] {'9', ',', 'J', 'o', 's', (byte) 0xe9}, 0, bytes, head.length, 6);
    Files.write(late, bytes);
    assertThatThrownBy(() -> reader.csvColumns(late, "late.csv"))
        .hasMessageContaining("file 'late.csv' is not UTF-8 text");
  }

  @Test
  void listingIsRecursiveSortedAndSkipsHiddenAndEmptyFiles() throws IOException {
    Files.createDirectories(dir.resolve("src/b/c"));
    Files.createDirectories(dir.resolve("src/_tmp"));
    Files.writeString(dir.resolve("src/b/c/x.csv"), "1");
    Files.writeString(dir.resolve("src/a.csv"), "12");
    Files.writeString(dir.resolve("src/_SUCCESS"), "");
    Files.writeString(dir.resolve("src/.a.csv.crc"), "");
    Files.writeString(dir.resolve("src/_tmp/y.csv"), "");
    Files.writeString(dir.resolve("src/b/empty.csv"), "");
    assertThat(FileReader.list(dir.resolve("src")))
        .extracting(SourceFile::path, SourceFile::size)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a.csv", 2L),
            org.assertj.core.groups.Tuple.tuple("b/c/x.csv", 1L));
  }

  @Test
  void theFirstCsvRecordHonoursQuotesAcrossLines() throws IOException {
    BufferedReader in =
        new BufferedReader(new StringReader("\uFEFFa,\"b,\"\"c\"\"\",\"d\ne\"\n1,2,3\n"));
    assertThat(FileReader.firstRecord(in, ',')).containsExactly("a", "b,\"c\"", "d\ne");
  }

  @Test
  void fixedSchemaDifferencesNameTheColumns() {
    StructType view =
        new StructType().add("id", DataTypes.IntegerType).add("name", DataTypes.StringType);
    StructType file =
        new StructType().add("ID", DataTypes.LongType).add("score", DataTypes.DoubleType);
    assertThat(FileIngestor.difference(view, file))
        .isEqualTo(
            "column score not in the view; column name missing from the file; column id is int"
                + " in the view but bigint in the file");
    Group g = new Group(file, List.of(new SourceFile("x/p.parquet", 1, 1)));
    assertThatThrownBy(
            () ->
                FileIngestor.targetSchema(
                    "b.raw",
                    FileSource.SchemaMode.DYNAMIC,
                    view.add(FileReader.PATH_COLUMN, DataTypes.StringType),
                    List.of(g),
                    false))
        .hasMessageContaining("column id is int in the view but bigint in file 'x/p.parquet'");
  }
}
