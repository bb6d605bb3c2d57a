package dev.mlv.pyspark;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a definition file into its cells: the code cells of a Jupyter notebook, or the cells of a
 * .py file marked the way notebook tools export them ({@code # %%}, Fabric's {@code # CELL ****},
 * Databricks' {@code # COMMAND ----}). Markdown cells are left out.
 */
final class Cells {
  private static final Pattern CODE_MARKER =
      Pattern.compile("^#\\s*(?:%%(?!\\s*\\[markdown\\]).*|CELL \\*+.*|COMMAND -{4,}.*)$");
  private static final Pattern MARKDOWN_MARKER =
      Pattern.compile("^#\\s*(?:%%\\s*\\[markdown\\].*|MARKDOWN \\*+.*|METADATA \\*+.*)$");

  private Cells() {}

  /** The cells, or an error diagnostic when a notebook is not valid JSON. */
  record Split(List<Cell> cells, List<Diagnostic> diagnostics) {}

  static Split of(Path file, String text) {
    if (file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".ipynb")) {
      return notebook(file, text);
    }
    return new Split(python(file, text), List.of());
  }

  private static List<Cell> python(Path file, String text) {
    String[] lines = text.split("\r?\n", -1);
    boolean marked = false;
    for (String l : lines) {
      if (CODE_MARKER.matcher(l.strip()).matches()
          || MARKDOWN_MARKER.matcher(l.strip()).matches()) {
        marked = true;
        break;
      }
    }
    List<Cell> cells = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    List<Position> starts = new ArrayList<>();
    boolean code = true;
    for (int i = 0; i < lines.length; i++) {
      String stripped = lines[i].strip();
      boolean codeMarker = marked && CODE_MARKER.matcher(stripped).matches();
      boolean mdMarker = marked && MARKDOWN_MARKER.matcher(stripped).matches();
      if (codeMarker || mdMarker) {
        flush(cells, cur, starts, code, marked);
        code = codeMarker;
        continue;
      }
      cur.append(lines[i]).append('\n');
      starts.add(new Position(file, i + 1, 1));
    }
    flush(cells, cur, starts, code, marked);
    return cells;
  }

  private static void flush(
      List<Cell> cells, StringBuilder cur, List<Position> starts, boolean code, boolean explicit) {
    if (code && !cur.toString().isBlank()) {
      cells.add(new Cell(cells.size(), unmagic(cur.toString()), starts, explicit));
    }
    cur.setLength(0);
    starts.clear();
  }

  /** Cells exported with every line behind {@code # MAGIC } hold the magic cell itself. */
  private static String unmagic(String text) {
    String[] lines = text.split("\n", -1);
    boolean all = true;
    boolean any = false;
    for (String l : lines) {
      if (l.isBlank()) {
        continue;
      }
      any = true;
      if (!l.startsWith("# MAGIC")) {
        all = false;
      }
    }
    if (!any || !all) {
      return text;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      // Same length as before, so that columns keep pointing into the file.
      sb.append(l.startsWith("# MAGIC ") ? "        " + l.substring(8) : l.replace("# MAGIC", ""));
      if (i < lines.length - 1) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static Split notebook(Path file, String text) {
    List<Cell> cells = new ArrayList<>();
    boolean sawCells = false;
    try (JsonParser p = new JsonFactory().createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return invalid(
            file, at(file, p.currentTokenLocation()), "a notebook must be a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if (field.equals("cells")) {
          if (t != JsonToken.START_ARRAY) {
            return invalid(
                file, at(file, p.currentTokenLocation()), "\"cells\" must be a list of cells");
          }
          sawCells = true;
          while (p.nextToken() == JsonToken.START_OBJECT) {
            readCell(file, p, cells);
          }
        } else {
          p.skipChildren();
        }
      }
      if (!sawCells) {
        // A notebook without "cells" is some other JSON file given a .ipynb name.
        return invalid(file, Position.start(file), "it has no \"cells\" list");
      }
    } catch (JsonProcessingException e) {
      return invalid(
          file, dev.mlv.diag.JsonProblem.position(file, e), dev.mlv.diag.JsonProblem.reason(e));
    } catch (IOException e) {
      return invalid(file, Position.start(file), e.getMessage());
    }
    return new Split(cells, List.of());
  }

  private static void readCell(Path file, JsonParser p, List<Cell> cells) throws IOException {
    String type = "";
    StringBuilder text = new StringBuilder();
    List<Position> starts = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      if (field.equals("cell_type") && t == JsonToken.VALUE_STRING) {
        type = p.getText();
      } else if (field.equals("source") && t == JsonToken.START_ARRAY) {
        while (p.nextToken() == JsonToken.VALUE_STRING) {
          JsonLocation loc = p.currentTokenLocation();
          appendLines(file, p.getText(), loc, text, starts);
        }
      } else if (field.equals("source") && t == JsonToken.VALUE_STRING) {
        appendLines(file, p.getText(), p.currentTokenLocation(), text, starts);
      } else {
        p.skipChildren();
      }
    }
    if (type.equals("code") && !text.toString().isBlank()) {
      cells.add(new Cell(cells.size(), text.toString(), starts, true));
    }
  }

  /**
   * nbformat keeps one line per array element, so each line of the cell maps to the JSON line of
   * its string, one column past the opening quote.
   */
  private static void appendLines(
      Path file, String s, JsonLocation loc, StringBuilder text, List<Position> starts) {
    int line = loc.getLineNr();
    int col = loc.getColumnNr() + 1;
    boolean open = text.length() > 0 && text.charAt(text.length() - 1) != '\n';
    int from = 0;
    while (from <= s.length()) {
      int nl = s.indexOf('\n', from);
      String part = nl < 0 ? s.substring(from) : s.substring(from, nl + 1);
      if (part.isEmpty()) {
        break;
      }
      if (!open) {
        starts.add(new Position(file, line, col));
      }
      open = false;
      text.append(part);
      if (nl < 0) {
        break;
      }
      from = nl + 1;
    }
  }

  /** The start of the token Jackson read last, where a wrong one is reported. */
  private static Position at(Path file, JsonLocation loc) {
    return new Position(file, Math.max(1, loc.getLineNr()), Math.max(1, loc.getColumnNr()));
  }

  private static Split invalid(Path file, Position at, String message) {
    return new Split(
        List.of(),
        List.of(
            Diagnostic.error(
                "NOTEBOOK_JSON",
                at,
                "the notebook is not valid JSON: " + message,
                "open and save it again in Jupyter or Fabric, or export it as a .py file")));
  }
}
