package dev.mlv.lineage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/** A Mermaid flowchart, one subgraph per lakehouse and schema, for Markdown pages and PRs. */
public final class MermaidRenderer implements LineageRenderer {

  @Override
  public String render(LineageGraph graph, Set<ObjectId> selection, NameResolver names) {
    // Mermaid ids must be plain words: number the nodes in id order, which is stable.
    Map<ObjectId, String> ids = new HashMap<>();
    SortedMap<String, List<Node>> groups = new TreeMap<>();
    int i = 0;
    for (Node n : graph.nodes().values()) {
      if (selection.contains(n.id())) {
        ids.put(n.id(), "n" + i++);
        groups
            .computeIfAbsent(
                n.id().workspace() + "." + n.id().lakehouse() + "." + n.id().schema(),
                k -> new ArrayList<>())
            .add(n);
      }
    }
    StringBuilder sb = new StringBuilder("flowchart LR\n");
    int g = 0;
    for (var group : groups.entrySet()) {
      sb.append("  subgraph g")
          .append(g++)
          .append("[\"")
          .append(escape(group.getKey()))
          .append("\"]\n");
      for (Node n : group.getValue()) {
        String label = escape(n.id().name());
        String id = ids.get(n.id());
        sb.append("    ")
            .append(
                switch (n.kind()) {
                  case VIEW -> id + "([\"" + label + "\"])";
                  case PYSPARK_VIEW -> id + "{{\"" + label + "\"}}";
                  case TABLE -> id + "[(\"" + label + "\")]";
                  case FILES -> id + "[/\"" + label + "\"/]";
                })
            .append('\n');
      }
      sb.append("  end\n");
    }
    for (Edge e : graph.edges()) {
      if (ids.containsKey(e.from()) && ids.containsKey(e.to())) {
        sb.append("  ")
            .append(ids.get(e.from()))
            .append(" --> ")
            .append(ids.get(e.to()))
            .append('\n');
      }
    }
    return sb.toString();
  }

  /**
   * Mermaid reads a quoted label as HTML and {@code #...;} as its entity codes: a name with {@code
   * <b>x</b>} would render bold, and {@code #quot;} written in a name would turn into a quote.
   */
  private static String escape(String s) {
    StringBuilder out = new StringBuilder();
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("#quot;");
        case '<' -> out.append("#lt;");
        case '>' -> out.append("#gt;");
        case '&' -> out.append("#amp;");
        case '#' -> out.append("#35;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
