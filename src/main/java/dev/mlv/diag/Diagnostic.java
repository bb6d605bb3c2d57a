package dev.mlv.diag;

/**
 * One finding about the user's input: where, which rule, how bad, what is wrong and how to fix it.
 * Parsing and checking return these as values so a command can report all of them at once.
 */
public record Diagnostic(
    Severity severity, String ruleId, Position position, String message, String hint) {

  public static Diagnostic error(String ruleId, Position position, String message, String hint) {
    return new Diagnostic(Severity.ERROR, ruleId, position, message, hint);
  }

  /** A note that fails no run, not even under {@code validate --strict}. */
  public static Diagnostic info(String ruleId, Position position, String message, String hint) {
    return new Diagnostic(Severity.INFO, ruleId, position, message, hint);
  }

  public static Diagnostic warning(String ruleId, Position position, String message, String hint) {
    return new Diagnostic(Severity.WARNING, ruleId, position, message, hint);
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  /** {@code file:line:col: error[RULE]: message} as compilers print it. */
  public String format() {
    String where = position == null ? "" : position + ": ";
    String text = where + severity.label() + "[" + ruleId + "]: " + message;
    return hint == null || hint.isBlank() ? text : text + "\n  hint: " + hint;
  }
}
