package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Planner;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.refresh.FileCounts;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File-ingesting views on the local target, end to end through apply and refresh: each refresh mode
 * with files added, replaced and deleted between refreshes, CSV and Parquet, DYNAMIC and FIXED
 * schemas.
 */
class FileViewTest {
  private static final String WS = "ws_files";
  private static final String LH = "lh_files";
  private static final ObjectId RAW = new ObjectId(WS, LH, "bronze", "raw");

  @TempDir Path dir;
  private LocalTarget target;
  private long clock = 1_700_000_000_000L;

  @BeforeAll
  static void sharedContext() {
    LocalSparkTestSupport.runtime();
  }

  @AfterEach
  void close() {
    if (target != null) {
      target.close();
    }
  }

  // ---- refresh modes ----

  @Test
  void appendOnlyIngestsOnlyNewFilesAndKeepsRowsOfReplacedAndDeletedOnes() throws IOException {
    drop("a.csv", "id,name\n1,ann\n2,bob\n");
    drop("2024/01/b.csv", "id,name\n3,cid\n");
    Project p = fileView("'header' = 'true'", "'refresh_mode' = 'APPEND_ONLY'");

    ViewRun created = apply(p);
    assertThat(created.files()).contains(new FileCounts(2, 0));
    assertThat(created.rowsWritten()).isEqualTo(3);
    assertThat(rows("id, name, __filepath__"))
        .containsExactly(
            "1|ann|landing/a.csv", "2|bob|landing/a.csv", "3|cid|landing/2024/01/b.csv");

    drop("c.csv", "id,name\n4,dan\n");
    drop("a.csv", "id,name\n1,ann\n2,bob\n9,new\n");
    Files.delete(dir.resolve("landing/2024/01/b.csv"));
    long before = version();
    ViewRun second = refresh(p, false);

    assertThat(second.strategy()).isEqualTo("incremental");
    assertThat(second.reason())
        .startsWith("NEW_FILES: 1 new file to ingest; 2 replaced or deleted");
    assertThat(second.files()).contains(new FileCounts(1, 0));
    assertThat(second.rowsWritten()).isEqualTo(1);
    assertThat(version()).isEqualTo(before + 1);
    assertThat(rows("id, name")).containsExactly("1|ann", "2|bob", "3|cid", "4|dan");

    ViewRun third = refresh(p, false);
    assertThat(third.strategy()).isEqualTo("skip");
    assertThat(third.reason()).startsWith("NO_NEW_FILES");
    assertThat(version()).isEqualTo(before + 1);

    // A full refresh reads the folder as it is now: the deleted file's rows go, and the replaced
    // file's old rows, so both count as removed. Its dry run says so before it happens.
    String drops =
        "FULL_REQUESTED: a full refresh was requested, so every file in the folder is read; it"
            + " drops the rows of 2 files ingested before that are no longer in the folder or were"
            + " replaced since (APPEND_ONLY keeps them only until the view is rebuilt):"
            + " 2024/01/b.csv, a.csv";
    RunReport dry =
        target.refresh(
            p,
            new RefreshRequest(
                new TreeSet<>(p.views().keySet()), true, 1, Duration.ofHours(1), true, Map.of()),
            RunListener.NONE);
    assertThat(dry.views().get(0).reason()).isEqualTo(drops);
    ViewRun full = refresh(p, true);
    assertThat(full.strategy()).isEqualTo("full");
    assertThat(full.reason()).isEqualTo(drops);
    assertThat(full.files()).contains(new FileCounts(2, 2));
    assertThat(rows("id")).containsExactly("1", "2", "4", "9");
    // mlv runs reads the counts back from the history table, as the run reported them
    assertThat(target.runs(10).stream().map(r -> r.views().get(0).files()))
        .containsExactly(
            Optional.of(new FileCounts(2, 2)),
            Optional.empty(),
            Optional.of(new FileCounts(1, 0)),
            Optional.of(new FileCounts(2, 0)));
  }

