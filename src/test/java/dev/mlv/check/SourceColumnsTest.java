package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The column rules over source tables whose columns the target told (plan and apply): a column read
 * from a source that lacks it, and through a {@code *} over sources, a column named twice or a
 * column list of the wrong length. Validate knows no source's columns and reports none of these.
 */
class SourceColumnsTest {
  @TempDir Path dir;

  private static final ObjectId ORDERS = new ObjectId("ws", "lh", "bronze", "orders");
  private static final ObjectId CUSTOMERS = new ObjectId("ws", "lh", "bronze", "customers");

  /** As the local target tells them: bronze.orders with a struct column info, as Delta has it. */
  private static final TableColumns TOLD =
      new TableColumns(
          "local",
          Map.of(
              ORDERS, List.of("id", "Amount", "info", "Qty"),
              CUSTOMERS, List.of("id", "name", "amount")));

  private static final TableColumns ORDERS_ONLY =
      new TableColumns("local", Map.of(ORDERS, TOLD.tables().get(ORDERS)));

  private Project project(String... views) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\n"
            + "sources: [bronze.orders, bronze.customers, bronze.other]\n");
    for (int i = 0; i < views.length; i += 2) {
      Path f = dir.resolve("views").resolve(views[i]);
      Files.createDirectories(f.getParent());
      Files.writeString(f, views[i + 1]);
    }
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return project;
  }

  private List<Diagnostic> errors(TableColumns told, String... views) throws IOException {
    return Checker.check(project(views), told).stream().filter(Diagnostic::isError).toList();
  }

  private List<Diagnostic> gold(TableColumns told, String select) throws IOException {
    return errors(told, "gold/g.sql", "CREATE MATERIALIZED LAKE VIEW gold.g AS\n" + select + "\n");
  }

  private static List<String> placed(List<Diagnostic> found) {
    return found.stream().map(d -> d.position() + " " + d.ruleId()).toList();
  }

  @Test
  void aColumnTheSourceLacksIsAnErrorWhereItIsReadOnceItsColumnsAreTold() throws IOException {
    String select = "SELECT o.id, o.amout FROM bronze.orders o";
    assertThat(gold(TableColumns.NONE, select)).as("validate: no source is known").isEmpty();
    List<Diagnostic> found = gold(TOLD, select);
    assertThat(placed(found)).containsExactly("views/gold/g.sql:2:14 UNRESOLVED_COLUMN");
    assertThat(found.get(0).message())
        .isEqualTo(
            "column o.amout cannot be resolved: bronze.orders (a table of target local) does not"
                + " have amout, only id, amount, info, qty; Spark would refuse gold.g when apply or"
                + " refresh runs it ([UNRESOLVED_COLUMN.WITH_SUGGESTION])");
    assertThat(found.get(0).hint()).isEqualTo("did you mean 'amount'?");
    // No name near: the hint says what to read.
    assertThat(gold(TOLD, "SELECT price FROM bronze.orders"))
        .extracting(Diagnostic::hint)
        .containsExactly("read a column bronze.orders has");
    // Unqualified, in WHERE and ON, across two sources: named in each scope's terms.
    List<Diagnostic> two =
        gold(
            TOLD,
            "SELECT o.id FROM bronze.orders o JOIN bronze.customers c ON o.id = c.idd\n"
                + "WHERE price > 0");
    assertThat(placed(two))
        .containsExactly(
            "views/gold/g.sql:2:68 UNRESOLVED_COLUMN", "views/gold/g.sql:3:7 UNRESOLVED_COLUMN");
    assertThat(two.get(1).message())
        .contains(
            "bronze.orders (a table of target local), bronze.customers (a table of target local)"
                + " do not have price; their columns are id, amount, info, qty, name;");
  }

  /**
   * Spark 4.1.1 reads a bare localtimestamp, localtime, current_catalog, current_database or
   * current_schema as a column (UNRESOLVED_COLUMN unless a table has one), unlike current_date or
   * current_user; with () each but localtime (no such function) is one (found by QA: a view
   * selecting a bare localtimestamp passed plan and failed its first refresh).
   */
  @Test
  void aBareLocaltimestampIsAColumnAsSparkReadsItAndWithParenthesesAFunction() throws IOException {
    for (String bare :
        List.of(
            "localtimestamp",
            "localtime",
            "current_catalog",
            "current_database",
            "current_schema")) {
      assertThat(placed(gold(TOLD, "SELECT id, " + bare + " AS t FROM bronze.orders")))
          .as(bare)
          .containsExactly("views/gold/g.sql:2:12 UNRESOLVED_COLUMN");
      if (!bare.equals("localtime")) { // no such function: UDF
        assertThat(gold(TOLD, "SELECT id, " + bare + "() AS t FROM bronze.orders"))
            .as(bare)
            .isEmpty();
      }
    }
    assertThat(
            gold(
                TOLD,
                "SELECT id, current_date AS d, current_timestamp AS ts, current_user AS u,"
                    + " user AS u2, session_user AS u3 FROM bronze.orders"))
        .isEmpty();
  }

  @Test
  void whatTheSourceHasOrWhatElseTheNameMayBeIsNotReported() throws IOException {
    List<String> fine =
        List.of(
            // Spark matches names without case; info is a struct column, info.city its field
            "SELECT o.ID, o.amount AS a, AMOUNT AS b, `Qty`, o.info.city AS c, info.city AS d"
                + " FROM bronze.orders o",
            "SELECT id, o.qty, c.name FROM bronze.orders o JOIN bronze.customers c USING (id)",
            // lateral aliases, GROUP BY and ORDER BY by alias
            "SELECT qty * 2 AS d, d + 1 AS e FROM bronze.orders GROUP BY d ORDER BY e",
            // a column of the enclosing query in a correlated subquery
            "SELECT id FROM bronze.customers c WHERE EXISTS"
                + " (SELECT 1 FROM bronze.orders o WHERE o.id = c.name)",
            // the hidden file details of a Delta table
            "SELECT id, _metadata.file_name AS f FROM bronze.orders");
    for (String select : fine) {
      assertThat(gold(TOLD, select)).as(select).isEmpty();
    }
    // A table in scope whose columns are not told: any name may be its.
    for (String unsure :
        List.of(
            "SELECT o.id, nope FROM bronze.orders o JOIN bronze.other x ON o.id = x.id",
            "SELECT o.id, c.nope FROM bronze.orders o JOIN bronze.customers c ON o.id = c.id")) {
      assertThat(gold(ORDERS_ONLY, unsure)).as(unsure).isEmpty();
    }
  }

  /**
   * A field a source's struct column lacks: Spark 4.1.1 refuses {@code info.nosuch} with
   * [FIELD_NOT_FOUND] and matches fields without case (measured); map and variant columns, and
   * structs whose fields the target did not tell, are not checked.
   */
  @Test
  void aFieldTheSourcesStructLacksIsAnErrorOnceItsFieldsAreTold() throws IOException {
    TableColumns told =
        new TableColumns(
            "local",
            TOLD.tables(),
            Map.of(ORDERS, Map.of("info", List.of("city", "Zip", "street"))));
    String select =
        "SELECT o.info.CITY AS a, info.zip AS b, o.info.cty AS c,\n  info.nosuch.deeper AS d"
            + " FROM bronze.orders o";
    assertThat(gold(TOLD, select)).as("fields not told").isEmpty();
    List<Diagnostic> found = gold(told, select);
    assertThat(placed(found))
        .containsExactly(
            "views/gold/g.sql:2:41 UNRESOLVED_FIELD", "views/gold/g.sql:3:3 UNRESOLVED_FIELD");
    assertThat(found.get(0).message())
        .isEqualTo(
            "field cty of o.info cannot be resolved: column info of bronze.orders holds a struct"
                + " with the fields city, Zip, street; Spark would refuse gold.g when apply or"
                + " refresh runs it ([FIELD_NOT_FOUND])");
    assertThat(found.get(0).hint()).isEqualTo("did you mean 'o.info.city'?");
    assertThat(found.get(1).hint()).isEqualTo("read a field the struct has");
    // A field name that is no plain identifier is written in backticks; blanks around dots go.
    TableColumns odd =
        new TableColumns(
            "local", TOLD.tables(), Map.of(ORDERS, Map.of("info", List.of("x.y", "a b"))));
    List<Diagnostic> quoted = gold(odd, "SELECT o.info\n  .xy AS q FROM bronze.orders o");
    assertThat(quoted.get(0).message())
        .startsWith(
            "field xy of o.info cannot be resolved: column info of bronze.orders holds a"
                + " struct with the fields `x.y`, `a b`;");
    assertThat(quoted.get(0).hint()).isEqualTo("did you mean 'o.info.`x.y`'?");
    // Qualified by an unaliased table's name, and in a subquery under one (found by QA: neither
    // was checked); a name qualified by schema and table is left to Spark.
    assertThat(
            placed(
                gold(
                    told,
                    "SELECT orders.info.cty AS a FROM bronze.orders WHERE EXISTS\n"
                        + "(SELECT 1 FROM bronze.orders y WHERE y.info.zap = 1)")))
        .containsExactly(
            "views/gold/g.sql:2:8 UNRESOLVED_FIELD", "views/gold/g.sql:3:38 UNRESOLVED_FIELD");
    assertThat(
            gold(
                told,
                "SELECT bronze.orders.info.cty AS a, lh.bronze.orders.nope AS b FROM bronze.orders"))
        .isEmpty();
    // A qualifier that is also a column of another table: the message names the qualified one.
    TableColumns shadow =
        new TableColumns(
            "local",
            Map.of(ORDERS, List.of("id", "info"), CUSTOMERS, List.of("id", "orders")),
            Map.of(
                ORDERS,
                Map.of("info", List.of("city")),
                CUSTOMERS,
                Map.of("orders", List.of("x"))));
    assertThat(
            gold(
                    shadow,
                    "SELECT orders.info.cty AS c FROM bronze.customers JOIN bronze.orders"
                        + " ON customers.id = orders.id")
                .get(0)
                .message())
        .startsWith("field cty of orders.info cannot be resolved: column info of bronze.orders");
    // Two tables with the struct column: s.a is as ambiguous as s (found by QA).
    TableColumns both =
        new TableColumns(
            "local",
            Map.of(ORDERS, List.of("id", "info"), CUSTOMERS, List.of("id", "info")),
            Map.of(ORDERS, Map.of("info", List.of("city"))));
    List<Diagnostic> ambiguous =
        gold(both, "SELECT info.city FROM bronze.orders JOIN bronze.customers USING (id)");
    assertThat(placed(ambiguous)).containsExactly("views/gold/g.sql:2:8 AMBIGUOUS_REFERENCE");
    assertThat(ambiguous.get(0).message())
        .startsWith(
            "column info.city is ambiguous: bronze.orders and bronze.customers both have a column"
                + " info;");
    assertThat(ambiguous.get(0).hint())
        .isEqualTo(
            "qualify it with the table it comes from: orders.info.city or customers.info.city");
    // A table aliased like the struct column: the reference may read the table's column.
    assertThat(
            gold(
                told,
                "SELECT info.id FROM bronze.orders o JOIN bronze.customers info ON o.id = info.id"))
        .isEmpty();
  }

  /**
   * A field a struct within a struct lacks ({@code info.geo.lng}): Spark 4.1.1 refuses it with
   * [FIELD_NOT_FOUND] as it refuses a first-level one (measured); checked as deep as the target
   * told the structs, and passed on by a view that selects the outer column as it is. Before, only
   * the first field after the column was checked (found by QA).
   */
  @Test
  void aFieldAStructWithinAStructLacksIsAnError() throws IOException {
    TableColumns told =
        new TableColumns(
            "local",
            TOLD.tables(),
            Map.of(
                ORDERS,
                Map.of(
                    "info",
                    List.of("city", "geo"),
                    TableColumns.structKey(List.of("info", "geo")),
                    List.of("lat", "lon"))));
    List<Diagnostic> found =
        gold(
            told,
            "SELECT o.info.geo.LAT AS a, info.geo.lonn AS b, o.info.city.x AS c, o.info.gao.lat AS d"
                + " FROM bronze.orders o");
    assertThat(placed(found))
        .containsExactly(
            "views/gold/g.sql:2:29 UNRESOLVED_FIELD", "views/gold/g.sql:2:69 UNRESOLVED_FIELD");
    assertThat(found.get(0).message())
        .isEqualTo(
            "field lonn of info.geo cannot be resolved: field info.geo of bronze.orders holds a"
                + " struct with the fields lat, lon; Spark would refuse gold.g when apply or"
                + " refresh runs it ([FIELD_NOT_FOUND])");
    assertThat(found.get(0).hint()).isEqualTo("did you mean 'info.geo.lon'?");
    assertThat(found.get(1).message()).startsWith("field gao of o.info cannot be resolved: column");
    // Downstream of a view that selects info as it is, under another name.
    String silver =
        "CREATE MATERIALIZED LAKE VIEW silver.s AS SELECT o.id, o.info AS i FROM bronze.orders o\n";
    String gold =
        "CREATE MATERIALIZED LAKE VIEW gold.g AS SELECT s.i.geo.lat, s.i.geo.lattitude FROM"
            + " silver.s s\n";
    List<Diagnostic> downstream = errors(told, "silver/s.sql", silver, "gold/g.sql", gold);
    assertThat(placed(downstream)).containsExactly("views/gold/g.sql:1:61 UNRESOLVED_FIELD");
    assertThat(downstream.get(0).message())
        .startsWith(
            "field lattitude of s.i.geo cannot be resolved: field i.geo of silver.s holds a struct"
                + " with the fields lat, lon;");
  }

  /**
   * PARTITIONED BY a source's struct column selected as it is, by name or through {@code *}: Spark
   * 4.1.1 refuses it at the first refresh with [INVALID_PARTITION_COLUMN_DATA_TYPE] (measured);
   * plan said nothing (found by QA). A column of a simple type, or one whose type is not told,
   * passes.
   */
  @Test
  void partitioningByASourcesStructColumnIsAnError() throws IOException {
    TableColumns told =
        new TableColumns(
            "local", TOLD.tables(), Map.of(ORDERS, Map.of("info", List.of("city", "zip"))));
    List<Diagnostic> named =
        errors(
            told,
            "gold/g.sql",
            "CREATE MATERIALIZED LAKE VIEW gold.g PARTITIONED BY (info)\n"
                + "AS SELECT id, o.info FROM bronze.orders o\n");
    assertThat(placed(named)).containsExactly("views/gold/g.sql:1:54 PARTITION_COLUMN");
    assertThat(named.get(0).message())
        .isEqualTo(
            "PARTITIONED BY column info is a struct (or an array of structs) with the fields city,"
                + " zip (the SELECT's o.info at 2:15), and Spark partitions only by a column of a"
                + " simple type: Spark would refuse gold.g when apply or refresh runs it"
                + " ([INVALID_PARTITION_COLUMN_DATA_TYPE])");
    List<Diagnostic> star =
        errors(
            told,
            "gold/g.sql",
            "CREATE MATERIALIZED LAKE VIEW gold.g PARTITIONED BY (`INFO`)\n"
                + "AS SELECT * FROM bronze.orders\n");
    assertThat(placed(star)).containsExactly("views/gold/g.sql:1:54 PARTITION_COLUMN");
    assertThat(star.get(0).message())
        .startsWith("PARTITIONED BY column info is a struct (or an array of structs) with the")
        .contains("fields city, zip, and Spark partitions only");
    for (String fine :
        List.of(
            "PARTITIONED BY (qty) AS SELECT id, qty, info FROM bronze.orders",
            "PARTITIONED BY (info) AS SELECT id, to_json(info) AS info FROM bronze.orders")) {
      assertThat(errors(told, "gold/g.sql", "CREATE MATERIALIZED LAKE VIEW gold.g " + fine))
          .as(fine)
          .isEmpty();
    }
    assertThat(
            errors(
                TOLD,
                "gold/g.sql",
                "CREATE MATERIALIZED LAKE VIEW gold.g PARTITIONED BY (info) AS SELECT id, info FROM"
                    + " bronze.orders"))
        .as("fields not told")
        .isEmpty();
  }

  /**
   * A view that selects a source's struct column as it is (by name, aliased, or through {@code *})
   * passes its fields on to the views that read it; one that computes it (a CAST, a function) does
   * not, nor does a name two tables in scope have.
   */
  @Test
  void aStructColumnSelectedAsItIsPassesItsFieldsOnDownstream() throws IOException {
    TableColumns told =
        new TableColumns(
            "local", TOLD.tables(), Map.of(ORDERS, Map.of("info", List.of("city", "zip"))));
    String silver =
        "CREATE MATERIALIZED LAKE VIEW silver.s AS SELECT o.id, o.info, info AS i2,"
            + " to_json(info) AS j FROM bronze.orders o\n";
    String star = "CREATE MATERIALIZED LAKE VIEW silver.t AS SELECT * FROM bronze.orders\n";
    String gold =
        "CREATE MATERIALIZED LAKE VIEW gold.g AS SELECT s.info.cty, s.i2.zip, s.i2.zp, t.info.city,"
            + " t.info.ciy\nFROM silver.s s JOIN silver.t t ON s.id = t.id\n";
    List<Diagnostic> found =
        errors(told, "silver/s.sql", silver, "silver/t.sql", star, "gold/g.sql", gold);
    assertThat(placed(found))
        .containsExactly(
            "views/gold/g.sql:1:48 UNRESOLVED_FIELD",
            "views/gold/g.sql:1:70 UNRESOLVED_FIELD",
            "views/gold/g.sql:1:92 UNRESOLVED_FIELD");
    assertThat(found.get(0).message())
        .startsWith(
            "field cty of s.info cannot be resolved: column info of silver.s holds a struct");
    assertThat(errors(TableColumns.NONE, "silver/s.sql", silver, "gold/g.sql", gold))
        .as("validate")
        .isEmpty();
  }

  /**
   * The right side of a LEFT SEMI JOIN is out of scope after its ON: plan passed this and apply
   * failed with [UNRESOLVED_COLUMN.WITH_SUGGESTION] at c.name on Spark 4.1.1 (found by QA).
   */
  @Test
  void aSemiJoinsRightSideIsNotInScopeAfterItsOn() throws IOException {
    String select =
        "SELECT o.id, c.name FROM bronze.orders o LEFT SEMI JOIN bronze.customers c ON o.id = c.id"
            + " JOIN bronze.customers c2 ON c2.id = o.id";
    assertThat(gold(TableColumns.NONE, select)).as("validate: no source is known").isEmpty();
    assertThat(placed(gold(TOLD, select)))
        .containsExactly("views/gold/g.sql:2:14 UNRESOLVED_COLUMN");
    assertThat(
            gold(
                TOLD,
                "SELECT o.id, c2.name FROM bronze.orders o LEFT SEMI JOIN bronze.customers c"
                    + " ON o.id = c.id AND c.name > '' JOIN bronze.customers c2 ON c2.id = o.id"))
        .isEmpty();
  }

  @Test
  void aStarOverSourcesGivesTheirColumnsToTheViewsDownstream() throws IOException {
    String silver = "CREATE MATERIALIZED LAKE VIEW silver.s AS SELECT * FROM bronze.orders\n";
    String gold =
        "CREATE MATERIALIZED LAKE VIEW gold.g AS\nSELECT s.amount, s.nope FROM silver.s s\n";
    assertThat(errors(TableColumns.NONE, "silver/s.sql", silver, "gold/g.sql", gold)).isEmpty();
    List<Diagnostic> found = errors(TOLD, "silver/s.sql", silver, "gold/g.sql", gold);
    assertThat(placed(found)).containsExactly("views/gold/g.sql:2:18 UNRESOLVED_COLUMN");
    assertThat(found.get(0).message())
        .contains(
            "silver.s (views/silver/s.sql) does not produce nope, only id, amount, info, qty;");
    // A view's own columns are its SELECT's, not those of its deployed table, even when the
    // target told them.
    TableColumns deployed =
        new TableColumns(
            "local",
            Map.of(
                ORDERS,
                TOLD.tables().get(ORDERS),
                new ObjectId("ws", "lh", "silver", "s"),
                List.of("nope")));
    assertThat(placed(errors(deployed, "silver/s.sql", silver, "gold/g.sql", gold)))
        .containsExactly("views/gold/g.sql:2:18 UNRESOLVED_COLUMN");
    // A PARTITIONED BY column the * does not give (silver.s and gold.g are still there).
    String partitioned =
        "CREATE MATERIALIZED LAKE VIEW silver.p\nPARTITIONED BY (nope)\nAS SELECT * FROM bronze.orders\n";
    assertThat(errors(TableColumns.NONE, "silver/p.sql", partitioned)).isEmpty();
    assertThat(placed(errors(TOLD, "silver/p.sql", partitioned)))
        .containsExactly(
            "views/silver/p.sql:2:17 PARTITION_COLUMN", "views/gold/g.sql:2:18 UNRESOLVED_COLUMN");
    assertThat(placed(errors(TOLD, "silver/p.sql", partitioned.replace("nope", "QTY"))))
        .containsExactly("views/gold/g.sql:2:18 UNRESOLVED_COLUMN");
  }

  /**
   * Measured on Spark 4.1.1: SELECT * over a USING (k) join shows k once (named as on the left,
   * also for USING (K)), then the left's other columns and the right's, so a name both have besides
   * k comes twice, and CREATE TABLE ... AS that SELECT fails with COLUMN_ALREADY_EXISTS.
   */
  @Test
  void aStarOverAUsingJoinOfSourcesSharingAnotherColumnSelectsItTwice() throws IOException {
    String silver =
        "CREATE MATERIALIZED LAKE VIEW silver.s AS\n"
            + "SELECT * FROM bronze.orders JOIN bronze.customers USING (ID)\n";
    assertThat(errors(TableColumns.NONE, "silver/s.sql", silver)).isEmpty();
    List<Diagnostic> found = errors(TOLD, "silver/s.sql", silver);
    assertThat(placed(found)).containsExactly("views/silver/s.sql:2:8 DUPLICATE_COLUMN");
    assertThat(found.get(0).message())
        .startsWith(
            "* selects a column name twice: Amount (from bronze.orders and bronze.customers);");
    // Joined on every name they share: each once.
    String shared =
        "CREATE MATERIALIZED LAKE VIEW silver.s AS\n"
            + "SELECT * FROM bronze.orders JOIN bronze.customers USING (id, amount)\n";
    assertThat(errors(TOLD, "silver/s.sql", shared)).isEmpty();
  }

  @Test
  void aColumnListOfTheWrongLengthOverASourceIsAnError() throws IOException {
    // Measured on Spark 4.1.1: FROM t AS f(a) over a table of 3 columns is
    // ASSIGNMENT_ARITY_MISMATCH.
    String select = "SELECT a FROM bronze.customers AS c(a, b)";
    assertThat(gold(TableColumns.NONE, select)).isEmpty();
    List<Diagnostic> found = gold(TOLD, select);
    assertThat(placed(found)).containsExactly("views/gold/g.sql:2:35 COLUMN_LIST_LENGTH");
    assertThat(found.get(0).message())
        .contains(
            "but bronze.customers (a table of target local) has 3 columns: id, name, amount;");
    assertThat(gold(TOLD, "SELECT a FROM bronze.customers AS c(a, b, d)")).isEmpty();
  }
}
