package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which SELECT items' types the text alone fixes to one Delta cannot store; measured against Spark
 * 4.1.1 with Delta 4.2 (docs/semantics.md lists what apply said for each).
 */
class CertainTypesTest {

  private static String read(String text, String name) {
    Optional<CertainTypes.Unstorable> u = CertainTypes.of(text, name);
    return u.map(x -> x.kind() + " " + x.type() + " at " + x.path() + (x.nested() ? " nested" : ""))
        .orElse("none");
  }

  @Test
  void intervalLiteralsAreAnsiIntervalsFromTheirFirstFieldToTheirLast() {
    assertThat(read("INTERVAL 1 DAY AS i", "i")).isEqualTo("INTERVAL INTERVAL DAY at i");
    assertThat(read("INTERVAL '1-2' YEAR TO MONTH AS i", "i"))
        .isEqualTo("INTERVAL INTERVAL YEAR TO MONTH at i");
    assertThat(read("INTERVAL '1' DAY i", "i")).isEqualTo("INTERVAL INTERVAL DAY at i");
    assertThat(read("INTERVAL 1 DAY 2 HOURS AS i", "i"))
        .isEqualTo("INTERVAL INTERVAL DAY TO HOUR at i");
    assertThat(read("INTERVAL -1 DAYS AS i", "i")).isEqualTo("INTERVAL INTERVAL DAY at i");
    assertThat(read("-INTERVAL 1 DAY AS i", "i")).isEqualTo("INTERVAL INTERVAL DAY at i");
    assertThat(read("(INTERVAL 30 MINUTES) AS `my i`", "my i"))
        .isEqualTo("INTERVAL INTERVAL MINUTE at my i");
    assertThat(read("INTERVAL 2 WEEKS AS i", "i")).isEqualTo("INTERVAL INTERVAL DAY at i");
    // The units inside the string (Spark 4.1.1's typeof: interval day, interval day to hour).
    assertThat(read("INTERVAL '1 day' AS i", "i")).isEqualTo("INTERVAL INTERVAL DAY at i");
    assertThat(read("INTERVAL ' 1 day 2 hours ' AS i", "i"))
        .isEqualTo("INTERVAL INTERVAL DAY TO HOUR at i");
  }

  @Test
  void castsAndFunctionsOfAFixedReturnType() {
    assertThat(read("CAST('1' AS INTERVAL DAY) AS i", "i")).isEqualTo("INTERVAL INTERVAL DAY at i");
    assertThat(read("try_cast(x AS interval hour to second) AS i", "i"))
        .isEqualTo("INTERVAL INTERVAL HOUR TO SECOND at i");
    assertThat(read("x::INTERVAL YEAR AS i", "i")).isEqualTo("INTERVAL INTERVAL YEAR at i");
    assertThat(read("CAST(a + b AS TIME(3)) AS t", "t")).isEqualTo("TIME TIME at t");
    assertThat(read("TIME'10:00:00' AS t", "t")).isEqualTo("TIME TIME at t");
    assertThat(read("to_time(s) AS t", "t")).isEqualTo("TIME TIME at t");
    assertThat(read("make_interval(1, 2) AS i", "i")).isEqualTo("CALENDAR_INTERVAL INTERVAL at i");
    assertThat(read("make_dt_interval(1, 2, 3, 4) AS i", "i"))
        .isEqualTo("INTERVAL INTERVAL DAY TO SECOND at i");
    assertThat(read("make_ym_interval(1, 2) AS i", "i"))
        .isEqualTo("INTERVAL INTERVAL YEAR TO MONTH at i");
    assertThat(read("NULL AS n", "n")).isEqualTo("VOID VOID at n");
    assertThat(read("CAST(NULL AS VOID) AS n", "n")).isEqualTo("VOID VOID at n");
    // The last :: is the type; a CAST to a type Delta stores is fine.
    assertThat(read("CAST(x AS INTERVAL DAY)::STRING AS s", "s")).isEqualTo("none");
    assertThat(read("CAST(NULL AS STRING) AS n", "n")).isEqualTo("none");
    assertThat(read("CAST(INTERVAL 1 DAY AS STRING) AS s", "s")).isEqualTo("none");
    assertThat(read("CAST(x AS DECIMAL(10, 2)) AS d", "d")).isEqualTo("none");
  }

