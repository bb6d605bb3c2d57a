package dev.mlv.lineage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The dependency graph of a project: views, the tables and folders they read, and an edge from each
 * upstream to each reader. Immutable; every listing is sorted so output is deterministic.
 */
public final class LineageGraph {
  private final SortedMap<ObjectId, Node> nodes;
  private final List<Edge> edges;
  private final Map<ObjectId, SortedSet<ObjectId>> up = new HashMap<>();
  private final Map<ObjectId, SortedSet<ObjectId>> down = new HashMap<>();

  public LineageGraph(Map<ObjectId, Node> nodes, List<Edge> edges) {
    this.nodes = Collections.unmodifiableSortedMap(new TreeMap<>(nodes));
    List<Edge> sorted = new ArrayList<>(edges);
    sorted.sort(Comparator.comparing(Edge::to).thenComparing(Edge::from));
    this.edges = List.copyOf(sorted);
    for (ObjectId id : this.nodes.keySet()) {
      up.put(id, new TreeSet<>());
      down.put(id, new TreeSet<>());
    }
    for (Edge e : this.edges) {
      if (!this.nodes.containsKey(e.from()) || !this.nodes.containsKey(e.to())) {
        throw new IllegalArgumentException("edge with an unknown node: " + e);
      }
      up.get(e.to()).add(e.from());
      down.get(e.from()).add(e.to());
    }
  }

  public SortedMap<ObjectId, Node> nodes() {
    return nodes;
  }

  public List<Edge> edges() {
    return edges;
  }

  public Node node(ObjectId id) {
    return nodes.get(id);
  }

  public List<Node> views() {
    return nodes.values().stream().filter(Node::isView).toList();
  }

  /** Direct upstream nodes of {@code id}. */
  public SortedSet<ObjectId> upstream(ObjectId id) {
    return Collections.unmodifiableSortedSet(up.getOrDefault(id, new TreeSet<>()));
  }

  /** Direct downstream nodes of {@code id}. */
  public SortedSet<ObjectId> downstream(ObjectId id) {
    return Collections.unmodifiableSortedSet(down.getOrDefault(id, new TreeSet<>()));
  }

  public SortedSet<ObjectId> ancestors(ObjectId id) {
    return closure(id, up);
  }

  public SortedSet<ObjectId> descendants(ObjectId id) {
    return closure(id, down);
  }

  private static SortedSet<ObjectId> closure(ObjectId id, Map<ObjectId, SortedSet<ObjectId>> adj) {
    SortedSet<ObjectId> seen = new TreeSet<>();
    List<ObjectId> stack = new ArrayList<>(adj.getOrDefault(id, new TreeSet<>()));
    while (!stack.isEmpty()) {
      ObjectId n = stack.remove(stack.size() - 1);
      if (seen.add(n)) {
        stack.addAll(adj.getOrDefault(n, new TreeSet<>()));
      }
    }
    return seen;
  }

  /**
   * The nodes in refresh order, grouped in layers: layer 0 reads nothing in the graph, layer n
   * reads only layers below n. Nodes on a cycle are left out (see {@link #cycles()}).
   */
  public List<SortedSet<ObjectId>> layers() {
    Map<ObjectId, Integer> indegree = new HashMap<>();
    for (ObjectId id : nodes.keySet()) {
      indegree.put(id, up.get(id).size());
    }
    List<SortedSet<ObjectId>> layers = new ArrayList<>();
    SortedSet<ObjectId> current = new TreeSet<>();
    indegree.forEach(
        (id, d) -> {
          if (d == 0) {
            current.add(id);
          }
        });
    SortedSet<ObjectId> layer = current;
    while (!layer.isEmpty()) {
      layers.add(Collections.unmodifiableSortedSet(layer));
      SortedSet<ObjectId> next = new TreeSet<>();
      for (ObjectId id : layer) {
        for (ObjectId d : down.get(id)) {
          if (indegree.merge(d, -1, Integer::sum) == 0) {
            next.add(d);
          }
        }
      }
      layer = next;
    }
    return List.copyOf(layers);
  }

