package dev.mlv.target.local;

import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.Constraint;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What to write for one view refresh: the SELECT, its constraints in declaration order, the table
 * layout and the table properties to persist with the data (mlv keeps its own state there).
 */
public record MaterializeRequest(
    ObjectId view,
    String selectSql,
    List<Constraint> constraints,
    List<String> partitionedBy,
    Optional<String> comment,
    Map<String, String> properties) {

  public MaterializeRequest {
    Objects.requireNonNull(view, "view");
    Objects.requireNonNull(selectSql, "selectSql");
    constraints = List.copyOf(constraints);
    partitionedBy = List.copyOf(partitionedBy);
    Objects.requireNonNull(comment, "comment");
    properties = Map.copyOf(properties);
  }
}
