package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DUPLICATE_COLUMN, and PARTITION_COLUMN, through a {@code *} over views of the project whose
 * columns are known.
 */
class DuplicateColumnTest {
  @TempDir Path dir;

  /** silver.a produces id and amount; silver.b produces id and total. */
  private List<Diagnostic> check(String gold) throws IOException {
    return check(gold, "SELECT id, amount FROM bronze.orders");
  }

  private List<Diagnostic> check(String gold, String silverA) throws IOException {
    return check("CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + gold, silverA, "DUPLICATE_COLUMN");
  }

  /** The findings of {@code rule} with gold.g's whole statement {@code gold}. */
  private List<Diagnostic> check(String gold, String silverA, String rule) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\n"
            + "sources: [bronze.orders, bronze.customers]\n");
    write("silver/a.sql", "CREATE MATERIALIZED LAKE VIEW silver.a AS\n" + silverA + "\n");
    write(
        "silver/b.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.b AS SELECT id, amount * 2 AS total"
            + " FROM bronze.orders\n");
    write("gold/g.sql", gold + "\n");
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project).stream().filter(d -> d.ruleId().equals(rule)).toList();
  }

  private void write(String name, String text) throws IOException {
    Path f = dir.resolve("views").resolve(name);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }

  private static String at(Diagnostic d) {
    return d.position() + " " + d.message();
  }

  /**
   * A {@code *} over CTEs and aliased subqueries whose SELECT lists name their columns is expanded
   * as one over views (found by QA: WITH a AS (...), b AS (...) SELECT * FROM a JOIN b ON ...
   * passed validate, and Spark refused it with COLUMN_ALREADY_EXISTS).
   */
  @Test
  void aStarOverCtesOrSubqueriesThatShareAColumnIsReported() throws IOException {
    assertThat(
            check(
                "WITH x AS (SELECT id, amount FROM silver.a), y AS (SELECT id, total FROM"
                    + " silver.b)\nSELECT * FROM x JOIN y ON x.id = y.id"))
        .extracting(DuplicateColumnTest::at)
        .singleElement()
        .asString()
        .startsWith(
            "views/gold/g.sql:3:8 * selects a column name twice: id (from the CTE x and the CTE y)");
    assertThat(check("SELECT *, id FROM (SELECT id, total FROM silver.b) q"))
        .extracting(DuplicateColumnTest::at)
        .singleElement()
        .asString()
        .contains("id (from the subquery q and the column id at 2:11)");
    // USING shows the joined column once; a * over a CTE of a * over a view is expanded too.
    assertThat(
            check(
                "WITH x AS (SELECT * FROM silver.a), y AS (SELECT id, total FROM silver.b)\n"
                    + "SELECT * FROM x JOIN y USING (id)"))
        .isEmpty();
    assertThat(
            check(
                "WITH x AS (SELECT * FROM silver.a)\n"
                    + "SELECT *, amount AS amount2 FROM x JOIN silver.b y USING (id)"))
        .isEmpty();
  }

  /** Calcite starts an x::T item at the comma or SELECT before it; the findings do not. */
  @Test
  void colonCastItemsAreReportedWhereTheyStart() throws IOException {
    String gold =
        "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
            + "SELECT id, id::STRING, amount::INT AS `a b`, amount::INT + 1, id::INT::STRING AS id"
            + " FROM silver.a";
    String silverA = "SELECT id, amount FROM bronze.orders";
    assertThat(check(gold, silverA, "DUPLICATE_COLUMN"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:12", "views/gold/g.sql:2:63");
    assertThat(check(gold, silverA, "COLUMN_NAME"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:24 column name 'a b' holds a character Delta cannot store in a"
                + " column name (a space or any of ,;{}()=)",
            "views/gold/g.sql:2:46 the expression amount::INT + 1 has no alias: Spark names its"
                + " column after the expression, and Delta cannot store a column name with a space"
                + " or any of ,;{}()=");
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
                    + "SELECT DISTINCT (id)::STRING AS `x y`, amount FROM silver.a",
                silverA,
                "COLUMN_NAME"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:17");
  }

  /** Found by QA: try_cast(x AS T) is named x, as CAST is, not after its text. */
  @Test
  void tryCastIsNamedAfterItsColumnAsCastIs() throws IOException {
    String gold =
        "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
            + "SELECT id, try_cast(amount AS INT), TRY_CAST(id AS STRING) AS sid FROM silver.a";
    String silverA = "SELECT id, amount FROM bronze.orders";
    assertThat(check(gold, silverA, "COLUMN_NAME")).isEmpty();
    // ... and so counts as the column it casts.
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g AS\n"
                    + "SELECT amount, try_cast(amount AS INT) FROM silver.a",
                silverA,
                "DUPLICATE_COLUMN"))
        .hasSize(1);
  }

  @Test
  void aSelfJoinsStarSelectsEveryColumnTwiceAndIsReportedAtTheStar() throws IOException {
    List<Diagnostic> found = check("SELECT * FROM silver.a x JOIN silver.a y ON x.id = y.id");
    assertThat(found)
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:8 * selects 2 column names twice: id, amount (from silver.a AS"
                + " x and silver.a AS y); a Delta table's column names are unique: Spark would"
                + " refuse gold.g when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])");
    assertThat(found.get(0).isError()).isTrue();
    assertThat(found.get(0).hint())
        .isEqualTo(
            "select the columns by name instead of *, giving one of each pair another"
                + " name with AS");
    // Two views that share a column name: only that one.
    assertThat(check("SELECT *\nFROM silver.a, silver.b"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:8 * selects a column name twice: id (from silver.a and"
                + " silver.b); a Delta table's column names are unique: Spark would"
                + " refuse gold.g when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])");
  }

  /**
   * Spark leaves the columns of {@code * EXCEPT (...)} out, so "replace a column" and "join without
   * the key twice" select each name once (found by QA: both were DUPLICATE_COLUMN, so validate and
   * plan refused views Spark creates).
   */
  @Test
  void aStarsExceptColumnsAreNotSelected() throws IOException {
    assertThat(check("SELECT * EXCEPT (amount), amount * 2 AS amount FROM silver.a")).isEmpty();
    assertThat(check("SELECT * EXCEPT (`AMOUNT`), 1 AS amount FROM silver.a")).isEmpty();
    assertThat(check("SELECT x.* EXCEPT (id), y.* FROM silver.a x JOIN silver.b y ON x.id = y.id"))
        .isEmpty();
    assertThat(check("SELECT * EXCEPT (id, total), y.* FROM silver.a JOIN silver.b y USING (id)"))
        .isEmpty();
    // What is not left out is still selected twice.
    assertThat(check("SELECT * EXCEPT (amount), id FROM silver.a"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:8 * selects a column name twice: id (from silver.a and the"
                + " column id at 2:27); a Delta table's column names are unique: Spark would"
                + " refuse gold.g when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])");
    // A struct's field, or a column the star does not have: what remains is not claimed.
    assertThat(check("SELECT * EXCEPT (x.f), id FROM silver.a x")).isEmpty();
    assertThat(check("SELECT * EXCEPT (nope), id FROM silver.a")).isEmpty();
  }

  @Test
  void qualifiedStarsAreReportedAtTheSecond() throws IOException {
    assertThat(check("SELECT x.*, y.* FROM silver.a x JOIN silver.b y ON x.id = y.id"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:13 y.* selects a column name twice: id (from silver.a AS x and"
                + " silver.b AS y); a Delta table's column names are unique: Spark would"
                + " refuse gold.g when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])");
    // A qualified * shows all its table's columns, a USING join's too (Spark refuses this one).
    assertThat(check("SELECT x.*, y.* FROM silver.a x JOIN silver.b y USING (id)"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:13");
    // x.* alone is only x's columns.
    assertThat(check("SELECT x.*, y.total FROM silver.a x JOIN silver.b y ON x.id = y.id"))
        .isEmpty();
  }

  @Test
  void aStarAndANamedColumnOfTheSameNameAreReportedAtTheStar() throws IOException {
    assertThat(check("SELECT *, ID FROM silver.a"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:8 * selects a column name twice: id (from silver.a and the"
                + " column ID at 2:11); a Delta table's column names are unique: Spark would"
                + " refuse gold.g when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])");
    assertThat(check("SELECT amount AS id, * FROM silver.b"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:22");
    // Named items alone: at the second, as before.
    assertThat(check("SELECT id, amount, id FROM silver.a"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:20 column id is selected twice; a Delta table's column names are"
                + " unique");
  }

  @Test
  void usingAndNaturalJoinsAndUnknownColumnsAreNotReported() throws IOException {
    List<String> fine =
        List.of(
            // Spark keeps a USING or NATURAL join's columns once
            "SELECT * FROM silver.a JOIN silver.b USING (id)",
            "SELECT * FROM silver.a NATURAL JOIN silver.b",
            "SELECT *, total * 2 AS doubled FROM silver.a JOIN silver.b USING (id)",
            // a semi join shows only the left side
            "SELECT * FROM silver.a x LEFT SEMI JOIN silver.b y ON x.id = y.id",
            // a source's columns are not known
            "SELECT * FROM silver.a x JOIN bronze.customers c ON x.id = c.id",
            "SELECT *, id FROM bronze.orders",
            // a CTE or a derived table is not the view of its name
            "WITH a AS (SELECT 1 AS k) SELECT *, id FROM a",
            "SELECT *, id FROM (SELECT amount FROM silver.a) q",
            // a LATERAL VIEW brings its own columns
            "SELECT * FROM silver.a LATERAL VIEW explode(array(1)) e AS n",
            // a qualifier no table has is a struct's
            "SELECT z.*, id FROM silver.a",
            "SELECT *, total FROM silver.a");
    for (String select : fine) {
      assertThat(check(select)).as(select).isEmpty();
    }
    // The view read has a generator or an unnamed expression: its columns are not all known.
    for (String a :
        List.of(
            "SELECT id, explode(array(1)) FROM bronze.orders",
            "SELECT id, amount + 1 FROM bronze.orders",
            "SELECT * FROM bronze.orders")) {
      assertThat(check("SELECT *, id FROM silver.a", a)).as(a).isEmpty();
    }
  }

  @Test
  void aBareStarOverAUsingJoinShowsTheKeysOnceAndTheOtherColumnsOfBothSides() throws IOException {
    // Spark: id, then x's amount, then y's amount; Delta refuses the second amount (seen on apply:
    // [COLUMN_ALREADY_EXISTS] The column `amount` already exists).
    for (String join : List.of("JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN")) {
      assertThat(check("SELECT * FROM silver.a x " + join + " silver.a y USING (ID)"))
          .as(join)
          .extracting(DuplicateColumnTest::at)
          .containsExactly(
              "views/gold/g.sql:2:8 * selects a column name twice: amount (from silver.a AS x and"
                  + " silver.a AS y); a Delta table's column names are unique: Spark would refuse"
                  + " gold.g when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])");
    }
    // Every repeated name a key: each shown once.
    assertThat(check("SELECT * FROM silver.a x JOIN silver.a y USING (amount, id)")).isEmpty();
    // Joined on, the keys of a chain merge step by step; an ON join adds all its columns.
    assertThat(
            check("SELECT * FROM silver.a x JOIN silver.b y USING (id) JOIN silver.b z USING (id)"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:8 * selects a column name twice: total (from silver.b AS y and"
                + " silver.b AS z); a Delta table's column names are unique: Spark would refuse"
                + " gold.g when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])");
    assertThat(
            check(
                "SELECT * FROM silver.a x JOIN silver.b y USING (id) JOIN silver.b z"
                    + " ON y.id = z.id"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:8 * selects 2 column names twice: id (from silver.a AS x and"
                + " silver.b AS z); total (from silver.b AS y and silver.b AS z); a Delta table's"
                + " column names are unique: Spark would refuse gold.g when apply or refresh runs"
                + " it ([COLUMN_ALREADY_EXISTS])");
    // A key one side lacks: Spark refuses the join itself, not told here.
    assertThat(check("SELECT * FROM silver.a x JOIN silver.a y USING (total)")).isEmpty();
  }

  @Test
  void aPartitionColumnIsLookedForInTheColumnsOfAStar() throws IOException {
    String a = "SELECT id, amount FROM bronze.orders";
    // Spark refused this one at apply: PARTITIONED BY column nope is not a column of the SELECT.
    List<Diagnostic> found =
        check(
            "CREATE MATERIALIZED LAKE VIEW gold.g\nPARTITIONED BY (nope)\nAS SELECT * FROM silver.a",
            a,
            "PARTITION_COLUMN");
    assertThat(found)
        .extracting(d -> at(d) + "; " + d.hint())
        .containsExactly(
            "views/gold/g.sql:2:17 PARTITIONED BY column nope is not a column of the SELECT;"
                + " select it, or partition by one of: id, amount");
    for (String fine :
        List.of(
            "PARTITIONED BY (AMOUNT) AS SELECT * FROM silver.a",
            "PARTITIONED BY (total) AS SELECT x.*, y.total FROM silver.a x JOIN silver.b y"
                + " ON x.id = y.id",
            "PARTITIONED BY (total) AS SELECT * FROM silver.a JOIN silver.b USING (id)",
            // a source's columns are not known
            "PARTITIONED BY (nope) AS SELECT * FROM silver.a JOIN bronze.customers USING (id)")) {
      assertThat(check("CREATE MATERIALIZED LAKE VIEW gold.g " + fine, a, "PARTITION_COLUMN"))
          .as(fine)
          .isEmpty();
    }
  }

  /** Spark refused each at apply, at 1:1, though validate already knew the SELECT's columns. */
  @Test
  void partitioningByEveryColumnOrByAComplexColumnIsReportedAtThePartitionColumn()
      throws IOException {
    String a = "SELECT id, amount FROM bronze.orders";
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g PARTITIONED BY (orderID)\nAS SELECT orderID"
                    + " FROM bronze.orders",
                a,
                "PARTITION_COLUMN"))
        .extracting(d -> at(d) + "; " + d.hint())
        .containsExactly(
            "views/gold/g.sql:1:54 PARTITIONED BY names every column of the SELECT (orderID):"
                + " Spark would refuse gold.g when apply or refresh runs it"
                + " ([ALL_PARTITION_COLUMNS_NOT_ALLOWED]); keep at least one column out of"
                + " PARTITIONED BY");
    // Through a * over a view whose columns are known, too.
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g\nPARTITIONED BY (amount, ID)\n"
                    + "AS SELECT * FROM silver.a",
                a,
                "PARTITION_COLUMN"))
        .extracting(d -> d.position() + " " + d.message())
        .containsExactly(
            "views/gold/g.sql:2:17 PARTITIONED BY names every column of the SELECT (id, amount):"
                + " Spark would refuse gold.g when apply or refresh runs it"
                + " ([ALL_PARTITION_COLUMNS_NOT_ALLOWED])");
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g\nPARTITIONED BY (arr, st, m, c, t, k)\n"
                    + "AS SELECT id, array(id) AS arr, named_struct('x', id) AS st,"
                    + " map('k', id) AS m,\n"
                    + "CAST(id AS ARRAY<INT>) AS c, id::STRUCT<a: INT> t, CAST(id AS MAP<STRING, INT>)"
                    + " k FROM bronze.orders",
                a,
                "PARTITION_COLUMN"))
        .extracting(DuplicateColumnTest::at)
        .containsExactly(
            "views/gold/g.sql:2:17 PARTITIONED BY column arr is an ARRAY (the SELECT's array(id)"
                + " AS arr at 3:15), and Spark partitions only by a column of a simple type: Spark"
                + " would refuse gold.g when apply or refresh runs it"
                + " ([INVALID_PARTITION_COLUMN_DATA_TYPE])",
            "views/gold/g.sql:2:22 PARTITIONED BY column st is a STRUCT (the SELECT's"
                + " named_struct('x', id) AS st at 3:33), and Spark partitions only by a column of"
                + " a simple type: Spark would refuse gold.g when apply or refresh runs it"
                + " ([INVALID_PARTITION_COLUMN_DATA_TYPE])",
            "views/gold/g.sql:2:26 PARTITIONED BY column m is a MAP (the SELECT's map('k', id)"
                + " AS m at 3:62), and Spark partitions only by a column of a simple type: Spark"
                + " would refuse gold.g when apply or refresh runs it"
                + " ([INVALID_PARTITION_COLUMN_DATA_TYPE])",
            "views/gold/g.sql:2:29 PARTITIONED BY column c is an ARRAY (the SELECT's CAST(id AS"
                + " ARRAY<INT>) AS c at 4:1), and Spark partitions only by a column of a simple"
                + " type: Spark would refuse gold.g when apply or refresh runs it"
                + " ([INVALID_PARTITION_COLUMN_DATA_TYPE])",
            "views/gold/g.sql:2:32 PARTITIONED BY column t is a STRUCT (the SELECT's"
                + " id::STRUCT<a: INT> t at 4:30), and Spark partitions only by a column of a"
                + " simple type: Spark would refuse gold.g when apply or refresh runs it"
                + " ([INVALID_PARTITION_COLUMN_DATA_TYPE])",
            "views/gold/g.sql:2:35 PARTITIONED BY column k is a MAP (the SELECT's CAST(id AS"
                + " MAP<STRING, INT>) k at 4:52), and Spark partitions only by a column of a"
                + " simple type: Spark would refuse gold.g when apply or refresh runs it"
                + " ([INVALID_PARTITION_COLUMN_DATA_TYPE])");
    // An uncast variant path is a VARIANT (found by QA: apply failed, Cannot use VARIANT), by its
    // key's name or an alias; a cast one is not.
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g\nPARTITIONED BY (k, kk, c)\n"
                    + "AS SELECT id, v:k, v:a.k AS kk, v:c::string AS c FROM bronze.orders",
                a,
                "PARTITION_COLUMN"))
        .extracting(d -> d.position() + " " + d.message().substring(0, d.message().indexOf(',')))
        .containsExactly(
            "views/gold/g.sql:2:17 PARTITIONED BY column k is a VARIANT (the SELECT's v:k at 3:15)",
            "views/gold/g.sql:2:20 PARTITIONED BY column kk is a VARIANT (the SELECT's v:a.k AS kk"
                + " at 3:20)");
    // A column the SELECT lacks, written in another case or quoted, is placed in the list too.
    assertThat(
            check(
                "CREATE MATERIALIZED LAKE VIEW gold.g PARTITIONED BY (id, `No pe`)\n"
                    + "AS SELECT id, amount FROM bronze.orders",
                a,
                "PARTITION_COLUMN"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:1:58");
    for (String fine :
        List.of(
            // a column's type, a set operation's and a * column's are not known here
            "PARTITIONED BY (amount) AS SELECT id, amount FROM bronze.orders",
            "PARTITIONED BY (x) AS SELECT id, x FROM bronze.orders",
            "PARTITIONED BY (arr) AS SELECT id, array(id) AS arr FROM bronze.orders"
                + " UNION ALL SELECT id, arr FROM bronze.customers",
            "PARTITIONED BY (id) AS SELECT * FROM bronze.orders",
            "PARTITIONED BY (id) AS SELECT *, id AS id2 FROM bronze.orders",
            // a CAST to a simple type, a call of an array
            "PARTITIONED BY (s) AS SELECT id, CAST(arr AS STRING) AS s FROM bronze.orders",
            "PARTITIONED BY (n) AS SELECT id, size(array(id)) AS n FROM bronze.orders",
            "PARTITIONED BY (e) AS SELECT id, array(id)[0] AS e FROM bronze.orders")) {
      assertThat(check("CREATE MATERIALIZED LAKE VIEW gold.g " + fine, a, "PARTITION_COLUMN"))
          .as(fine)
          .isEmpty();
    }
  }

  @Test
  void aStarOverAViewThatSelectsAStarIsExpandedThroughIt() throws IOException {
    assertThat(check("SELECT *, amount FROM silver.a", "SELECT * FROM silver.b")).isEmpty();
    assertThat(check("SELECT *, total FROM silver.a", "SELECT * FROM silver.b"))
        .extracting(d -> d.position().toString())
        .containsExactly("views/gold/g.sql:2:8");
  }
}