  /**
   * A changed definition rebuilds an APPEND_ONLY view from its folder, as Fabric's CREATE OR
   * REPLACE would, so the rows of a file deleted since go: the plan warns on that replace, naming
   * the file, and the run counts the file as removed, as MIRROR counts one (found by QA: a changed
   * COMMENT dropped a deleted file's rows, the plan said only "definition changed: comment" and the
   * run "files ingested 2, removed 0").
   */
  @Test
  void aDefinitionChangeOfAnAppendOnlyViewWarnsThatItDropsRowsAndCountsTheirFilesRemoved()
      throws IOException {
    drop("2026-09-01/eu.csv", "id,name\n1,ann\n2,bob\n");
    drop("2026-09-01/us.csv", "id,name\n3,cid\n");
    Project p = fileView("'header' = 'true'", "'refresh_mode' = 'APPEND_ONLY'");
    assertThat(apply(p).files()).contains(new FileCounts(2, 0));

    Files.delete(dir.resolve("landing/2026-09-01/us.csv"));
    drop("2026-09-08/eu.csv", "id,name\n4,dan\n");
    write(
        "views/bronze/raw.sql",
        Files.readString(dir.resolve("views/bronze/raw.sql"))
            .replace("bronze.raw\n", "bronze.raw\nCOMMENT 'trials'\n"));
    Project changed = reload();
    dev.mlv.plan.Plan plan = plan(changed);
    dev.mlv.plan.Change.Replace replace = (dev.mlv.plan.Change.Replace) plan.changes().get(0);
    assertThat(replace.reason()).isEqualTo("definition changed: comment");
    assertThat(replace.warnings())
        .containsExactly(
            "the rebuild reads the folder again and drops the rows of 1 file ingested before that"
                + " is no longer in the folder or was replaced since (APPEND_ONLY keeps them only"
                + " until the view is rebuilt): 2026-09-01/us.csv");

    RunReport run = target.apply(changed, plan, RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    ViewRun rebuilt = run.views().get(0);
    assertThat(rebuilt.reason()).startsWith("DEFINITION_CHANGED");
    assertThat(rebuilt.files()).contains(new FileCounts(2, 1));
    assertThat(rows("id")).containsExactly("1", "2", "4");
    assertThat(target.runs(10).get(0).views().get(0).files()).contains(new FileCounts(2, 1));
    // Rebuilt from the folder as it is, the view has nothing more to lose.
    assertThat(target.replaceWarnings(p, RAW)).isEmpty();
  }

  /** Under MIRROR the rows of a deleted file go at the next refresh anyway: nothing to warn of. */
  @Test
  void aDefinitionChangeOfAMirrorViewHasNoWarning() throws IOException {
    drop("a.csv", "id,name\n1,ann\n");
    drop("b.csv", "id,name\n2,bob\n");
    Project p = fileView("'header' = 'true'", "'refresh_mode' = 'MIRROR'");
    apply(p);
    Files.delete(dir.resolve("landing/b.csv"));
    write(
        "views/bronze/raw.sql",
        Files.readString(dir.resolve("views/bronze/raw.sql"))
            .replace("bronze.raw\n", "bronze.raw\nCOMMENT 'trials'\n"));
    Project changed = reload();
    assertThat(plan(changed).changes().get(0)).isInstanceOf(dev.mlv.plan.Change.Replace.class);
    assertThat(target.replaceWarnings(changed, RAW)).isEmpty();
  }

  @Test
  void anEmptyFileIsNotIngestedUnderAppendOnlySoRowsWrittenToItLaterAreRead() throws IOException {
    drop("a.csv", "id,name\n1,ann\n");
    drop("later.csv", "");
    Project p = fileView("'header' = 'true'", "'refresh_mode' = 'APPEND_ONLY'");
    ViewRun created = apply(p);
    assertThat(created.files()).contains(new FileCounts(1, 0));
    // Still empty: nothing to do, and the empty file is not a new file at every refresh.
    assertThat(refresh(p, false).strategy()).isEqualTo("skip");

    drop("later.csv", "id,name\n2,bob\n");
    ViewRun grown = refresh(p, false);
    assertThat(grown.strategy()).isEqualTo("incremental");
    assertThat(grown.reason()).isEqualTo("NEW_FILES: 1 new file to ingest");
    assertThat(rows("id, name, __filepath__"))
        .containsExactly("1|ann|landing/a.csv", "2|bob|landing/later.csv");
  }

  @Test
  void mirrorAddsNewFilesAndReplacesRowsOfChangedAndDeletedFilesInOneCommit() throws IOException {
    drop("a.csv", "id,name\n1,ann\n2,bob\n");
    drop("sub/b.csv", "id,name\n3,cid\n");
    drop("sub/keep.csv", "id,name\n5,eve\n");
    Project p = fileView("'header' = 'true'", "'refresh_mode' = 'MIRROR'");
    apply(p);

    drop("c.csv", "id,name\n4,dan\n");
    drop("a.csv", "id,name\n1,ann2\n");
    Files.delete(dir.resolve("landing/sub/b.csv"));
    long before = version();
    ViewRun run = refresh(p, false);

    assertThat(run.strategy()).isEqualTo("incremental");
    assertThat(run.reason())
        .isEqualTo("FILES_CHANGED: 1 new file, 1 replaced file, 1 deleted file to mirror (MIRROR)");
    assertThat(run.files()).contains(new FileCounts(2, 2));
    assertThat(version()).isEqualTo(before + 1);
    assertThat(rows("id, name, __filepath__"))
        .containsExactly(
            "1|ann2|landing/a.csv", "4|dan|landing/c.csv", "5|eve|landing/sub/keep.csv");

    // Only deletions: rows go, nothing is read.
    Files.delete(dir.resolve("landing/c.csv"));
    ViewRun deleted = refresh(p, false);
    assertThat(deleted.files()).contains(new FileCounts(0, 1));
    assertThat(rows("id")).containsExactly("1", "5");
    assertThat(refresh(p, false).strategy()).isEqualTo("skip");
  }

  @Test
  void fullModeReadsTheWholeFolderWhenAnythingChanged() throws IOException {
    // No header (the default): columns are named by position and the first line is data.
    drop("a.csv", "id;name\n1;\"a;nn\"\n");
    Project p = fileView("'delimiter' = ';'", "'refresh_mode' = 'FULL'");
    apply(p);
    assertThat(columns()).containsExactly("_c0", "_c1", "__filepath__");
    assertThat(rows("_c0, _c1")).containsExactly("1|a;nn", "id|name");
    assertThat(refresh(p, false).strategy()).isEqualTo("skip");

    drop("b.csv", "3;cid;extra\n");
    Files.delete(dir.resolve("landing/a.csv"));
    ViewRun run = refresh(p, false);

    assertThat(run.strategy()).isEqualTo("full");
    assertThat(run.reason()).startsWith("FILES_CHANGED: 1 new file, 1 deleted file");
    // DYNAMIC (the default): the third column b.csv brings is added.
    assertThat(rows("_c0, _c1, _c2")).containsExactly("3|cid|extra");
  }

  // ---- CSV ----

  @Test
  void csvHeadersThatDifferAddColumnsUnderDynamicReadThroughAMappedOneLakeUrl() throws IOException {
    String url =
        "abfss://Files_WS@onelake.dfs.fabric.microsoft.com/Files_LH.Lakehouse/Files/orders/";
    drop("2025/a.csv", "id,name\n1,ann\n");
    Project p =
        project(
            "'format' = 'csv', 'header' = 'true', 'path' = '" + url + "2025'",
            null,
            "    files:\n      \"" + url + "\": landing\n");
    apply(p);
    assertThat(rows("id, __filepath__")).containsExactly("1|" + url + "2025/a.csv");

    drop("2025/b.csv", "id,city,name\n2,oslo,bob\n");
    refresh(p, false);
    assertThat(columns()).containsExactly("id", "name", "__filepath__", "city");
    assertThat(rows("id, name, city")).containsExactly("1|ann|null", "2|bob|oslo");
  }

  // ---- Parquet and schema modes ----

  @Test
  void parquetWithAnExtraColumnIsAddedUnderDynamic() throws IOException {
    parquet("p1", "SELECT 1 AS id, 'ann' AS name");
    Project p = fileView("'format' = 'parquet'", "'schema_mode' = 'DYNAMIC'");
    apply(p);
    parquet("p2", "SELECT 2 AS id, 'bob' AS name, 7.5D AS score");
    ViewRun run = refresh(p, false);
    assertThat(run.status()).isEqualTo(ViewStatus.Completed);
    assertThat(rows("id, name, score")).containsExactly("1|ann|null", "2|bob|7.5");
  }

  @Test
  void parquetWithAnExtraColumnIsRejectedUnderFixedAndNothingIsWritten() throws IOException {
    parquet("p1", "SELECT 1 AS id, 'ann' AS name");
    Project p = fileView("'format' = 'parquet'", "'schema_mode' = 'FIXED'");
    apply(p);
    parquet("p2", "SELECT 2 AS id, 'bob' AS name, 7.5D AS score");
    long before = version();

    ViewRun run = refresh(p, false);

    assertThat(run.status()).isEqualTo(ViewStatus.Failed);
    assertThat(run.error().orElseThrow())
        .contains("file 'p2/part-")
        .contains("column score not in the view")
        .contains("nothing was written");
    assertThat(version()).isEqualTo(before);
    assertThat(rows("id, name")).containsExactly("1|ann");

    // The list of ingested files did not move either: once the file fits, it is ingested.
    deleteTree(dir.resolve("landing/p2"));
    parquet("p2", "SELECT 2 AS id, 'bob' AS name");
    ViewRun fixed = refresh(p, false);
    assertThat(fixed.files()).contains(new FileCounts(1, 0));
    assertThat(rows("id, name")).containsExactly("1|ann", "2|bob");
  }

  /**
   * A Parquet column named with a blank (or , ; { } ( ) =): the refresh fails naming the file and
   * the column, before anything is written (found by QA: Delta's own error named neither, and
   * suggested column mapping, which a view with change data feed cannot have).
   */
  @Test
  void aParquetColumnNameDeltaCannotHoldFailsNamingTheFileAndTheColumn() throws IOException {
    parquet("p1", "SELECT 1 AS id, 'ann' AS `first name`");
    Project p = fileView("'format' = 'parquet'", "'schema_mode' = 'DYNAMIC'");
    target = LocalTargetContractTest.open(p);

    RunReport run = target.apply(p, plan(p), RunListener.NONE);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views().get(0).error().orElseThrow())
        .contains("column 'first name' of Parquet file 'p1/part-")
        .contains("has a character a Delta column name cannot hold")
        .doesNotContain("DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES");
    assertThat(Warehouse.isTable(target.warehouse().tableDir(RAW))).isFalse();
  }

