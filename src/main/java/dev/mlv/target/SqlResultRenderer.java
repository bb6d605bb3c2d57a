package dev.mlv.target;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.jline.utils.WCWidth;

/** Prints SQL results as an aligned table, CSV (RFC 4180) or JSON lines of objects. */
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
            + "-".repeat(head.length())
            + "\n"
            + value.stripTrailing()
            + "\n(1 row)\n";
      }
    }
    int[] w = new int[r.columns().size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = width(r.columns().get(i));
      for (List<String> row : r.rows()) {
        w[i] = Math.max(w[i], width(show(row.get(i))));
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, r.columns(), w);
    for (int i = 0; i < w.length; i++) {
      sb.append(i == 0 ? "" : "-+-").append("-".repeat(w[i]));
    }
    sb.append('\n');
    for (List<String> row : r.rows()) {
      line(sb, row, w);
    }
    sb.append('(').append(r.rows().size()).append(r.rows().size() == 1 ? " row)\n" : " rows)\n");
    return sb.toString();
  }

  private static void line(StringBuilder sb, List<String> cells, int[] w) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < w.length; i++) {
      String cell = show(cells.get(i));
      l.append(i == 0 ? "" : " | ").append(cell).append(" ".repeat(w[i] - width(cell)));
    }
    sb.append(l.toString().stripTrailing()).append('\n');
  }

  /**
   * Columns a terminal gives the text: CJK and other wide characters take two, combining marks
   * (Arabic vowel signs, accents written apart) none, so cells line up whatever the script.
   */
  static int width(String text) {
    return text.codePoints().map(cp -> Math.max(0, WCWidth.wcwidth(cp))).sum();
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

  private static String csvCell(String v) {
    if (v == null) {
      return "";
    }
    return v.matches("[^,\"\r\n]*") ? v : "\"" + v.replace("\"", "\"\"") + "\"";
  }

  private static String json(SqlResult r) {
    ArrayNode arr = JSON.createArrayNode();
    for (List<String> row : r.rows()) {
      ObjectNode o = arr.addObject();
      for (int i = 0; i < r.columns().size(); i++) {
        o.put(r.columns().get(i), row.get(i));
      }
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(arr) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }
}
