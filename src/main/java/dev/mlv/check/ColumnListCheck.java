package dev.mlv.check;

import dev.mlv.diag.Diagnostic;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.sql.ColumnLists;
import dev.mlv.sql.QueryFacts;
import java.util.List;
import java.util.Optional;

/**
 * A column list that renames a FROM item's or CTE's columns ({@code FROM t AS x(a)}) and does not
 * name as many as it has: Spark refuses the view when apply creates it, after apply has replaced
 * the views upstream of it. Only where the number is certain: VALUES rows, a subquery or CTE whose
 * SELECT list has no {@code *} or generator, a view of the project whose columns its file tells
 * ({@link ViewColumns}), a table whose columns the target told (in plan and apply: validate reads
 * no target).
 */
final class ColumnListCheck {
  static final String RULE = "COLUMN_LIST_LENGTH";

  private ColumnListCheck() {}

  /** {@code columns}: those of the project's views, for a view of the project only. */
  static void check(
      Project project,
      ProjectView v,
      QueryFacts facts,
      Optional<ViewColumns> columns,
      List<Diagnostic> out) {
    for (ColumnLists.ColumnList list : facts.columnLists()) {
      mismatch(project, v, list, columns).ifPresent(out::add);
    }
  }

  private static Optional<Diagnostic> mismatch(
      Project project, ProjectView v, ColumnLists.ColumnList list, Optional<ViewColumns> columns) {
    String has;
    String refusal = "ASSIGNMENT_ARITY_MISMATCH";
    int count = list.columns();
    switch (list.kind()) {
      case TABLE -> {
        if (columns.isEmpty()) {
          return Optional.empty();
        }
        ObjectId id;
        try {
          id = project.names().resolve(list.table());
        } catch (IllegalArgumentException e) {
          return Optional.empty();
        }
        Optional<List<String>> known = columns.get().of(id);
        if (known.isEmpty()) {
          return Optional.empty(); // a table the target did not tell, a PySpark or file view, ...
        }
        count = known.get().size();
        has =
            project.names().display(id)
                + " ("
                + columns.get().origin(id)
                + ") has "
                + columns(count)
                + ": "
                + listed(known.get());
      }
      case VALUES -> has = "its VALUES rows have " + count + (count == 1 ? " value" : " values");
      case INLINE_TABLE -> {
        has = "its VALUES rows have " + count + (count == 1 ? " value" : " values");
        refusal = "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH";
      }
      case SUBQUERY -> has = "its subquery selects " + columns(count);
      case CTE -> has = "CTE " + list.source() + " has " + columns(count);
      case CTE_DEFINITION -> has = "its query selects " + columns(count);
      default -> throw new IllegalStateException(list.kind().toString());
    }
    int named = list.names().size();
    if (named == count) {
      return Optional.empty();
    }
    String written = list.alias() + "(" + String.join(", ", list.names()) + ")";
    String what = list.kind() == ColumnLists.Kind.CTE_DEFINITION ? "CTE " : "alias ";
    return Optional.of(
        Diagnostic.error(
            RULE,
            list.position(),
            what
                + written
                + " names "
                + columns(named)
                + ", but "
                + has
                + "; Spark would refuse "
                + project.names().display(v.id())
                + " when apply or refresh runs it (["
                + refusal
                + "])",
            "write "
                + count
                + (count == 1 ? " name" : " names")
                + " in "
                + list.alias()
                + "(...), one per column, or drop the list and alias the columns where they are"
                + " selected"));
  }

  private static String columns(int n) {
    return n + (n == 1 ? " column" : " columns");
  }

  /** At most 20 column names, so that a view of thousands of columns stays readable. */
  private static String listed(List<String> columns) {
    List<String> shown = columns.stream().limit(20).toList();
    return String.join(", ", shown)
        + (columns.size() > shown.size()
            ? " and " + (columns.size() - shown.size()) + " more"
            : "");
  }
}
