package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.SqlStatement;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A loaded project: its config, every view keyed by id, the statements of definition files that are
 * not view definitions, the lineage, every problem found on the way, and the views more than one
 * definition creates (the first is kept; which one is meant is not known, so neither are its
 * columns), and the views whose statement has a syntax error after their name (defined, only
 * broken).
 */
public record Project(
    ProjectConfig config,
    NameResolver names,
    List<Path> files,
    Map<ObjectId, ProjectView> views,
    List<SqlStatement> otherStatements,
    LineageGraph lineage,
    List<Diagnostic> diagnostics,
    Set<ObjectId> definedTwice,
    Set<ObjectId> unparsedViews) {

  public Project {
    files = List.copyOf(files);
    views = Map.copyOf(views);
    definedTwice = Set.copyOf(definedTwice);
    unparsedViews = Set.copyOf(unparsedViews);
    otherStatements = List.copyOf(otherStatements);
    diagnostics = List.copyOf(diagnostics);
  }

  public boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }

  public Optional<ProjectView> view(ObjectId id) {
    return Optional.ofNullable(views.get(id));
  }
}
