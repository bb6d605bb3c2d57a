package dev.mlv.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the CLI in-process and captures what it printed. */
public record CliRun(int exitCode, String out, String err) {

  public static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** Runs {@code args} on the project in {@code dir} (appends {@code -p dir}). */
  public static CliRun inProject(java.nio.file.Path dir, String... args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 2);
    all[args.length] = "-p";
    all[args.length + 1] = dir.toString();
    return of(all);
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
  }
}
