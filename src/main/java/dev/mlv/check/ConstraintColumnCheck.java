package dev.mlv.check;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.sql.CheckColumns;
import dev.mlv.sql.QueryFacts;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A CHECK that reads a column the view does not produce, where the view's SELECT list has a {@code
 * *}: known once the tables of every {@code *} tell their columns ({@link ViewColumns}). The view's
 * own statement tells it where the list names every column (CONSTRAINT_COLUMN in {@code sql});
 * found by QA: {@code SELECT *} views passed validate and plan, and the first refresh failed.
 */
final class ConstraintColumnCheck {
  static final String RULE = "CONSTRAINT_COLUMN";

  private ConstraintColumnCheck() {}

  /** {@code columns}: those of the project's views, for a view of the project only. */
  static void check(QueryFacts facts, Optional<ViewColumns> columns, List<Diagnostic> out) {
    if (facts.checkColumns().isEmpty() || columns.isEmpty() || facts.columns().isEmpty()) {
      return;
    }
    Optional<List<ViewColumns.Column>> all = columns.get().all(facts.columns().get());
    if (all.isEmpty()) {
      return; // a * over a table whose columns are not known
    }
    Set<String> produced = new TreeSet<>();
    all.get().forEach(c -> produced.add(c.name().toLowerCase(Locale.ROOT)));
    for (CheckColumns check : facts.checkColumns()) {
      Set<String> read = new TreeSet<>(check.read().keySet());
      read.removeAll(produced);
      if (read.isEmpty()) {
        continue;
      }
      Position first =
          read.stream()
              .map(check.read()::get)
              .min(Comparator.comparingInt(Position::line).thenComparingInt(Position::column))
              .orElseThrow();
      out.add(
          Diagnostic.error(
              RULE,
              first,
              "the CHECK of constraint "
                  + check.constraint()
                  + " reads "
                  + String.join(", ", read)
                  + ", which the view's SELECT does not produce; Spark would refuse the view when"
                  + " apply or refresh runs it ([UNRESOLVED_COLUMN])",
              "a constraint reads the view's own columns: " + String.join(", ", produced)));
    }
  }
}
