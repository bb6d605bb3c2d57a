package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A named window refined in place: Calcite reads it, Spark 4.1.1 refuses it as PARSE_SYNTAX_ERROR
 * (each case run on Spark with mlv shell, which placed the error where these tests do).
 */
class WindowRefinementTest {
  private static final TableExtractor EXTRACTOR = new TableExtractor();
  private static final Position START = Position.start(Path.of("v.sql"));

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "SELECT sum(x) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM t"
            + " WINDOW w AS (PARTITION BY k ORDER BY y)|1:20|OVER (w ROWS ...)|'('",
        "SELECT sum(x) OVER (w ORDER BY y) AS s FROM t WINDOW w AS (PARTITION BY k)"
            + "|1:20|OVER (w ORDER ...)|'('",
        "SELECT sum(x) OVER (w PARTITION BY k) AS s FROM t WINDOW w AS (ORDER BY y)"
            + "|1:20|OVER (w PARTITION ...)|'('",
        "SELECT sum(x) OVER (`w` RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM t"
            + " WINDOW w AS (PARTITION BY k ORDER BY y)|1:20|OVER (`w` RANGE ...)|'('",
        "SELECT sum(x) OVER w2 AS s FROM t WINDOW w AS (PARTITION BY k), w2 AS (w ORDER BY y)"
            + "|1:35|WINDOW w2 AS (w ORDER ...)|'WINDOW'",
      })
  void aWindowNameWithMoreAfterItIsRefusedWhereSparkRefusesIt(
      String sql, String at, String construct, String near) {
    List<Diagnostic> found = EXTRACTOR.extract(sql, START).diagnostics();
    assertThat(found).as(sql).hasSize(1);
    Diagnostic d = found.get(0);
    assertThat(d.ruleId()).isEqualTo(TableExtractor.NOT_SPARK_RULE);
    assertThat(d.position().toString()).isEqualTo("v.sql:" + at);
    assertThat(d.message())
        .isEqualTo(
            construct
                + " is not Spark SQL: Spark 4.1 (Fabric Runtime 2.0) takes a window's name only"
                + " alone (OVER w, OVER (w), WINDOW w2 AS w) and cannot parse it"
                + " ([PARSE_SYNTAX_ERROR] syntax error at or near "
                + near
                + ")");
    assertThat(d.hint()).startsWith("write the frame or ordering into the window's definition");
  }

  @Test
  void aRefinementInsideACallOfACteOnALaterLineIsPlacedAsSparkPlacesIt() {
    String sql =
        "WITH c AS (SELECT k, y,\n  coalesce(sum(x) OVER (w ROWS 1 PRECEDING), 0) AS s FROM t"
            + " WINDOW w AS (PARTITION BY k ORDER BY y))\nSELECT * FROM c";
    List<Diagnostic> found = EXTRACTOR.extract(sql, START).diagnostics();
    assertThat(found).hasSize(1);
    assertThat(found.get(0).ruleId()).isEqualTo(TableExtractor.NOT_SPARK_RULE);
    // Here Spark stops at ROWS, not at the parenthesis (its own parser places it).
    assertThat(found.get(0).position().toString()).isEqualTo("v.sql:2:27");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT sum(x) OVER (w) AS s FROM t WINDOW w AS (PARTITION BY k ORDER BY y)",
        "SELECT sum(x) OVER w AS s FROM t WINDOW w AS (PARTITION BY k ORDER BY y)",
        "SELECT sum(x) OVER w2 AS s FROM t WINDOW w AS (PARTITION BY k ORDER BY y), w2 AS w",
        "SELECT sum(x) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM t",
        "SELECT sum(x) OVER (PARTITION BY k ORDER BY y ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"
            + " AS s FROM t",
        "SELECT sum(x) OVER (DISTRIBUTE BY k SORT BY y) AS s FROM t",
        // a CTE after one with a WINDOW clause is no window definition
        "WITH c AS (SELECT sum(x) OVER w AS s FROM t WINDOW w AS (PARTITION BY k)),"
            + " d AS (SELECT s FROM c) SELECT * FROM d",
      })
  void whatSparkParsesIsNotReported(String sql) {
    assertThat(EXTRACTOR.extract(sql, START).diagnostics()).as(sql).isEmpty();
  }
}
