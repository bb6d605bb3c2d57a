package dev.mlv.lineage;

import dev.mlv.diag.MlvException;
import dev.mlv.sql.Name;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Picks nodes of the lineage with the selector language every view-taking command shares: {@code
 * name}, {@code +name} (with ancestors), {@code name+} (with descendants), {@code +name+}, {@code
 * schema:silver}, {@code lakehouse:lh}, {@code tag:x}; several selectors select their union. No
 * selector selects everything.
 */
public final class Selection {
  private Selection() {}

  public static SortedSet<ObjectId> select(
      LineageGraph graph, NameResolver resolver, List<String> selectors) {
    if (selectors == null || selectors.isEmpty()) {
      return Collections.unmodifiableSortedSet(new TreeSet<>(graph.nodes().keySet()));
    }
    SortedSet<ObjectId> out = new TreeSet<>();
    for (String raw : selectors) {
      if (raw.isBlank()) {
        // An unset shell variable ("mlv refresh $VIEWS") must not select nothing and succeed.
        throw new MlvException(
            "SELECTOR", "empty selector: name a view, or leave the selector out to select all");
      }
      for (String s : raw.split(",")) {
        if (!s.isBlank()) {
          out.addAll(selectOne(graph, resolver, s.strip()));
        }
      }
    }
    return Collections.unmodifiableSortedSet(out);
  }

  /** Only the views of a selection, in id order. */
  public static SortedSet<ObjectId> views(LineageGraph graph, SortedSet<ObjectId> selection) {
    SortedSet<ObjectId> out = new TreeSet<>();
    for (ObjectId id : selection) {
      if (graph.node(id) != null && graph.node(id).isView()) {
        out.add(id);
      }
    }
    return out;
  }

  private static SortedSet<ObjectId> selectOne(
      LineageGraph graph, NameResolver resolver, String selector) {
    int colon = selector.indexOf(':');
    if (colon > 0) {
      String method = selector.substring(0, colon).toLowerCase(Locale.ROOT);
      String value = selector.substring(colon + 1).toLowerCase(Locale.ROOT);
      SortedSet<ObjectId> out = new TreeSet<>();
      for (Node n : graph.nodes().values()) {
        boolean match =
            switch (method) {
              case "schema" -> n.id().schema().equals(value);
              case "lakehouse" -> n.id().lakehouse().equals(value);
              case "workspace" -> n.id().workspace().equals(value);
              case "tag" -> n.tags().contains(value);
              default ->
                  throw new MlvException(
                      "SELECTOR",
                      "unknown selector method '"
                          + method
                          + ":' in '"
                          + selector
                          + "'; use schema:, lakehouse:, workspace: or tag:");
            };
        if (match) {
          out.add(n.id());
        }
      }
      if (out.isEmpty()) {
        throw new MlvException("SELECTOR", "selector '" + selector + "' matches nothing");
      }
      return out;
    }
    boolean withAncestors = selector.startsWith("+");
    boolean withDescendants = selector.endsWith("+");
    int from = withAncestors ? 1 : 0;
    int to = selector.length() - (withDescendants ? 1 : 0);
    String name = from < to ? selector.substring(from, to) : "";
    if (name.isEmpty()) {
      throw new MlvException("SELECTOR", "empty name in selector '" + selector + "'");
    }
    ObjectId id = resolve(graph, resolver, name);
    SortedSet<ObjectId> out = new TreeSet<>();
    out.add(id);
    if (withAncestors) {
      out.addAll(graph.ancestors(id));
    }
    if (withDescendants) {
      out.addAll(graph.descendants(id));
    }
    return out;
  }

  private static ObjectId resolve(LineageGraph graph, NameResolver resolver, String name) {
    Name n;
    try {
      n = Name.of(name.replace("`", ""));
      if (n.parts().size() > 4 || n.parts().stream().anyMatch(String::isEmpty)) {
        throw new IllegalArgumentException();
      }
    } catch (IllegalArgumentException e) {
      throw new MlvException("SELECTOR", "'" + name + "' is not a view name (1 to 4 dotted parts)");
    }
    ObjectId id = resolver.resolve(n);
    if (graph.node(id) != null) {
      return id;
    }
    // A bare name may be unique across schemas: accept it, as users type `trials_clean`.
    if (n.parts().size() == 1) {
      List<ObjectId> matches = new ArrayList<>();
      for (ObjectId candidate : graph.nodes().keySet()) {
        if (candidate.name().equals(n.parts().get(0))) {
          matches.add(candidate);
        }
      }
      if (matches.size() == 1) {
        return matches.get(0);
      }
      if (matches.size() > 1) {
        throw new MlvException(
            "SELECTOR",
            "'"
                + name
                + "' is ambiguous: "
                + matches.stream().map(resolver::display).toList()
                + "; qualify it with its schema");
      }
    }
    String hint = nearest(graph, resolver, resolver.display(id));
    throw new MlvException(
        "SELECTOR",
        "no view or table named '"
            + name
            + "' in the lineage"
            + (hint == null ? "" : "; did you mean '" + hint + "'?"));
  }

  private static String nearest(LineageGraph graph, NameResolver resolver, String wanted) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (ObjectId id : graph.nodes().keySet()) {
      String candidate = resolver.display(id);
      int d = editDistance(wanted, candidate);
      if (d < bestDistance) {
        bestDistance = d;
        best = candidate;
      }
    }
    return bestDistance <= Math.max(2, wanted.length() / 3) ? best : null;
  }

  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
