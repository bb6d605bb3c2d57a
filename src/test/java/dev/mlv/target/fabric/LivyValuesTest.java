package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mlv.target.SqlValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LivyValuesTest {

  /** A Livy answer as Fabric sends it: Spark's schema JSON and the values as Spark's JSON. */
  private static final String ANSWER =
      """
      {"schema": {"type": "struct", "fields": [
        {"name": "a", "type": {"type": "array", "elementType": "integer", "containsNull": true}},
        {"name": "s", "type": {"type": "struct", "fields": [
          {"name": "x", "type": "integer"}, {"name": "y", "type": "string"}]}},
        {"name": "m", "type": {"type": "map", "keyType": "string", "valueType": "integer"}},
        {"name": "mi", "type": {"type": "map", "keyType": "integer", "valueType": "string"}},
        {"name": "b", "type": "binary"},
        {"name": "dec", "type": "decimal(38,2)"},
        {"name": "big", "type": "long"},
        {"name": "nan", "type": "double"},
        {"name": "t", "type": "boolean"},
        {"name": "n", "type": "integer"},
        {"name": "ts", "type": "timestamp"}]},
       "data": [[[1, null], {"x": 1, "y": "z"}, {"k": 1}, {"1": "a"}, "AP8=",
                 123456789012345678901234567890.50, 9223372036854775807, "NaN", true, null,
                 "2026-11-30 10:15:00"]]}
      """;

  private static List<SqlValue> row() throws Exception {
    JsonNode json = FabricHttp.JSON.readTree(ANSWER);
    JsonNode fields = json.path("schema").path("fields");
    JsonNode data = json.path("data").get(0);
    List<SqlValue> row = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      row.add(LivyValues.of(data.get(i), fields.get(i).path("type")));
    }
    return row;
  }

  @Test
  void valuesAreReadByTheirColumnTypeAsSparkShowsThem() throws Exception {
    assertThat(row().stream().map(SqlValue::display).toList())
        .containsExactly(
            "[1, NULL]",
            "{1, z}",
            "{k -> 1}",
            "{1 -> a}",
            "[00 FF]",
            "123456789012345678901234567890.50",
            "9223372036854775807",
            "NaN",
            "true",
            null,
            "2026-11-30 10:15:00");
  }

  @Test
  void typesSurviveTheTrip() throws Exception {
    List<SqlValue> row = row();
    assertThat(row.get(1)).isInstanceOf(SqlValue.Struct.class);
    assertThat(((SqlValue.Struct) row.get(1)).names()).containsExactly("x", "y");
    assertThat(((SqlValue.MapValue) row.get(3)).keys().get(0)).isInstanceOf(SqlValue.Exact.class);
    assertThat(row.get(6)).isEqualTo(new SqlValue.Exact(new java.math.BigDecimal(Long.MAX_VALUE)));
    assertThat(row.get(8)).isEqualTo(new SqlValue.Bool(true));
    assertThat(row.get(10)).isEqualTo(new SqlValue.Temporal("2026-11-30T10:15:00"));
  }

  @Test
  void aValueOfAnUnexpectedShapeIsKeptAsItsJsonText() throws Exception {
    JsonNode v = FabricHttp.JSON.readTree("{\"weird\": 1}");
    assertThat(LivyValues.of(v, FabricHttp.JSON.readTree("{\"type\": \"array\"}")))
        .isEqualTo(new SqlValue.Text("{\"weird\":1}"));
    assertThat(LivyValues.of(v, FabricHttp.JSON.readTree("\"string\"")))
        .isEqualTo(new SqlValue.Text("{\"weird\":1}"));
  }
}
