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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bare {@code *} over a NATURAL join of views whose columns are known: Spark joins on the names
 * both sides have exactly alike, case-sensitively even with spark.sql.caseSensitive off (on Spark
 * 4.1.1, bronze.l(Id, v) NATURAL JOIN bronze.r(id, w) was a cross join showing Id, v, id, w, and a
 * view selecting it failed at apply with [COLUMN_ALREADY_EXISTS] The column `id` already exists).
 */
class NaturalJoinColumnsTest {
  @TempDir Path dir;

  /** silver.l: Id, v; silver.r: id, w; silver.a: id, amount; silver.b: id, total. */
  private List<Diagnostic> check(Map<String, String> gold, String rule) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources: [bronze.orders]\n");
    write("silver/l.sql", "silver.l", "SELECT Id, v FROM bronze.orders");
    write("silver/r.sql", "silver.r", "SELECT id, w FROM bronze.orders");
    write("silver/a.sql", "silver.a", "SELECT id, amount FROM bronze.orders");
    write("silver/b.sql", "silver.b", "SELECT id, amount * 2 AS total FROM bronze.orders");
    for (Map.Entry<String, String> e : gold.entrySet()) {
      write("gold/" + e.getKey() + ".sql", "gold." + e.getKey(), e.getValue());
    }
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project).stream().filter(d -> d.ruleId().equals(rule)).toList();
  }

  private void write(String file, String view, String select) throws IOException {
    Path f = dir.resolve("views").resolve(file);
    Files.createDirectories(f.getParent());
    Files.writeString(f, "CREATE MATERIALIZED LAKE VIEW " + view + " AS\n" + select + "\n");
  }

  private List<Diagnostic> duplicates(String select) throws IOException {
    return check(Map.of("g", select), "DUPLICATE_COLUMN");
  }

  @Test
  void namesThatDifferInCaseAreNoJoinColumnSoTheStarShowsBoth() throws IOException {
    List<Diagnostic> found = duplicates("SELECT * FROM silver.l NATURAL JOIN silver.r");
    assertThat(found).hasSize(1);
    assertThat(found.get(0).position().toString()).isEqualTo("views/gold/g.sql:2:8");
    assertThat(found.get(0).message())
        .startsWith("* selects a column name twice: ")
        .contains("silver.l", "silver.r")
        .endsWith("([COLUMN_ALREADY_EXISTS])");
    // LEFT, RIGHT and FULL natural joins show the same names.
    for (String join : List.of("NATURAL LEFT JOIN", "NATURAL RIGHT JOIN", "NATURAL FULL JOIN")) {
      assertThat(duplicates("SELECT * FROM silver.l " + join + " silver.r")).as(join).hasSize(1);
    }
  }

  @Test
  void namesAlikeAreJoinedOnAndShownOnce() throws IOException {
    for (String select :
        List.of(
            "SELECT * FROM silver.a NATURAL JOIN silver.b",
            "SELECT * FROM silver.r x NATURAL JOIN silver.r y",
            "SELECT * FROM silver.l x NATURAL JOIN silver.l y",
            "SELECT * FROM silver.a NATURAL LEFT JOIN silver.b",
            // a NATURAL join with a join on its right is not expanded
            "SELECT * FROM silver.l NATURAL JOIN (silver.r JOIN silver.b ON r.id = b.id)")) {
      assertThat(duplicates(select)).as(select).isEmpty();
    }
    // id once, then amount, then total: a repeated total is found past the join.
    assertThat(duplicates("SELECT *, amount AS total FROM silver.a NATURAL JOIN silver.b"))
        .hasSize(1);
  }

  @Test
  void aViewSelectingAStarOverANaturalJoinHasKnownColumns() throws IOException {
    List<Diagnostic> found =
        check(
            Map.of(
                "h", "SELECT * FROM silver.a NATURAL JOIN silver.b",
                "k", "SELECT h.total, h.amount, h.id, h.nope FROM gold.h AS h"),
            "UNRESOLVED_COLUMN");
    assertThat(found).hasSize(1);
    assertThat(found.get(0).message())
        .contains("gold.h (views/gold/h.sql) does not produce nope, only id, amount, total");
  }
}
