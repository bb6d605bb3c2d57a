package dev.mlv.lineage;

import java.util.Set;

/** Turns (a selection of) the lineage into text; every renderer is deterministic. */
public interface LineageRenderer {

  /** Renders the subgraph induced by {@code selection}. */
  String render(LineageGraph graph, Set<ObjectId> selection, NameResolver names);

  static LineageRenderer forFormat(String format) {
    return switch (format) {
      case "dot" -> new DotRenderer();
      case "mermaid" -> new MermaidRenderer();
      case "json" -> new JsonRenderer();
      case "text" -> new TextRenderer();
      case "names" -> new NamesRenderer();
      default -> throw new IllegalArgumentException("unknown lineage format: " + format);
    };
  }

  static String location(Node n) {
    return n.position() == null || n.position().file() == null
        ? ""
        : n.position().file().toString().replace('\\', '/') + ":" + n.position().line();
  }
}
