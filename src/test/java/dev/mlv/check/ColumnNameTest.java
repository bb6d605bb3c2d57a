package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** COLUMN_NAME: names Delta refuses, each case measured with apply on Spark 4.1.1 and Delta. */
class ColumnNameTest {
  @TempDir Path dir;

  /**
   * The COLUMN_NAME findings of gold.g written {@code gold}, with {@code viewConfig} under
   * view_config; silver.a selects a column _change_type with change data feed off.
   */
  private List<String> check(String gold, String viewConfig) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\n"
            + "sources: [bronze.orders]\n"
            + "view_config:\n  silver.a:\n    enable_cdf: false\n"
            + viewConfig);
    write(
        "silver/a.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.a AS\n"
            + "SELECT id, status AS _change_type FROM bronze.orders\n");
    write("gold/g.sql", gold + "\n");
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project).stream()
        .filter(d -> d.ruleId().equals("COLUMN_NAME"))
        .map(d -> d.position() + " " + d.message() + " | " + d.hint())
        .toList();
  }

  private void write(String name, String text) throws IOException {
    Path f = dir.resolve("views").resolve(name);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }

  /**
   * Found by QA: a view with a column named _change_type passed validate, and its first refresh
   * failed with [DELTA_TABLE_ALREADY_CONTAINS_CDC_COLUMNS], as mlv turns change data feed on.
   */
  @Test
  void aColumnNamedLikeChangeDataFeedsOwnIsAnErrorWhenTheViewHasItOn() throws IOException {
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
                    + "SELECT id, status AS _change_type, _commit_version FROM bronze.orders",
                ""))
        .containsExactly(
            "views/gold/g.sql:2:12 column name _change_type: change data feed, which gold.g has on"
                + " (enable_cdf, the default), reserves that name, and Delta refuses the view at"
                + " its first refresh ([DELTA_TABLE_ALREADY_CONTAINS_CDC_COLUMNS]) | rename the"
                + " column with AS (for example change_type), or set enable_cdf: false for this"
                + " view under view_config (views reading it then refresh in full)",
            "views/gold/g.sql:2:36 column name _commit_version: change data feed, which gold.g has"
                + " on (enable_cdf, the default), reserves that name, and Delta refuses the view"
                + " at its first refresh ([DELTA_TABLE_ALREADY_CONTAINS_CDC_COLUMNS]) | rename"
                + " the column with AS (for example commit_version), or set enable_cdf: false for"
                + " this view under view_config (views reading it then refresh in full)");
    // Through a * over a view whose columns are known, at the *.
    assertThat(check("CREATE MATERIALIZED LAKE VIEW gold.g AS\nSELECT * FROM silver.a", ""))
        .singleElement()
        .asString()
        .startsWith(
            "views/gold/g.sql:2:8 * selects a column named _change_type (from silver.a): change"
                + " data feed");
    // Turned on in TBLPROPERTIES, where enable_cdf is off.
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g\n"
                    + "TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')\n"
                    + "AS SELECT id, ts AS _commit_timestamp FROM bronze.orders",
                "  gold.g:\n    enable_cdf: false\n"))
        .singleElement()
        .asString()
        .contains("which gold.g turns on in TBLPROPERTIES")
        .endsWith("remove delta.enableChangeDataFeed from TBLPROPERTIES");
    // Change data feed off (enable_cdf, or TBLPROPERTIES over enable_cdf), or another case of
    // the name: Delta stores the column.
    String named = "SELECT id, status AS _change_type FROM bronze.orders";
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + named,
                "  gold.g:\n    enable_cdf: false\n"))
        .isEmpty();
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g\n"
                    + "TBLPROPERTIES ('delta.enableChangeDataFeed' = 'false')\nAS "
                    + named,
                ""))
        .isEmpty();
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
                    + "SELECT id, ts AS _COMMIT_TIMESTAMP, status AS `_Change_Type` FROM"
                    + " bronze.orders",
                ""))
        .isEmpty();
  }

  /**
   * Found by QA: SELECT id, DATE'2026-01-01' FROM t passed validate, and its first refresh failed
   * with [DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES]: Spark names the column DATE '2026-01-01'.
   */
  @Test
  void anUnaliasedDateOrTimestampLiteralIsAnError() throws IOException {
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
                    + "SELECT id, DATE'2026-01-01', timestamp '2026-01-01 00:00:00',\n"
                    + "  TIMESTAMP_NTZ'2026-01-01 00:00:00' FROM bronze.orders",
                ""))
        .containsExactly(
            "views/gold/g.sql:2:12 the literal DATE'2026-01-01' has no alias: Spark names its"
                + " column after its type and value, DATE '...', with a space, which Delta refuses"
                + " in a column name ([DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES]) | give it a"
                + " name: DATE'2026-01-01' AS some_name",
            "views/gold/g.sql:2:30 the literal timestamp '2026-01-01 00:00:00' has no alias:"
                + " Spark names its column after its type and value, TIMESTAMP '...', with a"
                + " space, which Delta refuses in a column name"
                + " ([DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES]) | give it a name: timestamp"
                + " '2026-01-01 00:00:00' AS some_name",
            "views/gold/g.sql:3:3 the literal TIMESTAMP_NTZ'2026-01-01 00:00:00' has no alias:"
                + " Spark names its column after its type and value, TIMESTAMP_NTZ '...', with a"
                + " space, which Delta refuses in a column name"
                + " ([DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES]) | give it a name:"
                + " TIMESTAMP_NTZ'2026-01-01 00:00:00' AS some_name");
    // Named, or a literal Spark names without a space (X'01', 1.5BD, 1e3, true): stored.
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
                    + "SELECT id, DATE'2026-01-01' AS d, X'01', 1.5BD, 1e3, true FROM"
                    + " bronze.orders",
                ""))
        .isEmpty();
  }
}
