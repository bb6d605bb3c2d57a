package dev.mlv.target.fabric;

import dev.mlv.pyspark.NotebookCells;
import java.util.List;
import java.util.UUID;

/**
 * Writes a definition file's cells in Fabric's notebook source format ({@code notebook-content.py},
 * what Fabric's git integration and the definition API use for PySpark notebooks): a header {@code
 * # METADATA} block naming the kernel and the default lakehouse, then each cell after a {@code #
 * CELL} marker with its own metadata block. Magic cells are written behind {@code # MAGIC} as
 * Fabric does, {@code %%sql} ones in the Spark SQL language.
 */
final class NotebookContent {
  static final String PART = "notebook-content.py";
  private static final String MARK = " ********************";

  private NotebookContent() {}

  static String python(List<String> cells, UUID workspace, UUID lakehouse, String lakehouseName) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Fabric notebook source\n\n");
    sb.append("# METADATA").append(MARK).append("\n\n");
    meta(
        sb,
        "{\n"
            + "  \"kernel_info\": {\n"
            + "    \"name\": \"synapse_pyspark\"\n"
            + "  },\n"
            + "  \"dependencies\": {\n"
            + "    \"lakehouse\": {\n"
            + "      \"default_lakehouse\": \""
            + lakehouse
            + "\",\n"
            + "      \"default_lakehouse_name\": "
            + FabricHttp.JSON.getNodeFactory().textNode(lakehouseName)
            + ",\n"
            + "      \"default_lakehouse_workspace_id\": \""
            + workspace
            + "\"\n"
            + "    }\n"
            + "  }\n"
            + "}");
    for (String cell : cells) {
      sb.append("\n# CELL").append(MARK).append("\n\n");
      boolean magic = NotebookCells.isMagic(cell);
      String language = "python";
      String body = cell.endsWith("\n") ? cell.substring(0, cell.length() - 1) : cell;
      if (magic) {
        String first = body.strip().lines().findFirst().orElse("");
        language = first.startsWith("%%sql") ? "sparksql" : "python";
        for (String l : body.split("\n", -1)) {
          sb.append(l.isEmpty() ? "# MAGIC" : "# MAGIC " + l).append('\n');
        }
      } else {
        sb.append(body).append('\n');
      }
      sb.append("\n# METADATA").append(MARK).append("\n\n");
      meta(
          sb,
          "{\n  \"language\": \"" + language + "\",\n  \"language_group\": \"synapse_pyspark\"\n}");
    }
    return sb.toString();
  }

  private static void meta(StringBuilder sb, String json) {
    for (String l : json.split("\n")) {
      sb.append("# META ").append(l).append('\n');
    }
  }
}
