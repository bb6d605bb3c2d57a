package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NormalizerTest {

  private static ViewDefinition parse(String text) {
    return ((SqlStatement.CreateView)
            MlvParser.parse(Position.start(Path.of("x.sql")), text).statements().get(0))
        .definition();
  }

  @Test
  void formattingCommentsAndKeywordCaseDoNotChangeTheFingerprint() {
    ViewDefinition a =
        parse(
            "CREATE MATERIALIZED LAKE VIEW s.v (CONSTRAINT c CHECK (x > 0) ON MISMATCH DROP)"
                + " AS SELECT a, b FROM t WHERE x = 'Abc'");
    ViewDefinition b =
        parse(
            """
            -- a comment
            create or replace materialized lake view S.V
            ( constraint C check ( X>0 ) on mismatch drop )
            as
              select a ,   `b` /* why */
              from T
              where x='Abc'
            """);
    assertThat(((ViewBody.Select) a.body()).normalized())
        .isEqualTo("select a,b from t where x='Abc'");
    assertThat(b.fingerprint()).isEqualTo(a.fingerprint());
  }

  /**
   * A hint is read by Spark's planner: changing it changes the definition, while its spacing and
   * case do not (found by QA: a changed hint was 'only formatting or comments changed', so it never
   * reached the target).
   */
  @Test
  void aHintIsPartOfTheDefinitionAndAPlainCommentIsNot() {
    ViewDefinition two =
        parse("CREATE MATERIALIZED LAKE VIEW s.v AS SELECT /*+ REPARTITION(2) */ id FROM t");
    ViewDefinition eight =
        parse("CREATE MATERIALIZED LAKE VIEW s.v AS SELECT /*+ REPARTITION(8) */ id FROM t");
    ViewDefinition spaced =
        parse("CREATE MATERIALIZED LAKE VIEW s.v AS SELECT /*+  repartition( 2 )\n*/ id FROM t");
    ViewDefinition comment =
        parse("CREATE MATERIALIZED LAKE VIEW s.v AS SELECT /* REPARTITION(8) */ id FROM t");
    ViewDefinition none = parse("CREATE MATERIALIZED LAKE VIEW s.v AS SELECT id FROM t");
    assertThat(eight.fingerprint()).isNotEqualTo(two.fingerprint());
    assertThat(spaced.fingerprint()).isEqualTo(two.fingerprint());
    assertThat(none.fingerprint()).isNotEqualTo(two.fingerprint());
    assertThat(comment.fingerprint()).isEqualTo(none.fingerprint());
  }

  @Test
  void literalsConstraintsAndPropertiesDoChangeIt() {
    String base = "CREATE MATERIALIZED LAKE VIEW v AS SELECT a FROM t WHERE x = 'abc'";
    String fp = parse(base).fingerprint();
    assertThat(parse(base.replace("'abc'", "'ABC'")).fingerprint()).isNotEqualTo(fp);
    assertThat(parse(base.replace(" AS", " (CONSTRAINT c CHECK (a > 0)) AS")).fingerprint())
        .isNotEqualTo(fp);
    assertThat(parse(base.replace(" AS", " PARTITIONED BY (a) AS")).fingerprint()).isNotEqualTo(fp);
    assertThat(parse(base.replace(" AS", " TBLPROPERTIES ('k'='v') AS")).fingerprint())
        .isNotEqualTo(fp);
    assertThat(
            parse(base.replace(" AS", " (CONSTRAINT c CHECK (a > 0) ON MISMATCH DROP) AS"))
                .fingerprint())
        .isNotEqualTo(
            parse(base.replace(" AS", " (CONSTRAINT c CHECK (a > 0) ON MISMATCH FAIL) AS"))
                .fingerprint());
  }

  @Test
  void theNameIsNotPartOfTheFingerprintSoRenamesAreRecognised() {
    assertThat(parse("CREATE MATERIALIZED LAKE VIEW a AS SELECT 1").fingerprint())
        .isEqualTo(parse("CREATE MATERIALIZED LAKE VIEW b AS SELECT 1").fingerprint());
  }

  @Test
  void theCaseOfAnAliasInASelectListIsKeptBecauseItNamesAColumn() {
    assertThat(Normalizer.normalize("SELECT SUM(x) AS Total, y AS `Unit Price` FROM T AS O"))
        .isEqualTo("select sum(x)Total,y `Unit Price` from t as o");
    // A subquery's or CTE's aliases reach the view through SELECT *.
    assertThat(Normalizer.normalize("WITH C AS (SELECT a AS Amt FROM t) SELECT * FROM C"))
        .isEqualTo("with c as(select a Amt from t)select*from c");
    // CAST's AS names a type, and a type's case is formatting.
    assertThat(Normalizer.normalize("SELECT CAST(a AS STRING) AS A2, TRY_CAST(b AS Int) B2"))
        .isEqualTo("select cast(a as string)A2,try_cast(b as int)B2");
    assertThat(parse("CREATE MATERIALIZED LAKE VIEW v AS SELECT a AS Total FROM t").fingerprint())
        .isNotEqualTo(
            parse("CREATE MATERIALIZED LAKE VIEW v AS SELECT a AS total FROM t").fingerprint());
    assertThat(parse("CREATE MATERIALIZED LAKE VIEW v AS SELECT a FROM t AS X").fingerprint())
        .isEqualTo(parse("CREATE MATERIALIZED LAKE VIEW v AS select a from T as x").fingerprint());
  }

  @Test
  void theAsOfAnAliasIsFormatting() {
    assertThat(
            parse("CREATE MATERIALIZED LAKE VIEW v AS SELECT SUM(n) AS testers FROM t")
                .fingerprint())
        .isEqualTo(
            parse("CREATE MATERIALIZED LAKE VIEW v AS SELECT SUM(n) testers FROM t").fingerprint());
    // Generator aliases are a list, and a WITH's AS is not an alias.
    assertThat(Normalizer.normalize("WITH c AS (SELECT 1) SELECT explode(m) AS (k, v) FROM c"))
        .isEqualTo("with c as(select 1)select explode(m)as(k,v)from c");
  }

  @Test
  void theCaseOfABareColumnInASelectListIsKeptBecauseSparkNamesTheColumnAsWritten() {
    // SELECT Amount FROM t names the view's column Amount even when t spells it amount.
    assertThat(Normalizer.normalize("SELECT T.Amount, Region, x Y FROM T WHERE B = 1"))
        .isEqualTo("select t.Amount,Region,x Y from t where b=1");
    assertThat(Normalizer.normalize("SELECT (SELECT MAX(V) FROM U) AS m, K FROM (SELECT K FROM T)"))
        .isEqualTo("select(select max(v)from u)m,K from(select K from t)");
    // Words that end an item without naming it stay formatting.
    assertThat(Normalizer.normalize("SELECT CASE WHEN a THEN 1 END, NULL, TRUE FROM t"))
        .isEqualTo("select case when a then 1 end,null,true from t");
    assertThat(parse("CREATE MATERIALIZED LAKE VIEW v AS SELECT amount FROM t").fingerprint())
        .isNotEqualTo(
            parse("CREATE MATERIALIZED LAKE VIEW v AS SELECT Amount FROM t").fingerprint());
  }
}
