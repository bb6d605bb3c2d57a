package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * LIMIT_VALUE. Found by QA: LIMIT -1, LIMIT 1.5, LIMIT 'a' and LIMIT qty passed validate, and Spark
 * 4.1.1 refused the view at apply ([INVALID_LIMIT_LIKE_EXPRESSION]). Each case measured on Spark
 * 4.1.1, over an empty table too.
 */
class LimitValuesTest {
  private static final Position START = Position.start(Path.of("v.sql"));

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SELECT id FROM t LIMIT -1|1:24|LIMIT -1|IS_NEGATIVE",
        "SELECT id FROM t LIMIT - 1|1:24|LIMIT - 1|IS_NEGATIVE",
        "SELECT id FROM t ORDER BY id LIMIT (-1)|1:37|LIMIT -1|IS_NEGATIVE",
        "SELECT id FROM t LIMIT -2147483648|1:24|LIMIT -2147483648|IS_NEGATIVE",
        "SELECT * FROM (SELECT id FROM t LIMIT -1) q|1:39|LIMIT -1|IS_NEGATIVE",
        "SELECT id FROM t WHERE id IN (SELECT id FROM u LIMIT -1)|1:54|LIMIT -1|IS_NEGATIVE",
        "SELECT id FROM t LIMIT 5 OFFSET -1|1:33|OFFSET -1|IS_NEGATIVE",
        "SELECT id FROM t OFFSET -1|1:25|OFFSET -1|IS_NEGATIVE",
        "SELECT id FROM t LIMIT 1.5|1:24|LIMIT 1.5|DATA_TYPE",
        "SELECT id FROM t LIMIT 1.0|1:24|LIMIT 1.0|DATA_TYPE",
        "SELECT id FROM t LIMIT .5|1:24|LIMIT .5|DATA_TYPE",
        "SELECT id FROM t LIMIT 1e0|1:24|LIMIT 1e0|DATA_TYPE",
        "SELECT id FROM t LIMIT 1L|1:24|LIMIT 1L|DATA_TYPE",
        "SELECT id FROM t LIMIT 1BD|1:24|LIMIT 1BD|DATA_TYPE",
        "SELECT id FROM t LIMIT 1Y|1:24|LIMIT 1Y|DATA_TYPE",
        "SELECT id FROM t LIMIT 2147483648|1:24|LIMIT 2147483648|DATA_TYPE",
        "SELECT id FROM t LIMIT 'a'|1:24|LIMIT 'a'|DATA_TYPE",
        "SELECT id FROM t LIMIT '1'|1:24|LIMIT '1'|DATA_TYPE",
        "SELECT id FROM t LIMIT NULL|1:24|LIMIT NULL|DATA_TYPE",
        "SELECT id FROM t LIMIT true|1:24|LIMIT true|DATA_TYPE",
        "SELECT id FROM t LIMIT 5 OFFSET 1.5|1:33|OFFSET 1.5|DATA_TYPE",
        "SELECT id FROM t LIMIT qty|1:24|LIMIT qty|IS_UNFOLDABLE",
        "SELECT id, qty FROM t\\nLIMIT `qty`|2:7|LIMIT `qty`|UNRESOLVED_COLUMN",
      })
  void aLimitOrOffsetSparkRefusesIsAnErrorAtItsValue(
      String sql, String at, String what, String refusal) {
    var found = LimitValues.check(sql.replace("\\n", "\n"), START);
    assertThat(found).as(sql).hasSize(1);
    Diagnostic d = found.get(0);
    assertThat(d.ruleId()).isEqualTo("LIMIT_VALUE");
    assertThat(d.position().line() + ":" + d.position().column()).as(sql).isEqualTo(at);
    assertThat(d.message())
        .as(sql)
        .startsWith(what + ": Spark takes only a constant integer of 0 or more as")
        .contains("[INVALID_LIMIT_LIKE_EXPRESSION.")
        .contains(refusal);
  }

  @Test
  void theMessageSaysWhatSparkTakesAndTheHintWhatToWrite() {
    Diagnostic d = LimitValues.check("SELECT id FROM t LIMIT -1", START).get(0);
    assertThat(d.message())
        .isEqualTo(
            "LIMIT -1: Spark takes only a constant integer of 0 or more as LIMIT, and refuses the"
                + " view at its first refresh ([INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE])");
    assertThat(d.hint()).isEqualTo("write 0 or more; to keep every row, remove the LIMIT");
  }

  /** Values Spark takes, or that only Spark tells; and columns named limit or offset. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT id FROM t LIMIT 0",
        "SELECT id FROM t LIMIT -0",
        "SELECT id FROM t LIMIT 01",
        "SELECT id FROM t LIMIT ALL",
        "SELECT id FROM t LIMIT 2147483647",
        "SELECT id FROM t LIMIT (1)",
        "SELECT id FROM t LIMIT 1 + 1",
        "SELECT id FROM t LIMIT +1",
        "SELECT id FROM t LIMIT - -1",
        "SELECT id FROM t LIMIT 5 OFFSET 0",
        "SELECT id FROM t LIMIT current_date",
        "SELECT id FROM t LIMIT abs(-1)",
        "SELECT id, qty AS `limit` FROM t ORDER BY `limit` DESC",
        "SELECT id, qty AS limit FROM t ORDER BY limit DESC",
        "SELECT limit, offset FROM t WHERE limit > -1",
        "SELECT id FROM t AS offset",
        "SELECT id FROM t WHERE x = 'LIMIT -1' -- LIMIT -1",
      })
  void aLimitSparkTakesOrANameIsNoFinding(String sql) {
    assertThat(LimitValues.check(sql, START)).as(sql).isEmpty();
  }
}
