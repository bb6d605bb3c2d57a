package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An ON MISMATCH FAIL rule broken by appended rows names them as mlv sql shows values. */
class FailRuleRowsTest {
  @TempDir Path dir;

  private CliRun ok(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "-p";
    all[args.length + 1] = dir.toString();
    CliRun r = CliRun.of(all);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  @Test
  void anIncrementalRefreshBrokenByANewRowShowsItsValues() throws IOException {
    Files.createDirectories(dir.resolve("views"));
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: ff\nworkspace: ff_ws\nlakehouse: ff_lh\nschema: dbo\nviews: [views]\n"
            + "sources:\n  - name: bronze.t\n"
            + "targets:\n  local: {type: spark, warehouse: .mlv/warehouse, master: \"local[2]\"}\n");
    Files.writeString(
        dir.resolve("views/f.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.f (CONSTRAINT ok CHECK (id <> 99) ON MISMATCH FAIL)"
            + " AS SELECT id, b, arr FROM bronze.t\n");
    ok("sql", "CREATE SCHEMA IF NOT EXISTS bronze");
    ok("sql", "CREATE TABLE bronze.t (id INT, b BINARY, arr ARRAY<STRING>) USING delta");
    ok("sql", "INSERT INTO bronze.t SELECT id, X'00', array('a') FROM range(1000, 3000)");
    ok("apply", "--auto-approve", "--quiet");
    ok("sql", "INSERT INTO bronze.t SELECT 99, X'CAFE00', array('a', NULL)");

    CliRun r = CliRun.of("refresh", "-p", dir.toString(), "--quiet");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("incremental ONLY_APPENDS")
        .contains("is not met by row id=99, b=[CA FE 00], arr=[a, NULL]");
  }
}
