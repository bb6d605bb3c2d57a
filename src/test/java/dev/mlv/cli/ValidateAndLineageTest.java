package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateAndLineageTest {
  private static final String MEDALLION = "examples/medallion";

  @TempDir Path dir;

  private Path project(String yml, String... files) throws IOException {
    Files.writeString(dir.resolve("mlv.yml"), yml, StandardCharsets.UTF_8);
    // The view folder exists even when a test gives no view file: it must (see ProjectLoader).
    Files.createDirectories(dir.resolve("views"));
    for (int i = 0; i < files.length; i += 2) {
      Path f = dir.resolve("views").resolve(files[i]);
      Files.createDirectories(f.getParent());
      Files.writeString(f, files[i + 1], StandardCharsets.UTF_8);
    }
    return dir;
  }

  private static final String YML =
      """
      name: t
      workspace: ws
      lakehouse: lh
      schema: dbo
      sources:
        - bronze.orders
      """;

  @Test
  void theMedallionIsValid() {
    CliRun r = CliRun.of("validate", "-p", MEDALLION);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    Golden.assertMatches("validate-medallion.txt", r.out());
  }

  @Test
  void lineageOfTheMedallionInEveryFormat() {
    Golden.assertMatches(
        "lineage-medallion.dot", CliRun.of("lineage", "-p", MEDALLION, "--dot").out());
    Golden.assertMatches(
        "lineage-medallion.json", CliRun.of("lineage", "-p", MEDALLION, "--format", "json").out());
    Golden.assertMatches(
        "lineage-medallion.mmd",
        CliRun.of("lineage", "-p", MEDALLION, "--format", "mermaid").out());
    Golden.assertMatches(
        "lineage-medallion.txt", CliRun.of("lineage", "-p", MEDALLION, "--format", "text").out());
    Golden.assertMatches(
        "lineage-medallion-gold-ancestors.txt",
        CliRun.of("lineage", "-p", MEDALLION, "+gold.formula_preference", "--format", "text")
            .out());
    // One view alone: in its layer of the whole graph, with what it reads.
    assertThat(CliRun.of("lineage", "-p", MEDALLION, "gold.formula_preference").out())
        .isEqualTo(
            "layer 2\n  view  gold.formula_preference  (views/gold/formula_preference.sql:2)"
                + "  <- bronze.formulas, silver.trials_clean\n");
    assertThat(CliRun.of("lineage", "-p", MEDALLION, "--format", "JSON").exitCode()).isZero();
    assertThat(CliRun.of("lineage", "-p", MEDALLION, "--dot", "--format", "json").exitCode())
        .isEqualTo(ExitCodes.USAGE);
    // A tag with its descendants; a selector that cannot be read is a usage error.
    assertThat(CliRun.of("lineage", "-p", MEDALLION, "tag:quality+", "--format", "text").out())
        .contains("silver.trials_clean")
        .contains("gold.formula_preference")
        .doesNotContain("\n  table");
    CliRun bad = CliRun.of("lineage", "-p", MEDALLION, "colour:red");
    assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(bad.err())
        .contains("unknown selector method 'colour:'")
        .contains("Try 'mlv lineage --help'.");
  }

  @Test
  void lineageWritesNamesAsSelectorsTakeThemSoEachPastesBack() throws IOException {
    project(
        YML,
        "silver/a.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.`clean orders`
        AS SELECT * FROM `raw data`.`orders "2024"`
        """,
        "silver/b.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.`a\\b:c,d`
        AS SELECT * FROM silver.`clean orders`
        """);
    CliRun text = CliRun.of("lineage", "-p", dir.toString(), "--format", "text");
    assertThat(text.out())
        .contains("  table `raw data`.`orders \"2024\"`\n")
        .contains("  view  silver.`clean orders`  (views/silver/a.sql:1)  <- `raw data`.`orders")
        .contains("  view  silver.`a\\b:c,d`  (views/silver/b.sql:1)  <- silver.`clean orders`");
    CliRun names = CliRun.of("lineage", "-p", dir.toString(), "--format", "names");
    assertThat(names.out().lines())
        .containsExactly(
            "bronze.orders",
            "`raw data`.`orders \"2024\"`",
            "silver.`a\\b:c,d`",
            "silver.`clean orders`");
    // every name printed selects that node, a colon or comma between backticks included
    for (String name : names.out().lines().toList()) {
      CliRun back = CliRun.of("lineage", "-p", dir.toString(), "--format", "names", name);
      assertThat(back.out()).as(back.toString()).isEqualTo(name + "\n");
    }
    assertThat(
            CliRun.of("lineage", "-p", dir.toString(), "--format", "names", "--views-only")
                .out()
                .lines())
        .containsExactly("silver.`a\\b:c,d`", "silver.`clean orders`");
    assertThat(CliRun.of("explain", "-p", dir.toString(), "silver.`a\\b:c,d`").exitCode()).isZero();
  }

  /**
   * Plan, the refresh report and "did you mean" show a name that needs quoting as lineage does, so
   * it pastes back as a selector (found by QA: they printed {@code gold.my view}, and {@code did
   * you mean 'gold.it's "q"'?}).
   */
  @Test
  void planRunsAndSuggestionsQuoteNamesAsLineageDoes() throws IOException {
    project(
        YML,
        "gold/a.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.`my view` AS SELECT * FROM bronze.orders",
        "gold/b.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.`it's \"q\"` AS SELECT * FROM gold.`my view`");
    String p = dir.toString();
    String plan = CliRun.of("plan", "-p", p).out();
    assertThat(plan)
        .contains("  + create   gold.`my view`  ")
        .contains("  + create   gold.`it's \"q\"`  ")
        .doesNotContain("gold.my view");
    CliRun dry = CliRun.of("refresh", "--dry-run", "-p", p);
    assertThat(dry.out())
        .contains("  Planned   gold.`my view`  ")
        .contains("upstream gold.`my view` will fail")
        .doesNotContain("gold.my view");
    CliRun junit = CliRun.of("refresh", "--dry-run", "--format", "junit", "-p", p);
    assertThat(junit.out()).contains("classname=\"gold.`my view`\"");

    CliRun typo = CliRun.of("lineage", "-p", p, "gold.its \"q\"");
    assertThat(typo.err()).contains("did you mean 'gold.`it's \"q\"`'?");
    String suggested = typo.err().replaceAll("(?s).*did you mean '(.*)'\\?.*", "$1");
    CliRun back = CliRun.of("lineage", "-p", p, "--format", "names", suggested);
    assertThat(back.out()).as(back.toString()).isEqualTo(suggested + "\n");
  }

  @Test
  void mermaidLabelsEscapeWhatMermaidReadsAsHtmlOrEntities() throws IOException {
    project(
        YML,
        "silver/a.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.`<b>x</b> & "#quot;"`
        AS SELECT * FROM bronze.orders
        """);
    CliRun r = CliRun.of("lineage", "-p", dir.toString(), "--format", "mermaid");
    assertThat(r.out())
        .contains("([\"#lt;b#gt;x#lt;/b#gt; #amp; #quot;#35;quot;#quot;\"])")
        .doesNotContain("<b>");
  }

  @Test
  void theFileFedMedallionIsValidAndShowsItsFolderAsAFilesNode() {
    String project = "examples/medallion-files";
    CliRun r = CliRun.of("validate", "-p", project);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    Golden.assertMatches(
        "lineage-medallion-files.txt",
        CliRun.of("lineage", "-p", project, "--format", "text").out());
    Golden.assertMatches(
        "lineage-medallion-files.mmd",
        CliRun.of("lineage", "-p", project, "--format", "mermaid").out());
    Golden.assertMatches(
        "lineage-medallion-files.dot", CliRun.of("lineage", "-p", project, "--dot").out());
    Golden.assertMatches(
        "lineage-medallion-files.json",
        CliRun.of("lineage", "-p", project, "--format", "json").out());
  }

  @Test
  void fileViewSettingsWrittenAsOptionsPointToTblproperties() throws IOException {
    project(
        YML,
        "bronze/files.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.raw
        USING OneLake_Files
        OPTIONS ('format' = 'csv',
                 'path' = 'abfss://w@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/in/',
                 'refresh_mode' = 'MIRROR', 'header' = 'yes')
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/bronze/files.sql:5:10: error[FILE_OPTION]: unsupported option 'refresh_mode'")
        .contains("hint: refresh_mode is a table property: write it in TBLPROPERTIES")
        .contains("views/bronze/files.sql:5:37: error[FILE_OPTION]: header must be 'true' or");
  }

  @Test
  void aHeaderlessCsvFileViewPartitionedByAColumnItCannotHaveIsAnErrorAtTheColumn()
      throws IOException {
    String url = "abfss://w@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/in/";
    project(
        YML,
        "bronze/files.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.region_raw
        COMMENT 'by region'
        PARTITIONED BY (_C1, region, `__filepath__`)
        USING OneLake_Files
        OPTIONS ('format' = 'csv', 'path' = '%s')
        """
            .formatted(url),
        "bronze/named.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.named
        PARTITIONED BY (region)
        USING OneLake_Files
        OPTIONS ('format' = 'csv', 'header' = 'true', 'path' = '%s')
        """
            .formatted(url));
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/bronze/files.sql:3:22: error[PARTITION_COLUMN]: PARTITIONED BY column region is"
                + " not a column of this file view: a CSV file view without 'header' = 'true' has"
                + " the columns _c0, _c1, ... and __filepath__")
        .contains("hint: partition by one of those, or set 'header' = 'true'")
        // With a header the columns come from the files: only the refresh can tell.
        .doesNotContain("named.sql")
        .contains("invalid: 2 files, 2 views, 1 error");
  }

  /**
   * A view named like the lineage id of a folder a file view reads was the same node: the file view
   * waited for it and was skipped when it failed (found by QA).
   */
  @Test
  void aTableNamedLikeAFileViewsFolderIsAnError() throws IOException {
    project(
        YML,
        "bronze/files.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.raw
        USING OneLake_Files
        OPTIONS ('format' = 'csv',
                 'path' = 'abfss://ws@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/orders/')
        """,
        "files/orders.sql",
        "CREATE MATERIALIZED LAKE VIEW files.orders AS SELECT 1 AS id\n",
        "silver/reader.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.reader AS SELECT id FROM files.orders\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/files/orders.sql:1:1: error[FILES_NAME_CLASH]: files.orders is also the lineage"
                + " name of folder 'abfss://ws@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/orders/',"
                + " which bronze.raw reads (views/bronze/files.sql:1:1); mlv cannot tell the table"
                + " from the folder")
        .contains("invalid: 3 files, 3 views, 1 error");
  }

  /** Two folders that differ only in case were one lineage node (found by QA). */
  @Test
  void twoFoldersThatDifferOnlyInCaseAreAnError() throws IOException {
    String url = "abfss://ws@onelake.dfs.fabric.microsoft.com/LH.Lakehouse/Files/";
    project(
        YML,
        "bronze/a.sql",
        "CREATE MATERIALIZED LAKE VIEW bronze.a USING OneLake_Files\n"
            + "OPTIONS ('format' = 'csv', 'path' = '"
            + url
            + "a/b/')\n",
        "bronze/b.sql",
        "CREATE MATERIALIZED LAKE VIEW bronze.b USING OneLake_Files\n"
            + "OPTIONS ('format' = 'csv', 'path' = '"
            + url
            + "A/B')\n",
        "bronze/c.sql",
        "CREATE MATERIALIZED LAKE VIEW bronze.c USING OneLake_Files\n"
            + "OPTIONS ('format' = 'csv', 'path' = '"
            + url.replace("LH.", "lh.")
            + "a/b')\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    // The same folder read twice (the lakehouse's case aside) is no finding; A/B is.
    assertThat(r.out())
        .contains(
            "views/bronze/b.sql:2:28: error[FILES_NAME_CLASH]: folder '"
                + url
                + "A/B' differs only in case from '"
                + url
                + "a/b/', which bronze.a reads")
        .contains("invalid: 3 files, 3 views, 1 error");
  }

  /**
   * A URL of another scheme was taken for a local folder named like its scheme (s3:/bucket/x) and
   * could never be read, with only a warning from validate (found by QA).
   */
  @Test
  void aFileViewPathThatIsAnotherKindOfUrlIsAnError() throws IOException {
    for (String path : List.of("s3://bucket/x/", "https://host/x/", "file:///data/drops/")) {
      project(
          YML,
          "bronze/files.sql",
          """
          CREATE MATERIALIZED LAKE VIEW bronze.raw
          USING OneLake_Files
          OPTIONS ('format' = 'csv', 'path' = '%s')
          """
              .formatted(path));
      CliRun r = CliRun.of("validate", "-p", dir.toString());
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(r.out())
          .contains(
              "views/bronze/files.sql:3:28: error[FILE_OPTION]: source path '"
                  + path
                  + "' is a URL of another kind than OneLake's");
    }
  }

  @Test
  void aFileViewPathThatClimbsOutOfFilesIsAnErrorAtThePath() throws IOException {
    project(
        YML,
        "bronze/files.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.raw
        USING OneLake_Files
        OPTIONS ('format' = 'csv',
                 'path' = 'abfss://w@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/in/../../../x/')
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("views/bronze/files.sql:4:10: error[FILE_PATH_DOTS]: source path")
        .contains("has a '.' or '..' segment");
  }

  @Test
  void aPlainFileViewPathThatLeavesTheProjectIsSaidToInTheWarning() throws IOException {
    project(
        YML,
        "bronze/files.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.outside
        USING OneLake_Files
        OPTIONS ('format' = 'csv', 'path' = '../shared/drops');
        CREATE MATERIALIZED LAKE VIEW bronze.inside
        USING OneLake_Files
        OPTIONS ('format' = 'csv', 'path' = 'landing/../orders')
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.out())
        .contains(
            "views/bronze/files.sql:3:28: warning[FILE_PATH_LOCAL]: source path '../shared/drops'"
                + " is not a OneLake URL and leads out of the project folder; only the local"
                + " target reads it, from wherever that folder is on this machine")
        .contains("hint: copy the files into a folder of the project")
        .contains(
            "views/bronze/files.sql:6:28: warning[FILE_PATH_LOCAL]: source path"
                + " 'landing/../orders' is not a OneLake URL; only the local target reads it\n");
  }

  @Test
  void columnNamesDeltaCannotStoreAreErrorsAtTheColumn() throws IOException {
    String view =
        """
        CREATE MATERIALIZED LAKE VIEW gold.sums
        AS SELECT cat, SUM(amt), amt AS `my amt`, -amt AS neg, arr[0], s.f, -1, explode(arr),
                  CASE WHEN amt > 0 THEN 1 END, CAST(amt AS STRING), 'a b', 'fine'
        FROM bronze.orders GROUP BY cat, amt, arr, s
        """;
    project(YML, "gold/sums.sql", view);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/gold/sums.sql:2:16: error[COLUMN_NAME]: the expression SUM(amt) has no alias")
        .contains("hint: give it a name: SUM(amt) AS some_name")
        .contains("views/gold/sums.sql:2:26: error[COLUMN_NAME]: column name 'my amt'")
        .contains("hint: rename it (for example my_amt)")
        .contains("views/gold/sums.sql:3:11: error[COLUMN_NAME]: the expression CASE WHEN")
        // Spark names a string's column after its value.
        .contains("views/gold/sums.sql:3:62: error[COLUMN_NAME]: column name 'a b'")
        .contains("invalid: 1 file, 1 view, 4 errors");

    // Under column mapping Delta stores any name.
    project(
        YML + "view_config:\n  gold.sums: {enable_cdf: false}\n",
        "gold/sums.sql",
        view.replace(
            "AS SELECT", "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')\nAS SELECT"));
    CliRun mapped = CliRun.of("validate", "-p", dir.toString());
    assertThat(mapped.exitCode()).as(mapped.toString()).isEqualTo(ExitCodes.OK);
  }

  @Test
  void whatTheSelectListShowsIsCheckedBeforeAnyRefresh() throws IOException {
    project(
        YML,
        "gold/b.sql",
        """
        CREATE MATERIALIZED LAKE VIEW gold.b
        (CONSTRAINT c CHECK (total >) ON MISMATCH DROP)
        PARTITIONED BY (nosuch)
        AS SELECT cust, total, o.TOTAL FROM bronze.orders o
        """,
        "gold/star.sql",
        """
        CREATE MATERIALIZED LAKE VIEW gold.star
        (CONSTRAINT ok CHECK (total > 0 AND cust RLIKE '^[a-z]+$'))
        PARTITIONED BY (day)
        AS SELECT *, total AS t2 FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/gold/b.sql:2:2: error[CONSTRAINT_SYNTAX]: the CHECK of constraint c is not a"
                + " valid expression: total >")
        .contains(
            "views/gold/b.sql:3:17: error[PARTITION_COLUMN]: PARTITIONED BY column nosuch is not a"
                + " column of the SELECT")
        .contains("hint: select it, or partition by one of: cust, total, TOTAL")
        .contains("views/gold/b.sql:4:24: error[DUPLICATE_COLUMN]: column TOTAL is selected twice")
        // SELECT * may hold the partition column; the valid CHECK passes.
        .doesNotContain("gold/star.sql")
        .contains("3 errors");
  }

  @Test
  void aBooleanTablePropertyMustBeTrueOrFalse() throws IOException {
    project(
        YML,
        "silver/p.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.p
        TBLPROPERTIES ('delta.enableChangeDataFeed' = 'maybe', 'delta.appendOnly' = 'FALSE')
        AS SELECT id FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/p.sql:2:16: error[PROPERTY_VALUE]: table property"
                + " delta.enableChangeDataFeed must be 'true' or 'false', not 'maybe'")
        .contains("1 error,");
  }

  /**
   * Found by QA: a number or a mode Delta refuses passed validate, and apply failed with
   * "delta.checkpointInterval needs to be a positive integer." (measured on Delta 4.2.0, as each
   * valid value beside it).
   */
  @Test
  void aNumberOrAModeDeltaRefusesIsAnError() throws IOException {
    project(
        YML,
        "silver/p.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.p
        TBLPROPERTIES ('delta.checkpointInterval' = 'ten', 'delta.minReaderVersion' = '4',
          'delta.columnMapping.mode' = 'names', 'delta.dataSkippingNumIndexedCols' = '-1',
          'delta.minWriterVersion' = '7', 'delta.checkpointPolicy' = 'V2')
        AS SELECT id FROM bronze.orders
        """,
        "silver/q.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.q
        TBLPROPERTIES ('delta.columnMapping.mode' = 'Name', 'delta.checkpointInterval' = '+5',
          'delta.checkpointPolicy' = 'v2', 'delta.isolationLevel' = 'serializable')
        AS SELECT id FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/p.sql:2:16: error[PROPERTY_VALUE]: table property"
                + " delta.checkpointInterval must be a whole number of at least 1, not 'ten';"
                + " Delta refuses the view at its first refresh")
        .contains(
            "views/silver/p.sql:2:52: error[PROPERTY_VALUE]: table property"
                + " delta.minReaderVersion must be a whole number from 1 to 3, not '4'")
        .contains(
            "views/silver/p.sql:3:3: error[PROPERTY_VALUE]: table property"
                + " delta.columnMapping.mode must be one of 'id', 'name', 'none', not 'names'")
        .contains(
            "views/silver/p.sql:4:35: error[PROPERTY_VALUE]: table property"
                + " delta.checkpointPolicy must be one of 'classic', 'v2' (with that case), not"
                + " 'V2'")
        .doesNotContain("silver/p.sql:3:3: error[COLUMN_MAPPING_CDF]")
        // 'Name' is a mode Delta takes: column mapping with change data feed, not a bad value.
        .contains("silver/q.sql:2:16: error[COLUMN_MAPPING_CDF]")
        .doesNotContain("silver/q.sql:2:16: error[PROPERTY_VALUE]")
        .doesNotContain("silver/q.sql:3:")
        .contains("5 errors,");
  }

  /**
   * Found by QA: Delta compares the two retentions, declared or at their defaults (30 and 7 days),
   * and refuses a negative one; each measured on Delta 4.2.0 beside the valid forms.
   */
  @Test
  void aLogRetentionShorterThanTheDeletedFilesOneIsAnError() throws IOException {
    project(
        YML,
        "silver/a.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.a\n"
            + "TBLPROPERTIES ('delta.logRetentionDuration' = 'interval 1 days')\n"
            + "AS SELECT id FROM bronze.orders\n",
        "silver/b.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.b\n"
            + "TBLPROPERTIES ('delta.deletedFileRetentionDuration' = 'interval 60 days')\n"
            + "AS SELECT id FROM bronze.orders\n",
        "silver/c.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.c\n"
            + "TBLPROPERTIES ('delta.logRetentionDuration' = 'interval -1 days')\n"
            + "AS SELECT id FROM bronze.orders\n",
        "silver/ok.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.ok\n"
            + "TBLPROPERTIES ('delta.logRetentionDuration' = '1 day',"
            + " 'delta.deletedFileRetentionDuration' = '24 hours')\n"
            + "AS SELECT id FROM bronze.orders\n",
        "silver/ok2.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.ok2\n"
            + "TBLPROPERTIES ('delta.logRetentionDuration' = 'interval 7 days')\n"
            + "AS SELECT id FROM bronze.orders\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/a.sql:2:16: error[PROPERTY_VALUE]: table property"
                + " delta.logRetentionDuration ('interval 1 days') is shorter than"
                + " delta.deletedFileRetentionDuration ('interval 1 week', Delta's default)")
        .contains(
            "views/silver/b.sql:2:16: error[PROPERTY_VALUE]: table property"
                + " delta.logRetentionDuration ('interval 30 days', Delta's default) is shorter"
                + " than delta.deletedFileRetentionDuration ('interval 60 days')")
        .contains(
            "views/silver/c.sql:2:16: error[PROPERTY_VALUE]: table property"
                + " delta.logRetentionDuration is negative ('interval -1 days')")
        .doesNotContain("silver/ok")
        .contains("3 errors,");
  }

  @Test
  void aDeltaPropertyDeltaDoesNotKnowOrAnIntervalThatIsNoneIsAnError() throws IOException {
    project(
        YML,
        "silver/p.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.p
        TBLPROPERTIES ('delta.enableChangeDataFeeds' = 'true', 'delta.foo' = '1',
          'delta.logRetentionDuration' = 'forever',
          'DELTA.deletedFileRetentionDuration' = '8 days 0 months',
          'delta.feature.deletionVectors' = 'supported', 'myteam.owner' = 'sales',
          'delta.parquet.vorder.enabled' = 'true')
        AS SELECT id FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/p.sql:2:16: error[PROPERTY_NAME]: Delta has no table property"
                + " delta.enableChangeDataFeeds; Delta refuses the view at its first refresh"
                + " ([DELTA_UNKNOWN_CONFIGURATION])")
        .contains("hint: did you mean delta.enableChangeDataFeed?")
        .contains(
            "views/silver/p.sql:2:56: error[PROPERTY_NAME]: Delta has no table property delta.foo")
        .contains(
            "views/silver/p.sql:3:3: error[PROPERTY_VALUE]: table property"
                + " delta.logRetentionDuration must be an interval")
        .contains("3 errors,");
    // A Spark conf that lets Delta take any property lets validate take it too.
    Files.writeString(
        dir.resolve("mlv.yml"),
        YML
            + "targets:\n  local:\n    type: spark\n"
            + "    conf: {spark.databricks.delta.allowArbitraryProperties.enabled: \"true\"}\n");
    CliRun allowed = CliRun.of("validate", "-p", dir.toString());
    assertThat(allowed.out()).doesNotContain("PROPERTY_NAME").contains("PROPERTY_VALUE");
  }

  /**
   * Found by QA: LIMIT -1 (which Calcite does not read, so Spark's parser read the SELECT) and a
   * LIMIT of a column passed validate, and apply failed with [INVALID_LIMIT_LIKE_EXPRESSION].
   */
  @Test
  void aLimitSparkRefusesIsAnErrorOnEitherParsersPath() throws IOException {
    project(
        YML,
        "silver/p.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.p AS\n"
            + "SELECT id FROM bronze.orders ORDER BY id LIMIT -1\n",
        "silver/q.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.q AS SELECT id FROM bronze.orders LIMIT qty\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/p.sql:2:48: error[LIMIT_VALUE]: LIMIT -1: Spark takes only a constant"
                + " integer of 0 or more as LIMIT, and refuses the view at its first refresh"
                + " ([INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE])")
        .contains("views/silver/q.sql:1:78: error[LIMIT_VALUE]: LIMIT qty:")
        .contains("2 errors,");
  }

  @Test
  void aTableNameOfMoreThanFourPartsIsAnErrorAtTheNameAndTheRestIsStillChecked()
      throws IOException {
    project(
        YML,
        "silver/p.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.p AS
        WITH c AS (SELECT x FROM `a`.b.c.d.e)
        SELECT x FROM c JOIN bronze.orders o ON o.id = c.x
        """,
        "silver/q.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.q AS SELECT id, id FROM bronze.orders\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString(), "--format", "json");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).doesNotContain("internal error");
    assertThat(r.out())
        .contains("\"rule\" : \"TABLE_NAME_PARTS\"")
        .contains("table name '`a`.b.c.d.e' has 5 parts")
        .contains("\"line\" : 2")
        .contains("\"column\" : 26")
        .contains("DUPLICATE_COLUMN");
    assertThat(CliRun.of("lineage", "-p", dir.toString()).exitCode()).isEqualTo(ExitCodes.ERROR);
  }

  @Test
  void columnMappingNeedsChangeDataFeedOff() throws IOException {
    String view =
        """
        CREATE MATERIALIZED LAKE VIEW silver.spaced
        TBLPROPERTIES ('delta.columnMapping.mode' = 'name')
        AS SELECT id AS `order id` FROM bronze.orders
        """;
    project(YML, "silver/spaced.sql", view);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("views/silver/spaced.sql:2:16: error[COLUMN_MAPPING_CDF]")
        .contains("hint: set enable_cdf: false for this view");

    project(
        YML + "view_config:\n  silver.spaced: {enable_cdf: false}\n", "silver/spaced.sql", view);
    CliRun off = CliRun.of("validate", "-p", dir.toString());
    assertThat(off.exitCode()).as(off.toString()).isEqualTo(ExitCodes.OK);

    // The SQL's own 'false' wins over the project's enable_cdf, as mlv then adds none (found by
    // QA: Delta takes CREATE OR REPLACE of such a table, and the rule still fired).
    project(
        YML,
        "silver/spaced.sql",
        view.replace(
            "'delta.columnMapping.mode' = 'name'",
            "'delta.columnMapping.mode' = 'name', 'delta.enableChangeDataFeed' = 'false'"));
    CliRun sqlOff = CliRun.of("validate", "-p", dir.toString());
    assertThat(sqlOff.exitCode()).as(sqlOff.toString()).isEqualTo(ExitCodes.OK);
  }

  @Test
  void validSparkIsNotFlaggedAndWhatSparkRefusesIsAnErrorAtItsToken() throws IOException {
    project(
        YML,
        "silver/ok.sql",
        """
        CREATE MATERIALIZED LAKE VIEW `My WS`.lh.silver.ok AS
        SELECT * EXCEPT (amount), o.* EXCEPT (id), date FROM bronze.orders o
        """,
        "silver/lambda.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.lambda\n"
            + "(CONSTRAINT some_tag CHECK (size(filter(tags, y -> y > '')) > 0) ON MISMATCH DROP)\n"
            + "AS SELECT tags FROM bronze.orders\n",
        "silver/twice.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.twice\nPARTITIONED BY (day, day)\n"
            + "AS SELECT id, day FROM bronze.orders\n",
        "silver/exploded.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.exploded AS\n"
            + "SELECT id, tag, id FROM bronze.orders LATERAL VIEW explode(tags) x AS tag\n",
        "silver/emptied.sql",
        "-- nothing left\n",
        "silver/computed.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.computed AS\n"
            + "SELECT * FROM IDENTIFIER('bronze.' || 'orders')\n",
        "silver/bad.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.bad
        (CONSTRAINT known CHECK (id IN (SELECT id FROM bronze.orders)) ON MISMATCH DROP)
        PARTITIONED BY (nope)
        AS SELECT id, date, SUM(amount), ünï FROM bronze.orders GROUP BY id, date;
        CREATE MATERIALIZED LAKE VIEW silver.late AS SELECT id FROM bronze.orders
        TBLPROPERTIES ('a' = 'b')
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .doesNotContain("ok.sql")
        .doesNotContain("lambda.sql")
        .contains("views/silver/bad.sql:2:2: error[CONSTRAINT_SUBQUERY]")
        .contains("views/silver/emptied.sql:1:1: warning[EMPTY_FILE]")
        // A LATERAL VIEW no longer hides the column checks.
        .contains("views/silver/exploded.sql:2:17: error[DUPLICATE_COLUMN]: column id")
        .contains("views/silver/computed.sql:2:15: error[COMPUTED_NAME]")
        .contains(
            "views/silver/twice.sql:2:22: error[PARTITION_COLUMN]: PARTITIONED BY names"
                + " column day twice")
        .contains("views/silver/bad.sql:3:17: error[PARTITION_COLUMN]")
        .contains("views/silver/bad.sql:4:21: error[COLUMN_NAME]: the expression SUM(amount)")
        .contains("views/silver/bad.sql:4:34: error[INVALID_IDENTIFIER]: 'ünï'")
        .contains(
            "views/silver/bad.sql:6:1: error[SQL_PARSE]: TBLPROPERTIES is a clause of the"
                + " view's header and cannot follow its SELECT");
  }

  @Test
  void aFileViewPropertyWithAValueFabricRefusesIsAnErrorAtItsKey() throws IOException {
    project(
        YML,
        "bronze/raw.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.raw
        USING OneLake_Files
        OPTIONS ('format' = 'csv', 'path' = 'Files/raw/', 'header' = 'true')
        TBLPROPERTIES (
          'schema_mode' = 'LOOSE')
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/bronze/raw.sql:5:3: error[FILE_OPTION]: 'schema_mode' must be one of [DYNAMIC,"
                + " FIXED], found 'LOOSE'")
        .contains("hint: 'schema_mode' = 'DYNAMIC' or 'FIXED'");
  }

  @Test
  void everyRuleIsReportedAtOnceWithPositions() throws IOException {
    project(
        YML,
        "silver/a.sql",
        """
        CREATE OR REPLACE MATERIALIZED LAKE VIEW IF NOT EXISTS SILVER.a
        AS SELECT id, my_udf(amount) AS x, rand() AS r FROM bronze.orders VERSION AS OF 3;
        INSERT INTO silver.b SELECT 1;
        """,
        "silver/b.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.b AS
        SELECT * FROM silver.a JOIN bronze.customerz c ON a.id = c.id
        """,
        "silver/c.sql",
        """
        -- LAKE is missing: not a lake view, and never deployed
        CREATE OR REPLACE MATERIALIZED VIEW silver.c AS SELECT 1 AS x
        """,
        "silver/d.sql",
        """
        CREATE MATERIALIZED LAKE VIEW silver.`d.e` AS SELECT 1 AS x;
        CREATE MATERIALIZED LAKE VIEW silver.`Umsatz €` AS SELECT 1 AS x;
        CREATE MATERIALIZED LAKE VIEW silver.`trail ` AS SELECT 1 AS x
        """,
        "silver/e.sql",
        """
        -- typos in the header: errors, or plan --prune would drop the deployed view
        CRATE MATERIALIZED LAKE VIEW silver.e AS SELECT 1 AS x;
        CREATE MATERIALIZED LAKE VEIW silver.e AS SELECT 1 AS x;
        OPTIMIZE bronze.orders;
        GENERATE symlink_format_manifest FOR TABLE bronze.orders;
        CREATE MATERIALIZED LAKE VIEW mlv_history.runs AS SELECT 1 AS x;
        CREATE MATERIALIZED LAKE VIEW silver.e__quarantine AS SELECT 1 AS x
        """,
        "bronze/files.sql",
        """
        CREATE MATERIALIZED LAKE VIEW bronze.raw
        (CONSTRAINT c CHECK (x > 0))
        USING OneLake_Files
        OPTIONS ('format' = 'json', 'path' = 'abfss://w@onelake.dfs.fabric.microsoft.com/lh.Lakehouse/Files/my folder/', 'quote' = '"')
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    Golden.assertMatches("validate-rules.txt", r.out());
    CliRun gh = CliRun.of("validate", "-p", dir.toString(), "--format", "github");
    Golden.assertMatches("validate-rules.github", gh.out());
    CliRun json = CliRun.of("validate", "-p", dir.toString(), "--format", "json");
    Golden.assertMatches("validate-rules.json", json.out());
  }

  @Test
  void aScheduleSelectorThatSelectsNothingOrCannotBeReadIsAnErrorAtTheSelector()
      throws IOException {
    project(
        YML
            + """
            targets:
              prod:
                type: fabric
                workspaceId: 11111111-2222-4333-8444-555555555555
                lakehouseId: 66666666-7777-4888-9999-000000000000
            schedules:
              - name: ok
                views: [silver.orders_clean+]
                type: cron
                interval: 30
                start: 2026-01-01T00:00:00
                end: 2027-01-01T00:00:00
              - name: other
                views: [silver.nope+, "colour:red"]
                type: cron
                interval: 30
                start: 2026-01-01T00:00:00
                end: 2027-01-01T00:00:00
            """,
        "silver/orders_clean.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.orders_clean AS SELECT id FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    // Each at its own selector (the quoted one at its quote), not at the schedule's name.
    assertThat(r.out())
        .contains("mlv.yml:20:13: error[SCHEDULE_VIEWS]: schedule 'other': ")
        .contains("mlv.yml:20:27: error[SCHEDULE_VIEWS]: schedule 'other': ")
        .contains("silver.nope")
        .contains("colour:red")
        .doesNotContain("schedule 'ok'")
        .doesNotContain("mlv.yml:19:5");
  }

  /**
   * A SELECT only Spark's parser reads (pipe operators in a subquery) passes, with a note that its
   * column rules did not run: it fails nothing, not even --strict (found by QA: such a view passed
   * silently, its duplicate column unseen until apply).
   */
  @Test
  void aSelectOnlySparksParserReadsIsNotedAsPartlyChecked() throws IOException {
    project(
        YML,
        "silver/ok.sql",
        "CREATE MATERIALIZED LAKE VIEW s.ok AS SELECT 1 AS x",
        "silver/piped.sql",
        "CREATE MATERIALIZED LAKE VIEW s.piped AS\n"
            + "SELECT x, x FROM s.ok WHERE EXISTS (FROM s.ok |> WHERE x > 0)");
    for (String strict : List.of("--format=text", "--strict")) {
      CliRun r = CliRun.of("validate", "-p", dir.toString(), strict);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
      assertThat(r.out())
          .contains(
              "views/silver/piped.sql:2:1: info[PARTIAL_CHECK]: mlv's SQL checker cannot read this"
                  + " SELECT's syntax")
          .doesNotContain("ok.sql")
          .contains("ok: 2 files, 2 views, 0 errors, 0 warnings");
    }
  }

  @Test
  void aFileThatIsNotUtf8IsAnErrorAtItsFirstBadByte() throws IOException {
    project(YML, "silver/ok.sql", "CREATE MATERIALIZED LAKE VIEW s.ok AS SELECT 1 AS x");
    byte[] latin1 =
        "-- menu\nCREATE MATERIALIZED LAKE VIEW s.v AS SELECT 'caf\u00e9' AS x"
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    Files.write(dir.resolve("views/silver/latin1.sql"), latin1);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out()).contains("views/silver/latin1.sql:2:49: error[FILE_ENCODING]");
    assertThat(r.out()).contains("Windows-1252 or Latin-1");

    Files.delete(dir.resolve("views/silver/latin1.sql"));
    byte[] text =
        "CREATE MATERIALIZED LAKE VIEW s.w AS SELECT 1 AS x"
            .getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
    byte[] withMark = new byte[text.length + 2];
    withMark[0] = (byte) 0xFF; // the byte order mark of UTF-16LE
    withMark[1] = (byte) 0xFE;
    System.arraycopy(text, 0, withMark, 2, text.length);
    Files.write(dir.resolve("views/silver/utf16.sql"), withMark);
    CliRun wide = CliRun.of("validate", "-p", dir.toString());
    assertThat(wide.out())
        .contains("views/silver/utf16.sql:1:1: error[FILE_ENCODING]: the file is UTF-16 text");

    // Without the mark the bytes are valid UTF-8, NULs and all (found by QA: NOT_A_VIEW).
    Files.delete(dir.resolve("views/silver/utf16.sql"));
    Files.write(dir.resolve("views/silver/bare16.sql"), text);
    CliRun bare = CliRun.of("validate", "-p", dir.toString());
    assertThat(bare.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(bare.out())
        .contains(
            "views/silver/bare16.sql:1:1: error[FILE_ENCODING]: the file is UTF-16 text without a"
                + " byte order mark")
        .doesNotContain("NOT_A_VIEW");

    Files.delete(dir.resolve("views/silver/bare16.sql"));
    Files.write(
        dir.resolve("views/silver/nul.sql"),
        "CREATE MATERIALIZED LAKE VIEW s.n AS\nSELECT 1 AS x\u0000"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    CliRun nul = CliRun.of("validate", "-p", dir.toString());
    assertThat(nul.out())
        .contains("views/silver/nul.sql:2:14: error[FILE_ENCODING]: the file holds a NUL byte");
  }

  /**
   * A CHECK reading a column the SELECT list (no *) leaves out fails the first refresh
   * ([UNRESOLVED_COLUMN], measured on Spark 4.1.1): an error, found by QA, where it was a warning
   * that let validate and plan pass.
   */
  @Test
  void aCheckOnAColumnTheSelectDoesNotProduceIsAnErrorAtTheColumn() throws IOException {
    project(
        YML,
        "silver/x.sql",
        """
        CREATE MATERIALIZED LAKE VIEW s.x (
          CONSTRAINT ok CHECK (id > 0 AND upper(name) <> '' AND CAST(id AS STRING) IS NOT NULL),
          CONSTRAINT typo CHECK (amount > 0) ON MISMATCH DROP,
          CONSTRAINT units CHECK (datediff(DAY, d, d) = 0 AND dateadd(HOUR, 1, d) > d),
          CONSTRAINT fields CHECK (named_struct('a', id).a >= 0 AND (st).city IS NOT NULL
            AND CAST(st AS STRUCT<city: STRING, zip: BIGINT>).zip > 0),
          CONSTRAINT named CHECK (mask(name, lowerChar => 'q') IS NOT NULL)
        ) AS SELECT id, o.name AS Name, o.d, o.st FROM bronze.orders o
        """,
        "silver/star.sql",
        "CREATE MATERIALIZED LAKE VIEW s.star (CONSTRAINT c CHECK (amount > 0))"
            + " AS SELECT * FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/x.sql:3:26: error[CONSTRAINT_COLUMN]: the CHECK of constraint typo"
                + " reads amount, which the view's SELECT does not produce; Spark would refuse the"
                + " view when apply or refresh runs it ([UNRESOLVED_COLUMN])")
        .contains("1 error")
        .doesNotContain("constraint ok")
        // Units, field names and argument names are no columns (found by QA).
        .doesNotContain("constraint units")
        .doesNotContain("constraint fields")
        .doesNotContain("constraint named")
        .doesNotContain("star.sql");
  }

  /**
   * A CHECK Spark refuses as a condition: an aggregate, window function or generator
   * (MISPLACED_CALL, at the call) and one whose text makes it no boolean (CONSTRAINT_TYPE). Before,
   * validate passed them and apply failed quoting mlv's generated SQL. Found by QA.
   */
  @Test
  void aCheckSparkRefusesAsAConditionIsAnErrorAtTheCheck() throws IOException {
    project(
        YML,
        "silver/c.sql",
        """
        CREATE MATERIALIZED LAKE VIEW s.c (
          CONSTRAINT agg CHECK (id > 0 AND sum(amount) > 0) ON MISMATCH DROP,
          CONSTRAINT win CHECK (rank() OVER (ORDER BY id) > 1),
          CONSTRAINT gen CHECK (explode(array(id)) > 0),
          CONSTRAINT num CHECK (amount * 2) ON MISMATCH DROP,
          CONSTRAINT lit CHECK ('yes'),
          CONSTRAINT emo CHECK (count_ok <> '\uD83D\uDE00\uD83D\uDE00' AND count(*) > 0),
          CONSTRAINT ok CHECK (amount > 0 AND CAST(id AS BOOLEAN) AND count_ok IS NOT NULL)
        ) AS SELECT id, amount, count_ok FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/c.sql:2:36: error[MISPLACED_CALL]: aggregate function sum in the CHECK"
                + " of constraint agg (sum(amount)); Spark refuses the constraint at its first"
                + " refresh ([INVALID_WHERE_CONDITION])")
        .contains("hint: a constraint tests each row of the view on its own")
        .contains(
            "views/silver/c.sql:3:25: error[MISPLACED_CALL]: window function rank in the CHECK of"
                + " constraint win (rank() OVER (ORDER BY id)); Spark refuses the constraint at its"
                + " first refresh (\"It is not allowed to use window functions inside WHERE"
                + " clause\")")
        .contains("views/silver/c.sql:4:25: error[MISPLACED_CALL]: generator explode in the CHECK")
        .contains(
            "views/silver/c.sql:5:25: error[CONSTRAINT_TYPE]: the CHECK of constraint num is"
                + " arithmetic (*), not a condition")
        .contains(
            "views/silver/c.sql:6:25: error[CONSTRAINT_TYPE]: the CHECK of constraint lit is a"
                + " string, not a condition")
        // Columns count characters: an emoji before the call is one (found by QA).
        .contains("views/silver/c.sql:7:46: error[MISPLACED_CALL]: aggregate function count")
        .contains("6 errors")
        .doesNotContain("constraint ok");
  }

  /**
   * A CHECK Spark reads but refuses for an uncast variant path is VARIANT_UNCAST at the path, not
   * CONSTRAINT_SYNTAX (found by QA); one with the path cast passes.
   */
  @Test
  void anUncastVariantPathInACheckIsReportedAtThePath() throws IOException {
    project(
        YML,
        "silver/e.sql",
        """
        CREATE MATERIALIZED LAKE VIEW s.e (
          CONSTRAINT kind CHECK (id > 0 AND v:kind <> 'z') ON MISMATCH DROP,
          CONSTRAINT ok CHECK (id > 0 AND v:kind::string <> 'z')
        ) AS SELECT id, v FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/silver/e.sql:2:37: error[VARIANT_UNCAST]: v:kind is a VARIANT value, and Spark"
                + " cannot compare it (<>) until it is cast")
        .doesNotContain("CONSTRAINT_SYNTAX")
        .contains("1 error");
  }

  @Test
  void malformedSqlIsAPositionedErrorWithoutStackTrace() throws IOException {
    project(
        YML,
        "silver/bad.sql",
        "CREATE MATERIALIZED LAKE VIEW s.v AS\nSELECT a,, FROM bronze.orders\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out()).contains("views/silver/bad.sql:2:").contains("error[SQL_PARSE]");
    assertThat(r.out() + r.err()).doesNotContain("\tat ").doesNotContain("Exception");
    CliRun lineage = CliRun.of("lineage", "-p", dir.toString());
    assertThat(lineage.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(lineage.err()).contains("views/silver/bad.sql:2:");
  }

  @Test
  void aCycleListsEveryEdgeWithItsPlace() throws IOException {
    project(
        YML,
        "s/x.sql",
        "CREATE MATERIALIZED LAKE VIEW s.x AS SELECT * FROM s.z",
        "s/y.sql",
        "CREATE MATERIALIZED LAKE VIEW s.y AS SELECT * FROM s.x",
        "s/z.sql",
        "CREATE MATERIALIZED LAKE VIEW s.z AS\n  SELECT * FROM s.y");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("error[CYCLE]: dependency cycle s.x -> s.y -> s.z -> s.x")
        .contains("s.x is read by s.y at views/s/y.sql:1:52")
        .contains("s.z is read by s.x at views/s/x.sql:1:52")
        .contains("s.y is read by s.z at views/s/z.sql:2:17");
  }

  @Test
  void planRefusingAProjectShowsItsWarningsAsValidateDoes() throws IOException {
    // A cycle (a project error) and an undeclared table (a check's warning).
    project(
        YML,
        "s/x.sql",
        "CREATE MATERIALIZED LAKE VIEW s.x AS SELECT * FROM s.y",
        "s/y.sql",
        "CREATE MATERIALIZED LAKE VIEW s.y AS SELECT a.* FROM s.x a JOIN bronze.nope n ON a.k = n.k");
    CliRun json = CliRun.of("plan", "--format", "json", "-p", dir.toString());
    assertThat(json.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(json.out())
        .contains("\"errors\" : 1", "\"warnings\" : 1")
        .contains("\"rule\" : \"CYCLE\"", "\"rule\" : \"UNDECLARED_TABLE\"");
    CliRun text = CliRun.of("plan", "-p", dir.toString());
    assertThat(text.err()).contains("error[CYCLE]").contains("warning[UNDECLARED_TABLE]");
  }

  @Test
  void yamlErrorsArePositioned() throws IOException {
    project("name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsourcez: []\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    // Listed with the views' findings, since unknown keys alone let validate read the views.
    assertThat(r.out()).contains("mlv.yml:5:1").contains("CONFIG_UNKNOWN_KEY").contains("sources");
    assertThat(r.out() + r.err()).doesNotContain("\tat ");
    // CI reads json and github output: a broken mlv.yml is reported there, not only on stderr.
    CliRun json = CliRun.of("validate", "--format", "json", "-p", dir.toString());
    assertThat(json.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(json.out()).contains("\"rule\" : \"CONFIG_UNKNOWN_KEY\"").contains("\"line\" : 5");
    CliRun github = CliRun.of("validate", "--format", "github", "-p", dir.toString());
    assertThat(github.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(github.out())
        .startsWith("::error file=mlv.yml,line=5,col=1,title=CONFIG_UNKNOWN_KEY::");
  }

  /**
   * GitHub places an annotation by the file's path from the repository's root, which is the working
   * folder of a workflow step: a project in a subfolder prefixes its own paths (found by QA:
   * 'validate -p p/g --format github' said file=views/v.sql).
   */
  @Test
  void githubAnnotationsNameFilesFromTheWorkingFolder() throws IOException {
    Path target = Path.of("target").toAbsolutePath();
    Files.createDirectories(target);
    Path sub = Files.createTempDirectory(target, "gh-project");
    try {
      Files.writeString(
          sub.resolve("mlv.yml"),
          "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsourcez: []\n");
      CliRun broken = CliRun.of("validate", "--format", "github", "-p", sub.toString());
      String prefix = "target/" + sub.getFileName() + "/";
      assertThat(broken.out())
          .contains("::error file=" + prefix + "mlv.yml,line=5,col=1,title=CONFIG_UNKNOWN_KEY");
      Files.writeString(
          sub.resolve("mlv.yml"), "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\n");
      Files.createDirectories(sub.resolve("views"));
      Files.writeString(
          sub.resolve("views/v.sql"), "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT (1 + ) AS a");
      CliRun sql = CliRun.of("validate", "--format", "github", "-p", sub.toString());
      assertThat(sql.exitCode()).isEqualTo(ExitCodes.ERROR);
      assertThat(sql.out()).startsWith("::error file=" + prefix + "views/v.sql,line=1,");
    } finally {
      try (var files = Files.walk(sub)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  @Test
  void aMissingDefaultViewFolderFailsValidateRatherThanLookLikeNoViews() throws IOException {
    // No views would make plan --prune propose dropping every deployed view.
    project(YML);
    Files.delete(dir.resolve("views"));
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "mlv.yml:1:1: error[CONFIG_VALUE]: view folder 'views' does not exist (mlv.yml has no"
                + " 'views:' key, so mlv reads views/)")
        .contains("create views/");
    assertThat(CliRun.of("plan", "--prune", "-p", dir.toString()).exitCode())
        .isEqualTo(ExitCodes.ERROR);

    // An empty views/ is a project of only sources, which is fine.
    Files.createDirectories(dir.resolve("views"));
    CliRun empty = CliRun.of("validate", "-p", dir.toString());
    assertThat(empty.exitCode()).as(empty.toString()).isZero();
  }

  @Test
  void nonDeterministicCallsAreWarnedWhereTheyAreAsExplainFindsThem() throws IOException {
    project(
        YML,
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a\n"
            + "(CONSTRAINT fresh CHECK (order_ts <= current_timestamp()) ON MISMATCH DROP)\n"
            + "AS SELECT id, order_ts, unix_timestamp(order_ts) AS ts,\n"
            + "  rand() AS r FROM bronze.orders",
        "s/b.sql",
        "CREATE MATERIALIZED LAKE VIEW s.b AS SELECT id, unix_timestamp(order_ts) AS ts FROM"
            + " bronze.orders",
        "s/c.sql",
        "CREATE MATERIALIZED LAKE VIEW s.c AS SELECT aes_encrypt(id, '0000111122223333', 'ECB')"
            + " AS e,\n aes_encrypt(id, '0000111122223333') AS r FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    // At the call (line 4, column 3) and at the call in the CHECK, not at the start of the SELECT
    // nor at the constraint; and
    // unix_timestamp with an argument is a plain conversion, in s.b too.
    assertThat(r.out())
        .contains(
            "views/s/a.sql:4:3: warning[NON_DETERMINISTIC]: function 'rand' is not"
                + " deterministic")
        .contains(
            "views/s/a.sql:2:38: warning[NON_DETERMINISTIC]: function 'current_timestamp' is not"
                + " deterministic")
        .doesNotContain("'unix_timestamp'")
        .doesNotContain("views/s/b.sql")
        // aes_encrypt in ECB is the same each run; without an IV it draws one at random.
        .contains(
            "views/s/c.sql:2:2: warning[NON_DETERMINISTIC]: function 'aes_encrypt' is not"
                + " deterministic")
        .doesNotContain("views/s/c.sql:1:");
  }

  @Test
  void aTableReadByPathIsWarnedWhereItIsRead() throws IOException {
    project(
        YML,
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS\nSELECT * FROM bronze.orders o\n"
            + "  JOIN parquet.`abfss://ws@onelake.dfs.fabric.microsoft.com/lh/Files/x` f USING (id)");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("views/s/a.sql:3:8: warning[PATH_TABLE]: the view reads files by path");
  }

  @Test
  void aOnePartNameInAnUpperCaseDefaultSchemaBreaksTheSchemaRule() throws IOException {
    project(
        YML.replace("schema: dbo", "schema: DBO"),
        "e.sql",
        "CREATE MATERIALIZED LAKE VIEW e AS SELECT id FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("views/e.sql:1:31: error[UPPERCASE_SCHEMA]: all-uppercase schema name 'DBO'")
        .contains("(the view lands in mlv.yml's schema)");
  }

  @Test
  void aReservedTablePropertyIsAnErrorAtItsKey() throws IOException {
    project(
        YML,
        "e.sql",
        "CREATE MATERIALIZED LAKE VIEW s.e\nTBLPROPERTIES ('team' = 'x', 'Owner' = 'qa')\n"
            + "AS SELECT id FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/e.sql:2:30: error[RESERVED_PROPERTY]: 'Owner' is a reserved table property")
        .doesNotContain("'team'");
  }

  @Test
  void anUpperCaseSchemaInADottedNameIsPointedAtWhereItIsWritten() throws IOException {
    project(
        YML,
        "e.sql",
        "CREATE MATERIALIZED LAKE VIEW lh. `SALES`.e AS SELECT id FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("views/e.sql:1:35: error[UPPERCASE_SCHEMA]: all-uppercase schema name 'SALES'");
  }

  /** One typo in mlv.yml no longer hides the views' errors from validate (found by QA). */
  @Test
  void anUnknownKeyInMlvYmlIsReportedBesideTheViewsErrors() throws IOException {
    project(
        YML + "schemaa: x\ndefaults: {quarantne: true}\n",
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS SELECT id FORM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("mlv.yml:")
        .contains("error[CONFIG_UNKNOWN_KEY]: unknown key 'schemaa' at the top level")
        .contains("error[CONFIG_UNKNOWN_KEY]: unknown key 'quarantne'")
        .contains("views/s/a.sql:1:")
        .contains("3 errors");
    // Every other command still refuses the file, before reading any view.
    CliRun lineage = CliRun.of("lineage", "-p", dir.toString());
    assertThat(lineage.exitCode()).as(lineage.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(lineage.err()).contains("unknown key 'schemaa'").doesNotContain("a.sql");
    CliRun plan = CliRun.of("plan", "-p", dir.toString());
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(ExitCodes.ERROR);
    // A missing key is still the end of it: no view is read without the project's names.
    Files.writeString(dir.resolve("mlv.yml"), YML.replace("schema: dbo\n", "schemaa: dbo\n"));
    CliRun missing = CliRun.of("validate", "-p", dir.toString());
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(missing.out()).contains("schema").doesNotContain("a.sql");
  }

  @Test
  void planRefusesWhatValidateRejects() throws IOException {
    project(
        YML,
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS SELECT my_udf(id) AS x FROM bronze.orders");
    CliRun r = CliRun.of("plan", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("views/s/a.sql:1:45: error[UDF]: function 'my_udf'");
    assertThat(r.out()).doesNotContain("create");
  }

  /**
   * A misspelt built-in, or SQL Server's name for one, gets Spark's function in the hint (found by
   * QA: initcapp(name) was told to move to PySpark); a name near no built-in keeps the old hint.
   */
  @Test
  void aMisspeltBuiltInIsNamedInTheUdfHint() throws IOException {
    project(
        YML,
        "s/a.sql",
        """
        CREATE MATERIALIZED LAKE VIEW s.a AS
        SELECT initcapp(name) AS n, getdate() AS t, my_clean_fn(name) AS c FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/s/a.sql:2:8: error[UDF]: function 'initcapp' is not a Spark built-in; user-defined"
                + " functions are not allowed in materialized lake views\n"
                + "  hint: did you mean initcap(...)? If initcapp is a function of your own,")
        .contains("hint: SQL Server's getdate(...) is written current_timestamp() in Spark")
        .contains(
            "error[UDF]: function 'my_clean_fn' is not a Spark built-in; user-defined functions"
                + " are not allowed in materialized lake views\n"
                + "  hint: rewrite it with built-in functions, or define the view in PySpark");
  }

  @Test
  void aQualifiedFunctionNameIsAUdfEvenWhenItsLastPartIsABuiltIn() throws IOException {
    project(
        YML,
        "s/a.sql",
        """
        CREATE MATERIALIZED LAKE VIEW s.a AS
        SELECT region, builtin.sum(amount) AS total, util.`clean`(name) AS n
        FROM bronze.orders GROUP BY region, name
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/s/a.sql:2:16: error[UDF]: function 'builtin.sum' is not a Spark built-in"
                + " (Spark looks a qualified name up in a catalog, not among its built-ins)")
        .contains("hint: call the built-in by its name alone: sum(...)")
        .contains("views/s/a.sql:2:46: error[UDF]: function 'util.clean' is not a Spark built-in;");
  }

  @Test
  void aUdfInACheckIsReportedAtItsCall() throws IOException {
    project(
        YML,
        "s/a.sql",
        """
        CREATE MATERIALIZED LAKE VIEW s.a (
          CONSTRAINT ok CHECK (id > 0) ON MISMATCH DROP,
          CONSTRAINT valid CHECK (is_valid_id(id)) ON MISMATCH DROP
        ) AS SELECT id, upper(name) AS name FROM bronze.orders
        """);
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out()).contains("views/s/a.sql:3:27: error[UDF]: function 'is_valid_id'");
    assertThat(r.out()).doesNotContain("'upper'");
  }

  @Test
  void aSchemaNamedLikeALakehouseIsReportedWhereSparkWouldReadTheLakehouse() throws IOException {
    project(
        """
        name: t
        workspace: ws
        lakehouse: gold
        schema: dbo
        sources: [bronze.dbo.orders, bronze.orders]
        """,
        "v.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.v AS\n"
            + "SELECT o.id FROM gold.bronze.orders o JOIN bronze.orders b ON o.id = b.id\n"
            + "JOIN bronze.dbo.orders d ON d.id = o.id");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/v.sql:2:44: error[LAKEHOUSE_SCHEMA_CLASH]: 'bronze.orders' names schema bronze"
                + " of lakehouse gold, but bronze is also a lakehouse of this project")
        .contains("hint: write all three parts: gold.bronze.orders for this schema")
        .contains("1 error");
  }

  @Test
  void aDotInsideAQuotedPartOfATableNameIsAnErrorAtThatPart() throws IOException {
    // `a.b`.c and a.`b.c` would be one lineage node and one refresh state.
    project(
        YML,
        "v.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.v AS\n"
            + "SELECT x.id FROM `a.b`.c x JOIN a.`b.c` y ON x.id = y.id");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("views/v.sql:2:18: error[TABLE_NAME]: 'a.b' in `a.b`.c has a dot in it")
        .contains("views/v.sql:2:35: error[TABLE_NAME]: 'b.c' in a.`b.c` has a dot in it")
        .doesNotContain("UNDECLARED_TABLE");
  }

  @Test
  void aViewNameWithAPathSeparatorIsAnErrorAtValidate() throws IOException {
    project(YML, "v.sql", "CREATE MATERIALIZED LAKE VIEW silver.`back\\slash` AS SELECT 1 AS id\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/v.sql:1:38: error[VIEW_NAME]: 'back\\slash' has a path separator or a control"
                + " character in it");
  }

  /**
   * Found by QA: lakehouse: lh-bad in mlv.yml is an error (Fabric refuses the name), but a view
   * named `l-h`.s.v was only warned about, and the warning spoke of it as the view's name.
   */
  @Test
  void aLakehouseNameFabricRefusesIsAnErrorInSqlAsInMlvYml() throws IOException {
    project(
        YML,
        "v.sql",
        "CREATE MATERIALIZED LAKE VIEW `l-h`.silver.v AS SELECT 1 AS id\n",
        "w.sql",
        "CREATE MATERIALIZED LAKE VIEW ws.`1lh`.silver.w AS SELECT 1 AS id\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/v.sql:1:31: error[VIEW_NAME]: the lakehouse name 'l-h' holds '-', which Fabric"
                + " does not allow")
        .contains(
            "views/w.sql:1:34: error[VIEW_NAME]: the lakehouse name '1lh' does not start with a"
                + " letter")
        .doesNotContain("warning[VIEW_NAME]");
  }

  /**
   * mlv.yml's schema names the folder of every one-part view: one that cannot be a folder passed
   * validate and plan and failed at refresh and apply with no position (found by QA).
   */
  @Test
  void aDefaultSchemaWithAPathSeparatorIsAnErrorAtItsLineInMlvYml() throws IOException {
    project(
        YML.replace("schema: dbo", "schema: \"a/b\""),
        "v1.sql",
        "CREATE MATERIALIZED LAKE VIEW v1 AS SELECT 1 AS a\n");
    CliRun validate = CliRun.of("validate", "-p", dir.toString());
    assertThat(validate.exitCode()).as(validate.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(validate.out())
        .contains(
            "mlv.yml:4:9: error[CONFIG_VALUE]: schema 'a/b' contains a path separator, so it"
                + " cannot name the folder that holds the schema's tables");
    CliRun plan = CliRun.of("plan", "-p", dir.toString());
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(plan.out() + plan.err())
        .contains("mlv.yml:4:9: error[CONFIG_VALUE]")
        .doesNotContain("+ create");
  }

  /**
   * A name too long for its folders passed validate and plan, and apply failed in Delta with
   * DELTA_CANNOT_CREATE_LOG_PATH (found by QA). 200 'é' are 400 bytes; 197 bytes is the most a
   * view's name can be, 255 a schema's.
   */
  @Test
  void aNameTooLongForItsFolderIsAnErrorAtTheName() throws IOException {
    project(
        YML,
        "e.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.`" + "é".repeat(200) + "` AS SELECT 1 AS a\n");
    Files.writeString(
        dir.resolve("views/a.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver." + "a".repeat(300) + " AS SELECT 1 AS a\n");
    Files.writeString(
        dir.resolve("views/s.sql"),
        "CREATE MATERIALIZED LAKE VIEW " + "s".repeat(256) + ".v AS SELECT 1 AS a\n");
    // At the limits: a 2-byte character is counted as 2.
    Files.writeString(
        dir.resolve("views/ok.sql"),
        "CREATE MATERIALIZED LAKE VIEW "
            + "s".repeat(255)
            + ".`"
            + "é".repeat(98)
            + "a` AS SELECT 1 AS a\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/e.sql:1:38: error[VIEW_NAME]: '"
                + "é".repeat(20)
                + "… (200 characters)' is 400 bytes long in UTF-8; a view's name can be at most"
                + " 197 bytes, so that every folder the local lakehouse names after it (the"
                + " longest: .dropped-<view>__quarantine-<uuid>) fits the 255-byte limit on a"
                + " file name")
        .contains(
            "views/a.sql:1:38: error[VIEW_NAME]: '"
                + "a".repeat(20)
                + "… (300 characters)' is 300 bytes long in UTF-8")
        .contains(
            "views/s.sql:1:31: error[VIEW_NAME]: '"
                + "s".repeat(20)
                + "… (256 characters)' is 256 bytes long in UTF-8; a schema's name can be at"
                + " most 255 bytes")
        .doesNotContainPattern("views/ok\\.sql:\\S+ error")
        .contains("3 errors");
    CliRun plan = CliRun.of("plan", "-p", dir.toString());
    assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(plan.out()).doesNotContain("+ create");
  }

  @Test
  void localCommandsDoNotNeedTheCredentialsOfAFabricTarget() throws IOException {
    // What mlv init scaffolds, uncommented, in CI where no secret is set.
    project(
        YML
            + """
            targets:
              local: {type: spark, warehouse: .mlv/warehouse}
              prod:
                type: fabric
                workspaceId: 11111111-2222-4333-8444-555555555555
                lakehouseId: 66666666-7777-4888-9999-000000000000
                auth:
                  mode: spn
                  tenant_id: ${env:MLV_TEST_UNSET_TENANT}
                  client_id: ${env:MLV_TEST_UNSET_CLIENT}
                  client_secret: ${env:MLV_TEST_UNSET_SECRET}
            """,
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS SELECT id FROM bronze.orders");
    for (String command : new String[] {"validate", "lineage", "plan"}) {
      CliRun r = CliRun.of(command, "-p", dir.toString());
      assertThat(r.exitCode()).as(r.toString()).isZero();
      assertThat(r.out() + r.err()).as(command).doesNotContain("CONFIG_ENV");
    }
    CliRun prod = CliRun.of("plan", "-t", "prod", "-p", dir.toString());
    assertThat(prod.exitCode()).as(prod.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(prod.err())
        .contains("mlv.yml:15:18: error[CONFIG_ENV]: targets.prod.auth.tenant_id needs")
        .contains("mlv.yml:16:18: error[CONFIG_ENV]: targets.prod.auth.client_id needs")
        .contains(
            "mlv.yml:17:22: error[CONFIG_ENV]: targets.prod.auth.client_secret needs environment"
                + " variable MLV_TEST_UNSET_SECRET, which is not set");
  }

  @Test
  void aViewConfigEntryForNoViewIsWarnedWithTheNearestName() throws IOException {
    project(
        YML
            + "view_config:\n  s.orders_clen: {max_dropped_rows: 0}\n  s.elsewhere: {}\n"
            + "  orders_clean: {}\n",
        "s/orders_clean.sql",
        "CREATE MATERIALIZED LAKE VIEW s.orders_clean AS SELECT id FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains(
            "warning[VIEW_CONFIG_UNKNOWN]: view_config names s.orders_clen, which no definition")
        .contains("hint: did you mean 's.orders_clean'?")
        .contains("view_config names s.elsewhere")
        // A 1-part name lands in mlv.yml's schema (dbo): the view of that name is suggested.
        .contains("view_config names orders_clean")
        .contains("3 warnings");
    assertThat(r.out().split("did you mean 's.orders_clean'\\?", -1)).hasSize(3);
    assertThat(CliRun.of("validate", "--strict", "-p", dir.toString()).exitCode())
        .isEqualTo(ExitCodes.ERROR);
    // What fails the run is shown as an error in every format, so CI annotates it as one.
    CliRun gh = CliRun.of("validate", "--strict", "--format", "github", "-p", dir.toString());
    assertThat(gh.out()).contains("::error ").doesNotContain("::warning ");
    CliRun json = CliRun.of("validate", "--strict", "--format", "json", "-p", dir.toString());
    assertThat(json.out()).contains("\"errors\" : 3").doesNotContain("\"warning\"");
  }

  /**
   * TIMESTAMP 'now' is current_timestamp() to Spark: warned at the literal, as explain finds it.
   */
  @Test
  void specialDateTimeValuesAreWarnedLikeTheCurrentTime() throws IOException {
    project(
        YML,
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a\n"
            + "(CONSTRAINT recent CHECK (order_ts > DATE 'yesterday') ON MISMATCH DROP)\n"
            + "AS SELECT id, TIMESTAMP 'now' AS order_ts,\n"
            + "  DATE 'epoch' AS e FROM bronze.orders",
        "s/b.sql",
        "CREATE MATERIALIZED LAKE VIEW s.b AS SELECT id, DATE 'epoch' AS e, 'now' AS w FROM"
            + " bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains(
            "views/s/a.sql:3:15: warning[NON_DETERMINISTIC]: TIMESTAMP'now' is the time of each"
                + " refresh")
        .contains("views/s/a.sql:2:38: warning[NON_DETERMINISTIC]: DATE'yesterday' is the time")
        .doesNotContain("epoch")
        .doesNotContain("views/s/b.sql");
  }

  @Test
  void bareCurrentDateIsNonDeterministicAndSpecialSyntaxIsNoUdf() throws IOException {
    project(
        YML,
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS\n"
            + "SELECT id, translate(name, 'ab', 'xy') AS n, timestampadd(DAY, 1, order_ts) AS t\n"
            + "FROM bronze.orders WHERE order_ts > current_date - INTERVAL 7 DAYS");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains(
            "views/s/a.sql:3:37: warning[NON_DETERMINISTIC]: function 'current_date' is not"
                + " deterministic")
        .doesNotContain("UDF");
  }

  @Test
  void anAliasNamedLikeTheCurrentTimeIsNoCall() throws IOException {
    project(
        YML,
        "s/a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS\n"
            + "SELECT id AS current_date, name current_time, order_ts AS localtimestamp,\n"
            + "  id AS current_timestamp, name AS current_user FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).doesNotContain("NON_DETERMINISTIC").contains("0 warnings");
  }

  @Test
  void debugSaysWhichSelectNeededSparksParser() throws IOException {
    project(
        YML,
        "s/h.sql",
        "CREATE MATERIALIZED LAKE VIEW s.h AS\nSELECT 'a' \"b\" AS e FROM bronze.orders");
    CliRun quiet = CliRun.of("validate", "-p", dir.toString());
    assertThat(quiet.exitCode()).as(quiet.toString()).isZero();
    assertThat(quiet.err()).isEmpty();
    CliRun debug = CliRun.of("validate", "-p", dir.toString(), "--debug");
    assertThat(debug.err())
        .contains(
            "debug: views/s/h.sql:2:1: Calcite could not parse this SELECT; Spark's parser read its lineage");
    // --debug holds for its own command only: a later command in the same JVM (the shell) is quiet.
    assertThat(System.getProperty(dev.mlv.logging.QuietLogging.DEBUG_PROPERTY)).isNull();
    CliRun after = CliRun.of("validate", "-p", dir.toString());
    assertThat(after.err()).isEmpty();
  }

  @Test
  void theRestOfAViewSplitAcrossFilesIsNotTakenForAnotherKindOfStatement() throws IOException {
    project(
        YML,
        "a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS SELECT id",
        "b.sql",
        "FROM bronze.orders",
        "c.sql",
        "WHERE id > 1",
        "d.sql",
        "SET spark.sql.shuffle.partitions = 4");
    CliRun r = CliRun.of("validate", "-p", dir.toString());

    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/b.sql:1:1: warning[NOT_A_VIEW]: this is a query on its own, not a view"
                + " definition")
        .contains(
            "views/c.sql:1:1: error[NOT_A_VIEW]: this is not a complete SQL statement: 'where'"
                + " continues a statement and cannot start one")
        .contains(
            "views/d.sql:1:1: warning[NOT_A_VIEW]: statement is not a CREATE MATERIALIZED LAKE"
                + " VIEW; mlv does not deploy it");
  }

  @Test
  void aSessionVariableStatementInAViewFileIsAnErrorNamingTheVariable() throws IOException {
    project(
        YML,
        "a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.a AS SELECT id FROM bronze.orders",
        "vars.sql",
        "DECLARE VARIABLE threshold INT DEFAULT 10;\n  set var threshold = 20;\n"
            + "DECLARE OR REPLACE limit_ INT;\nDROP TEMPORARY VARIABLE IF EXISTS threshold");
    CliRun r = CliRun.of("validate", "-p", dir.toString());

    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/vars.sql:1:1: error[SESSION_VARIABLE]: DECLARE VARIABLE threshold: a session"
                + " variable exists only in the Spark session that declares it; mlv does not run"
                + " this statement, and a materialized lake view refreshes in a session of its"
                + " own, so a view that reads threshold fails there ([UNRESOLVED_COLUMN])")
        .contains("views/vars.sql:2:3: error[SESSION_VARIABLE]: SET VAR threshold:")
        .contains("views/vars.sql:3:1: error[SESSION_VARIABLE]: DECLARE OR REPLACE limit_:")
        .contains(
            "views/vars.sql:4:1: error[SESSION_VARIABLE]: DROP TEMPORARY VARIABLE IF EXISTS"
                + " threshold:")
        .contains("hint: write the value in the view itself")
        .doesNotContain("NOT_A_VIEW");
  }

  @Test
  void pathologicallyDeepSqlIsAnErrorNotACrash() throws IOException {
    int n = 5000;
    project(
        YML,
        "deep.sql",
        "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT "
            + "(".repeat(n)
            + "1"
            + ")".repeat(n)
            + " AS x FROM bronze.orders");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    // Pointed at the parenthesis one level too deep, found before either parser runs.
    assertThat(r.out()).containsPattern("views/deep.sql:1:245: error\\[SQL_TOO_DEEP\\]");
    assertThat(r.out() + r.err()).doesNotContain("\tat ");
  }

  /**
   * A view whose file has a syntax error after its name is defined, only broken: its view_config
   * entry and the views reading it are not reported as unknown (found by QA: two warnings pointed
   * away from the one error). A table name one edit from a view of the project gets a suggestion.
   */
  @Test
  void aViewWithASyntaxErrorIsNotAlsoUnknownAndATypoInATableNameGetsASuggestion()
      throws IOException {
    project(
        YML + "view_config:\n  s.broken:\n    refresh_policy: full\n",
        "broken.sql",
        "CREATE MATERIALIZED LAKE VIEW s.broken (\n"
            + "  CONSTRAINT a CHECK (id > 0) ON MISMATCH DROP\n"
            + "  CONSTRAINT b CHECK (id < 9) ON MISMATCH DROP\n"
            + ") AS SELECT id FROM bronze.orders",
        "reader.sql",
        "CREATE MATERIALIZED LAKE VIEW s.reader AS SELECT id FROM s.broken",
        "typo.sql",
        "CREATE MATERIALIZED LAKE VIEW s.typo AS SELECT id FROM s.raeder");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains("views/broken.sql:3:3: error[MLV_SYNTAX]")
        .doesNotContain("VIEW_CONFIG_UNKNOWN")
        .doesNotContain("s.broken is neither")
        .contains(
            "views/typo.sql:1:56: warning[UNDECLARED_TABLE]: table s.raeder is neither a view of"
                + " the project nor a declared source\n"
                + "  hint: did you mean s.reader? Otherwise declare it under sources: in mlv.yml");
  }

  /** At the names, as the other name rules point, not at the statements (found by QA). */
  @Test
  void duplicateViewsAreReported() throws IOException {
    project(
        YML,
        "a.sql",
        "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT 1 AS one",
        "b.sql",
        "CREATE MATERIALIZED LAKE VIEW S.V AS SELECT 2",
        "c.sql",
        "-- again\nCREATE MATERIALIZED LAKE VIEW\n  `s`.v AS SELECT 3 AS one, 4 AS two",
        "d.sql",
        "CREATE MATERIALIZED LAKE VIEW s.w AS SELECT one, two FROM s.v");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    // Which definition is meant is not known, so a reader's columns are not checked against the
    // first (found by QA: fifteen UNRESOLVED_COLUMN errors buried the duplicate).
    assertThat(r.out()).doesNotContain("UNRESOLVED_COLUMN").contains("2 errors");
    assertThat(r.out())
        .contains(
            "views/b.sql:1:31: error[DUPLICATE_VIEW]: view s.v is already defined at"
                + " views/a.sql:1:31")
        .contains(
            "views/c.sql:3:3: error[DUPLICATE_VIEW]: view s.v is already defined at"
                + " views/a.sql:1:31");
  }

  /**
   * A broken mlv.yml is a finding like any other: validate's text format prints it on stdout with
   * its summary line, as it does an unknown key (found by QA: YAML-level errors went to stderr, so
   * {@code mlv validate > findings.txt} was empty). lineage and plan, whose stdout is data, keep
   * the error on stderr.
   */
  @Test
  void aBrokenMlvYmlIsAFindingOnValidatesStdout() throws IOException {
    String[][] cases = {
      {YML.replace("schema: dbo", "\tschema: dbo"), "mlv.yml:4:1: error[YAML_SYNTAX]"},
      {"", "mlv.yml:1:1: error["},
      {YML + "name: again\n", "mlv.yml:7:1: error["},
      {"- name: t\n", "mlv.yml:1:1: error["},
    };
    for (String[] c : cases) {
      project(c[0]);
      CliRun r = CliRun.of("validate", "-p", dir.toString());
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
      assertThat(r.err()).as(r.toString()).isEmpty();
      assertThat(r.out())
          .as(r.toString())
          .startsWith(c[1])
          .endsWith("\ninvalid: 0 files, 0 views, 1 error, 0 warnings\n");
      for (String command : List.of("lineage", "plan")) {
        CliRun other = CliRun.of(command, "-p", dir.toString());
        assertThat(other.exitCode()).as(other.toString()).isEqualTo(ExitCodes.ERROR);
        assertThat(other.out()).as(other.toString()).isEmpty();
        assertThat(other.err()).as(other.toString()).startsWith(c[1]);
      }
    }
  }

  @Test
  void aSourceNamedLikeMlvsOwnTablesIsAnErrorAndSeedRefusesIt() throws IOException {
    // Found by QA: mlv seed replaced the run history (or a quarantine table) with the seed file.
    project(
        """
        name: t
        workspace: ws
        lakehouse: lh
        schema: dbo
        sources:
          - bronze.orders
          - name: mlv_history.runs
            seed: seeds/h.csv
          - name: silver.orders_clean__quarantine
            seed: seeds/h.csv
        """);
    Files.createDirectories(dir.resolve("seeds"));
    Files.writeString(dir.resolve("seeds/h.csv"), "a,b\n1,2\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "mlv.yml:7:5: error[RESERVED_NAME]: source mlv_history.runs is a name mlv keeps for its"
                + " own tables (the schema mlv_history and names ending in __quarantine)")
        .contains("mlv.yml:9:5: error[RESERVED_NAME]: source silver.orders_clean__quarantine")
        .contains("2 errors");
    // The history table stands in for one a run wrote: seed must stop before it opens the target.
    Path history = dir.resolve(".mlv/warehouse/lh.Lakehouse/Tables/mlv_history/runs");
    Files.createDirectories(history);
    Files.writeString(history.resolve("marker"), "history");
    CliRun seed = CliRun.of("seed", "-p", dir.toString(), "mlv_history.runs");
    assertThat(seed.exitCode()).as(seed.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(seed.err()).contains("mlv.yml:7:5: error[RESERVED_NAME]");
    assertThat(history).isDirectoryContaining(f -> f.getFileName().toString().equals("marker"));
    try (var files = Files.list(history)) {
      assertThat(files).hasSize(1);
    }
  }

  /** Spark reads a last bare FROM as an alias, so no parser stops at it; validate does. */
  @Test
  void aQueryEndingRightAfterFromIsASyntaxError() throws IOException {
    String h = "CREATE MATERIALIZED LAKE VIEW silver.";
    project(
        YML,
        "a.sql",
        h + "a AS\nSELECT id FROM\n",
        "d.sql",
        h + "d AS\nSELECT * FROM;\n",
        "e.sql",
        h + "e AS\nSELECT *\nFROM -- todo\n",
        "g.sql",
        h + "g AS\nSELECT id AS `FROM` FROM bronze.orders\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    String said = "error[SQL_PARSE]: syntax error: the SELECT ends right after 'FROM'";
    assertThat(r.out())
        .contains("views/a.sql:2:11: " + said)
        .contains("views/d.sql:2:10: " + said)
        .contains("views/e.sql:3:1: " + said)
        .contains("a column really named FROM is written AS `FROM`")
        .doesNotContain("g.sql")
        .contains("3 errors");
  }

  /** An emoji is one character outside the BMP: named whole, in a name Spark refuses as é. */
  @Test
  void aNameWithACharacterOutsideTheBmpIsAnInvalidIdentifier() throws IOException {
    project(
        YML,
        "a.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.a AS\nSELECT \uD83D\uDE00x, \uD83D\uDE00 FROM"
            + " bronze.orders\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.out())
        .contains(
            "views/a.sql:2:8: error[INVALID_IDENTIFIER]: '\uD83D\uDE00x' has characters other"
                + " than ASCII letters, digits and '_'")
        .contains("hint: quote it: `\uD83D\uDE00x`")
        // The emoji counts as one column.
        .contains("views/a.sql:2:12: error[INVALID_IDENTIFIER]: '\uD83D\uDE00'")
        .doesNotContain("U+D83D")
        .doesNotContain("SQL_PARSE")
        .contains("2 errors");
  }

  /** Found by QA: the suggested name kept the blank the rule refuses. */
  @Test
  void aViewNameWithADotIsGivenANameThatKeepsToTheRule() throws IOException {
    project(
        YML,
        "q.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.`q 13.x` AS\nSELECT id FROM bronze.orders\n");
    CliRun r = CliRun.of("validate", "-p", dir.toString());
    assertThat(r.out())
        .contains("error[VIEW_NAME]: 'q 13.x' has a dot in it")
        .contains("hint: use letters, digits and '_': q_13_x\n");
  }
}
