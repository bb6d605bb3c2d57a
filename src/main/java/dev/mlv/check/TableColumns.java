package dev.mlv.check;

import dev.mlv.lineage.ObjectId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The columns of tables that a target holds and the project does not define (its sources), as the
 * target read them, so that the column rules reach a view's reads of them: {@code target} names the
 * target in messages. A table missing here has columns that are not known.
 */
public record TableColumns(String target, Map<ObjectId, List<String>> tables) {
  public static final TableColumns NONE = new TableColumns("", Map.of());

  public TableColumns {
    tables = Map.copyOf(tables);
  }

  Optional<List<String>> of(ObjectId id) {
    return Optional.ofNullable(tables.get(id));
  }
}
