package dev.mlv.project;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefinitionFilesTest {
  private static final String BASE = "name: p\nworkspace: w\nlakehouse: l\nschema: dbo\n";

  @TempDir Path root;

  private void touch(String relative) throws IOException {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "-- " + relative + "\n");
  }

  private DefinitionFiles.Found find(String yaml) throws IOException {
    Files.writeString(root.resolve("mlv.yml"), yaml);
    return DefinitionFiles.discover(ProjectLoader.load(root, Map.of()).orThrow());
  }

  private List<String> discover(String yaml) throws IOException {
    DefinitionFiles.Found found = find(yaml);
    assertThat(found.problems()).isEmpty();
    Path abs = root.toAbsolutePath().normalize();
    return found.files().stream()
        .peek(p -> assertThat(p).isAbsolute())
        .map(p -> abs.relativize(p).toString().replace('\\', '/'))
        .toList();
  }

  @Test
  void findsDefinitionFilesRecursivelyInRelativePathOrder() throws IOException {
    touch("views/silver/b.sql");
    touch("views/silver/a.SQL");
    touch("views/a/z.sql");
    touch("views/a.py");
    touch("views/gold/report.ipynb");
    touch("views/README.md");
    touch("views/notes.sql.bak");
    touch("views/.drafts/wip.sql");
    touch("views/.hidden.sql");
    touch("elsewhere/not_scanned.sql");

    assertThat(discover(BASE))
        .containsExactly(
            "views/a.py",
            "views/a/z.sql",
            "views/gold/report.ipynb",
            "views/silver/a.SQL",
            "views/silver/b.sql");
  }

  @Test
  void overlappingFoldersListEachFileOnceAndWarehouseIsSkipped() throws IOException {
    touch("views/silver/s.sql");
    touch("views/bronze.sql");
    touch("extra/x.sql");
    touch("wh/_delta_log/looks_like.sql");

    List<String> files =
        discover(
            BASE
                + "views: [views/silver, extra, views, .]\n"
                + "targets:\n  local: {warehouse: wh}\n");

    assertThat(files).containsExactly("extra/x.sql", "views/bronze.sql", "views/silver/s.sql");
  }

  @Test
  void aViewFolderRemovedAfterLoadingMeansNoFiles() throws IOException {
    // The loader refuses a missing view folder; one gone between loading and discovery is empty.
    Files.createDirectories(root.resolve("views"));
    Files.writeString(root.resolve("mlv.yml"), BASE);
    ProjectConfig config = ProjectLoader.load(root, Map.of()).orThrow();
    Files.delete(root.resolve("views"));

    DefinitionFiles.Found found = DefinitionFiles.discover(config);
    assertThat(found.files()).isEmpty();
    assertThat(found.problems()).isEmpty();
  }

  @Test
  void symbolicLinkInsideTheProjectIsFollowed() throws IOException {
    touch("views/inside.sql");
    Files.createSymbolicLink(root.resolve("views/alias.sql"), root.resolve("views/inside.sql"));

    assertThat(discover(BASE)).containsExactly("views/alias.sql", "views/inside.sql");
  }

  @Test
  void symbolicLinkLeadingOutsideTheProjectIsAnErrorAtTheLink() throws IOException {
    Path outside = Files.createTempFile("outside", ".sql");
    try {
      touch("views/inside.sql");
      Files.createSymbolicLink(root.resolve("views/escape.sql"), outside);

      DefinitionFiles.Found found = find(BASE);

      assertThat(found.files())
          .extracting(p -> p.getFileName().toString())
          .containsExactly("inside.sql");
      assertThat(found.problems())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.isError()).isTrue();
                assertThat(d.ruleId()).isEqualTo("VIEWS_LINK");
                assertThat(d.position())
                    .hasToString("views/escape.sql:1:1".replace('/', java.io.File.separatorChar));
                assertThat(d.message())
                    .contains("the file is a symbolic link to " + outside.toRealPath())
                    .contains("outside the project folder");
              });
    } finally {
      Files.deleteIfExists(outside);
    }
  }

  @Test
  void danglingSymbolicLinkIsAnErrorAtTheLink() throws IOException {
    touch("views/inside.sql");
    Files.createSymbolicLink(root.resolve("views/gone.sql"), Path.of("missing.sql"));

    DefinitionFiles.Found found = find(BASE);

    assertThat(found.files()).hasSize(1);
    assertThat(found.problems())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.isError()).isTrue();
              assertThat(d.ruleId()).isEqualTo("VIEWS_LINK");
              assertThat(d.position().file()).isEqualTo(Path.of("views", "gone.sql"));
              assertThat(d.message())
                  .isEqualTo(
                      "the file is a symbolic link to missing.sql, which does not exist;"
                          + " mlv cannot read it");
            });
  }

  @Test
  void unreadableFolderIsAnErrorAtTheFolderAndTheOtherFilesAreStillFound() throws IOException {
    touch("views/silver/a.sql");
    touch("views/gold/b.sql");
    Path gold = root.resolve("views/gold");
    boolean denied =
        gold.toFile().setReadable(false, false) && !Files.isReadable(gold); // not as root
    try {
      Assumptions.assumeTrue(denied, "the user running the tests can read any folder");

      DefinitionFiles.Found found = find(BASE);

      assertThat(found.files())
          .extracting(p -> p.getFileName().toString())
          .containsExactly("a.sql");
      assertThat(found.problems())
          .singleElement()
          .satisfies(
              d ->
                  assertThat(d.format())
                      .startsWith(
                          Path.of("views", "gold")
                              + ":1:1: error[VIEWS_READ]: cannot read the folder: permission denied"));
    } finally {
      gold.toFile().setReadable(true, false);
    }
  }

  @Test
  void aFolderTheWalkCannotOpenIsReportedInWordsAndTheWalkGoesOn() throws IOException {
    Path gold = root.resolve("views/gold");
    Files.createDirectories(gold);
    List<Diagnostic> problems = new ArrayList<>();
    var collector =
        new DefinitionFiles.Collector(
            root, root.resolve("views"), Set.of(), List.of(), new TreeMap<>(), problems);

    FileVisitResult next =
        collector.visitFileFailed(gold, new AccessDeniedException(gold.toString()));

    assertThat(next).isEqualTo(FileVisitResult.CONTINUE);
    assertThat(problems)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.isError()).isTrue();
              assertThat(d.ruleId()).isEqualTo("VIEWS_READ");
              assertThat(d.position()).isEqualTo(new Position(Path.of("views", "gold"), 1, 1));
              assertThat(d.message()).isEqualTo("cannot read the folder: permission denied");
              assertThat(d.hint()).contains("readable");
            });
  }

  @Test
  void aDefinitionFileThatCannotBeReadIsReportedInWords() throws IOException {
    Files.createDirectories(root.resolve("views"));
    Files.writeString(root.resolve("mlv.yml"), BASE);
    ProjectConfig config = ProjectLoader.load(root, Map.of()).orThrow();
    Path gone = config.root().resolve("views/gone.sql"); // deleted after discovery, say

    Project project = new ProjectBuilder().build(config, List.of(gone), List.of());

    assertThat(project.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.ruleId()).isEqualTo("FILE_READ");
              assertThat(d.message()).isEqualTo("cannot read the file: no such file or folder");
              assertThat(d.hint()).contains("readable");
            });
  }

  /**
   * Found by QA: beside FILE_READ, the view_config entry of the unreadable file's view was
   * VIEW_CONFIG_UNKNOWN and a view reading it UNDECLARED_TABLE ("check the name for a typo").
   */
  @Test
  void aFileThatCannotBeReadGivesNoTypoWarningsForItsView() throws IOException {
    Files.writeString(
        root.resolve("mlv.yml"),
        BASE + "views: [views]\nview_config:\n  silver.gone:\n    refresh_policy: full\n");
    touch("views/silver/reader.sql");
    Files.writeString(
        root.resolve("views/silver/reader.sql"),
        "CREATE MATERIALIZED LAKE VIEW silver.reader AS SELECT * FROM silver.gone\n");
    ProjectConfig config = ProjectLoader.load(root, Map.of()).orThrow();
    Path gone = config.root().resolve("views/silver/gone.sql");

    Project project =
        new ProjectBuilder()
            .build(config, List.of(gone, root.resolve("views/silver/reader.sql")), List.of());

    assertThat(project.diagnostics()).extracting(d -> d.ruleId()).containsExactly("FILE_READ");
  }

  /**
   * Found by QA: a linked folder leading to a folder of the project that is no view folder was
   * skipped without a word, so its views were missing (and --prune would drop them); one leading
   * into a view folder is read there.
   */
  @Test
  void linkedFolderLeadingToAFolderThatIsNoViewFolderIsAnError() throws IOException {
    touch("common/v.sql");
    touch("views/a/inside.sql");
    Files.createSymbolicLink(root.resolve("views/shared"), root.resolve("common"));
    Files.createSymbolicLink(root.resolve("views/again"), root.resolve("views/a"));

    DefinitionFiles.Found found = find(BASE);

    assertThat(found.files())
        .extracting(f -> root.relativize(f).toString().replace('\\', '/'))
        .containsExactly("views/a/inside.sql");
    assertThat(found.problems())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.ruleId()).isEqualTo("VIEWS_LINK");
              assertThat(d.isError()).isTrue();
              assertThat(d.position().file()).isEqualTo(Path.of("views", "shared"));
              assertThat(d.message())
                  .isEqualTo(
                      "the folder is a symbolic link to common, which is no view folder; mlv does"
                          + " not follow linked folders, so the files in it are not read");
              assertThat(d.hint())
                  .isEqualTo("list common under views: in mlv.yml, or put the folder itself here");
            });
    // Listed as a view folder, its files are read there and the link is no problem.
    assertThat(find(BASE + "views: [views, common]").problems()).isEmpty();
    // A link to a folder with no definition in it loses no view (found by QA: views/docs).
    touch("docs/a.md");
    Files.createSymbolicLink(root.resolve("views/docs"), root.resolve("docs"));
    assertThat(find(BASE + "views: [views, common]").problems()).isEmpty();
    // A link to the project folder itself, named as such (found by QA: "a symbolic link to ,").
    Files.createSymbolicLink(root.resolve("views/loop"), root);
    assertThat(find(BASE + "views: [views, common]").problems())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.message())
                  .startsWith(
                      "the folder is a symbolic link to the project folder itself, which is no"
                          + " view folder;");
              assertThat(d.hint())
                  .isEqualTo(
                      "remove the link, and list the folders that hold views under views: in"
                          + " mlv.yml");
            });
  }

  /**
   * Found by QA: a view folder listed in mlv.yml that is itself a link was skipped without a word;
   * it is read where it leads (the loader refuses one leading outside the project).
   */
  @Test
  void aViewFolderThatIsALinkIsReadWhereItLeads() throws IOException {
    touch("views2/gold/g2.sql");
    touch("views/a.sql");
    Files.createSymbolicLink(root.resolve("v2link"), root.resolve("views2"));
    DefinitionFiles.Found found = find(BASE + "views: [views, v2link]");
    assertThat(found.problems()).isEmpty();
    assertThat(found.files())
        .extracting(f -> root.relativize(f).toString().replace('\\', '/'))
        .containsExactly("views/a.sql", "views2/gold/g2.sql");
  }

  @Test
  void linkedFolderLeadingOutsideTheProjectIsAnErrorAtTheLink() throws IOException {
    Path outside = Files.createTempDirectory("outside");
    try {
      Files.writeString(outside.resolve("v.sql"), "-- v\n");
      touch("views/inside.sql");
      Files.createSymbolicLink(root.resolve("views/shared"), outside);

      DefinitionFiles.Found found = find(BASE);

      assertThat(found.files()).hasSize(1);
      assertThat(found.problems())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.ruleId()).isEqualTo("VIEWS_LINK");
                assertThat(d.position().file()).isEqualTo(Path.of("views", "shared"));
                assertThat(d.message())
                    .isEqualTo(
                        "the folder is a symbolic link to "
                            + outside.toRealPath()
                            + ", outside the project folder; mlv does not read the files in it");
              });
    } finally {
      Files.deleteIfExists(outside.resolve("v.sql"));
      Files.deleteIfExists(outside);
    }
  }
}