  @Test
  void conditionalsHaveTheOneTypeOfTheirValuesNullAside() {
    assertThat(read("CASE WHEN a > 0 THEN TIME'10:00' ELSE NULL END AS t", "t"))
        .isEqualTo("TIME TIME at t");
    assertThat(read("CASE k WHEN 1 THEN to_time(s) WHEN 2 THEN make_time(1, 2, 3) END t", "t"))
        .isEqualTo("TIME TIME at t");
    assertThat(read("coalesce(to_time(s), TIME'00:00') AS t", "t")).isEqualTo("TIME TIME at t");
    assertThat(read("nvl(NULL, current_time()) AS t", "t")).isEqualTo("TIME TIME at t");
    assertThat(read("if(a > 0, make_time(1, 2, 3), NULL) AS t", "t")).isEqualTo("TIME TIME at t");
    assertThat(read("greatest(TIME'10:00', TIME'11:00') AS t", "t")).isEqualTo("TIME TIME at t");
    assertThat(read("CASE WHEN a THEN INTERVAL 1 DAY END AS i", "i"))
        .isEqualTo("INTERVAL INTERVAL DAY at i");
    assertThat(read("CASE WHEN a THEN (CASE WHEN b THEN TIME'1:00' END) ELSE NULL END AS t", "t"))
        .isEqualTo("TIME TIME at t");
    // Spark 4.1: typeof(CASE WHEN rand() > 0 THEN NULL END) and typeof(coalesce(NULL, NULL)) are
    // void.
    assertThat(read("CASE WHEN a THEN NULL END AS n", "n")).isEqualTo("VOID VOID at n");
    assertThat(read("coalesce(NULL, NULL) AS n", "n")).isEqualTo("VOID VOID at n");
    // Values of other or unknown types: the common type is Spark's to find, so not read.
    assertThat(read("CASE WHEN a THEN TIME'10:00' ELSE '11:00' END AS t", "t")).isEqualTo("none");
    assertThat(read("coalesce(x, TIME'00:00') AS t", "t")).isEqualTo("none");
    assertThat(read("if(to_time(s) IS NULL, 1, 2) AS n", "n")).isEqualTo("none");
    assertThat(read("CASE WHEN a THEN INTERVAL 1 DAY ELSE INTERVAL 1 HOUR END AS i", "i"))
        .isEqualTo("none");
    assertThat(read("CASE WHEN a THEN TIME'10:00' END + x AS t", "t")).isEqualTo("none");
  }

  @Test
  void nestedTypesArePlacedAsDeltaNamesThem() {
    assertThat(read("named_struct('a', INTERVAL 1 DAY) AS s", "s"))
        .isEqualTo("INTERVAL INTERVAL DAY at s.a nested");
    assertThat(read("array(INTERVAL 1 DAY) AS s", "s"))
        .isEqualTo("INTERVAL INTERVAL DAY at s[] nested");
    assertThat(read("array() AS s", "s")).isEqualTo("VOID VOID at s[] nested");
    assertThat(read("array(NULL, NULL) AS s", "s")).isEqualTo("VOID VOID at s[] nested");
    assertThat(read("map() AS s", "s")).isEqualTo("VOID VOID at s.key nested");
    assertThat(read("named_struct('a', 1, 'b', NULL) AS s", "s"))
        .isEqualTo("VOID VOID at s.b nested");
    assertThat(read("CAST(x AS STRUCT<time: INT, `b`: ARRAY<TIME>>) AS s", "s"))
        .isEqualTo("TIME TIME at s.b[] nested");
    assertThat(read("CAST(x AS MAP<STRING, INTERVAL DAY>) AS m", "m"))
        .isEqualTo("INTERVAL INTERVAL DAY at m.value nested");
  }