  @Test
  void fixedOverFilesWithDifferentSchemasFailsAtCreation() throws IOException {
    drop("a.csv", "id,name\n1,ann\n");
    drop("b.csv", "id,name,extra\n2,bob,x\n");
    Project p = fileView("'header' = 'true'", "'schema_mode' = 'FIXED'");
    target = LocalTargetContractTest.open(p);

    RunReport run = target.apply(p, plan(p), RunListener.NONE);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    assertThat(run.views().get(0).error().orElseThrow())
        .contains("a FIXED schema needs files that share one schema")
        .contains("'b.csv' differs from 'a.csv'")
        .contains("extra");
    assertThat(Warehouse.isTable(target.warehouse().tableDir(RAW))).isFalse();
  }

  // ---- paths ----

  @Test
  void fileNamesWithGlobCharactersAreReadAsTheyAreNamed() throws IOException {
    drop("[x].csv", "id,name\n6,bracket\n");
    drop("x.csv", "id,name\n7,plain\n");
    drop("c{1,2}.csv", "id,name\n8,braces\n");
    drop("q?.csv", "id,name\n9,question\n");
    Project p = fileView("'header' = 'true'", "'refresh_mode' = 'MIRROR'");
    ViewRun created = apply(p);
    assertThat(created.error()).isEmpty();
    assertThat(rows("id, name"))
        .containsExactlyInAnyOrder("6|bracket", "7|plain", "8|braces", "9|question");
  }

