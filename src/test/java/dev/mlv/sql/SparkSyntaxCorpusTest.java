package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spark-specific statements mlv must read as Spark does: each one's table set is compared with
 * Spark's parser run live, and the ones Calcite is expected to handle must not need the fallback.
 */
class SparkSyntaxCorpusTest {
  private static final TableExtractor EXTRACTOR = new TableExtractor();

  /** A statement and whether Calcite (after the rewrite) should read it without Spark. */
  record Case(String sql, boolean calcite) {
    @Override
    public String toString() {
      return sql.replaceAll("\\s+", " ");
    }
  }

  static Stream<Case> statements() {
    return Stream.of(
        new Case("SELECT * FROM orders LATERAL VIEW explode(items) t AS item", true),
        new Case(
            "SELECT k, v FROM kv LATERAL VIEW OUTER posexplode(m) p AS pos, val"
                + " LATERAL VIEW explode(tags) t2 tag",
            true),
        new Case("SELECT explode(map_col) AS (k, v) FROM maps", true),
        new Case("SELECT inline(array(struct(1, 'a'), struct(2, 'b'))) FROM one_row", true),
        new Case("SELECT * FROM range(10) JOIN dim ON id = dim.k", true),
        new Case("SELECT * FROM explode(array(1, 2, 3)) AS e(x), facts", true),
        new Case(
            "SELECT transform(items, x -> x.price * 2), filter_tag(tags) FROM catalog.shop.items",
            true),
        new Case("SELECT aggregate(xs, 0, (acc, x) -> acc + x) FROM numbers", true),
        new Case("SELECT region, count(*) FROM sales GROUP BY ALL", true),
        // Found by QA: each sent the view to the fallback parser, and past most column checks.
        new Case("SELECT id FROM orders ORDER BY id LIMIT ALL", true),
        new Case(
            "SELECT d + INTERVAL 1 YEAR 2 MONTHS AS a, INTERVAL '1' DAY\n 2 HOURS AS b,"
                + " INTERVAL 5 MILLISECONDS AS c, INTERVAL -3 MICROSECOND AS d FROM events",
            true),
        new Case(
            "SELECT x::INTERVAL MINUTE AS a, y::INTERVAL DAY TO SECOND AS b FROM events", true),
        new Case(
            "SELECT d + INTERVAL '1 day 2 hours' AS a, INTERVAL '3 seconds' AS b FROM e", true),
        new Case(
            "SELECT a, b, count(*) AS n FROM sales GROUP BY a, b GROUPING SETS ((a), (b), ())",
            true),
        new Case(
            "SELECT a, count(*) AS n FROM sales GROUP BY a\nGROUPING SETS ((a), ())"
                + " UNION ALL SELECT 1, 2 FROM other GROUP BY (a)GROUPING SETS ((a))",
            true),
        new Case(
            "SELECT v:customer.id::int AS id, e.v:['a b'][0], v:from.x FROM events e"
                + " WHERE v:kind::string = 'sale'",
            true),
        new Case("SELECT parse_json(s):a, v:arr[0]:x FROM events JOIN k ON v:k::int = k.id", true),
        new Case("SELECT id, x FROM events e, LATERAL explode(e.arr) AS t(x)", true),
        new Case(
            "SELECT e.id, t.x FROM events e JOIN LATERAL inline(e.s) AS t(x, y) JOIN d ON d.x = t.x",
            true),
        new Case(
            "WITH a AS (WITH b AS (SELECT * FROM base) SELECT * FROM b),"
                + " c AS (SELECT * FROM a JOIN other USING (id)) SELECT * FROM c",
            true),
        new Case("SELECT * FROM l LEFT ANTI JOIN r ON l.id = r.id", true),
        new Case("SELECT * FROM l LEFT SEMI JOIN r ON l.id = r.id NATURAL JOIN n", true),
        new Case(
            "SELECT * FROM (SELECT year, course, earnings FROM course_sales)"
                + " PIVOT (sum(earnings) FOR course IN ('dotNET', 'Java'))",
            true),
        new Case("SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(id, name)", true),
        new Case("SELECT * FROM VALUES 1, 2, 3 AS t(x) JOIN ref ON t.x = ref.x", true),
        new Case("SELECT * FROM events TABLESAMPLE (10 PERCENT)", true),
        new Case("SELECT * FROM lh.dbo.events VERSION AS OF 3", true),
        new Case("SELECT * FROM lh.dbo.events TIMESTAMP AS OF '2024-06-01 00:00:00'", true),
        new Case("SELECT a, b FROM t DISTRIBUTE BY a SORT BY b", true),
        new Case("SELECT a FROM t CLUSTER BY a", true),
        new Case(
            "SELECT CAST(col AS array<int>), col::map<string, struct<a: int>> FROM typed", true),
        new Case("SELECT 'it''s', 10L, 2.5BD FROM literals;", true),
        // Found by QA: each of these made Calcite give up, so the view was always refreshed in
        // full and its column checks were skipped.
        new Case("SELECT id, 'a' 'b' /* c */ 'c' AS e,\n  \"x\"\n  \"y\" AS f FROM literals", true),
        new Case(
            "SELECT id FROM sales WHERE region COLLATE UTF8_LCASE = 'eu'"
                + " AND CAST(r AS STRING COLLATE `UNICODE_CI`) = 'x'",
            true),
        new Case("SELECT id AS `a``b`, `c````` FROM `odd``table`", true),
        new Case("SELECT id FROM sales WHERE r COLLATE unicode_rtrim_ai_cs = 'x'", true),
        // Spark refuses these; its parser is left to say so.
        new Case("SELECT id FROM sales WHERE r COLLATE UNICODE_CS_CI = 'x'", false),
        new Case("SELECT id FROM sales WHERE r COLLATE en_US_CI = 'x'", false),
        new Case(
            "SELECT * FROM `My Workspace`.`Sales LH`.dbo.`Order Lines` ol"
                + " JOIN sales.dbo.customers c ON ol.c = c.id",
            true),
        new Case(
            "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id)"
                + " AND t.k IN (SELECT k FROM v) AND t.x > (SELECT avg(x) FROM w)",
            true),
        new Case("SELECT * FROM a, LATERAL (SELECT * FROM b WHERE b.k = a.k)", true),
        new Case("SELECT id FROM orders WHERE exists(items, i -> i.qty > 0)", true),
        new Case("SELECT id FROM orders WHERE name LIKE ANY ('a%', 'b%')", true),
        new Case("SELECT id FROM orders WHERE name = 'a' 'b'", true),
        new Case("SELECT filter(xs, x -> x > 0) FROM arrays", true),
        new Case("SELECT * FROM delta.`/lake/bronze/events` JOIN dim ON true", true),
        new Case(
            "SELECT /*+ BROADCAST(d) */ f.*, d.name FROM fact f JOIN dim d ON f.k = d.k", true),
        new Case(
            "WITH orders AS (SELECT * FROM bronze.orders) SELECT * FROM orders"
                + " UNION ALL SELECT * FROM silver.orders",
            true),
        new Case(
            "SELECT * FROM lh.dbo.events VERSION AS OF 3 WHERE id IN"
                + " (SELECT id FROM x WHERE exists(tags, t -> t = 'a'))",
            true));
  }

  @ParameterizedTest
  @MethodSource("statements")
  void agreesWithSparksParser(Case statement) {
    QueryFacts facts = EXTRACTOR.extract(statement.sql(), Position.start(null));
    assertThat(facts.diagnostics()).isEmpty();
    Set<String> ours =
        facts.tables().stream().map(Name::dotted).collect(Collectors.toCollection(TreeSet::new));
    assertThat(ours).isEqualTo(SparkLineage.tables(statement.sql()));
    assertThat(facts.usedFallback()).isEqualTo(!statement.calcite());
  }
}