  /** Every node's layer number, for nodes not on a cycle. */
  public Map<ObjectId, Integer> layerOf() {
    Map<ObjectId, Integer> out = new HashMap<>();
    List<SortedSet<ObjectId>> layers = layers();
    for (int i = 0; i < layers.size(); i++) {
      for (ObjectId id : layers.get(i)) {
        out.put(id, i);
      }
    }
    return out;
  }

  /**
   * The cycles of the graph, each as the list of edges that close it, found with Tarjan's strongly
   * connected components and reported once per component, starting at its smallest id.
   */
  public List<List<Edge>> cycles() {
    List<List<Edge>> out = new ArrayList<>();
    for (SortedSet<ObjectId> scc : stronglyConnected()) {
      boolean selfLoop = scc.size() == 1 && up.get(scc.first()).contains(scc.first());
      if (scc.size() < 2 && !selfLoop) {
        continue;
      }
      out.add(cyclePath(scc));
    }
    return out;
  }

  private List<Edge> cyclePath(SortedSet<ObjectId> scc) {
    // Walk from the smallest node along the smallest next member until we return to a seen node.
    ObjectId start = scc.first();
    List<ObjectId> path = new ArrayList<>();
    Set<ObjectId> seen = new LinkedHashSet<>();
    ObjectId cur = start;
    while (seen.add(cur)) {
      path.add(cur);
      ObjectId next = null;
      for (ObjectId d : down.get(cur)) {
        if (scc.contains(d)) {
          next = d;
          break;
        }
      }
      cur = next;
    }
    int from = path.indexOf(cur);
    List<ObjectId> loop = new ArrayList<>(path.subList(from, path.size()));
    loop.add(cur);
    List<Edge> result = new ArrayList<>();
    for (int i = 0; i + 1 < loop.size(); i++) {
      ObjectId a = loop.get(i);
      ObjectId b = loop.get(i + 1);
      edges.stream()
          .filter(e -> e.from().equals(a) && e.to().equals(b))
          .findFirst()
          .ifPresent(result::add);
    }
    return result;
  }

  private List<SortedSet<ObjectId>> stronglyConnected() {
    // Iterative Tarjan, so 10,000-deep chains cannot overflow the stack.
    Map<ObjectId, Integer> index = new HashMap<>();
    Map<ObjectId, Integer> low = new HashMap<>();
    List<ObjectId> stack = new ArrayList<>();
    Set<ObjectId> onStack = new java.util.HashSet<>();
    List<SortedSet<ObjectId>> result = new ArrayList<>();
    int counter = 0;
    for (ObjectId root : nodes.keySet()) {
      if (index.containsKey(root)) {
        continue;
      }
      List<Object[]> work = new ArrayList<>();
      work.add(new Object[] {root, new ArrayList<>(down.get(root)).iterator()});
      index.put(root, counter);
      low.put(root, counter);
      counter++;
      stack.add(root);
      onStack.add(root);
      while (!work.isEmpty()) {
        Object[] frame = work.get(work.size() - 1);
        ObjectId v = (ObjectId) frame[0];
        @SuppressWarnings("unchecked")
        java.util.Iterator<ObjectId> it = (java.util.Iterator<ObjectId>) frame[1];
        if (it.hasNext()) {
          ObjectId w = it.next();
          if (!index.containsKey(w)) {
            index.put(w, counter);
            low.put(w, counter);
            counter++;
            stack.add(w);
            onStack.add(w);
            work.add(new Object[] {w, new ArrayList<>(down.get(w)).iterator()});
          } else if (onStack.contains(w)) {
            low.put(v, Math.min(low.get(v), index.get(w)));
          }
        } else {
          work.remove(work.size() - 1);
          if (!work.isEmpty()) {
            ObjectId parent = (ObjectId) work.get(work.size() - 1)[0];
            low.put(parent, Math.min(low.get(parent), low.get(v)));
          }
          if (low.get(v).equals(index.get(v))) {
            SortedSet<ObjectId> scc = new TreeSet<>();
            ObjectId w;
            do {
              w = stack.remove(stack.size() - 1);
              onStack.remove(w);
              scc.add(w);
            } while (!w.equals(v));
            result.add(scc);
          }
        }
      }
    }
    result.sort(Comparator.comparing(SortedSet::first));
    return result;
  }
}
