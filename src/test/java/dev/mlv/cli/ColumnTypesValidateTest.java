package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A column whose type, fixed by the SELECT's text, a Delta table cannot store: validate reports it
 * at the column, and apply refuses it before Spark starts (it failed at the view's first refresh,
 * with DELTA_UNSUPPORTED_DATA_TYPES or UNSUPPORTED_TIME_TYPE at 1:1).
 */
class ColumnTypesValidateTest {
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
  void anIntervalTimeOrTypelessNullColumnIsAnErrorAtTheColumn() throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources:\n  - bronze.orders\n");
    write(
        "silver/grace",
        "SELECT id, INTERVAL 3 DAYS AS grace, CAST(wait AS INTERVAL HOUR TO MINUTE) AS wait\n"
            + "FROM bronze.orders");
    write(
        "silver/slots",
        "SELECT id, to_time(slot) AS slot, make_interval(0, 1) AS cycle\nFROM bronze.orders");
    write("silver/extras", "SELECT *, NULL AS note, array() AS tags FROM bronze.orders");
    // Types the text does not fix, and types Delta stores: not reported.
    write(
        "silver/fine",
        "SELECT id, shipped - ordered AS lead_time, ordered + INTERVAL 3 DAYS AS due,\n"
            + "  CAST(NULL AS STRING) AS note, parse_json(payload) AS payload FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    Golden.assertMatches("validate-column-types.txt", r.out());
    CliRun apply = CliRun.of("apply", "--auto-approve", "-p", dir.toString());
    assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(apply.err()).contains("error[COLUMN_TYPE]: column grace is of type INTERVAL DAY");
  }
}
