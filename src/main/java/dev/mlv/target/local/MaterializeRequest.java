package dev.mlv.target.local;

import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.Constraint;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What to write for one view refresh: the SELECT, its constraints in declaration order, the table
 * layout and the table properties to persist with the data (mlv keeps its own state there). {@code
 * selectAt} is where the SELECT is written in the view's file, so that Spark's "line 2 pos 20"
 * (relative to the SELECT it was given) can be reported as a place in that file. {@code readAt}
 * pins sources to the versions recorded as consumed; a source not in it is read at its latest.
 */
public record MaterializeRequest(
    ObjectId view,
    String selectSql,
    List<Constraint> constraints,
    List<String> partitionedBy,
    Optional<String> comment,
    Map<String, String> properties,
    Optional<Position> selectAt,
    Map<ObjectId, Long> readAt) {

  public MaterializeRequest(
      ObjectId view,
      String selectSql,
      List<Constraint> constraints,
      List<String> partitionedBy,
      Optional<String> comment,
      Map<String, String> properties) {
    this(
        view,
        selectSql,
        constraints,
        partitionedBy,
        comment,
        properties,
        Optional.empty(),
        Map.of());
  }

  public MaterializeRequest {
    Objects.requireNonNull(view, "view");
    Objects.requireNonNull(selectSql, "selectSql");
    constraints = List.copyOf(constraints);
    partitionedBy = List.copyOf(partitionedBy);
    Objects.requireNonNull(comment, "comment");
    properties = Map.copyOf(properties);
    Objects.requireNonNull(selectAt, "selectAt");
    readAt = Map.copyOf(readAt);
  }
}
