package dev.mlv.refresh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.lineage.Edge;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.Node;
import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DagWalkerTest {
  private static ObjectId id(String schema, String name) {
    return new ObjectId("ws", "lh", schema, name);
  }

  @Test
  void anExceptionFailsItsViewAloneAndSkipsItsDescendants() {
    ObjectId a = id("silver", "a");
    ObjectId b = id("gold", "b");
    ObjectId c = id("silver", "c");
    LineageGraph graph =
        new LineageGraph(
            Map.of(
                a, new Node(a, NodeKind.VIEW, null, Set.of()),
                b, new Node(b, NodeKind.VIEW, null, Set.of()),
                c, new Node(c, NodeKind.VIEW, null, Set.of())),
            List.of(new Edge(a, b, null)));

    List<ViewRun> runs =
        DagWalker.walk(
            graph,
            new TreeSet<>(Set.of(a, b, c)),
            2,
            Instant.now().plusSeconds(60),
            view -> {
              if (view.equals(a)) {
                // As Spark does: a checked exception nobody declared.
                sneaky(new Exception("boom in the writer\nof part 0"));
              }
              return new ViewRun(
                  view, ViewStatus.Completed, "full", "FULL", 1, 0, Map.of(), 1, Optional.empty());
            },
            RunListener.NONE);

    Map<ObjectId, ViewRun> byId = runs.stream().collect(Collectors.toMap(ViewRun::id, r -> r));
    assertThat(byId.get(a).status()).isEqualTo(ViewStatus.Failed);
    assertThat(byId.get(a).reason()).isEqualTo("INTERNAL_ERROR");
    assertThat(byId.get(a).error()).get().asString().contains("boom in the writer of part 0");
    assertThat(byId.get(b).status()).isEqualTo(ViewStatus.Skipped);
    assertThat(byId.get(c).status()).isEqualTo(ViewStatus.Completed);
  }

  private static LineageGraph graph(List<ObjectId> views, List<Edge> edges) {
    Map<ObjectId, Node> nodes = new java.util.HashMap<>();
    views.forEach(v -> nodes.put(v, new Node(v, NodeKind.VIEW, null, Set.of())));
    return new LineageGraph(nodes, edges);
  }

  /**
   * One rule for every view below a failure (found by QA: a grandparent that failed was named as
   * "upstream", or the skipped parent, depending on the run): a view whose direct upstream failed
   * gets UPSTREAM_FAILED naming it; one whose direct upstream was skipped gets UPSTREAM_SKIPPED
   * naming that view and the failed one at the root; a failed direct upstream wins over a skipped
   * one.
   */
  @Test
  void aSkippedViewNamesItsDirectUpstreamAndTheFailureAtTheRoot() {
    ObjectId orders = id("silver", "orders_clean");
    ObjectId customers = id("silver", "customers_clean");
    ObjectId lines = id("silver", "order_lines");
    ObjectId sales = id("gold", "category_sales");
    ObjectId ltv = id("gold", "customer_ltv");
    ObjectId segments = id("gold", "customer_segments");
    ObjectId unselected = id("gold", "unselected");
    ObjectId below = id("gold", "below_unselected");
    LineageGraph graph =
        graph(
            List.of(orders, customers, lines, sales, ltv, segments, unselected, below),
            List.of(
                new Edge(orders, lines, null),
                new Edge(customers, lines, null),
                new Edge(lines, sales, null),
                new Edge(customers, ltv, null),
                new Edge(orders, ltv, null),
                new Edge(ltv, segments, null),
                new Edge(lines, segments, null),
                new Edge(lines, unselected, null),
                new Edge(unselected, below, null)));
    for (int i = 0; i < 3; i++) {
      List<ViewRun> runs =
          DagWalker.walk(
              graph,
              new TreeSet<>(Set.of(orders, customers, lines, sales, ltv, segments, below)),
              4,
              Instant.now().plusSeconds(60),
              view ->
                  new ViewRun(
                      view,
                      view.equals(customers) ? ViewStatus.Failed : ViewStatus.Completed,
                      "full",
                      "FULL",
                      1,
                      0,
                      Map.of(),
                      1,
                      Optional.empty()),
              RunListener.NONE);
      assertThat(
              runs.stream()
                  .filter(r -> r.status() == ViewStatus.Skipped)
                  .map(r -> r.id().shortName() + ": " + r.reason())
                  .toList())
          .containsExactlyInAnyOrder(
              "silver.order_lines: UPSTREAM_FAILED: upstream silver.customers_clean failed",
              "gold.customer_ltv: UPSTREAM_FAILED: upstream silver.customers_clean failed",
              "gold.category_sales: UPSTREAM_SKIPPED: upstream silver.order_lines was skipped"
                  + " because silver.customers_clean failed",
              // customer_ltv and order_lines: both skipped, the first by name is named
              "gold.customer_segments: UPSTREAM_SKIPPED: upstream gold.customer_ltv was skipped"
                  + " because silver.customers_clean failed",
              // gold.unselected is not in the run: the view below it reads order_lines through it
              "gold.below_unselected: UPSTREAM_SKIPPED: upstream silver.order_lines was skipped"
                  + " because silver.customers_clean failed");
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Exception> void sneaky(Exception e) throws E {
    throw (E) e;
  }
}
