package dev.mlv.lineage;

import java.util.List;
import java.util.Set;
import java.util.SortedSet;

/**
 * The layers in refresh order: what runs first, what can run side by side. A selection shows its
 * views in the layers of the whole graph, each with everything it reads, selected or not. Names are
 * written as selectors take them, so one can be pasted back.
 */
public final class TextRenderer implements LineageRenderer {
  /** "table" and "view" and a space at least: the width outputs had before PySpark views. */
  private static final int KIND_COLUMN = 6;

  @Override
  public String render(LineageGraph graph, Set<ObjectId> selection, NameResolver names) {
    StringBuilder sb = new StringBuilder();
    // The kind column is as wide as the longest kind shown, so a "pyspark" row lines up with
    // the others, and output without one keeps its six columns.
    int width =
        Math.max(
            KIND_COLUMN,
            selection.stream()
                    .filter(graph.nodes()::containsKey)
                    .mapToInt(id -> graph.node(id).kind().label().length())
                    .max()
                    .orElse(0)
                + 1);
    List<SortedSet<ObjectId>> layers = graph.layers();
    for (int i = 0; i < layers.size(); i++) {
      List<ObjectId> ids = layers.get(i).stream().filter(selection::contains).toList();
      if (ids.isEmpty()) {
        continue;
      }
      sb.append("layer ").append(i).append('\n');
      for (ObjectId id : ids) {
        Node n = graph.node(id);
        String loc = LineageRenderer.location(n);
        sb.append("  ").append(padded(n.kind().label(), width)).append(names.display(id));
        if (!loc.isEmpty()) {
          sb.append("  (").append(loc).append(')');
        }
        var ups = graph.upstream(id).stream().map(names::display).toList();
        if (!ups.isEmpty()) {
          sb.append("  <- ").append(String.join(", ", ups));
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static String padded(String label, int width) {
    return label + " ".repeat(width - label.length());
  }
}
