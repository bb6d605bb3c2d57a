package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate expands {@code *} over views of the project whose columns are known: a column name it
 * repeats (which Spark refused at apply with COLUMN_ALREADY_EXISTS) and a column read from such a
 * view that it does not produce.
 */
class StarColumnsValidateTest {
  @TempDir Path dir;

  private void write(String name, String select) throws IOException {
    Path f = dir.resolve("views").resolve(name + ".sql");
    Files.createDirectories(f.getParent());
    Files.writeString(
        f,
        "CREATE MATERIALIZED LAKE VIEW " + name.replace('/', '.') + " AS\n" + select + "\n",
        StandardCharsets.UTF_8);
  }

  @Test
  void aStarThatRepeatsAColumnNameIsAnErrorAtTheStar() throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources:\n  - bronze.orders\n");
    write("silver/a", "SELECT id, amount FROM bronze.orders");
    write("silver/b", "SELECT id, amount * 2 AS total FROM bronze.orders");
    write("gold/self_join", "SELECT * FROM silver.a x JOIN silver.a y ON x.id = y.id");
    write("gold/both", "SELECT x.*, y.* FROM silver.a x JOIN silver.b y ON x.id = y.id");
    write("gold/plus_id", "SELECT *, id FROM silver.a");
    // Spark keeps a USING or NATURAL join's columns once: these are fine.
    write("gold/using_join", "SELECT * FROM silver.a JOIN silver.b USING (id)");
    write("gold/natural_join", "SELECT * FROM silver.a NATURAL JOIN silver.b");
    // silver.a's columns through a *, read by a typo.
    write("silver/all_a", "SELECT * FROM silver.a");
    write("gold/reader", "SELECT id, amt FROM silver.all_a");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    Golden.assertMatches("validate-star-columns.txt", r.out());
  }
}