  @Test
  void quotedLineBreaksAndDoubledQuotesAreOneFieldAndALatin1FileFailsTheRefresh()
      throws IOException {
    drop(
        "notes.csv",
        "\uFEFFid,note,qty\r\n1,\"first line\nsecond line\",5\r\n2,\"say \"\"hi\"\"\",6\r\n"
            // As file-views.md says: "" is NULL, as an empty field is, and a CRLF inside quotes
            // is read as LF (Spark's CSV reader does both).
            + "3,\"\",7\r\n4,,8\r\n5,\"windows\r\nline\",9\r\n");
    Project p = fileView("'header' = 'true'", "'refresh_mode' = 'APPEND_ONLY'");
    ViewRun created = apply(p);
    assertThat(created.rowsWritten()).isEqualTo(5);
    assertThat(rows("id, note IS NULL, note, qty"))
        .containsExactly(
            "1|false|first line\nsecond line|5",
            "2|false|say \"hi\"|6",
            "3|true|null|7",
            "4|true|null|8",
            "5|false|windows\nline|9");

    Path latin1 = dir.resolve("landing/later.csv");
    StringBuilder text = new StringBuilder("id,note,qty\n");
    for (int i = 0; i < 1000; i++) {
      text.append(10 + i).append(",padding-padding,1\n");
    }
    byte[] head = text.toString().getBytes(StandardCharsets.UTF_8);
    byte[] bytes = java.util.Arrays.copyOf(head, head.length + 8);
    System.arraycopy(
        "9,Jos\u00e9,1\n".getBytes(StandardCharsets.ISO_8859_1), 0, bytes, head.length, 8);
    Files.write(latin1, bytes);
    long before = version();
    ViewRun refused = refresh(p, false);
    assertThat(refused.status()).isEqualTo(dev.mlv.refresh.ViewStatus.Failed);
    assertThat(refused.error().orElseThrow())
        .contains(
            "error[FILE_OPTION]: refresh of bronze.raw failed: file 'later.csv' is not UTF-8");
    assertThat(version()).isEqualTo(before);
  }

