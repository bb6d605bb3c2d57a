package dev.mlv.lineage;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.UsageException;
import dev.mlv.sql.Name;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Picks nodes of the lineage with the selector language every view-taking command shares: {@code
 * name}, {@code schema:silver}, {@code lakehouse:lh}, {@code workspace:ws}, {@code tag:x}, each
 * with {@code +} before it (and its ancestors) or after it (and its descendants); several
 * selectors, or one with commas, select their union. No selector selects everything.
 */
public final class Selection {
  private Selection() {}

  /** The selector syntax, as each command's help states it after what it selects. */
  public static final String SYNTAX =
      " A selector is a view or table name (schema.name, or a name unique in the project),"
          + " schema:S, lakehouse:L, workspace:W or tag:T; +X adds X's ancestors, X+ its"
          + " descendants; several selectors (or one with commas) select their union.";

  public static SortedSet<ObjectId> select(
      LineageGraph graph, NameResolver resolver, List<String> selectors) {
    if (selectors == null || selectors.isEmpty()) {
      return Collections.unmodifiableSortedSet(new TreeSet<>(graph.nodes().keySet()));
    }
    SortedSet<ObjectId> out = new TreeSet<>();
    for (String raw : selectors) {
      if (raw.isBlank()) {
        // An unset shell variable ("mlv refresh $VIEWS") must not select nothing and succeed.
        throw new UsageException(
            "SELECTOR", "empty selector: name a view, or leave the selector out to select all");
      }
      for (String s : outsideBackticks(raw)) {
        if (s.isBlank()) {
          throw new UsageException(
              "SELECTOR", "empty item in selector '" + raw + "': remove the extra comma");
        }
        out.addAll(selectOne(graph, resolver, s.strip()));
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

  /**
   * The {@code tag:} selectors that select some of {@code selection}, sorted: what completion
   * offers after {@code tag:}. A tag that is not a plain word is backticked, as selectors take it.
   */
  public static SortedSet<String> tagSelectors(LineageGraph graph, SortedSet<ObjectId> selection) {
    SortedSet<String> out = new TreeSet<>();
    for (ObjectId id : selection) {
      Node n = graph.node(id);
      if (n != null) {
        n.tags()
            .forEach(
                t ->
                    out.add(
                        "tag:" + (t.matches("[\\w-]+") ? t : "`" + t.replace("`", "``") + "`")));
      }
    }
    return out;
  }

  /**
   * The views {@code selectors} select, for a command that acts on views only ({@code verb}:
   * refresh, plan). Selectors that name only sources are refused rather than doing nothing and
   * succeeding: {@code refresh bronze.orders} most likely meant the views that read it. No selector
   * is the whole project, which may well have no view yet.
   */
  public static SortedSet<ObjectId> views(
      LineageGraph graph, NameResolver resolver, List<String> selectors, String verb) {
    SortedSet<ObjectId> selected = select(graph, resolver, selectors);
    SortedSet<ObjectId> views = views(graph, selected);
    if (!views.isEmpty() || selectors == null || selectors.isEmpty() || selected.isEmpty()) {
      return views;
    }
    List<String> names = selected.stream().limit(3).map(resolver::display).toList();
    boolean tables = selected.stream().allMatch(id -> graph.node(id).kind() == NodeKind.TABLE);
    String what =
        (tables ? "the source table" : "the source")
            + (selected.size() == 1 ? " " : "s ")
            + String.join(", ", names)
            + (selected.size() > names.size() ? ", ..." : "");
    List<String> widened =
        selectors.stream()
            .map(String::strip)
            .filter(s -> !s.endsWith("+"))
            .map(s -> "'" + s + "+'")
            .toList();
    String hint =
        widened.isEmpty()
            ? ", and no view reads " + (selected.size() == 1 ? "it" : "them")
            : "; "
                + String.join(" ", widened)
                + " selects the views that read "
                + (selected.size() == 1 ? "it" : "them");
    throw new MlvException(
        "NO_VIEW", "nothing to " + verb + ": the selection holds no view, only " + what + hint);
  }

  /** The comma-separated items of a selector; a comma between backticks belongs to a name. */
  private static List<String> outsideBackticks(String raw) {
    List<String> items = new ArrayList<>();
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '`') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        items.add(raw.substring(start, i));
        start = i + 1;
      }
    }
    items.add(raw.substring(start));
    return items;
  }

