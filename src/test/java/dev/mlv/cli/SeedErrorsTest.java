package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seed file that cannot be loaded is an error about the file (at its header or record when that
 * is known), not an internal error with Spark's text, and a failed seed leaves nothing behind.
 */
class SeedErrorsTest {
  @TempDir static Path project;

  @BeforeAll
  static void project() throws IOException {
    Files.createDirectories(project.resolve("seeds"));
    Files.writeString(
        project.resolve("mlv.yml"),
        """
        name: seeds
        workspace: ws
        lakehouse: lh
        schema: dbo
        views: [views]
        sources:
          - name: bronze.s_empty
            seed: seeds/empty.csv
          - name: bronze.s_ragged
            seed: seeds/ragged.csv
          - name: bronze.s_fake
            seed: seeds/fake.parquet
            format: parquet
          - name: bronze.s_names
            seed: seeds/names.csv
          - name: bronze.s_rfc
            seed: seeds/rfc.csv
          - name: bronze.s_unclosed
            seed: seeds/unclosed.csv
          - name: bronze.s_dup
            seed: seeds/dup.csv
        targets:
          local:
            type: spark
            warehouse: .mlv/warehouse
            master: local[1]
        """);
    Files.createDirectories(project.resolve("views"));
    Files.writeString(project.resolve("seeds/empty.csv"), "");
    Files.writeString(project.resolve("seeds/ragged.csv"), "a,b\n1,2,3\n4\n");
    Files.writeString(
        project.resolve("seeds/rfc.csv"),
        "id,name,note\n1,\"Smith, John\",\"multi\nline note\"\n2,plain,\"has \"\"quotes\"\"\"\n"
            + "3,\"\",\n\"\",empty id,\n");
    Files.writeString(project.resolve("seeds/unclosed.csv"), "a,b\n1,\"oops\n2,3\n");
    // The same name twice: shown at its second place (found by QA: it pointed at the first).
    Files.writeString(project.resolve("seeds/dup.csv"), "val,a, val,A\n1,2,3,4\n");
    Files.writeString(project.resolve("seeds/fake.parquet"), "not parquet");
    Files.writeString(project.resolve("seeds/names.csv"), "id,name\n1,x\n");
  }

  private static Path table(String name) {
    return project.resolve(".mlv/warehouse/lh.Lakehouse/Tables/bronze/" + name);
  }

