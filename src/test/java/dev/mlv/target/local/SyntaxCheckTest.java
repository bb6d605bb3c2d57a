package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.sql.MlvParser;
import org.junit.jupiter.api.Test;

/** Spark's parser over the statements of a script before the first runs. */
class SyntaxCheckTest {
  /**
   * Spark 4.1.1 refuses v:["k"] with an internal error about its message template, not a
   * ParseException (found by QA: mlv sql -f ended in "internal error: SparkException", with no
   * place, and ran no statement).
   */
  @Test
  void aParserRefusalThatIsNoParseExceptionIsASyntaxErrorAtItsStatement() {
    var statements =
        MlvParser.parse(
                Position.start(null), "SELECT 1 AS one;\nSELECT v:c[\"k\"] AS x FROM bronze.t;\n")
            .statements();
    MlvException e =
        catchThrowableOfType(
            () -> SyntaxCheck.withoutSession(SyntaxCheck.plain(statements), "fix it"),
            MlvException.class);
    assertThat(e).isNotNull();
    Diagnostic d = e.diagnostics().get(0);
    assertThat(d.ruleId() + "@" + d.position().line() + ":" + d.position().column())
        .isEqualTo("SQL_PARSE@2:1");
    assertThat(d.message())
        .startsWith("[PARSE_SYNTAX_ERROR] Spark's parser refuses the statement without saying")
        .doesNotContain("INTERNAL_ERROR");
  }
}
