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

/**
 * The small project the join checks are tried on: source bronze.orders, silver.s producing id and
 * amt, silver.t id and qty, any further views given, and gold.g, the view under test.
 */
final class JoinedViewsProject {
  private JoinedViewsProject() {}

  /** The diagnostics of {@code rule} that {@link Checker} gives for gold.g, as {@code gold}. */
  static List<Diagnostic> check(
      Path dir, TableColumns told, String rule, Map<String, String> more, String gold)
      throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources: [bronze.orders]\n");
    write(
        dir,
        "silver/s.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.s AS SELECT id, amount AS amt FROM bronze.orders\n");
    write(
        dir,
        "silver/t.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.t AS SELECT id, qty FROM bronze.orders\n");
    for (var e : more.entrySet()) {
      write(dir, e.getKey(), e.getValue());
    }
    write(dir, "gold/g.sql", gold);
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project, told).stream().filter(d -> d.ruleId().equals(rule)).toList();
  }

  private static void write(Path dir, String name, String text) throws IOException {
    Path f = dir.resolve("views").resolve(name);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }
}
