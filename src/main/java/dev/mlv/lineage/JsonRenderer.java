package dev.mlv.lineage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * The versioned machine form: {@code {"formatVersion":1,"nodes":[...],"edges":[{"from","to"}]}},
 * {@code from} being the upstream id. Each node's {@code layer} is its place in refresh order, as
 * in the text form (0: read by views, written by none of them); null when the graph has a cycle.
 */
public final class JsonRenderer implements LineageRenderer {
  public static final int FORMAT_VERSION = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Override
  public String render(LineageGraph graph, Set<ObjectId> selection, NameResolver names) {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    ArrayNode nodes = root.putArray("nodes");
    java.util.Map<ObjectId, Integer> layerOf = new java.util.HashMap<>();
    java.util.List<java.util.SortedSet<ObjectId>> layers = graph.layers();
    for (int i = 0; i < layers.size(); i++) {
      for (ObjectId id : layers.get(i)) {
        layerOf.put(id, i);
      }
    }
    for (Node n : graph.nodes().values()) {
      if (!selection.contains(n.id())) {
        continue;
      }
      ObjectNode o = nodes.addObject();
      o.put("id", n.id().toString());
      o.put("workspace", n.id().workspace());
      o.put("lakehouse", n.id().lakehouse());
      o.put("schema", n.id().schema());
      o.put("name", n.id().name());
      o.put("kind", n.kind().label());
      Integer layer = layerOf.get(n.id());
      if (layer == null) {
        o.putNull("layer");
      } else {
        o.put("layer", layer);
      }
      if (n.position() != null && n.position().file() != null) {
        o.put("file", n.position().file().toString().replace('\\', '/'));
        o.put("line", n.position().line());
      } else {
        o.putNull("file");
        o.putNull("line");
      }
    }
    ArrayNode edges = root.putArray("edges");
    for (Edge e : graph.edges()) {
      if (selection.contains(e.from()) && selection.contains(e.to())) {
        ObjectNode o = edges.addObject();
        o.put("from", e.from().toString());
        o.put("to", e.to().toString());
      }
    }
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }
}
