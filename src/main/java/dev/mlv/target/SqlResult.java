package dev.mlv.target;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Rows returned by {@code mlv sql}: column names, each value as the engine typed it and as text
 * (what Spark's {@code show()} prints; null for NULL). With rows, {@code message} is a note about
 * them (a result the engine may have cut short), else null. {@code types} holds each column's Spark
 * type name as {@code DataType.typeName()} gives it ({@code integer}, {@code decimal(10,2)}, {@code
 * string}), or "" when mlv made the column itself.
 */
public record SqlResult(
    List<String> columns,
    List<List<String>> rows,
    String message,
    List<List<SqlValue>> values,
    List<String> types) {
  public SqlResult {
    columns = List.copyOf(columns);
    rows = rows.stream().map(r -> Collections.unmodifiableList(new ArrayList<>(r))).toList();
    values = values.stream().map(r -> Collections.unmodifiableList(new ArrayList<>(r))).toList();
    types = List.copyOf(types);
    if (types.size() != columns.size()) {
      throw new IllegalArgumentException(
          types.size() + " column types for " + columns.size() + " columns");
    }
  }

  /** Typed values of columns whose Spark types are unknown. */
  public SqlResult(
      List<String> columns, List<List<String>> rows, String message, List<List<SqlValue>> values) {
    this(columns, rows, message, values, Collections.nCopies(columns.size(), ""));
  }

  /** Rows mlv made itself, all text: JSON gives them as strings. */
  public SqlResult(List<String> columns, List<List<String>> rows, String message) {
    this(columns, rows, message, asText(rows));
  }

  private static List<List<SqlValue>> asText(List<List<String>> rows) {
    List<List<SqlValue>> values = new ArrayList<>();
    for (List<String> r : rows) {
      List<SqlValue> cells = new ArrayList<>(r.size());
      r.forEach(v -> cells.add(v == null ? null : new SqlValue.Text(v)));
      values.add(cells);
    }
    return values;
  }

  /** Rows of typed values, the text of each being Spark's display of it. */
  public static SqlResult typed(
      List<String> columns, List<String> types, List<List<SqlValue>> values, String message) {
    List<List<String>> rows = new ArrayList<>();
    for (List<SqlValue> r : values) {
      List<String> text = new ArrayList<>(r.size());
      r.forEach(v -> text.add(SqlValue.display(v)));
      rows.add(text);
    }
    return new SqlResult(columns, rows, message, values, types);
  }

  public static SqlResult message(String message) {
    return new SqlResult(List.of(), List.of(), message);
  }
}
