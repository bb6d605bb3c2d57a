package dev.mlv.lineage;

import dev.mlv.diag.Position;
import java.util.Set;

/**
 * A node of the lineage: a view, a table or a file folder. {@code position} is where it is defined
 * (a view's CREATE, a source's entry in mlv.yml), or null for a table nobody declared.
 */
public record Node(ObjectId id, NodeKind kind, Position position, Set<String> tags) {
  public Node {
    tags = Set.copyOf(tags);
  }

  public boolean isView() {
    return kind == NodeKind.VIEW || kind == NodeKind.PYSPARK_VIEW;
  }
}
