package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A script transform and EXECUTE IMMEDIATE in a view's body (found by QA: both passed validate and
 * plan, read by the fallback parser; Spark 4.1.1 ran the script, a file it touched appeared, and
 * refused EXECUTE IMMEDIATE at apply).
 */
class ExternalCodeTest {
  private static final Position START = Position.start(Path.of("v.sql"));

  private static List<String> found(String sql) {
    return ExternalCode.check(sql, START).stream()
        .map(d -> d.ruleId() + "@" + d.position().line() + ":" + d.position().column())
        .toList();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SELECT TRANSFORM (id) USING 'cat' AS (x) FROM t|SCRIPT_TRANSFORM@1:8",
        "select transform(id, name) row format delimited fields terminated by ',' using 'sh x'"
            + " from t|SCRIPT_TRANSFORM@1:8",
        "SELECT * FROM (SELECT MAP (a, b) USING 'm.py' AS (k, v) FROM t) s|SCRIPT_TRANSFORM@1:23",
        "EXECUTE IMMEDIATE 'SELECT 1 AS a'|SQL_PARSE@1:1",
      })
  void codeThatRunsOutsideTheQueryIsRefused(String sql, String expected) {
    assertThat(found(sql)).containsExactly(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT transform(arr, x -> x + 1) AS a FROM t",
        "SELECT map('k', v) AS m, transform(arr, x -> x) AS a FROM t JOIN u USING (k)",
        "SELECT transform(arr, x -> x) FROM t",
        "SELECT id, 'USING' AS w FROM t",
        "SELECT reduce(arr, 0, (acc, x) -> acc + x) AS s FROM t",
      })
  void theHigherOrderFunctionsAreNotScripts(String sql) {
    assertThat(ExternalCode.check(sql, START)).extracting(Diagnostic::ruleId).isEmpty();
  }
}
