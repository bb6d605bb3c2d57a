package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.logging.QuietLogging;
import dev.mlv.sql.SqlStatement;
import io.delta.sql.parser.DeltaSqlParser;
import java.util.List;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.execution.SparkSqlParser;

/**
 * Spark's parser (Delta's commands included) over plain Spark statements about to run one after
 * another, before the first runs: each commits on its own, so a typo in the last must not leave the
 * others done. Shared by both targets; syntax only, nothing that needs a catalog.
 */
public final class SyntaxCheck {
  private SyntaxCheck() {}

  /**
   * With a parser of its own, for a target that has no Spark session here (Fabric): the parser a
   * session builds, without starting one. Loads Spark's parser classes only when there is a
   * statement to check.
   */
  public static void withoutSession(List<SqlStatement.Other> statements, String hint) {
    if (statements.isEmpty()) {
      return;
    }
    QuietLogging.apply(QuietLogging.debugRequested());
    check(new DeltaSqlParser(new SparkSqlParser()), statements, hint);
  }

  /** Throws SQL_PARSE at the first statement the parser refuses, with {@code hint}. */
  static void check(ParserInterface parser, List<SqlStatement.Other> statements, String hint) {
    for (SqlStatement.Other o : statements) {
      try {
        parser.parsePlan(o.sql());
      } catch (ParseException e) {
        Position at = SparkMessages.place(e, o.sql(), o.position()).orElse(o.position());
        throw new MlvException(
            Diagnostic.error(
                "SQL_PARSE",
                at,
                SparkMessages.withoutSparkPlace(SparkMessages.explanation(e)),
                hint),
            e);
      } catch (Exception e) { // SparkException is checked, yet thrown undeclared
        if (!(e instanceof org.apache.spark.SparkThrowable)) {
          throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
        // Spark's parser refusing with another error (found by QA: v:["k"] gave an internal
        // error, and mlv sql -f ended with no place and no statement run).
        throw new MlvException(
            Diagnostic.error(
                "SQL_PARSE",
                o.position(),
                dev.mlv.sql.fallback.SparkFallbackParser.placeless(
                    SparkMessages.withoutSparkPlace(SparkMessages.explanation(e))),
                hint),
            e);
      }
    }
  }

  /** The plain Spark statements of a list, leaving out mlv's own MLV statements. */
  public static List<SqlStatement.Other> plain(List<SqlStatement> statements) {
    return statements.stream()
        .filter(SqlStatement.Other.class::isInstance)
        .map(SqlStatement.Other.class::cast)
        .toList();
  }
}
