package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of reading mlv.yml: the config when it has no errors but unknown keys (which validate
 * reports beside the views' own; {@link #orThrow} refuses them), and every finding.
 */
public record LoadResult(Optional<ProjectConfig> config, List<Diagnostic> diagnostics) {

  public LoadResult {
    diagnostics = List.copyOf(diagnostics);
  }

  public boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }

  /** The config, or an {@link MlvException} carrying the errors for the CLI to print. */
  public ProjectConfig orThrow() {
    if (hasErrors() || config.isEmpty()) {
      throw new MlvException(diagnostics.stream().filter(Diagnostic::isError).toList());
    }
    return config.get();
  }
}