  @Test
  void aMissingFolderFailsTheViewWithItsLocalPath() throws IOException {
    Project p = fileView("'header' = 'true'", null);
    Files.delete(dir.resolve("landing"));
    target = LocalTargetContractTest.open(p);
    RunReport run = target.apply(p, plan(p), RunListener.NONE);
    assertThat(run.views().get(0).error().orElseThrow())
        .contains("source folder")
        .contains("does not exist");
  }

  /**
   * An APPEND_ONLY file view ingesting a new file appends its rows, so the view below it stays
   * incremental; its dry run said the file view was rewritten (NON_APPEND_COMMIT) and planned a
   * rebuild (found by QA).
   */
  @Test
  void aDryRunKnowsANewFilesIngestionAppendsForTheViewBelow() throws IOException {
    Project p = appliedWithAViewBelow("APPEND_ONLY");

    drop("b.csv", "id,name\n401,late\n");
    RunReport dry = target.refresh(p, LocalTargetContractTest.dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, LocalTargetContractTest.dryRun(p, false), RunListener.NONE);
    assertThat(real.status()).as(real.toString()).isEqualTo(RunStatus.Completed);
    assertThat(LocalTargetContractTest.decisions(real))
        .containsExactly(
            "bronze.raw incremental NEW_FILES", "silver.named incremental ONLY_APPENDS");
    assertThat(LocalTargetContractTest.decisions(dry))
        .isEqualTo(LocalTargetContractTest.decisions(real));
  }