  private static SortedSet<ObjectId> selectOne(
      LineageGraph graph, NameResolver resolver, String selector) {
    // The graph operators apply to any selector: +name, name+, +tag:pii, schema:silver+.
    boolean withAncestors = selector.startsWith("+");
    boolean withDescendants = selector.endsWith("+") && selector.length() > 1;
    int from = withAncestors ? 1 : 0;
    int to = selector.length() - (withDescendants ? 1 : 0);
    String core = from < to ? selector.substring(from, to).strip() : "";
    if (core.isEmpty()) {
      throw new UsageException("SELECTOR", "empty name in selector '" + selector + "'");
    }
    if (core.startsWith("+") || core.endsWith("+")) {
      throw new UsageException(
          "SELECTOR", "selector '" + selector + "': '+' goes once before or after a name");
    }
    SortedSet<ObjectId> base = new TreeSet<>();
    // schema:x is a method; a colon in a backticked name (silver.`a:b`) is part of the name.
    int colon = core.indexOf(':');
    int backtick = core.indexOf('`');
    if (colon > 0 && (backtick < 0 || colon < backtick)) {
      base.addAll(byMethod(graph, core.substring(0, colon), core.substring(colon + 1), selector));
    } else {
      base.add(resolve(graph, resolver, core));
    }
    SortedSet<ObjectId> out = new TreeSet<>(base);
    for (ObjectId id : base) {
      if (withAncestors) {
        out.addAll(graph.ancestors(id));
      }
      if (withDescendants) {
        out.addAll(graph.descendants(id));
      }
    }
    return out;
  }

  private static SortedSet<ObjectId> byMethod(
      LineageGraph graph, String rawMethod, String rawValue, String selector) {
    String method = rawMethod.strip().toLowerCase(Locale.ROOT);
    String value = unquoted(rawValue.strip()).toLowerCase(Locale.ROOT);
    if (!METHODS.contains(method)) {
      throw new UsageException(
          "SELECTOR",
          "unknown selector method '"
              + method
              + ":' in '"
              + selector
              + "'; use schema:, lakehouse:, workspace: or tag:");
    }
    if (value.isEmpty()) {
      throw new UsageException(
          "SELECTOR", "selector '" + selector + "' has no value after '" + method + ":'");
    }
    SortedSet<ObjectId> out = new TreeSet<>();
    for (Node n : graph.nodes().values()) {
      boolean match =
          switch (method) {
            case "schema" -> n.id().schema().equals(value);
            case "lakehouse" -> n.id().lakehouse().equals(value);
            case "workspace" -> n.id().workspace().equals(value);
            default -> n.tags().contains(value);
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

  /**
   * A method's value as a name selector writes it: {@code workspace:`Other WS`} is the workspace
   * {@code Other WS}, as {@code `Other WS`.lh.gold.v} names a view in it.
   */
  private static String unquoted(String value) {
    if (!value.startsWith("`")) {
      return value;
    }
    try {
      List<String> parts = Name.of(value).parts();
      return parts.size() == 1 ? parts.get(0) : value;
    } catch (IllegalArgumentException e) {
      return value;
    }
  }

  private static final java.util.Set<String> METHODS =
      java.util.Set.of("schema", "lakehouse", "workspace", "tag");

  private static ObjectId resolve(LineageGraph graph, NameResolver resolver, String name) {
    Name n;
    try {
      // Name.of reads backticks, so silver.`a b` is two parts.
      n = Name.of(name);
      if (n.parts().size() > 4 || n.parts().stream().anyMatch(String::isEmpty)) {
        throw new IllegalArgumentException();
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "SELECTOR", "'" + name + "' is not a view name (1 to 4 dotted parts)");
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
    String hint =
        n.parts().size() == 1
            ? nearestBareName(graph, resolver, n.parts().get(0))
            : nearest(graph, resolver, resolver.display(id));
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

  /**
   * A bare name is accepted when it is unique across schemas, so it is compared with the bare
   * names: against the displayed names its default schema would make it too far from them all.
   */
  private static String nearestBareName(LineageGraph graph, NameResolver resolver, String wanted) {
    ObjectId best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (ObjectId id : graph.nodes().keySet()) {
      int d = editDistance(wanted, id.name());
      if (d < bestDistance) {
        bestDistance = d;
        best = id;
      }
    }
    return best != null && bestDistance <= Math.max(2, wanted.length() / 3)
        ? resolver.display(best)
        : null;
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