  private static void assertPlainError(CliRun r) {
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err())
        .doesNotContain("internal error")
        .doesNotContain("Exception")
        .doesNotContain("SQLSTATE")
        .doesNotContain("org.apache");
  }

  @Test
  void aMisspeltSourceSuggestsTheNearestSeededOne() {
    CliRun r = CliRun.inProject(project, "seed", "bronze.s_rgged");
    assertPlainError(r);
    assertThat(r.err())
        .contains(
            "error[SEED_UNKNOWN]: no source named 'bronze.s_rgged' with a seed file in mlv.yml;"
                + " did you mean 'bronze.s_ragged'?");
    assertThat(table("s_rgged")).doesNotExist();
  }

  @Test
  void anEmptyCsvSaysItHasNoHeaderAtItsFirstLine() {
    CliRun r = CliRun.inProject(project, "seed", "bronze.s_empty");
    assertPlainError(r);
    assertThat(r.err())
        .contains(
            "seeds/empty.csv:1:1: error[SEED_EMPTY]: seed file for bronze.s_empty has no header");
    assertThat(table("s_empty")).doesNotExist();
  }

  @Test
  void aRaggedCsvNamesTheRecordAndLeavesNoDataFolder() {
    CliRun r = CliRun.inProject(project, "seed", "bronze.s_ragged");
    assertPlainError(r);
    assertThat(r.err())
        .contains("seeds/ragged.csv:2:1: error[SEED_MALFORMED]: malformed CSV record '1,2,3'");
    assertThat(table("s_ragged")).doesNotExist();
  }

  @Test
  void aFileThatIsNoParquetSaysSo() {
    CliRun r = CliRun.inProject(project, "seed", "bronze.s_fake");
    assertPlainError(r);
    assertThat(r.err())
        .contains(
            "seeds/fake.parquet:1:1: error[SEED_FORMAT]: seed file seeds/fake.parquet for"
                + " bronze.s_fake is not a Parquet");
    assertThat(table("s_fake")).doesNotExist();
  }

  @Test
  void aBadReseedPointsAtTheColumnOrRecordAndKeepsTheTable() throws IOException {
    Path csv = project.resolve("seeds/names.csv");
    Files.writeString(csv, "id,name\n1,x\n");
    CliRun first = CliRun.inProject(project, "seed", "bronze.s_names");
    assertThat(first.exitCode()).as(first.toString()).isZero();
    try (var files = Files.list(table("s_names"))) {
      long before = files.count();

      Files.writeString(csv, "id,formula name (v2),family\nX,Y,Z\n");
      CliRun badName = CliRun.inProject(project, "seed", "bronze.s_names");
      assertPlainError(badName);
      assertThat(badName.err())
          .contains("seeds/names.csv:1:4: error[SEED_COLUMN]: column name 'formula name (v2)'");

      Files.writeString(csv, "id,name\n1,x\n2,y,z\n");
      CliRun ragged = CliRun.inProject(project, "seed", "bronze.s_names");
      assertPlainError(ragged);
      assertThat(ragged.err()).contains("seeds/names.csv:3:1: error[SEED_MALFORMED]");
      try (var after = Files.list(table("s_names"))) {
        assertThat(after.count()).as("no data file of the failed loads").isEqualTo(before);
      }
    }
    CliRun rows = CliRun.inProject(project, "sql", "SELECT count(*) AS n FROM bronze.s_names");
    assertThat(rows.out()).as(rows.toString()).contains("\n1\n(1 row)");
  }

  @Test
  void aCsvIsReadAsSpreadsheetsWriteItAndAnUnclosedQuoteOrATwiceNamedColumnIsAnError() {
    CliRun ok = CliRun.inProject(project, "seed", "bronze.s_rfc");
    assertThat(ok.exitCode()).as(ok.toString()).isZero();
    CliRun rows =
        CliRun.inProject(
            project,
            "sql",
            "SELECT id, name, note FROM bronze.s_rfc ORDER BY id",
            "--format",
            "json");
    assertThat(rows.out())
        .as(rows.toString())
        .contains("\"name\" : \"Smith, John\"")
        .contains("\"note\" : \"multi\\nline note\"")
        .contains("\"note\" : \"has \\\"quotes\\\"\"")
        // Spark's CSV reader reads a quoted empty field as NULL too.
        .contains("\"id\" : 3,\n  \"name\" : null,\n  \"note\" : null")
        // and "" in a number column is a NULL number, not a failed load.
        .contains("\"id\" : null,\n  \"name\" : \"empty id\"");

    CliRun unclosed = CliRun.inProject(project, "seed", "bronze.s_unclosed");
    assertPlainError(unclosed);
    assertThat(unclosed.err())
        .contains("seeds/unclosed.csv:2:3: error[SEED_MALFORMED]: the quote opened here");
    assertThat(table("s_unclosed")).doesNotExist();

    CliRun dup = CliRun.inProject(project, "seed", "bronze.s_dup");
    assertPlainError(dup);
    assertThat(dup.err())
        .contains(
            "seeds/dup.csv:1:8: error[SEED_COLUMN]: the header of the seed file for bronze.s_dup names column 'val' twice");
  }

  @Test
  void everyBadSeedFileIsSaidAtOnceAndTheGoodOnesAreLoaded() {
    CliRun all = CliRun.inProject(project, "seed");
    assertPlainError(all);
    assertThat(all.err())
        .contains("seeds/empty.csv:1:1: error[SEED_EMPTY]")
        .contains("seeds/ragged.csv:2:1: error[SEED_MALFORMED]")
        .contains("error[SEED_FORMAT]: seed file seeds/fake.parquet")
        .contains("seeds/unclosed.csv:2:3: error[SEED_MALFORMED]")
        .contains("seeds/dup.csv:1:8: error[SEED_COLUMN]");
    assertThat(all.out()).contains("seeded bronze.s_names").contains("seeded bronze.s_rfc");
  }
}
