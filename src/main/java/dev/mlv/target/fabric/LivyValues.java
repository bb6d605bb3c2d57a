package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.mlv.target.SqlValue;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Livy's JSON values as {@link SqlValue}s, read by the column type in the result's schema (Spark's
 * JSON form of a {@code DataType}), so {@code mlv sql} on Fabric prints what it prints locally. A
 * value in a shape this does not expect is kept as its JSON text rather than refused.
 */
final class LivyValues {
  private LivyValues() {}

  static SqlValue of(JsonNode v, JsonNode type) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return null;
    }
    String kind = typeName(type);
    return switch (kind) {
      case "array" -> array(v, type.path("elementType"));
      case "struct" -> struct(v, type.path("fields"));
      case "map" -> map(v, type.path("keyType"), type.path("valueType"));
      case "binary" -> binary(v);
      case "boolean" -> v.isBoolean() ? new SqlValue.Bool(v.booleanValue()) : bool(v.asText());
      case "float", "double" -> v.isNumber() ? new SqlValue.Real(v.doubleValue()) : real(v);
      case "byte", "short", "integer", "long" -> exact(v);
      case "date", "timestamp", "timestamp_ntz" ->
          v.isNumber()
              ? new SqlValue.Temporal(Instant.ofEpochMilli(v.longValue()).toString())
              : new SqlValue.Temporal(v.asText().replace(' ', 'T'));
      default -> kind.startsWith("decimal") ? exact(v) : text(v);
    };
  }

  /** The Spark type name of a field of Livy's JSON schema: integer, decimal(10,2), array, ... */
  static String typeName(JsonNode type) {
    return (type.isObject() ? type.path("type").asText() : type.asText()).toLowerCase(Locale.ROOT);
  }

  private static SqlValue text(JsonNode v) {
    return new SqlValue.Text(v.isValueNode() ? v.asText() : v.toString());
  }

  /** NaN and the infinities come as text, JSON having no such numbers. */
  private static SqlValue real(JsonNode v) {
    try {
      return new SqlValue.Real(Double.parseDouble(v.asText()));
    } catch (NumberFormatException e) {
      return text(v);
    }
  }

  private static SqlValue bool(String text) {
    return text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")
        ? new SqlValue.Bool(Boolean.parseBoolean(text))
        : new SqlValue.Text(text);
  }

  private static SqlValue exact(JsonNode v) {
    if (v.isNumber()) {
      return new SqlValue.Exact(v.decimalValue());
    }
    try {
      return new SqlValue.Exact(new BigDecimal(v.asText()));
    } catch (NumberFormatException e) {
      return text(v);
    }
  }

  /** Spark's JSON writes binary as base64; a list of byte values is read too. */
  private static SqlValue binary(JsonNode v) {
    if (v.isArray()) {
      byte[] bytes = new byte[v.size()];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) v.get(i).intValue();
      }
      return new SqlValue.Bytes(bytes);
    }
    try {
      return new SqlValue.Bytes(Base64.getDecoder().decode(v.asText()));
    } catch (IllegalArgumentException e) {
      return text(v);
    }
  }

  private static SqlValue array(JsonNode v, JsonNode elementType) {
    if (!v.isArray()) {
      return text(v);
    }
    List<SqlValue> items = new ArrayList<>();
    v.forEach(item -> items.add(of(item, elementType)));
    return new SqlValue.Array(items);
  }

  /** A struct comes as an object keyed by field name or as the list of its values. */
  private static SqlValue struct(JsonNode v, JsonNode fields) {
    if (!v.isObject() && !v.isArray()) {
      return text(v);
    }
    List<String> names = new ArrayList<>();
    List<SqlValue> values = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      String name = fields.get(i).path("name").asText();
      names.add(name);
      values.add(of(v.isObject() ? v.get(name) : v.get(i), fields.get(i).path("type")));
    }
    return new SqlValue.Struct(names, values);
  }

  /** A map comes as an object (its keys written as text) or as a list of key-value pairs. */
  private static SqlValue map(JsonNode v, JsonNode keyType, JsonNode valueType) {
    List<SqlValue> keys = new ArrayList<>();
    List<SqlValue> values = new ArrayList<>();
    if (v.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        keys.add(of(TextNode.valueOf(e.getKey()), keyType));
        values.add(of(e.getValue(), valueType));
      }
    } else if (v.isArray()) {
      for (JsonNode e : v) {
        keys.add(of(e.isArray() ? e.get(0) : e.get("key"), keyType));
        values.add(of(e.isArray() ? e.get(1) : e.get("value"), valueType));
      }
    } else {
      return text(v);
    }
    return new SqlValue.MapValue(keys, values);
  }
}
