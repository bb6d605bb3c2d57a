package dev.mlv.lineage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.UsageException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LineageGraphTest {
  private static final NameResolver NAMES =
      new NameResolver("ws", "lh", "dbo", Map.of("crm", "other_ws"));

  private static ObjectId id(String shortName) {
    return NAMES.resolve(dev.mlv.sql.Name.of(shortName));
  }

  /** a -> b -> d, a -> c -> d, crm.dbo.customers -> c; e alone; tags on b. */
  private static LineageGraph diamond() {
    Map<ObjectId, Node> nodes = new HashMap<>();
    for (String v : List.of("silver.b", "silver.c", "gold.d", "gold.e")) {
      nodes.put(
          id(v),
          new Node(id(v), NodeKind.VIEW, null, v.equals("silver.b") ? Set.of("pii") : Set.of()));
    }
    nodes.put(id("bronze.a"), new Node(id("bronze.a"), NodeKind.TABLE, null, Set.of()));
    nodes.put(
        id("crm.dbo.customers"), new Node(id("crm.dbo.customers"), NodeKind.TABLE, null, Set.of()));
    List<Edge> edges = new ArrayList<>();
    edges.add(new Edge(id("bronze.a"), id("silver.b"), null));
    edges.add(new Edge(id("bronze.a"), id("silver.c"), null));
    edges.add(new Edge(id("silver.b"), id("gold.d"), null));
    edges.add(new Edge(id("silver.c"), id("gold.d"), null));
    edges.add(new Edge(id("crm.dbo.customers"), id("silver.c"), null));
    return new LineageGraph(nodes, edges);
  }

  @Test
  void resolvesOneToFourPartNamesWithTheDefaults() {
    assertThat(id("t").toString()).isEqualTo("ws.lh.dbo.t");
    assertThat(id("Silver.T").toString()).isEqualTo("ws.lh.silver.t");
    assertThat(id("crm.dbo.customers").toString()).isEqualTo("other_ws.crm.dbo.customers");
    assertThat(id("lh2.s.t").toString()).isEqualTo("ws.lh2.s.t");
    assertThat(id("w.l.s.t").toString()).isEqualTo("w.l.s.t");
    assertThat(NAMES.display(id("silver.t"))).isEqualTo("silver.t");
    assertThat(NAMES.display(id("crm.dbo.customers"))).isEqualTo("crm.dbo.customers");
    assertThat(NAMES.display(id("w.l.s.t"))).isEqualTo("w.l.s.t");
  }

  @Test
  void layersFollowDependencies() {
    List<java.util.SortedSet<ObjectId>> layers = diamond().layers();
    assertThat(layers).hasSize(3);
    assertThat(layers.get(0)).contains(id("bronze.a"), id("crm.dbo.customers"), id("gold.e"));
    assertThat(layers.get(1)).containsExactly(id("silver.b"), id("silver.c"));
    assertThat(layers.get(2)).containsExactly(id("gold.d"));
  }

  @Test
  void selectorsPickNamesAncestorsDescendantsSchemasAndTags() {
    LineageGraph g = diamond();
    assertThat(Selection.select(g, NAMES, List.of("silver.b"))).containsExactly(id("silver.b"));
    assertThat(Selection.select(g, NAMES, List.of("+silver.b")))
        .containsExactlyInAnyOrder(id("silver.b"), id("bronze.a"));
    assertThat(Selection.select(g, NAMES, List.of("silver.c+")))
        .containsExactlyInAnyOrder(id("silver.c"), id("gold.d"));
    assertThat(Selection.select(g, NAMES, List.of("+silver.c+")))
        .containsExactlyInAnyOrder(
            id("silver.c"), id("gold.d"), id("bronze.a"), id("crm.dbo.customers"));
    assertThat(Selection.select(g, NAMES, List.of("schema:gold")))
        .containsExactlyInAnyOrder(id("gold.d"), id("gold.e"));
    assertThat(Selection.select(g, NAMES, List.of("lakehouse:crm")))
        .containsExactly(id("crm.dbo.customers"));
    assertThat(Selection.select(g, NAMES, List.of("tag:pii"))).containsExactly(id("silver.b"));
    // A value in backticks, as a name selector writes a part: lakehouse:`My LH` is `My LH`.
    assertThat(Selection.select(g, NAMES, List.of("lakehouse:`CRM`")))
        .containsExactly(id("crm.dbo.customers"));
    assertThat(Selection.select(g, NAMES, List.of("+schema:`gold`")))
        .isEqualTo(Selection.select(g, NAMES, List.of("+schema:gold")));
    assertThat(Selection.select(g, NAMES, List.of("gold.e", "silver.b")))
        .containsExactlyInAnyOrder(id("gold.e"), id("silver.b"));
    assertThat(Selection.select(g, NAMES, List.of("d"))).containsExactly(id("gold.d"));
    // The graph operators work on every selector method, not only on names.
    assertThat(Selection.select(g, NAMES, List.of("tag:pii+")))
        .containsExactlyInAnyOrder(id("silver.b"), id("gold.d"));
    assertThat(Selection.select(g, NAMES, List.of("+tag:pii")))
        .containsExactlyInAnyOrder(id("silver.b"), id("bronze.a"));
    assertThat(Selection.select(g, NAMES, List.of("+schema:silver")))
        .containsExactlyInAnyOrder(
            id("silver.b"), id("silver.c"), id("bronze.a"), id("crm.dbo.customers"));
    assertThat(Selection.select(g, NAMES, List.of("silver.b,gold.e")))
        .containsExactlyInAnyOrder(id("gold.e"), id("silver.b"));
    assertThat(Selection.views(g, Selection.select(g, NAMES, List.of("+gold.d"))))
        .containsExactly(id("gold.d"), id("silver.b"), id("silver.c"));
  }

  @Test
  void unknownNamesSuggestTheNearestOne() {
    assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of("silver.bb")))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("no view or table named 'silver.bb'")
        .hasMessageContaining("did you mean 'silver.b'?");
    // A bare name is matched against the bare names it could have meant, as it is accepted
    // unqualified when unique: customrs is crm.dbo.customers misspelt, not dbo.customrs.
    assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of("customrs")))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("no view or table named 'customrs'")
        .hasMessageContaining("did you mean 'crm.dbo.customers'?");
    // A selector that cannot be read is a usage error (exit 64); one that finds nothing is not.
    assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of("colour:red")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("unknown selector method 'colour:'");
    assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of(" ")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("empty selector");
    assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of("tag:+")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("no value after 'tag:'");
    assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of("+")))
        .isInstanceOf(UsageException.class);
    for (String unreadable : List.of(",", "silver.b,,gold.d", "++gold.d", "silver.b++")) {
      assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of(unreadable)))
          .as(unreadable)
          .isInstanceOf(UsageException.class);
    }
    assertThatThrownBy(() -> Selection.select(diamond(), NAMES, List.of("tag:nobody")))
        .isNotInstanceOf(UsageException.class)
        .hasMessageContaining("matches nothing");
  }

  @Test
  void findsCyclesWithTheirPath() {
    Map<ObjectId, Node> nodes = new HashMap<>();
    for (String v : List.of("s.x", "s.y", "s.z", "s.self")) {
      nodes.put(id(v), new Node(id(v), NodeKind.VIEW, null, Set.of()));
    }
    List<Edge> edges =
        List.of(
            new Edge(id("s.x"), id("s.y"), null),
            new Edge(id("s.y"), id("s.z"), null),
            new Edge(id("s.z"), id("s.x"), null),
            new Edge(id("s.self"), id("s.self"), null));
    LineageGraph g = new LineageGraph(nodes, edges);
    assertThat(g.cycles()).hasSize(2);
    assertThat(g.cycles().get(0))
        .extracting(e -> e.from().name() + ">" + e.to().name())
        .containsExactly("self>self");
    assertThat(g.cycles().get(1))
        .extracting(e -> e.from().name() + ">" + e.to().name())
        .containsExactly("x>y", "y>z", "z>x");
    assertThat(g.layers()).isEmpty();
  }

  @Test
  void deepChainsDoNotOverflowTheStack() {
    Map<ObjectId, Node> nodes = new HashMap<>();
    List<Edge> edges = new ArrayList<>();
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      ObjectId v = id("s.v" + i);
      nodes.put(v, new Node(v, NodeKind.VIEW, null, Set.of()));
      if (i > 0) {
        edges.add(new Edge(id("s.v" + (i - 1)), v, null));
      }
    }
    LineageGraph g = new LineageGraph(nodes, edges);
    assertThat(g.cycles()).isEmpty();
    assertThat(g.layers()).hasSize(n);
  }

  @Test
  void idsSortLikeTheirDottedText() {
    java.util.Random r = new java.util.Random(42);
    String alphabet = "ab._z";
    List<ObjectId> ids = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      String[] p = new String[4];
      for (int k = 0; k < 4; k++) {
        StringBuilder sb = new StringBuilder();
        int len = 1 + r.nextInt(3);
        for (int c = 0; c < len; c++) {
          sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        p[k] = sb.toString();
      }
      ids.add(new ObjectId(p[0], p[1], p[2], p[3]));
    }
    for (int i = 0; i + 1 < ids.size(); i++) {
      ObjectId a = ids.get(i);
      ObjectId b = ids.get(i + 1);
      assertThat(Integer.signum(a.compareTo(b)))
          .as(a + " vs " + b)
          .isEqualTo(Integer.signum(a.toString().compareTo(b.toString())));
    }
  }
}
