package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.Map;

/**
 * The names the CHECK of constraint {@code constraint} reads as the view's columns, lower case,
 * each with where it is first read: kept for a view whose SELECT list has a {@code *}, whose
 * columns only the tables it reads tell, so that validate can check them once those are known.
 */
public record CheckColumns(String constraint, Map<String, Position> read) {
  public CheckColumns {
    read = Map.copyOf(read);
  }
}
