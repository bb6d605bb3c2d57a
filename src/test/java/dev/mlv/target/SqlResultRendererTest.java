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
  void numbersAreRightAlignedByTheirColumnsSparkTypeAndTextLeftAligned() {
    SqlValue.Exact one = new SqlValue.Exact(java.math.BigDecimal.ONE);
    SqlResult r =
        SqlResult.typed(
            List.of("customer", "orders", "amount", "ratio", "code"),
            List.of("string", "long", "decimal(10,2)", "double", "string"),
            List.of(
                Arrays.asList(
                    new SqlValue.Text("ann"),
                    new SqlValue.Exact(java.math.BigDecimal.valueOf(12345)),
                    new SqlValue.Exact(new java.math.BigDecimal("7.50")),
                    new SqlValue.Real(0.25),
                    new SqlValue.Text("7")),
                Arrays.asList(
                    new SqlValue.Text("bartholomew"), one, null, new SqlValue.Real(12.5), null)),
            null);
    // "code" holds digits but is a string column: left-aligned like any text.
    assertThat(SqlResultRenderer.render(r, "table"))
        .isEqualTo(
            """
            customer    | orders | amount | ratio | code
            ------------+--------+--------+-------+-----
            ann         |  12345 |   7.50 |  0.25 | 7
            bartholomew |      1 |   NULL |  12.5 | NULL
            (2 rows)
            """);
  }

  @Test
  void sparksNumericTypeNamesAreNumbers() {
    for (String t :
        List.of("byte", "short", "integer", "long", "float", "double", "decimal(38,18)")) {
      assertThat(SqlResultRenderer.isNumber(t)).as(t).isTrue();
    }
    for (String t : List.of("string", "boolean", "date", "timestamp", "array", "interval", "")) {
      assertThat(SqlResultRenderer.isNumber(t)).as(t).isFalse();
    }
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

  /** One row of every kind of value, as Spark would return {@code SELECT array(1, NULL), ...}. */
  private static SqlResult typedRow() {
    SqlValue one = new SqlValue.Exact(java.math.BigDecimal.ONE);
    return SqlResult.typed(
        List.of("a", "s", "m", "mi", "bin", "dec", "big", "d", "nan", "t", "n", "e", "ts"),
        List.of(
            "array",
            "struct",
            "map",
            "map",
            "binary",
            "decimal(22,2)",
            "long",
            "double",
            "double",
            "boolean",
            "string",
            "string",
            "timestamp"),
        List.of(
            Arrays.asList(
                new SqlValue.Array(Arrays.asList(one, null)),
                new SqlValue.Struct(List.of("x", "y"), List.of(one, new SqlValue.Text("z"))),
                new SqlValue.MapValue(List.of(new SqlValue.Text("k")), List.of(one)),
                new SqlValue.MapValue(
                    List.of(one),
                    List.of(new SqlValue.Array(List.of(new SqlValue.Bytes(new byte[] {1}))))),
                new SqlValue.Bytes(new byte[] {0, (byte) 0xFF}),
                new SqlValue.Exact(new java.math.BigDecimal("12345678901234567890.50")),
                new SqlValue.Exact(java.math.BigDecimal.valueOf(Long.MAX_VALUE)),
                new SqlValue.Real(1.5),
                new SqlValue.Real(Double.NaN),
                new SqlValue.Bool(true),
                null,
                new SqlValue.Text(""),
                new SqlValue.Temporal("2026-11-30T10:15:00"))),
        null);
  }

  @Test
  void tableAndCsvShowValuesAsSparkShowsThem() {
    SqlResult r = typedRow();
    assertThat(r.rows().get(0))
        .containsExactly(
            "[1, NULL]",
            "{1, z}",
            "{k -> 1}",
            "{1 -> [[01]]}",
            "[00 FF]",
            "12345678901234567890.50",
            "9223372036854775807",
            "1.5",
            "NaN",
            "true",
            null,
            "",
            "2026-11-30 10:15:00");
    assertThat(SqlResultRenderer.render(r, "table"))
        .contains("[1, NULL] | {1, z} | {k -> 1} | {1 -> [[01]]} | [00 FF] |");
    // NULL is an empty field, the empty string a quoted one.
    assertThat(SqlResultRenderer.render(r, "csv"))
        .isEqualTo(
            "a,s,m,mi,bin,dec,big,d,nan,t,n,e,ts\n"
                + "\"[1, NULL]\",\"{1, z}\",{k -> 1},{1 -> [[01]]},[00 FF],12345678901234567890.50,"
                + "9223372036854775807,1.5,NaN,true,,\"\",2026-11-30 10:15:00\n");
  }

  @Test
  void jsonGivesEachValueItsJsonType() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    String out = SqlResultRenderer.render(typedRow(), "json");
    assertThat(json.readTree(out))
        .isEqualTo(
            json.readTree(
                """
                [{"a": [1, null], "s": {"x": 1, "y": "z"}, "m": {"k": 1},
                  "mi": [{"key": 1, "value": ["AQ=="]}], "bin": "AP8=",
                  "dec": 12345678901234567890.50, "big": 9223372036854775807, "d": 1.5,
                  "nan": "NaN", "t": true, "n": null, "e": "", "ts": "2026-11-30T10:15:00"}]
                """));
    // Exact numbers keep every digit, trailing zeros included.
    assertThat(out).contains("\"dec\" : 12345678901234567890.50,");
  }

  @Test
  void csvTellsNullFromTheEmptyStringInTextResultsToo() {
    SqlResult r = new SqlResult(List.of("n", "e"), List.of(Arrays.asList(null, "")), null);
    assertThat(SqlResultRenderer.render(r, "csv")).isEqualTo("n,e\n,\"\"\n");
    assertThat(SqlResultRenderer.render(r, "json"))
        .isEqualTo("[ {\n  \"n\" : null,\n  \"e\" : \"\"\n} ]\n");
  }

  @Test
  void severalStatementsAreOneJsonArrayOfTheirRowArrays() {
    SqlResult a = new SqlResult(List.of("a"), List.of(List.of("1")), null);
    SqlResult created = SqlResult.message("Created silver.v: 8 rows written, 0 dropped");
    // One statement keeps its own shape.
    assertThat(SqlResultRenderer.json(List.of(a))).isEqualTo(SqlResultRenderer.render(a, "json"));
    assertThat(SqlResultRenderer.json(List.of(created))).isEqualTo("[ ]\n");
    assertThat(SqlResultRenderer.json(List.of(a, created, a)))
        .isEqualTo("[ [ {\n  \"a\" : \"1\"\n} ], [ ], [ {\n  \"a\" : \"1\"\n} ] ]\n");
  }
}
