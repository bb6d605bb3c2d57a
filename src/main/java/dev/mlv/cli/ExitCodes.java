package dev.mlv.cli;

/** The process exit codes of every command, documented in docs/exit-codes.md. */
public final class ExitCodes {
  /** The command did what was asked; for {@code plan --detailed-exitcode}, no changes. */
  public static final int OK = 0;

  /** Invalid project, failed refresh, unreachable target: something needs the user's attention. */
  public static final int ERROR = 1;

  /** {@code plan --detailed-exitcode} only: the plan has changes. */
  public static final int CHANGES = 2;

  /** Another refresh holds the lakehouse: this one was skipped, not queued. */
  public static final int SKIPPED_CONCURRENT = 3;

  /**
   * {@code refresh}: every view refreshed, but one dropped more rows than its quality gate ({@code
   * max_dropped_rows}, {@code max_dropped_ratio}) allows.
   */
  public static final int QUALITY_GATE = 4;

  /** The command line itself is wrong: unknown option, missing argument (BSD EX_USAGE). */
  public static final int USAGE = 64;

  /**
   * Interrupted by the user (Ctrl-C), as shells report SIGINT. A signal that ends the JVM gives 128
   * + its number without mlv choosing it (143 for SIGTERM); docs/exit-codes.md says what is kept. A
   * run that ends Interrupted with the JVM still up ({@code mlv shell}) exits with it too.
   */
  public static final int INTERRUPTED = 130;

  private ExitCodes() {}
}
