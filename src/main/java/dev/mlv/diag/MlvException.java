package dev.mlv.diag;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A failure the user caused or can fix, carrying positioned diagnostics. The CLI prints it as a
 * paragraph without a stack trace.
 */
public class MlvException extends RuntimeException {
  private final transient List<Diagnostic> diagnostics;

  public MlvException(List<Diagnostic> diagnostics) {
    // In the order validate prints them (file, line, column), whichever check found them first.
    super(
        DiagnosticRenderer.sorted(diagnostics).stream()
            .map(Diagnostic::format)
            .collect(Collectors.joining("\n")));
    this.diagnostics = List.copyOf(diagnostics);
  }

  public MlvException(Diagnostic diagnostic) {
    this(List.of(diagnostic));
  }

  /** A positioned failure caused by {@code cause} (shown with {@code --debug}). */
  public MlvException(Diagnostic diagnostic, Throwable cause) {
    super(diagnostic.format(), cause);
    this.diagnostics = List.of(diagnostic);
  }

  public MlvException(String ruleId, String message) {
    this(Diagnostic.error(ruleId, null, message, null));
  }

  public MlvException(String ruleId, String message, Throwable cause) {
    super(message, cause);
    this.diagnostics = List.of(Diagnostic.error(ruleId, null, message, null));
  }

  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }
}
