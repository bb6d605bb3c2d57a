package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan and apply check the columns views read from the sources the local warehouse holds, from
 * their Delta logs: a view reading a column its source lacks passed validate and plan, and apply
 * failed with Spark's UNRESOLVED_COLUMN after it had turned change data feed on and replaced other
 * views (found by QA).
 */
class SourceColumnsPlanTest {
  @TempDir Path dir;

  /**
   * A project with source bronze.orders (id, amount) in its warehouse, a Delta table of one commit
   * written as Delta writes it, so that no test here starts Spark; silver.s selects * from it.
   */
  static Path project(Path dir, String gold) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\nviews: [views]\n"
            + "sources: [bronze.orders]\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n");
    Path log = dir.resolve(".mlv/warehouse/lh.Lakehouse/Tables/bronze/orders/_delta_log");
    Files.createDirectories(log);
    String schema =
        "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":["
            + "{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"integer\\\",\\\"nullable\\\":true,"
            + "\\\"metadata\\\":{}},"
            + "{\\\"name\\\":\\\"amount\\\",\\\"type\\\":\\\"double\\\",\\\"nullable\\\":true,"
            + "\\\"metadata\\\":{}}]}";
    Files.writeString(
        log.resolve("00000000000000000000.json"),
        "{\"commitInfo\":{\"timestamp\":1767225600000,\"operation\":\"CREATE TABLE\","
            + "\"operationParameters\":{},\"isBlindAppend\":true}}\n"
            + "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n"
            + "{\"metaData\":{\"id\":\"4a1c7a3e-0000-4000-8000-000000000001\","
            + "\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":\""
            + schema
            + "\",\"partitionColumns\":[],\"configuration\":{},\"createdTime\":1767225600000}}\n");
    Path views = dir.resolve("views");
    Files.createDirectories(views);
    Files.writeString(
        views.resolve("s.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.s AS SELECT * FROM bronze.orders\n");
    Files.writeString(views.resolve("g.sql"), "CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + gold);
    return dir;
  }

  @Test
  void planAndApplyRefuseAColumnTheSourceBehindAStarLacksBeforeChangingAnything()
      throws IOException {
    project(dir, "SELECT id, amout FROM silver.s\n");
    assertThat(CliRun.inProject(dir, "validate").exitCode()).isZero();
    String error =
        "views/g.sql:2:12: error[UNRESOLVED_COLUMN]: column amout cannot be resolved: silver.s"
            + " (views/s.sql) does not produce amout, only id, amount; Spark would refuse gold.g"
            + " when apply or refresh runs it ([UNRESOLVED_COLUMN.WITH_SUGGESTION])\n"
            + "  hint: did you mean 'amount'? If not, select amout in silver.s";
    CliRun plan = CliRun.inProject(dir, "plan");
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(plan.err()).contains(error).doesNotContain("\tat ");
    assertThat(plan.out()).isEmpty();

    CliRun apply = CliRun.inProject(dir, "apply", "--auto-approve");
    assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(apply.err()).contains(error);
    // Nothing changed: the source has its one commit (no change data feed turned on), no view.
    Path tables = dir.resolve(".mlv/warehouse/lh.Lakehouse/Tables");
    try (Stream<Path> files = Files.list(tables.resolve("bronze/orders/_delta_log"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .containsExactly("00000000000000000000.json");
    }
    assertThat(tables.resolve("silver")).doesNotExist();
    assertThat(tables.resolve("dbo")).doesNotExist();
  }

  @Test
  void aViewReadingWhatItsSourceHasIsPlanned() throws IOException {
    project(dir, "SELECT id, AMOUNT AS a FROM silver.s\n");
    CliRun plan = CliRun.inProject(dir, "plan");
    assertThat(plan.exitCode()).as(plan.toString()).isZero();
    assertThat(plan.out()).contains("+ create").contains("silver.s").contains("gold.g");
  }
}