  /**
   * MIRROR with only new files appends too, so the view below stays incremental; a replaced file
   * removes rows, so the view below is rebuilt. The dry run said full for both (found by QA).
   */
  @Test
  void aDryRunKnowsAMirrorIngestionOfOnlyNewFilesAppendsForTheViewBelow() throws IOException {
    Project p = appliedWithAViewBelow("MIRROR");

    drop("b.csv", "id,name\n401,late\n");
    RunReport dry = target.refresh(p, LocalTargetContractTest.dryRun(p, true), RunListener.NONE);
    RunReport real = target.refresh(p, LocalTargetContractTest.dryRun(p, false), RunListener.NONE);
    assertThat(LocalTargetContractTest.decisions(real))
        .containsExactly(
            "bronze.raw incremental FILES_CHANGED", "silver.named incremental ONLY_APPENDS");
    assertThat(LocalTargetContractTest.decisions(dry))
        .isEqualTo(LocalTargetContractTest.decisions(real));

    drop("b.csv", "id,name\n401,later\n");
    RunReport dry2 = target.refresh(p, LocalTargetContractTest.dryRun(p, true), RunListener.NONE);
    RunReport real2 = target.refresh(p, LocalTargetContractTest.dryRun(p, false), RunListener.NONE);
    assertThat(LocalTargetContractTest.decisions(real2))
        .containsExactly(
            "bronze.raw incremental FILES_CHANGED",
            "silver.named full NON_APPEND_COMMIT source=bronze.raw version=2 operation=WRITE");
    assertThat(LocalTargetContractTest.decisions(dry2))
        .isEqualTo(LocalTargetContractTest.decisions(real2));
  }

  // ---- helpers ----

  /** File view bronze.raw (400 rows, change data feed on) and silver.named below it, applied. */
  private Project appliedWithAViewBelow(String refreshMode) throws IOException {
    StringBuilder many = new StringBuilder("id,name\n");
    for (int i = 1; i <= 400; i++) {
      many.append(i).append(",name").append(i).append('\n');
    }
    drop("a.csv", many.toString());
    write(
        "views/silver/named.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.named AS\n"
            + "SELECT id, upper(name) AS name FROM bronze.raw WHERE id > 0\n");
    Project p =
        project(
            "'format' = 'csv', 'header' = 'true', 'path' = 'landing/'",
            "'refresh_mode' = '" + refreshMode + "'",
            "view_config:\n  bronze.raw:\n    enable_cdf: true\n");
    target = LocalTargetContractTest.open(p);
    RunReport created = target.apply(p, plan(p), RunListener.NONE);
    assertThat(created.status()).as(created.toString()).isEqualTo(RunStatus.Completed);
    return p;
  }

  private Project fileView(String options, String properties) throws IOException {
    String opts = options.contains("'format'") ? options : "'format' = 'csv', " + options;
    return project(opts + ", 'path' = 'landing/'", properties, "");
  }

