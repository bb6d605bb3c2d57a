package dev.mlv.lineage;

import java.util.Set;
import java.util.TreeSet;

/**
 * One name a line, in the form selectors take (see {@link NameResolver#selector}), for scripts and
 * shell completion: nothing else on the line, so a name with spaces stays one name.
 */
public final class NamesRenderer implements LineageRenderer {

  @Override
  public String render(LineageGraph graph, Set<ObjectId> selection, NameResolver names) {
    StringBuilder sb = new StringBuilder();
    for (ObjectId id : new TreeSet<>(selection)) {
      sb.append(names.display(id)).append('\n');
    }
    return sb.toString();
  }
}
