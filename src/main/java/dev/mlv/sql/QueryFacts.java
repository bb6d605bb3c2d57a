package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What mlv knows about one SELECT without running it: the tables and views it reads (CTE names
 * excluded, in order of first appearance, each positioned in the file), the functions it calls, the
 * constructs it uses, whether Spark's parser had to step in, and a parse error if neither parser
 * accepted the text. For a view's SELECT also the columns its SELECT list shows (when Calcite read
 * it) and the names of the view's constraints whose CHECK neither parser reads: taken from the
 * parse that is cached, so that validate need not parse again. Also the columns it reads by name
 * where every table in scope is read by its name ({@code columnRefs}), for validate to check
 * against the columns of the views of the project it reads, and the column lists that rename a FROM
 * item's or CTE's columns ({@code columnLists}), for validate to check against their number, and
 * the names each CHECK reads where the SELECT list has a {@code *} ({@code checkColumns}).
 */
public record QueryFacts(
    List<Name> tables,
    Set<String> functions,
    Set<QueryFeature> features,
    boolean usedFallback,
    List<Diagnostic> diagnostics,
    Optional<OutputNames.Columns> columns,
    List<String> unreadableChecks,
    List<ColumnRefs.Ref> columnRefs,
    List<ColumnLists.ColumnList> columnLists,
    List<CheckColumns> checkColumns) {

  public QueryFacts(
      List<Name> tables,
      Set<String> functions,
      Set<QueryFeature> features,
      boolean usedFallback,
      List<Diagnostic> diagnostics) {
    this(
        tables,
        functions,
        features,
        usedFallback,
        diagnostics,
        Optional.empty(),
        List.of(),
        List.of(),
        List.of(),
        List.of());
  }

  public QueryFacts {
    tables = List.copyOf(tables);
    // Sorted and in declaration order, so that output and golden files are stable.
    functions = Collections.unmodifiableSortedSet(new TreeSet<>(functions));
    features =
        features.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(features));
    diagnostics = List.copyOf(diagnostics);
    unreadableChecks = List.copyOf(unreadableChecks);
    columnRefs = List.copyOf(columnRefs);
    columnLists = List.copyOf(columnLists);
    checkColumns = List.copyOf(checkColumns);
  }

  /**
   * These facts with the view's columns, unreadable CHECKs, column references and column lists
   * added.
   */
  public QueryFacts withView(
      Optional<OutputNames.Columns> columns,
      List<String> unreadableChecks,
      List<ColumnRefs.Ref> columnRefs,
      List<ColumnLists.ColumnList> columnLists) {
    return new QueryFacts(
        tables,
        functions,
        features,
        usedFallback,
        diagnostics,
        columns,
        unreadableChecks,
        columnRefs,
        columnLists,
        checkColumns);
  }

  public boolean parsed() {
    return diagnostics.stream().noneMatch(Diagnostic::isError);
  }

  /** These facts with one more diagnostic. */
  public QueryFacts withDiagnostic(Diagnostic d) {
    List<Diagnostic> all = new java.util.ArrayList<>(diagnostics);
    all.add(d);
    return new QueryFacts(
        tables,
        functions,
        features,
        usedFallback,
        all,
        columns,
        unreadableChecks,
        columnRefs,
        columnLists,
        checkColumns);
  }
}