  private Project project(String options, String properties, String targetExtra)
      throws IOException {
    write(
        "mlv.yml",
        "name: files\nworkspace: "
            + WS
            + "\nlakehouse: "
            + LH
            + "\nschema: dbo\n"
            + "defaults:\n  enable_cdf: false\n  parallelism: 1\n"
            + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n"
            + targetExtra);
    write(
        "views/bronze/raw.sql",
        "CREATE MATERIALIZED LAKE VIEW bronze.raw\nUSING OneLake_Files\nOPTIONS ("
            + options
            + ")"
            + (properties == null ? "" : "\nTBLPROPERTIES (" + properties + ")")
            + "\n");
    Files.createDirectories(dir.resolve("landing"));
    LoadResult loaded = ProjectLoader.load(dir, Map.of());
    assertThat(loaded.hasErrors()).as(loaded.diagnostics().toString()).isFalse();
    ProjectConfig config = loaded.orThrow();
    Project p =
        new ProjectBuilder()
            .build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    assertThat(p.hasErrors()).as(p.diagnostics().toString()).isFalse();
    return p;
  }

  private ViewRun apply(Project p) {
    target = LocalTargetContractTest.open(p);
    RunReport run = target.apply(p, plan(p), RunListener.NONE);
    assertThat(run.status()).as(run.toString()).isEqualTo(RunStatus.Completed);
    return run.views().get(0);
  }

  private ViewRun refresh(Project p, boolean full) {
    RunReport run =
        target.refresh(
            p,
            new RefreshRequest(
                new TreeSet<>(p.views().keySet()), full, 1, Duration.ofHours(1), false, Map.of()),
            RunListener.NONE);
    return run.views().get(0);
  }

  /** The plan as mlv plan and apply make it, with what the target says a replace loses. */
  private dev.mlv.plan.Plan plan(Project p) {
    return new Planner(Clock.systemUTC())
        .plan(
            p,
            target.name(),
            target.state(p),
            new TreeSet<>(p.views().keySet()),
            true,
            false,
            true,
            id -> target.replaceWarnings(p, id));
  }

  /** The project as its files say now, after a view's file was edited. */
  private Project reload() {
    LoadResult loaded = ProjectLoader.load(dir, Map.of());
    ProjectConfig config = loaded.orThrow();
    Project p =
        new ProjectBuilder()
            .build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    assertThat(p.hasErrors()).as(p.diagnostics().toString()).isFalse();
    return p;
  }

  private long version() {
    OptionalLong v = Warehouse.latestCommit(target.warehouse().tableDir(RAW));
    return v.orElseThrow();
  }

  private SparkSession spark() {
    return target.runtime().session();
  }

  private List<String> rows(String columns) {
    return spark()
        .read()
        .format("delta")
        .load(target.warehouse().tableDir(RAW).toString())
        .selectExpr(columns.split(",\\s*"))
        .collectAsList()
        .stream()
        .map(FileViewTest::cells)
        .sorted()
        .toList();
  }

  private List<String> columns() {
    return List.of(
        spark().read().format("delta").load(target.warehouse().tableDir(RAW).toString()).columns());
  }

  private static String cells(Row r) {
    return java.util.stream.IntStream.range(0, r.length())
        .mapToObj(i -> String.valueOf(r.get(i)))
        .collect(Collectors.joining("|"));
  }

  /** Writes a source file with a modification time of its own, so a rewrite is always seen. */
  private void drop(String relative, String text) throws IOException {
    Path f = dir.resolve("landing").resolve(relative);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text, StandardCharsets.UTF_8);
    clock += 60_000;
    Files.setLastModifiedTime(f, FileTime.fromMillis(clock));
  }

  /** One Parquet file (plus Spark's hidden _SUCCESS and .crc files) in landing/{folder}. */
  private void parquet(String folder, String select) {
    SparkSession spark = LocalSparkTestSupport.spark();
    spark
        .sql(select)
        .coalesce(1)
        .write()
        .parquet(dir.resolve("landing").resolve(folder).toString());
  }

  private void write(String relative, String text) throws IOException {
    Path f = dir.resolve(relative);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text, StandardCharsets.UTF_8);
  }

  private static void deleteTree(Path p) {
    Warehouse.deleteTree(p);
  }
}
