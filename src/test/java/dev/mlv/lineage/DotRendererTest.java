package dev.mlv.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DotRendererTest {
  private static final NameResolver NAMES = new NameResolver("ws", "lh", "dbo", Map.of());

  private static String render(String... names) {
    Map<ObjectId, Node> nodes = new java.util.HashMap<>();
    for (String n : names) {
      ObjectId id = NAMES.resolve(dev.mlv.sql.Name.of(n));
      nodes.put(id, new Node(id, NodeKind.VIEW, null, Set.of()));
    }
    LineageGraph g = new LineageGraph(nodes, List.of());
    return new DotRenderer().render(g, nodes.keySet(), NAMES);
  }

  /**
   * Graphviz decodes entities inside quoted labels, so a view named {@code R&amp;D <x>} showed as
   * {@code R&D <x>} (found by QA). Every {@code &} of a label is written {@code &amp;}, and of a
   * node's id too, which Graphviz shows as the tooltip of the node's SVG shape (its {@code
   * <title>}: {@code &lt;} in an id showed as {@code <} there, found by QA).
   */
  @Test
  void anAmpersandInALabelIsWrittenAsAnEntity() {
    String dot = render("gold.`r&amp;d &lt;x&gt; & y`");
    assertThat(dot)
        .contains(
            "\"ws.lh.gold.r&amp;amp;d &amp;lt;x&amp;gt; &amp; y\" [label=\"r&amp;amp;d &amp;lt;x&amp;gt;"
                + " &amp; y\",");
  }

  @Test
  void backslashesAndQuotesAreEscapedAndTheRestKept() {
    String dot = render("gold.`back\\slash \"q\" tick``s ümlaut_日本`", "`s&b`.v");
    assertThat(dot)
        .contains("[label=\"back\\\\slash \\\"q\\\" tick`s ümlaut_日本\",")
        .contains("label=\"s&amp;b\";");
  }
}
