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

  @SuppressWarnings("unchecked")
  private static <E extends Exception> void sneaky(Exception e) throws E {
    throw (E) e;
  }
}
