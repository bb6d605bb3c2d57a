package dev.mlv.target;

import java.util.List;

/**
 * Rows returned by {@code mlv sql}: column names and values already rendered as text. With rows,
 * {@code message} is a note about them (a result the engine may have cut short), else null.
 */
public record SqlResult(List<String> columns, List<List<String>> rows, String message) {
  public SqlResult {
    columns = List.copyOf(columns);
    rows =
        rows.stream()
            .map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r)))
            .toList();
  }

  public static SqlResult message(String message) {
    return new SqlResult(List.of(), List.of(), message);
  }
}
