package dev.mlv.target;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.lineage.DisplayWidth;
import java.util.Base64;
import java.util.List;

/** Prints SQL results as an aligned table, CSV (RFC 4180) or a JSON array of row objects. */
public final class SqlResultRenderer {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SqlResultRenderer() {}

  public static String render(SqlResult r, String format) {
    if (r.columns().isEmpty()) {
      return r.message() == null || r.message().isEmpty() ? "" : r.message() + "\n";
    }
    return switch (format) {
      case "csv" -> csv(r);
      case "json" -> json(r);
      default -> table(r);
    };
  }

  private static String table(SqlResult r) {
    if (r.rows().size() == 1 && r.columns().size() == 1) {
      String value = r.rows().get(0).get(0);
      if (value != null && value.contains("\n")) {
        // One multi-line value (SHOW CREATE TABLE): shown as written, not as one escaped line.
        String head = r.columns().get(0);
        return head
            + "\n"
            + "-".repeat(DisplayWidth.of(head))
            + "\n"
            + value.stripTrailing()
            + "\n(1 row)\n";
      }
    }
    int[] w = new int[r.columns().size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = DisplayWidth.of(r.columns().get(i));
      for (List<String> row : r.rows()) {
        w[i] = Math.max(w[i], DisplayWidth.of(show(row.get(i))));
      }
    }
    boolean[] right = new boolean[w.length];
    for (int i = 0; i < w.length; i++) {
      right[i] = isNumber(r.types().get(i));
    }
    StringBuilder sb = new StringBuilder();
    line(sb, r.columns(), w, right);
    for (int i = 0; i < w.length; i++) {
      sb.append(i == 0 ? "" : "-+-").append("-".repeat(w[i]));
    }
    sb.append('\n');
    for (List<String> row : r.rows()) {
      line(sb, row, w, right);
    }
    sb.append('(').append(r.rows().size()).append(r.rows().size() == 1 ? " row)\n" : " rows)\n");
    return sb.toString();
  }

  /** A row, numbers (and their column's name) right-aligned so digits line up, as psql does. */
  private static void line(StringBuilder sb, List<String> cells, int[] w, boolean[] right) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < w.length; i++) {
      String cell = show(cells.get(i));
      String pad = " ".repeat(w[i] - DisplayWidth.of(cell));
      l.append(i == 0 ? "" : " | ");
      if (right[i]) {
        l.append(pad).append(cell);
      } else {
        l.append(cell).append(pad);
      }
    }
    sb.append(l.toString().stripTrailing()).append('\n');
  }

  /** Spark's integral, decimal and floating-point types, by {@code DataType.typeName()}. */
  static boolean isNumber(String sparkType) {
    return switch (sparkType) {
      case "byte", "short", "integer", "long", "float", "double", "decimal" -> true;
      default -> sparkType.startsWith("decimal(");
    };
  }

  private static String show(String v) {
    return v == null ? "NULL" : v.replace("\n", "\\n");
  }

  private static String csv(SqlResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.join(",", r.columns().stream().map(SqlResultRenderer::csvCell).toList()))
        .append('\n');
    for (List<String> row : r.rows()) {
      sb.append(String.join(",", row.stream().map(SqlResultRenderer::csvCell).toList()))
          .append('\n');
    }
    return sb.toString();
  }

  /** NULL is an empty field and the empty string a quoted one, so a reader can tell them apart. */
  private static String csvCell(String v) {
    if (v == null) {
      return "";
    }
    return !v.isEmpty() && v.matches("[^,\"\r\n]*") ? v : "\"" + v.replace("\"", "\"\"") + "\"";
  }

  private static String json(SqlResult r) {
    return write(rows(r));
  }

  /**
   * The results of one run as one JSON document: one statement's array of row objects as {@link
   * #render} gives it, and for several statements an array with one such array per statement, in
   * order. A statement without a result set (an INSERT, a CREATE) is an empty array.
   */
  public static String json(List<SqlResult> results) {
    return json(results, results.size());
  }

  /**
   * As {@link #json(List)}, for a run of {@code statements} statements of which the first {@code
   * results} ran: the shape is that of the run, so a program reads the same document whether or not
   * a later statement failed.
   */
  public static String json(List<SqlResult> results, int statements) {
    if (statements == 1 && results.size() == 1) {
      return json(results.get(0));
    }
    ArrayNode all = JSON.createArrayNode();
    results.forEach(r -> all.add(rows(r)));
    return write(all);
  }

  /** The rows as JSON objects, each value as its JSON type: the array {@link #render} prints. */
  public static ArrayNode rows(SqlResult r) {
    ArrayNode arr = JSON.createArrayNode();
    for (List<SqlValue> row : r.values()) {
      ObjectNode o = arr.addObject();
      for (int i = 0; i < r.columns().size(); i++) {
        o.set(r.columns().get(i), json(row.get(i)));
      }
    }
    return arr;
  }

  private static String write(ArrayNode arr) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(arr) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }

  /**
   * A value as its JSON type: exact numbers without loss, NaN and the infinities as strings (JSON
   * has no such numbers), binary as base64, a map as an object when its keys are strings and as
   * {@code [{"key": k, "value": v}]} otherwise.
   */
  static JsonNode json(SqlValue v) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (v == null) {
      return f.nullNode();
    } else if (v instanceof SqlValue.Text t) {
      return f.textNode(t.value());
    } else if (v instanceof SqlValue.Exact e) {
      return e.value().scale() <= 0
          ? BigIntegerNode.valueOf(e.value().toBigIntegerExact())
          : DecimalNode.valueOf(e.value());
    } else if (v instanceof SqlValue.Real r) {
      return Double.isFinite(r.value())
          ? f.numberNode(r.value())
          : f.textNode(Double.toString(r.value()));
    } else if (v instanceof SqlValue.Bool b) {
      return f.booleanNode(b.value());
    } else if (v instanceof SqlValue.Bytes b) {
      return f.textNode(Base64.getEncoder().encodeToString(b.value()));
    } else if (v instanceof SqlValue.Temporal t) {
      return f.textNode(t.iso());
    } else if (v instanceof SqlValue.Array a) {
      ArrayNode arr = f.arrayNode();
      a.items().forEach(item -> arr.add(json(item)));
      return arr;
    } else if (v instanceof SqlValue.Struct s) {
      ObjectNode o = f.objectNode();
      for (int i = 0; i < s.names().size(); i++) {
        o.set(s.names().get(i), json(s.values().get(i)));
      }
      return o;
    }
    SqlValue.MapValue m = (SqlValue.MapValue) v;
    if (m.keys().stream().allMatch(k -> k instanceof SqlValue.Text)) {
      ObjectNode o = f.objectNode();
      for (int i = 0; i < m.keys().size(); i++) {
        o.set(((SqlValue.Text) m.keys().get(i)).value(), json(m.values().get(i)));
      }
      return o;
    }
    ArrayNode entries = f.arrayNode();
    for (int i = 0; i < m.keys().size(); i++) {
      ObjectNode e = entries.addObject();
      e.set("key", json(m.keys().get(i)));
      e.set("value", json(m.values().get(i)));
    }
    return entries;
  }
}
