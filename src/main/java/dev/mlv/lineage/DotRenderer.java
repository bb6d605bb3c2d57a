package dev.mlv.lineage;

import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Graphviz DOT: one cluster per lakehouse with a nested cluster per schema; views are rounded
 * boxes, tables cylinders, file folders folder shapes.
 */
public final class DotRenderer implements LineageRenderer {

  @Override
  public String render(LineageGraph graph, Set<ObjectId> selection, NameResolver names) {
    SortedMap<String, SortedMap<String, java.util.List<Node>>> byLakehouse = new TreeMap<>();
    for (Node n : graph.nodes().values()) {
      if (selection.contains(n.id())) {
        byLakehouse
            .computeIfAbsent(n.id().workspace() + "." + n.id().lakehouse(), k -> new TreeMap<>())
            .computeIfAbsent(n.id().schema(), k -> new java.util.ArrayList<>())
            .add(n);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("digraph lineage {\n");
    sb.append("  rankdir=LR;\n");
    sb.append("  node [fontname=\"Helvetica\", fontsize=11];\n");
    sb.append("  edge [color=\"#555555\"];\n");
    int cluster = 0;
    for (var lh : byLakehouse.entrySet()) {
      sb.append("  subgraph cluster_").append(cluster++).append(" {\n");
      sb.append("    label=").append(label("lakehouse " + lh.getKey())).append(";\n");
      sb.append("    style=rounded; color=\"#888888\";\n");
      for (var schema : lh.getValue().entrySet()) {
        sb.append("    subgraph cluster_").append(cluster++).append(" {\n");
        sb.append("      label=").append(label(schema.getKey())).append(";\n");
        sb.append("      style=dashed; color=\"#bbbbbb\";\n");
        for (Node n : schema.getValue()) {
          sb.append("      ")
              .append(label(n.id().toString()))
              .append(" [label=")
              .append(label(n.id().name()))
              .append(", ")
              .append(style(n.kind()))
              .append("];\n");
        }
        sb.append("    }\n");
      }
      sb.append("  }\n");
    }
    for (Edge e : graph.edges()) {
      if (selection.contains(e.from()) && selection.contains(e.to())) {
        sb.append("  ")
            .append(label(e.from().toString()))
            .append(" -> ")
            .append(label(e.to().toString()))
            .append(";\n");
      }
    }
    sb.append("}\n");
    return sb.toString();
  }

  private static String style(NodeKind kind) {
    return switch (kind) {
      case VIEW -> "shape=box, style=\"rounded,filled\", fillcolor=\"#d6e9ff\"";
      case PYSPARK_VIEW -> "shape=box, style=\"rounded,filled,bold\", fillcolor=\"#e2f0d9\"";
      case TABLE -> "shape=cylinder, style=filled, fillcolor=\"#eeeeee\"";
      case FILES -> "shape=folder, style=filled, fillcolor=\"#fff2cc\"";
    };
  }

  /**
   * A label or node id as a quoted string. Graphviz decodes HTML entities in both (a node's id is
   * the tooltip of its SVG shape), so {@code &} is written {@code &amp;}: a name holding {@code
   * &lt;} shows as written, not as {@code <} (found by QA). Ids stay distinct: the escape is one to
   * one.
   */
  static String label(String s) {
    return quote(s.replace("&", "&amp;"));
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
