package dev.mlv.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TextRendererTest {
  private static final NameResolver NAMES = new NameResolver("ws", "lh", "dbo", Map.of());

  private static ObjectId id(String shortName) {
    return NAMES.resolve(dev.mlv.sql.Name.of(shortName));
  }

  /** bronze.a -> silver.b (SQL) -> gold.c (PySpark). */
  private static LineageGraph mixed() {
    return new LineageGraph(
        Map.of(
            id("bronze.a"), new Node(id("bronze.a"), NodeKind.TABLE, null, Set.of()),
            id("silver.b"), new Node(id("silver.b"), NodeKind.VIEW, null, Set.of()),
            id("gold.c"), new Node(id("gold.c"), NodeKind.PYSPARK_VIEW, null, Set.of())),
        List.of(
            new Edge(id("bronze.a"), id("silver.b"), null),
            new Edge(id("silver.b"), id("gold.c"), null)));
  }

  @Test
  void pysparkRowsLineUpWithTheOthers() {
    LineageGraph g = mixed();
    assertThat(new TextRenderer().render(g, g.nodes().keySet(), NAMES))
        .isEqualTo(
            """
            layer 0
              table   bronze.a
            layer 1
              view    silver.b  <- bronze.a
            layer 2
              pyspark gold.c  <- silver.b
            """);
  }

  @Test
  void withoutAPysparkRowTheKindColumnKeepsItsSixColumns() {
    LineageGraph g = mixed();
    assertThat(new TextRenderer().render(g, Set.of(id("bronze.a"), id("silver.b")), NAMES))
        .isEqualTo(
            """
            layer 0
              table bronze.a
            layer 1
              view  silver.b  <- bronze.a
            """);
  }
}
