package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code CREATE MATERIALIZED LAKE VIEW} statement, parsed: the header is ours, the body is a
 * SELECT or a file source. {@code statement} is the full text as written; {@code properties} keep
 * their keys as written (Delta property keys are case-sensitive).
 */
public record ViewDefinition(
    Name name,
    boolean orReplace,
    boolean ifNotExists,
    List<Constraint> constraints,
    List<String> partitionedBy,
    Optional<String> comment,
    Map<String, String> properties,
    ViewBody body,
    Position position,
    String statement) {

  public ViewDefinition {
    constraints = List.copyOf(constraints);
    partitionedBy = List.copyOf(partitionedBy);
    properties = Map.copyOf(properties);
  }

  public boolean isFileSource() {
    return body instanceof ViewBody.Files;
  }
}
