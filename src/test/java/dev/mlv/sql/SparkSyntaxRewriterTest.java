package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SparkSyntaxRewriterTest {
  private final SparkSyntaxRewriter rewriter = new SparkSyntaxRewriter();

  @Test
  void keepsLengthAndLineBreaks() {
    String sql =
        "SELECT a FROM t\n  LATERAL VIEW explode(\n  x) q AS y\nTABLESAMPLE (1 PERCENT)\n"
            + "GROUP BY ALL\nDISTRIBUTE BY a;";
    String out = rewriter.rewrite(sql).sql();
    assertThat(out).hasSameSizeAs(sql);
    assertThat(out.chars().filter(c -> c == '\n').count())
        .isEqualTo(sql.chars().filter(c -> c == '\n').count());
    assertThat(out.indexOf('\n')).isEqualTo(sql.indexOf('\n'));
    assertThat(out)
        .contains("GROUP BY ()")
        .doesNotContain("LATERAL", "TABLESAMPLE", "DISTRIBUTE", ";");
  }

  @Test
  void neverTouchesStringsQuotedIdentifiersOrComments() {
    String sql =
        "SELECT 'LATERAL VIEW explode(x) t', \"GROUP BY ALL\", `VERSION AS OF 1`"
            + " /* SORT BY a; */ -- CLUSTER BY b;\nFROM t";
    SparkSyntaxRewriter.Result result = rewriter.rewrite(sql);
    // Comments are blanked (Spark nests them, Calcite does not), never rewritten.
    assertThat(result.sql())
        .isEqualTo(
            sql.replace("/* SORT BY a; */", " ".repeat(16))
                .replace("-- CLUSTER BY b;", " ".repeat(16)));
    assertThat(result.features()).isEmpty();
    assertThat(result.fragments()).isEmpty();
  }

  @Test
  void keepsRemovedCallsAsFragmentsAndNames() {
    SparkSyntaxRewriter.Result result =
        rewriter.rewrite("SELECT * FROM range(1, 10) r LATERAL VIEW explode(split(s, ',')) e AS w");
    assertThat(result.functions()).containsExactlyInAnyOrder("range", "explode");
    assertThat(result.fragments())
        .extracting(SparkSyntaxRewriter.Fragment::text)
        .containsExactly("1, 10", "split(s, ',')");
    assertThat(result.markers()).containsExactly(14);
    assertThat(result.sql()).startsWith("SELECT * FROM `$`");
  }

  /**
   * Spark syntax Calcite refuses that sent a whole view to the fallback parser, past the column
   * checks (found by QA): LIMIT ALL, an interval of several units or of milliseconds, an interval
   * type after ::, and Hive's GROUP BY keys GROUPING SETS (...). Nothing moves.
   */
  @Test
  void rewritesLimitAllIntervalsAndHiveGroupingSetsInPlace() {
    String sql =
        "SELECT INTERVAL 1 YEAR\n 2 MONTHS AS a, INTERVAL 5 MILLISECONDS AS b, x::INTERVAL DAY TO"
            + " SECOND AS c, INTERVAL '1-2' YEAR TO MONTH AS d\nFROM t GROUP BY a, b GROUPING SETS"
            + " ((a), ()) LIMIT ALL";
    String out = rewriter.rewrite(sql).sql();
    assertThat(out).hasSameSizeAs(sql);
    assertThat(out.indexOf('\n')).isEqualTo(sql.indexOf('\n'));
    assertThat(out)
        .startsWith("SELECT INTERVAL 1 YEAR\n" + " ".repeat(9) + " AS a, INTERVAL 5 SECOND ")
        .contains("x::INT" + " ".repeat("INTERVAL DAY TO SECOND".length() - 3) + " AS c")
        .contains("INTERVAL '1-2' YEAR TO MONTH AS d")
        .contains("GROUP BY a, b,GROUPING SETS ((a), ())")
        .doesNotContain("LIMIT");
  }

  @Test
  void rewritesSparkLiteralsAndTypes() {
    assertThat(
            rewriter
                .rewrite("SELECT 'a''b', 1L, 2.5BD, x == 1, CAST(m AS map<string,array<int>>)")
                .sql())
        .isEqualTo(
            "SELECT 'a\\'b', 1 , 2.5  , x =  1, CAST(m AS INT"
                + " ".repeat("map<string,array<int>>".length() - 3)
                + ")");
  }
}
