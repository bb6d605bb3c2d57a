package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MlvParserTest {
  private static final Position START = Position.start(Path.of("v.sql"));

  private static MlvParser.Result parse(String text) {
    return MlvParser.parse(START, text);
  }

  private static ViewDefinition single(String text) {
    MlvParser.Result r = parse(text);
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.statements()).hasSize(1);
    return ((SqlStatement.CreateView) r.statements().get(0)).definition();
  }

  @Test
  void parsesTheFullHeader() {
    ViewDefinition d =
        single(
            """
            -- leading comment
            CREATE OR REPLACE MATERIALIZED LAKE VIEW silver.Cleaned_Orders
            (
                CONSTRAINT valid_qty CHECK (quantity > 0 AND (price * 2) > 1) ON MISMATCH DROP,
                CONSTRAINT has_id CHECK (id IS NOT NULL)
            )
            PARTITIONED BY (category, `Year`)
            COMMENT "Cleaned \\"orders\\""
            TBLPROPERTIES (delta.enableChangeDataFeed=true, 'owner' = 'data team')
            AS SELECT p.productID, o.quantity FROM bronze.products p JOIN bronze.orders o
            ON p.productID = o.productID
            """);
    assertThat(d.name().parts()).containsExactly("silver", "cleaned_orders");
    assertThat(d.name().text()).isEqualTo("silver.Cleaned_Orders");
    assertThat(d.orReplace()).isTrue();
    assertThat(d.ifNotExists()).isFalse();
    assertThat(d.position()).isEqualTo(new Position(Path.of("v.sql"), 2, 1));
    assertThat(d.constraints())
        .extracting(Constraint::name, Constraint::expression, Constraint::onMismatch)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "valid_qty", "quantity > 0 AND (price * 2) > 1", OnMismatch.DROP),
            org.assertj.core.groups.Tuple.tuple("has_id", "id IS NOT NULL", OnMismatch.FAIL));
    assertThat(d.constraints().get(1).position().line()).isEqualTo(5);
    assertThat(d.partitionedBy()).containsExactly("category", "year");
    assertThat(d.comment()).contains("Cleaned \"orders\"");
    assertThat(d.properties())
        .containsEntry("delta.enableChangeDataFeed", "true")
        .containsEntry("owner", "data team");
    ViewBody.Select body = (ViewBody.Select) d.body();
    assertThat(body.sql()).startsWith("SELECT p.productID").endsWith("o.productID");
    assertThat(body.position()).isEqualTo(new Position(Path.of("v.sql"), 10, 4));
  }

  @Test
  void namesHaveOneToFourPartsAndBackticksKeepSpaces() {
    ViewDefinition d =
        single("CREATE MATERIALIZED LAKE VIEW `My Workspace`.Sales_LH.gold.V1 AS SELECT 1");
    assertThat(d.name().parts()).containsExactly("my workspace", "sales_lh", "gold", "v1");
    assertThat(single("CREATE MATERIALIZED LAKE VIEW v AS SELECT 1").name().parts())
        .containsExactly("v");
    MlvParser.Result r = parse("CREATE MATERIALIZED LAKE VIEW a.b.c.d.e AS SELECT 1");
    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(x -> assertThat(x.message()).contains("at most 4 parts"));
  }

  @Test
  void ifNotExistsAndOrReplaceAreBothRecordedForTheLintRule() {
    ViewDefinition d =
        single("CREATE OR REPLACE MATERIALIZED LAKE VIEW IF NOT EXISTS s.v AS SELECT 1");
    assertThat(d.orReplace()).isTrue();
    assertThat(d.ifNotExists()).isTrue();
  }

  @Test
  void parsesFileIngestingViews() {
    ViewDefinition d =
        single(
            """
            CREATE MATERIALIZED LAKE VIEW bronze.raw_orders
            USING OneLake_Files
            OPTIONS (
                'format' = 'csv',
                'path'   = 'abfss://SalesWorkspace@onelake.dfs.fabric.microsoft.com/SalesLake.Lakehouse/Files/orders/',
                'Header' = 'true'
            )
            TBLPROPERTIES ('schema_mode' = 'DYNAMIC', 'refresh_mode' = 'APPEND_ONLY');
            """);
    assertThat(d.isFileSource()).isTrue();
    ViewBody.Files f = (ViewBody.Files) d.body();
    assertThat(f.format()).isEqualTo("csv");
    assertThat(f.options()).containsEntry("header", "true");
    assertThat(f.path()).endsWith("/Files/orders/");
    assertThat(d.properties()).containsEntry("refresh_mode", "APPEND_ONLY");
  }

  @Test
  void splitsStatementsOnlyOnRealSemicolons() {
    MlvParser.Result r =
        parse(
            """
            CREATE MATERIALIZED LAKE VIEW a AS SELECT 'x;y' AS s, `c;d` FROM t -- ; not here
            ;
            /* ; nor /* nested ; */ here */
            CREATE MATERIALIZED LAKE VIEW b AS SELECT "q;" FROM a;
            ;;
            """);
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.statements()).hasSize(2);
    ViewDefinition b = ((SqlStatement.CreateView) r.statements().get(1)).definition();
    assertThat(b.position().line()).isEqualTo(4);
  }

  @Test
  void parsesManagementStatements() {
    MlvParser.Result r =
        parse(
            """
            SHOW MATERIALIZED LAKE VIEWS IN silver;
            SHOW MATERIALIZED LAKE VIEWS;
            SHOW CREATE MATERIALIZED LAKE VIEW silver.x;
            ALTER MATERIALIZED LAKE VIEW silver.x RENAME TO silver.y;
            DROP MATERIALIZED LAKE VIEW IF EXISTS silver.y;
            REFRESH MATERIALIZED LAKE VIEW silver.y FULL;
            REFRESH MATERIALIZED LAKE VIEW silver.z;
            SELECT * FROM silver.y
            """);
    assertThat(r.diagnostics()).isEmpty();
    List<SqlStatement> s = r.statements();
    assertThat(s.get(0))
        .isInstanceOfSatisfying(
            SqlStatement.ShowViews.class, v -> assertThat(v.schema().dotted()).isEqualTo("silver"));
    assertThat(((SqlStatement.ShowViews) s.get(1)).schema()).isNull();
    assertThat(s.get(2)).isInstanceOf(SqlStatement.ShowCreate.class);
    assertThat(s.get(3))
        .isInstanceOfSatisfying(
            SqlStatement.Rename.class, x -> assertThat(x.to().dotted()).isEqualTo("silver.y"));
    assertThat(s.get(4))
        .isInstanceOfSatisfying(SqlStatement.Drop.class, x -> assertThat(x.ifExists()).isTrue());
    assertThat(s.get(5))
        .isInstanceOfSatisfying(SqlStatement.Refresh.class, x -> assertThat(x.full()).isTrue());
    assertThat(((SqlStatement.Refresh) s.get(6)).full()).isFalse();
    assertThat(s.get(7))
        .isInstanceOfSatisfying(
            SqlStatement.Other.class, x -> assertThat(x.sql()).isEqualTo("SELECT * FROM silver.y"));
  }

  @Test
  void alterOtherThanRenameIsRefused() {
    Diagnostic d =
        parse("ALTER MATERIALIZED LAKE VIEW s.v SET TBLPROPERTIES ('a'='b')").diagnostics().get(0);
    assertThat(d.message()).contains("only RENAME TO");
    assertThat(d.hint()).contains("CREATE OR REPLACE");
    assertThat(d.position().column()).isEqualTo(34);
  }

  @Test
  void errorsArePositionedAndEveryStatementIsStillParsed() {
    MlvParser.Result r =
        parse(
            """
            CREATE MATERIALIZED LAKE VIEW a (
              CONSTRAINT c1 (x > 0)
            ) AS SELECT 1;
            CREATE MATERIALIZED LAKE VIEW b AS SELECT 2;
            CREATE MATERIALIZED LAKE VIEW c (CONSTRAINT k CHECK (x > 0) ON MISMATCH IGNORE) AS SELECT 3;
            CREATE MATERIALIZED LAKE VIEW d;
            CREATE MATERIALIZED LAKE VIEW e (CONSTRAINT k CHECK (x IS NOT NULL ON MISMATCH DROP)
            AS SELECT 4;
            """);
    assertThat(r.statements()).hasSize(1);
    assertThat(r.diagnostics())
        .extracting(x -> x.position().line() + ":" + x.position().column() + " " + x.message())
        .containsExactly(
            "2:17 expected CHECK after the constraint name 'c1', found '('",
            "5:73 expected DROP or FAIL after ON MISMATCH, found 'IGNORE'",
            "6:32 expected AS select_statement or USING OneLake_Files after the view header, found"
                + " end of statement",
            // At the ON MISMATCH the condition's ')' is missing before, not at the AS after it
            // (found by QA).
            "7:68 ON MISMATCH is inside the parentheses of CHECK of 'k': the ')' that closes the"
                + " condition is missing before it");
    // The views whose statement broke after their name are known by name.
    assertThat(r.unfinishedViews()).extracting(Name::text).containsExactly("a", "c", "d", "e");
  }

  @Test
  void aSecondStatementWithNoSemicolonBeforeItIsAnErrorAtItsFirstWord() {
    for (String second :
        List.of(
            "CREATE MATERIALIZED LAKE VIEW s.b AS SELECT 2 AS y",
            "create or replace materialized lake view s.b AS SELECT 2 AS y",
            "CREATE TABLE s.t (a INT)",
            "CREATE OR REPLACE VIEW s.w AS SELECT 1",
            "DROP MATERIALIZED LAKE VIEW s.b",
            "REFRESH MATERIALIZED LAKE VIEW s.b FULL")) {
      MlvParser.Result r =
          parse("CREATE MATERIALIZED LAKE VIEW s.a\nAS SELECT x FROM bronze.t\n" + second + "\n");
      assertThat(r.statements()).as(second).isEmpty();
      assertThat(r.diagnostics())
          .as(second)
          .extracting(d -> d.position().line() + ":" + d.position().column() + " " + d.message())
          .containsExactly(
              "3:1 another statement starts here, at '"
                  + second.substring(0, second.indexOf(' '))
                  + "', with no ';' ending the view s.a before it: its query would run into this"
                  + " statement");
      assertThat(r.diagnostics().get(0).hint()).contains("with ';'");
    }
    // Inside parentheses, or as a name, such words are the query's own.
    single("CREATE MATERIALIZED LAKE VIEW s.a AS SELECT `create`, `drop` AS view FROM t");
    single("CREATE MATERIALIZED LAKE VIEW s.a AS SELECT create FROM t WHERE drop > 0");
    assertThat(
            parse(
                    "CREATE MATERIALIZED LAKE VIEW s.a AS SELECT x FROM t;\n"
                        + "CREATE MATERIALIZED LAKE VIEW s.b AS SELECT x FROM s.a")
                .statements())
        .hasSize(2);
  }

  @Test
  void aSpaceInsideAnUnquotedNameAsksForBackticks() {
    MlvParser.Result r =
        parse(
            """
            CREATE MATERIALIZED LAKE VIEW My Workspace.lh1.silver.x4 AS SELECT 1 AS a;
            CREATE MATERIALIZED LAKE VIEW silver.order summary AS SELECT 1 AS a;
            CREATE MATERIALIZED LAKE VIEW silver.v PARTITION BY (a) AS SELECT 1 AS a;
            """);
    assertThat(r.diagnostics())
        .extracting(
            x -> x.position().line() + ":" + x.position().column() + " " + x.message(),
            x -> x.hint())
        .containsExactly(
            tuple(
                "1:34 unexpected 'Workspace' after the view name's part My",
                "a name part with a space is written in backticks, as in `My Workspace`"),
            tuple(
                "2:44 unexpected 'summary' after the view name's part order",
                "a name part with a space is written in backticks, as in `order summary`"),
            tuple(
                "3:40 unexpected 'PARTITION' in the view header",
                "the header takes (CONSTRAINT ...), PARTITIONED BY (...), COMMENT \"...\","
                    + " TBLPROPERTIES (...), then AS SELECT ... or USING OneLake_Files"));
  }

  @Test
  void aLoneCarriageReturnEndsALineCommentAndALine() {
    // Old Mac line ends: Spark's lexer ends a -- comment at the CR, so the WHERE is SQL.
    ViewDefinition d =
        single(
            "CREATE MATERIALIZED LAKE VIEW s.j AS SELECT s.x FROM bronze.src s -- keep all\r"
                + "WHERE s.x IN (SELECT o.x FROM bronze.other o)\r");
    assertThat(((ViewBody.Select) d.body()).sql()).contains("WHERE s.x IN");
    Diagnostic e =
        parse("CREATE MATERIALIZED LAKE VIEW a\r(\r  CONSTRAINT c1 (x > 0)\r) AS SELECT 1")
            .diagnostics()
            .get(0);
    assertThat(e.position()).isEqualTo(new Position(Path.of("v.sql"), 3, 17));
  }

  @Test
  void aBackslashBeforeALineFeedCarriesALineCommentOnAsInSpark() {
    ViewDefinition d =
        single("CREATE MATERIALIZED LAKE VIEW s.j AS SELECT 1 AS a -- c \\\n, 2 AS b\nFROM t");
    assertThat(Normalizer.normalize(((ViewBody.Select) d.body()).sql())).doesNotContain("2");
  }

  @Test
  void aHintIsSparkSqlOnlyRightAfterSelect() {
    single(
        "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT /*+ BROADCAST(c) */ /* why */"
            + " /*+ COALESCE(2) */ a FROM t JOIN (select /*+ REPARTITION(3) */ k FROM c) c"
            + " -- /*+ in a line comment */\n WHERE a = '/*+ in a string */'"
            + " /* /*+ nested in a comment */ */ /*+ after the statement, which Spark never sees */");
    for (String misplaced :
        List.of(
            "SELECT a /*+ BROADCAST(c) */ FROM t",
            "SELECT DISTINCT /*+ BROADCAST(c) */ a FROM t",
            "SELECT a FROM t /*+ BROADCAST(t) */ WHERE a > 0",
            "/*+ BROADCAST(t) */ SELECT a FROM t")) {
      String text = "CREATE MATERIALIZED LAKE VIEW s.v AS\n" + misplaced;
      MlvParser.Result r = parse(text);
      assertThat(r.statements()).as(misplaced).hasSize(1);
      assertThat(r.diagnostics()).as(misplaced).hasSize(1);
      Diagnostic d = r.diagnostics().get(0);
      assertThat(d.ruleId()).isEqualTo(TableExtractor.PARSE_RULE);
      assertThat(d.position().line() + ":" + d.position().column())
          .isEqualTo("2:" + (misplaced.indexOf("/*+") + 1));
      assertThat(d.message()).contains("'/*+'");
    }
  }

  @Test
  void aParameterMarkerIsAnErrorAtTheMarker() {
    for (String sql :
        List.of(
            "SELECT a FROM t WHERE a = :since",
            "SELECT :`limit` AS x FROM t",
            "SELECT a FROM t WHERE a IN (1, :b)",
            "SELECT a FROM t LIMIT ?",
            "SELECT a FROM t WHERE a = ?")) {
      MlvParser.Result r = parse("CREATE MATERIALIZED LAKE VIEW s.v AS\n" + sql);
      assertThat(r.diagnostics()).as(sql).hasSize(1);
      Diagnostic d = r.diagnostics().get(0);
      assertThat(d.ruleId()).isEqualTo("SQL_PARAMETER");
      int marker = sql.contains("?") ? sql.indexOf('?') : sql.indexOf(':');
      assertThat(d.position().line() + ":" + d.position().column()).isEqualTo("2:" + (marker + 1));
      assertThat(d.message()).contains("[UNBOUND_SQL_PARAMETER]");
    }
    // The variant path, struct field types and colons in strings and comments are no markers.
    single(
        "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT v:a.b, v:['c'], f(v):d, arr[0]:e,"
            + " CAST(s AS STRUCT<a: INT, `b`:STRING>), 'x = :y ?' AS t /* :z ? */ FROM t");
  }

  @Test
  void aTypedLiteralBeyondItsTypesRangeIsAnErrorAtTheLiteral() {
    // The column of the literal: a minus where an expression starts is its sign; after 1 it is a
    // subtraction.
    Map<String, Integer> literals =
        Map.of(
            "SELECT 128Y AS x FROM t", 8,
            "SELECT a FROM t WHERE a = -129y", 27,
            "SELECT 100000S AS x FROM t", 8,
            "SELECT 9223372036854775808L AS x FROM t", 8,
            "SELECT (-9223372036854775809L) AS x FROM t", 9,
            "SELECT 1 -128Y AS x FROM t", 11,
            // An exponent without a suffix is a DOUBLE; F's bound is Float.MaxValue as a double.
            "SELECT 1e400D AS x FROM t", 8,
            "SELECT 1e400 AS x FROM t", 8,
            "SELECT a FROM t WHERE a > -1E400d", 27,
            "SELECT 3.4028235e38F AS x FROM t", 8);
    literals.forEach(
        (sql, column) -> {
          MlvParser.Result r = parse("CREATE MATERIALIZED LAKE VIEW s.v AS\n" + sql);
          assertThat(r.diagnostics()).as(sql).hasSize(1);
          Diagnostic d = r.diagnostics().get(0);
          assertThat(d.ruleId()).isEqualTo(TableExtractor.PARSE_RULE);
          assertThat(d.position().line() + ":" + d.position().column())
              .as(sql)
              .isEqualTo("2:" + column);
          assertThat(d.message()).contains("[INVALID_NUMERIC_LITERAL_RANGE]");
        });
    single(
        "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT 127Y, -128Y, - 128Y, 32767S, -32768S,"
            + " 9223372036854775807L, -9223372036854775808L, 128 Y, 99999999999 AS l FROM t");
    single(
        "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT 1.7976931348623157e308D,"
            + " -1.7976931348623157E308, 3.4028234663852886e38F, 1e-400D, 1e308, .5e3D,"
            + " 1.5F AS d FROM t");
  }

  /**
   * An interval literal with a fraction of a unit other than seconds: Spark 4.1.1 refuses it as it
   * parses the view ([INVALID_INTERVAL_FORMAT.INVALID_FRACTION]; the string form
   * [INVALID_TYPED_LITERAL]; each measured), which Calcite read without a word (found by QA).
   */
  @Test
  void anIntervalWithAFractionOfAUnitOtherThanSecondsIsAnError() {
    Map<String, String> refused =
        Map.of(
            "d + INTERVAL 1.5 DAYS",
            "2:21 1.5 DAYS has a fraction of a day / write it in a smaller unit: 36 HOURS",
            "d - INTERVAL 1 DAY -2.5 HOURS",
            "2:27 -2.5 HOURS has a fraction of an hour / write it in a smaller unit: -150 MINUTES",
            "INTERVAL '1.5' YEAR",
            "2:17 '1.5' YEAR has a fraction of a year / write it in a smaller unit: 18 MONTHS",
            "INTERVAL 1.5 WEEK",
            "2:17 1.5 WEEK has a fraction of a week / write whole units, or a fraction of seconds"
                + " (INTERVAL 90.5 SECONDS)",
            "d + INTERVAL '1.5 days'",
            "2:21 '1.5 days' has a fraction of a day / write it in a smaller unit: 36 HOURS");
    refused.forEach(
        (expression, expected) -> {
          List<Diagnostic> found =
              parse("CREATE MATERIALIZED LAKE VIEW s.v AS\nSELECT " + expression + " AS x FROM t")
                  .diagnostics();
          assertThat(found).as(expression).hasSize(1);
          Diagnostic d = found.get(0);
          assertThat(d.ruleId()).isEqualTo(TableExtractor.PARSE_RULE);
          assertThat(
                  d.position().line()
                      + ":"
                      + d.position().column()
                      + " "
                      + d.message().substring(0, d.message().indexOf(':'))
                      + " / "
                      + d.hint())
              .as(expression)
              .isEqualTo(expected);
          assertThat(d.message())
              .endsWith(
                  expression.contains("'1.5 days'")
                      ? "([INVALID_TYPED_LITERAL])"
                      : "([INVALID_INTERVAL_FORMAT.INVALID_FRACTION])");
        });
    single(
        "CREATE MATERIALIZED LAKE VIEW s.v AS SELECT INTERVAL 1.5 SECONDS AS a, INTERVAL '1.5'"
            + " SECOND AS b, INTERVAL '1.5 seconds' AS c, INTERVAL 1 DAY 0.5 SECONDS AS d,"
            + " 1.5 AS days, INTERVAL '1 day' AS f FROM t");
  }

  @Test
  void aFloatingLiteralBeyondItsRangeSaysWhatToWriteInstead() {
    Map<String, String> hints =
        Map.of(
            "1e400D", "no DOUBLE is further from 0; for infinity write CAST('Infinity' AS DOUBLE)",
            "-1e400", "no DOUBLE is further from 0; for infinity write CAST('-Infinity' AS DOUBLE)",
            "1e39F", "write it with D, a DOUBLE (up to 1.7976931348623157E+308)",
            "1e400F", "no DOUBLE is further from 0; for infinity write CAST('Infinity' AS DOUBLE)");
    hints.forEach(
        (literal, hint) -> {
          Diagnostic d =
              parse("CREATE MATERIALIZED LAKE VIEW s.v AS SELECT " + literal + " AS x FROM t")
                  .diagnostics()
                  .get(0);
          assertThat(d.hint()).as(literal).isEqualTo(hint);
        });
    assertThat(
            parse("CREATE MATERIALIZED LAKE VIEW s.v AS SELECT 1e400D AS x FROM t")
                .diagnostics()
                .get(0)
                .message())
        .isEqualTo(
            "the literal 1e400D is outside the range of DOUBLE (-1.7976931348623157E+308 to"
                + " 1.7976931348623157E+308): Spark refuses it ([INVALID_NUMERIC_LITERAL_RANGE])");
  }

  @Test
  void unterminatedStringIsReportedWhereItStarts() {
    Diagnostic d =
        parse("CREATE MATERIALIZED LAKE VIEW a AS\nSELECT 'oops FROM t").diagnostics().get(0);
    assertThat(d.message()).isEqualTo("unterminated string literal");
    assertThat(d.position()).isEqualTo(new Position(Path.of("v.sql"), 2, 8));
  }

  @Test
  void stringsFollowSparksLexer() {
    // 'it''s' is two adjacent literals in Spark, which concatenate: "its".
    ViewDefinition d =
        single("CREATE MATERIALIZED LAKE VIEW v COMMENT 'it''s' \"!\" AS SELECT 'a\\'b' AS x");
    assertThat(d.comment()).contains("its!");
    assertThat(((ViewBody.Select) d.body()).sql()).isEqualTo("SELECT 'a\\'b' AS x");
  }

  @Test
  void fileViewCannotAlsoHaveASelect() {
    Diagnostic d =
        parse(
                "CREATE MATERIALIZED LAKE VIEW a USING OneLake_Files OPTIONS ('format'='csv') AS"
                    + " SELECT 1")
            .diagnostics()
            .get(0);
    assertThat(d.message()).contains("has no AS select_statement");
  }

  @Test
  void aNulOutsideLiteralsIsOneErrorAtTheFirstAndTheRestIsStillRead() {
    MlvParser.Result r =
        parse("CREATE MATERIALIZED LAKE VIEW s.x AS\nSELECT 1 AS x\0, '\0' AS y\0 FROM t");

    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.isError()).isTrue();
              assertThat(d.position()).isEqualTo(new Position(START.file(), 2, 14));
              assertThat(d.message())
                  .isEqualTo("a NUL character (U+0000) is not allowed in SQL text");
            });
    assertThat(r.statements()).hasSize(1);
  }

  @Test
  void otherControlCharactersAreNamedByTheirCodeWhereverTheyStand() {
    Diagnostic soh =
        parse("CREATE MATERIALIZED LAKE VIEW s.x AS\nSELECT 1 AS x\u0001 FROM t")
            .diagnostics()
            .get(0);
    assertThat(soh.position()).isEqualTo(new Position(START.file(), 2, 14));
    assertThat(soh.message()).isEqualTo("a control character (U+0001) is not allowed in SQL text");
    assertThat(soh.hint()).isNotBlank();
    // An old end-of-file mark after the statement; U+001C is blank to Java but not to Spark.
    MlvParser.Result eof = parse("CREATE MATERIALIZED LAKE VIEW s.x AS SELECT 1 AS x;\n\u001a");
    assertThat(eof.diagnostics())
        .extracting(d -> d.position().line() + ":" + d.position().column() + " " + d.message())
        .containsExactly(
            "2:1 a Ctrl-Z (end-of-file mark) character (U+001A) is not allowed in SQL text");
    assertThat(parse("CREATE MATERIALIZED LAKE VIEW s.x AS SELECT \u001c1 AS x").diagnostics())
        .extracting(Diagnostic::message)
        .containsExactly("a control character (U+001C) is not allowed in SQL text");
    // Form feed and vertical tab are white space to Spark too.
    assertThat(parse("CREATE MATERIALIZED LAKE VIEW s.x AS SELECT\f1 AS\u000bx").diagnostics())
        .isEmpty();
  }

  @Test
  void everyHeaderErrorHasAHint() {
    List<String> broken =
        List.of(
            "CREATE MATERIALIZED LAKE VIEW a (CONSTRAINT c1 (x > 0)) AS SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a (CONSTRAINT c1 CHECK (x > 0) ON MISMATCH DELETE) AS"
                + " SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a (CONSTRAINT c1 CHECK (x > 0) ON MISSMATCH DROP) AS"
                + " SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a (CONSTRAINT c CHECK (x > 0), CONSTRAINT c CHECK (y))"
                + " AS SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a (CONSTRAINT c CHECK ()) AS SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a COMMENT 'x' COMMENT 'y' AS SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a.b.c.d.e AS SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a AS",
            "CREATE MATERIALIZED LAKE VIEW a TBLPROPERTIES ('k' = 'v', 'k' = 'w') AS SELECT 1",
            "CREATE MATERIALIZED LAKE VIEW a PARTITIONED BY (1) AS SELECT 1",
            "ALTER MATERIALIZED LAKE VIEW a RENAME TO",
            "DROP MATERIALIZED LAKE VIEW IF EXISTS",
            "SHOW MATERIALIZED LAKE VIEWS IN",
            "REFRESH MATERIALIZED LAKE VIEW a PARTIAL");
    for (String text : broken) {
      assertThat(parse(text).diagnostics())
          .as(text)
          .singleElement()
          .satisfies(d -> assertThat(d.hint()).as(d.message()).isNotBlank());
    }
  }

  /**
   * TBLPROPERTIES values as Spark 4.1.1's own parser reads them (measured with SparkSqlParser):
   * strings (adjacent ones concatenated, in keys too), unsigned integers and decimals as written,
   * booleans in lower case, with {@code =}, {@code ==} or nothing between key and value.
   */
  @Test
  void tblpropertiesValuesAreReadAsSparkReadsThem() {
    ViewDefinition d =
        single(
            "CREATE MATERIALIZED LAKE VIEW a TBLPROPERTIES ('i' = 01, 'd' = .5, 'e' 1., 'f' ="
                + " 00.50, 'b' = TRUE, 'c' == False, 's' \"x\", 'r' = r'a\\b', 'xy' = 'x' \"y\","
                + " 'k' 'ey' = 'v', 'q' 'x' 'y', dotted.key = 'w') AS SELECT 1 AS x");
    assertThat(d.properties())
        .containsOnly(
            Map.entry("i", "01"),
            Map.entry("d", ".5"),
            Map.entry("e", "1."),
            Map.entry("f", "00.50"),
            Map.entry("b", "true"),
            Map.entry("c", "false"),
            Map.entry("s", "x"),
            Map.entry("r", "a\\b"),
            Map.entry("xy", "xy"),
            Map.entry("key", "v"),
            Map.entry("q", "xy"),
            Map.entry("dotted.key", "w"));
  }

  /** What Spark 4.1.1 refuses in TBLPROPERTIES is refused at its place, with the quoted value. */
  @Test
  void tblpropertiesValuesSparkRefusesAreErrorsAtTheirPlace() {
    Map<String, String> refused = new java.util.LinkedHashMap<>();
    refused.put("foo", "'foo'");
    refused.put("`foo`", "'foo'");
    refused.put("null", "'null'");
    refused.put("-1", "'-1'");
    refused.put("+1", "'+1'");
    refused.put("1e3", "'1e3'");
    refused.put("10L", "'10L'");
    refused.put("1.5D", "'1.5D'");
    refused.put("1BD", "'1BD'");
    refused.put("1Y", "'1Y'");
    refused.put("x'41'", "'x\\'41\\''");
    refused.put("()", "'('");
    refused.forEach(
        (value, quoted) -> {
          List<Diagnostic> ds =
              parse(
                      "CREATE MATERIALIZED LAKE VIEW a\nTBLPROPERTIES ('k' = "
                          + value
                          + ") AS SELECT 1")
                  .diagnostics();
          assertThat(ds).as(value).singleElement();
          Diagnostic d = ds.get(0);
          assertThat(d.position().line()).as(value).isEqualTo(2);
          assertThat(d.position().column()).as(value).isEqualTo(22);
          assertThat(d.message())
              .as(value)
              .startsWith("Spark does not read ")
              .contains("as the value of 'k' in TBLPROPERTIES");
          assertThat(d.hint()).as(value).isEqualTo("quote the value: 'k' = " + quoted);
        });
    for (String list : List.of("('k' = 'v',)", "()", "('k')")) {
      assertThat(
              parse("CREATE MATERIALIZED LAKE VIEW a TBLPROPERTIES " + list + " AS SELECT 1")
                  .diagnostics())
          .as(list)
          .singleElement()
          .satisfies(d -> assertThat(d.hint()).isNotBlank());
    }
    // OPTIONS keeps its own rules: a word is a value there.
    assertThat(
            parse(
                    "CREATE MATERIALIZED LAKE VIEW a USING OneLake_Files OPTIONS (path ="
                        + " 'abfss://w@onelake.dfs.fabric.microsoft.com/l.Lakehouse/Files/x/',"
                        + " format = csv, header = TRUE)")
                .diagnostics())
        .isEmpty();
  }

  @Test
  void aViewWithoutANameSaysSo() {
    Diagnostic d = parse("CREATE MATERIALIZED LAKE VIEW AS SELECT 1 AS x").diagnostics().get(0);
    assertThat(d.message()).isEqualTo("expected a view name before AS, found 'AS'");
    assertThat(d.position().column()).isEqualTo(31);
    // AS is still a name Spark takes when a body follows it.
    assertThat(single("CREATE MATERIALIZED LAKE VIEW as AS SELECT 1 AS x").name().dotted())
        .isEqualTo("as");
  }
}
