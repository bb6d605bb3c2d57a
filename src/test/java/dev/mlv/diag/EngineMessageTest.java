package dev.mlv.diag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Engine messages as Spark 4.1.1 and Delta 4.2.0 word them (captured from a local session). */
class EngineMessageTest {
  @Test
  void deltasSentencesBrokenAcrossLinesAreOneParagraph() {
    String delta =
        "[DELTA_MISSING_CHANGE_DATA] Error getting change data for range [1 , 3] as change data"
            + " was not\nrecorded for version [1]. If you've enabled change data feed on this"
            + " table,\nuse `DESCRIBE HISTORY` to see when it was first enabled.\nOtherwise, to"
            + " start recording change data, use `ALTER TABLE table_name SET TBLPROPERTIES\n"
            + "(delta.enableChangeDataFeed=true)`.";
    assertThat(EngineMessage.explanation(delta))
        .isEqualTo(
            "[DELTA_MISSING_CHANGE_DATA] Error getting change data for range [1 , 3] as change"
                + " data was not recorded for version [1]. If you've enabled change data feed on"
                + " this table, use `DESCRIBE HISTORY` to see when it was first enabled."
                + " Otherwise, to start recording change data, use `ALTER TABLE table_name SET"
                + " TBLPROPERTIES (delta.enableChangeDataFeed=true)`.");
  }

  @Test
  void theQueryContextAfterTheSqlStateIsLeftOut() {
    String divide =
        "[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and"
            + " return NULL instead. SQLSTATE: 22012\n== SQL (line 1, position 8) ==\n"
            + "SELECT 1/v FROM t\n       ^^^\n";
    assertThat(EngineMessage.explanation(divide))
        .isEqualTo(
            "[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and"
                + " return NULL instead. SQLSTATE: 22012");
    String syntax =
        "\n[PARSE_SYNTAX_ERROR] Syntax error at or near 'SELEC'. SQLSTATE: 42601 (line 1, pos 0)"
            + "\n\n== SQL ==\nSELEC x\n^^^\n";
    assertThat(EngineMessage.explanation(syntax))
        .isEqualTo(
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'SELEC'. SQLSTATE: 42601 (line 1, pos"
                + " 0)");
  }

  @Test
  void anAnalysisErrorKeepsAllItsSentencesButNotItsPlan() {
    String missing =
        "[TABLE_OR_VIEW_NOT_FOUND] The table or view `missing_tbl` cannot be found. Verify the"
            + " spelling and correctness of the schema and catalog.\nIf you did not qualify the"
            + " name with a schema, verify the current_schema() output, or qualify the name with"
            + " the correct schema and catalog.\nTo tolerate the error on drop use DROP VIEW IF"
            + " EXISTS or DROP TABLE IF EXISTS. SQLSTATE: 42P01; line 1 pos 14;\n'Project [*]\n"
            + "+- 'UnresolvedRelation [missing_tbl], [], false\n";
    assertThat(EngineMessage.explanation(missing))
        .startsWith("[TABLE_OR_VIEW_NOT_FOUND] The table or view `missing_tbl` cannot be found.")
        .contains("catalog. If you did not qualify")
        .endsWith("DROP TABLE IF EXISTS. SQLSTATE: 42P01; line 1 pos 14;");
    // Without a SQLSTATE, the plan is known by its nodes under the ';'.
    assertThat(
            EngineMessage.explanation(
                "cannot resolve `b`; line 1 pos 7;\nAggregate [a#1]\n+- OneRowRelation\n"))
        .isEqualTo("cannot resolve `b`; line 1 pos 7;");
    assertThat(EngineMessage.explanation("first;\nPlease retry the write."))
        .isEqualTo("first; Please retry the write.");
  }

  @Test
  void stackFramesQuotedFromATaskAreNotExplanation() {
    String task =
        "Lost task 0.0 in stage 1.0: java.lang.IllegalStateException: broken\n"
            + "\tat org.apache.spark.Foo.bar(Foo.scala:12)\n\tat java.base/Thread.run(Thread.java:840)"
            + "\n\nDriver stacktrace:\n";
    assertThat(EngineMessage.explanation(task))
        .isEqualTo("Lost task 0.0 in stage 1.0: java.lang.IllegalStateException: broken");
    assertThat(EngineMessage.explanation("  one line  ")).isEqualTo("one line");
  }
}