  @Test
  void anItemWhoseTypeTheTextDoesNotFixIsNotRead() {
    List<String> unknown =
        List.of(
            // the type comes from columns, or from how operators combine them
            "d1 - d2 AS i",
            "CAST(d AS DATE) - DATE'2026-01-01' AS i",
            "INTERVAL 1 DAY * 2 AS i",
            "INTERVAL 1 DAY + ts AS i",
            "ts - INTERVAL 1 DAY AS i",
            "-x AS i",
            "x AS i",
            "t.i AS i",
            "NULL IS NULL AS b",
            "coalesce(NULL, x) AS i",
            "max(INTERVAL 1 DAY) AS i",
            "array(NULL, 1) AS a",
            "array(INTERVAL 1 DAY, x) AS a",
            "map('k', NULL) AS m",
            "named_struct('a', INTERVAL 1 DAY).a AS i",
            "array(INTERVAL 1 DAY)[0] AS i",
            "s.make_time(1, 2, 3) AS t",
            "time AS t",
            "interval AS i",
            // a string of another shape than number-unit pairs
            "INTERVAL '1 10:00' AS i",
            // a multi-word type not read here
            "CAST(x AS TIME WITHOUT TIME ZONE) AS t",
            // a type Delta stores
            "parse_json(s) AS v",
            "CAST(x AS VARIANT) AS v",
            "CAST(x AS TIMESTAMP_NTZ) AS t",
            "X'00FF' AS b",
            "'a' AS s");
    for (String item : unknown) {
      String name = item.substring(item.lastIndexOf(' ') + 1);
      assertThat(read(item, name)).as(item).isEqualTo("none");
    }
  }

  @Test
  void anItemWithoutAnAliasIsReadWhole() {
    assertThat(read("CAST(x AS INTERVAL DAY)", "x")).isEqualTo("INTERVAL INTERVAL DAY at x");
    assertThat(read("make_time(1, 2, 3)", null)).isEqualTo("TIME TIME at ");
  }

  @Test
  void complexTypesAreToldWhateverTheirPartsTypes() {
    assertThat(CertainTypes.complex("array(id) AS arr", "arr")).hasValue("ARRAY");
    assertThat(CertainTypes.complex("array(a, 1) arr", "arr")).hasValue("ARRAY");
    assertThat(CertainTypes.complex("named_struct('x', id) AS st", "st")).hasValue("STRUCT");
    assertThat(CertainTypes.complex("map('k', id) AS m", "m")).hasValue("MAP");
    assertThat(CertainTypes.complex("CAST(id AS ARRAY<INT>) AS c", "c")).hasValue("ARRAY");
    assertThat(CertainTypes.complex("id::MAP<STRING, INT> AS c", "c")).hasValue("MAP");
    assertThat(CertainTypes.complex("TRY_CAST(id AS STRUCT<a: INT>) c", "c")).hasValue("STRUCT");
    for (String simple :
        List.of(
            "id AS c",
            "array(id)[0] AS c",
            "size(array(id)) AS c",
            "CAST(array(id) AS STRING) AS c",
            "map('k') AS c",
            "f(x) AS c")) {
      assertThat(CertainTypes.complex(simple, "c")).as(simple).isEmpty();
    }
  }

  @Test
  void aCollationOtherThanUtf8BinaryMakesACollatedString() {
    assertThat(read("name COLLATE UTF8_LCASE AS n", "n"))
        .isEqualTo("COLLATED STRING COLLATE UTF8_LCASE at n");
    assertThat(read("CAST(name AS STRING COLLATE UNICODE_CI) AS n", "n"))
        .isEqualTo("COLLATED STRING COLLATE UNICODE_CI at n");
    assertThat(read("name::VARCHAR(10) COLLATE unicode AS n", "n"))
        .isEqualTo("COLLATED VARCHAR COLLATE unicode at n");
    assertThat(read("collate(name, 'UNICODE') AS n", "n"))
        .isEqualTo("COLLATED STRING COLLATE UNICODE at n");
    assertThat(read("name COLLATE SYSTEM.BUILTIN.UTF8_LCASE AS n", "n"))
        .isEqualTo("COLLATED STRING COLLATE UTF8_LCASE at n");
    assertThat(read("array(name COLLATE UTF8_LCASE) AS a", "a"))
        .isEqualTo("COLLATED STRING COLLATE UTF8_LCASE at a[] nested");
    for (String plain :
        List.of(
            "name COLLATE UTF8_BINARY AS n",
            "CAST(name AS STRING COLLATE utf8_binary) AS n",
            "lower(name COLLATE UTF8_LCASE) AS n",
            "name COLLATE UTF8_LCASE = 'a' AS n")) {
      assertThat(read(plain, "n")).as(plain).isEqualTo("none");
    }
  }
}
