package dev.mlv.target.fabric;

import dev.mlv.diag.Position;
import dev.mlv.logging.QuietLogging;
import dev.mlv.sql.SqlStatement;
import dev.mlv.target.local.SyntaxCheck;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs the Fabric target's syntax check as {@code mlv sql -t <fabric>} does, in a child JVM: the
 * target applies the quiet logging when it opens, the check applies it again, and a garbage
 * collection falls between them and Spark's first log line. The parent checks stderr.
 */
public final class SyntaxCheckQuietProbe {
  private SyntaxCheckQuietProbe() {}

  public static void main(String[] args) {
    QuietLogging.apply(false);
    QuietLogging.apply(false);
    System.gc();
    SyntaxCheck.withoutSession(
        List.of(new SqlStatement.Other("SELECT 1 AS one", Position.start(Path.of("x.sql")))),
        "hint");
    System.out.println("OK");
  }
}
