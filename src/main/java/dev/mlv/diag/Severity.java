package dev.mlv.diag;

/** How serious a finding is; errors make a command fail. */
public enum Severity {
  ERROR,
  WARNING,
  INFO;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
