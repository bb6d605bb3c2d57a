package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PlacesTest {
  private static final Position AT = new Position(Path.of("v.sql"), 3, 4);

  @Test
  void findsTheCallNotTheSameWordInAStringACommentOrAColumn() {
    String sql =
        "SELECT 'my_udf(x)' AS s, my_udf AS c, -- my_udf(y)\n"
            + "  /* my_udf( */ MY_UDF (amount) AS x\nFROM t";
    assertThat(Places.call(sql, AT, "my_udf")).isEqualTo(new Position(Path.of("v.sql"), 4, 17));
  }

  @Test
  void readsBacktickedNamesAndOnTheFirstLineCountsFromTheStart() {
    assertThat(Places.call("SELECT `rand`() AS r", AT, "rand"))
        .isEqualTo(new Position(Path.of("v.sql"), 3, 11));
  }

  @Test
  void aQualifiedNameIsFoundPartByPartAtItsFirstPart() {
    assertThat(Places.call("SELECT f(x), s.g(x), my.`F` (x) AS y FROM t", AT, "my.f"))
        .isEqualTo(new Position(Path.of("v.sql"), 3, 25));
    assertThat(Places.call("SELECT s.f AS c, s . f(x) AS y FROM t", AT, "s.f"))
        .isEqualTo(new Position(Path.of("v.sql"), 3, 21));
  }

  @Test
  void withoutACallTheStartStands() {
    assertThat(Places.call("SELECT rand AS r FROM t", AT, "rand")).isEqualTo(AT);
  }

  @Test
  void aCallInACheckIsPlacedAtTheCallAcrossLinesNotAtItsConstraint() {
    MlvParser.Result r =
        MlvParser.parse(
            Position.start(Path.of("v.sql")),
            "CREATE MATERIALIZED LAKE VIEW s.v (\n"
                + "  CONSTRAINT ok CHECK (id > 0),\n"
                + "  CONSTRAINT c CHECK (id > 0 AND\n"
                + "    my_udf(id) AND rand() > 0.5) ON MISMATCH DROP\n"
                + ") AS SELECT id FROM t");
    ViewDefinition d = ((SqlStatement.CreateView) r.statements().get(0)).definition();
    Position start = new Position(Path.of("v.sql"), 5, 6);
    assertThat(Places.call("SELECT id FROM t", start, d.constraints(), "my_udf"))
        .isEqualTo(new Position(Path.of("v.sql"), 4, 5));
    Constraint c = d.constraints().get(1);
    assertThat(c.position()).isEqualTo(new Position(Path.of("v.sql"), 3, 3));
    assertThat(Places.inConstraint(c, c.expression().indexOf("rand")))
        .isEqualTo(new Position(Path.of("v.sql"), 4, 20));
  }

  @Test
  void findsTimeTravelWithOrWithoutFor() {
    assertThat(Places.timeTravel("SELECT * FROM t\nVERSION AS OF 3", AT))
        .isEqualTo(new Position(Path.of("v.sql"), 4, 1));
    assertThat(Places.timeTravel("SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-01-01'", AT))
        .isEqualTo(new Position(Path.of("v.sql"), 3, 20));
    assertThat(Places.timeTravel("SELECT 'VERSION AS OF 3' AS v FROM t", AT)).isEqualTo(AT);
  }
}
