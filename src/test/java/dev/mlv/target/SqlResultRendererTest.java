package dev.mlv.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlResultRendererTest {

  @Test
  void cellsAreAlignedAndNullsAndLineBreaksStayOnOneLine() {
    SqlResult r =
        new SqlResult(
            List.of("id", "note"), List.of(List.of("1", "a\nb"), Arrays.asList("22", null)), "");
    assertThat(SqlResultRenderer.render(r, "table"))
        .isEqualTo("id | note\n---+-----\n1  | a\\nb\n22 | NULL\n(2 rows)\n");
  }

  @Test
  void oneMultiLineValueIsPrintedAsWritten() {
    String ddl = "CREATE TABLE lh.silver.v (\n  id INT)\nUSING delta\n";
    SqlResult r = new SqlResult(List.of("createtab_stmt"), List.of(List.of(ddl)), "");
    assertThat(SqlResultRenderer.render(r, "table"))
        .isEqualTo(
            "createtab_stmt\n--------------\nCREATE TABLE lh.silver.v (\n  id INT)\nUSING delta\n"
                + "(1 row)\n");
    assertThat(SqlResultRenderer.render(r, "csv")).isEqualTo("createtab_stmt\n\"" + ddl + "\"\n");
  }

  @Test
  void wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
    SqlResult r =
        new SqlResult(
            List.of("city", "n"),
            List.of(List.of("東京", "1"), List.of("مُدن", "2"), List.of("Oslo", "3")),
            "");
    // 東京 is 4 columns wide; the damma over م takes none, so مُدن is 3.
    assertThat(SqlResultRenderer.render(r, "table"))
        .isEqualTo("city | n\n-----+--\n東京 | 1\nمُدن  | 2\nOslo | 3\n(3 rows)\n");
  }
}
