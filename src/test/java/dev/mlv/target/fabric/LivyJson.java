package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.target.SqlValue;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The simulator's Livy answer for typed rows: each column's type in Spark's JSON form, and values
 * as Spark's JSON writes them (structs and string-keyed maps as objects, binary as base64, NaN as
 * text), so {@code mlv sql} over Fabric reads the types it reads from the real endpoint.
 */
final class LivyJson {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private LivyJson() {}

  /** The type of a column, read from its first value that is not NULL (string when none is). */
  static JsonNode type(List<SqlValue> column) {
    SqlValue v = column.stream().filter(Objects::nonNull).findFirst().orElse(null);
    if (v instanceof SqlValue.Exact e) {
      int scale =
          column.stream()
              .filter(SqlValue.Exact.class::isInstance)
              .mapToInt(x -> ((SqlValue.Exact) x).value().scale())
              .max()
              .orElse(0);
      return F.textNode(scale > 0 ? "decimal(38," + scale + ")" : "long");
    } else if (v instanceof SqlValue.Real) {
      return F.textNode("double");
    } else if (v instanceof SqlValue.Bool) {
      return F.textNode("boolean");
    } else if (v instanceof SqlValue.Bytes) {
      return F.textNode("binary");
    } else if (v instanceof SqlValue.Temporal t) {
      return F.textNode(t.iso().contains("T") ? "timestamp" : "date");
    } else if (v instanceof SqlValue.Array a) {
      ObjectNode o = F.objectNode().put("type", "array");
      o.set("elementType", type(a.items()));
      return o.put("containsNull", true);
    } else if (v instanceof SqlValue.Struct s) {
      ObjectNode o = F.objectNode().put("type", "struct");
      ArrayNode fields = o.putArray("fields");
      for (int i = 0; i < s.names().size(); i++) {
        ObjectNode f = fields.addObject().put("name", s.names().get(i));
        f.set("type", type(column(column, i)));
        f.put("nullable", true);
      }
      return o;
    } else if (v instanceof SqlValue.MapValue m) {
      ObjectNode o = F.objectNode().put("type", "map");
      o.set("keyType", type(m.keys()));
      o.set("valueType", type(m.values()));
      return o.put("valueContainsNull", true);
    }
    return F.textNode("string");
  }

  /** Field {@code i} of every struct in a column. */
  private static List<SqlValue> column(List<SqlValue> structs, int i) {
    List<SqlValue> out = new ArrayList<>();
    for (SqlValue v : structs) {
      if (v instanceof SqlValue.Struct s) {
        out.add(s.values().get(i));
      }
    }
    return out;
  }

  static JsonNode value(SqlValue v) {
    if (v == null) {
      return F.nullNode();
    } else if (v instanceof SqlValue.Text t) {
      return F.textNode(t.value());
    } else if (v instanceof SqlValue.Exact e) {
      return DecimalNode.valueOf(e.value());
    } else if (v instanceof SqlValue.Real r) {
      return Double.isFinite(r.value())
          ? F.numberNode(r.value())
          : F.textNode(Double.toString(r.value()));
    } else if (v instanceof SqlValue.Bool b) {
      return F.booleanNode(b.value());
    } else if (v instanceof SqlValue.Bytes b) {
      return F.textNode(Base64.getEncoder().encodeToString(b.value()));
    } else if (v instanceof SqlValue.Temporal t) {
      return F.textNode(t.iso());
    } else if (v instanceof SqlValue.Array a) {
      ArrayNode arr = F.arrayNode();
      a.items().forEach(item -> arr.add(value(item)));
      return arr;
    } else if (v instanceof SqlValue.Struct s) {
      ObjectNode o = F.objectNode();
      for (int i = 0; i < s.names().size(); i++) {
        o.set(s.names().get(i), value(s.values().get(i)));
      }
      return o;
    }
    SqlValue.MapValue m = (SqlValue.MapValue) v;
    ObjectNode o = F.objectNode();
    for (int i = 0; i < m.keys().size(); i++) {
      o.set(SqlValue.display(m.keys().get(i)), value(m.values().get(i)));
    }
    return o;
  }
}
