package dev.mlv.check;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Suggestions;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.sql.ColumnRefs;
import dev.mlv.sql.OutputNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A column a view reads from another view of the project that the other view's SELECT does not
 * produce, or from a source table the target holds without it: Spark refuses the view when apply
 * creates or replaces it, after apply has already replaced the views upstream of it. Only where the
 * columns of every table in scope are known ({@link ViewColumns}: SQL views whose SELECT lists
 * every column by name, or selects {@code *} over such views or tables, and, in plan and apply, the
 * tables whose columns the target told), so what is reported is certain.
 */
final class UpstreamColumnCheck {
  static final String RULE = "UNRESOLVED_COLUMN";
  static final String AMBIGUOUS = "AMBIGUOUS_REFERENCE";
  static final String FIELD = "UNRESOLVED_FIELD";

  private UpstreamColumnCheck() {}

  /**
   * A table in scope of a reference, with its {@code columns} in lower case: a table or view
   * ({@code id}), or a CTE or subquery of the view's own statement ({@code id} null), {@code shown}
   * as messages name it ({@code silver.a}, {@code the CTE base}) and {@code placed} with where its
   * columns come from.
   */
  private record InScope(
      ObjectId id, String name, String shown, String placed, boolean view, Set<String> columns) {}

  /**
   * For the views of the project only: a view created ad hoc ({@code mlv sql}) runs against the
   * deployed views, whose columns may not yet be those of their files.
   */
  static void check(Project project, ViewColumns viewColumns, List<Diagnostic> out) {
    Map<ObjectId, Optional<Set<String>>> produced = new HashMap<>();
    // A view reading itself, or a view of its own cycle, reads a table that cannot be created
    // before it: the CYCLE error is the one to fix, and a column it reads there is no second one.
    Set<ObjectId> onCycle = new HashSet<>();
    project.lineage().cycles().forEach(c -> c.forEach(e -> onCycle.add(e.to())));
    for (ProjectView v : project.views().values()) {
      if (v.facts().isEmpty()) {
        continue;
      }
      for (ColumnRefs.Ref ref : v.facts().get().columnRefs()) {
        if (onCycle.contains(v.id()) && readsAlongCycle(project, ref, onCycle)) {
          continue;
        }
        unresolved(project, viewColumns, v, ref, produced).ifPresent(out::add);
      }
      if (!onCycle.contains(v.id())) {
        v.facts().get().columns().ifPresent(c -> exceptNames(project, viewColumns, v, c, out));
      }
    }
  }

  /**
   * {@code * EXCEPT (x)} where no table of the {@code *} has a column x: Spark refuses the view
   * ([UNRESOLVED_COLUMN]); reported at the {@code *} when the tables' columns are known.
   */
  private static void exceptNames(
      Project project,
      ViewColumns viewColumns,
      ProjectView v,
      dev.mlv.sql.OutputNames.Columns columns,
      List<Diagnostic> out) {
    for (dev.mlv.sql.OutputNames.Star star : columns.stars()) {
      viewColumns
          .unknownExcept(star)
          .ifPresent(
              name ->
                  out.add(
                      Diagnostic.error(
                          RULE,
                          star.position(),
                          "column "
                              + name
                              + " in "
                              + star.text()
                              + " EXCEPT (...) cannot be resolved: "
                              + String.join(
                                  " and ", star.tables().stream().map(viewColumns::shown).toList())
                              + (star.tables().size() == 1 ? " has" : " have")
                              + " no column "
                              + name
                              + "; Spark would refuse "
                              + project.names().display(v.id())
                              + " when apply or refresh runs it ([UNRESOLVED_COLUMN])",
                          "name only columns the "
                              + star.text()
                              + " selects in its EXCEPT list, or remove "
                              + name
                              + " from it")));
    }
  }

  /** Whether a table the reference may read (those its qualifier names, else all) is on a cycle. */
  private static boolean readsAlongCycle(
      Project project, ColumnRefs.Ref ref, Set<ObjectId> onCycle) {
    List<ColumnRefs.Reading> meant =
        ref.readings().stream().filter(ColumnRefs.Reading::qualified).toList();
    for (ColumnRefs.Reading r : meant.isEmpty() ? ref.readings() : meant) {
      if (ref.derived().containsKey(r.table())) {
        continue;
      }
      try {
        if (onCycle.contains(project.names().resolve(ref.tables().get(r.table())))) {
          return true;
        }
      } catch (IllegalArgumentException e) {
        // not a name of the project: no cycle through it
      }
    }
    return false;
  }

  /**
   * A bare name that two tables of the nearest query holding it both have: Spark refuses it
   * ([AMBIGUOUS_REFERENCE]) unless the name is a USING column there, or the FROM joins NATURALly.
   */
  private static Optional<Diagnostic> ambiguous(
      Project project,
      ProjectView v,
      ColumnRefs.Ref ref,
      List<InScope> ids,
      List<Set<String>> columns) {
    List<ColumnRefs.Scoped> scopes = ref.scopes();
    // s.a where no table in scope is named s reads a struct column s: ambiguous as s alone is
    // (found by QA: SELECT s.a FROM t JOIN u USING (id) passed plan, Spark refuses it).
    if (!(ref.fromOnly() || ref.unselected())
        || ref.readings().stream().anyMatch(ColumnRefs.Reading::qualified)
        || scopes.size() != ids.size()
        || ref.readings().isEmpty()) {
      return Optional.empty();
    }
    String column = ref.readings().get(0).column(); // unqualified: every reading is of it
    int level = Integer.MAX_VALUE;
    for (int i = 0; i < ids.size(); i++) {
      if (columns.get(i).contains(column)) {
        level = Math.min(level, scopes.get(i).level());
      }
    }
    List<Integer> holders = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      if (scopes.get(i).level() == level && columns.get(i).contains(column)) {
        holders.add(i);
      }
    }
    if (holders.size() < 2
        || scopes.get(holders.get(0)).joined()
        || (ref.unselected() && !ref.fromOnly() && level != 0)) {
      return Optional.empty();
    }
    List<String> tables = new ArrayList<>();
    List<String> qualified = new ArrayList<>();
    for (int i : holders) {
      String q = scopes.get(i).qualifier();
      tables.add(shown(ids.get(i), q));
      qualified.add(q + "." + ref.text());
    }
    String fix = "qualify it with the table it comes from: " + String.join(" or ", qualified);
    if (!ref.fromOnly()) {
      // ORDER BY of a name the SELECT list does not output (measured on Spark 4.1.1: Spark then
      // tries the FROM and reports the name unresolved, not ambiguous).
      return Optional.of(
          Diagnostic.error(
              AMBIGUOUS,
              ref.position(),
              "column "
                  + ref.text()
                  + " cannot be resolved in ORDER BY: the SELECT list does not output it, and "
                  + String.join(" and ", tables)
                  + (holders.size() == 2 ? " both have it" : " all have it")
                  + "; Spark would refuse "
                  + project.names().display(v.id())
                  + " when apply or refresh runs it ([UNRESOLVED_COLUMN.WITH_SUGGESTION])",
              fix + ", or select it"));
    }
    return Optional.of(
        Diagnostic.error(
            AMBIGUOUS,
            ref.position(),
            "column "
                + ref.text()
                + " is ambiguous: "
                + String.join(" and ", tables)
                + (holders.size() == 2 ? " both have " : " all have ")
                + (ref.text().contains(".") ? "a column " + column : "it")
                + "; Spark would refuse "
                + project.names().display(v.id())
                + " when apply or refresh runs it ([AMBIGUOUS_REFERENCE])",
            fix));
  }

  /**
   * {@code s.nosuch} (or {@code s.a.nosuch}) where every column the reference may read is a struct
   * of a source without that field: Spark refuses it ([FIELD_NOT_FOUND]), comparing field names
   * without case. Fields are followed as deep as the target told the structs within structs.
   */
  private static Optional<Diagnostic> unknownField(
      Project project,
      ViewColumns viewColumns,
      ProjectView v,
      ColumnRefs.Ref ref,
      List<InScope> ids,
      List<Set<String>> columns) {
    ColumnRefs.Reading failed = null;
    Missing missing = null;
    for (ColumnRefs.Reading r : ref.readings()) {
      if (!columns.get(r.table()).contains(r.column())) {
        continue;
      }
      ObjectId holder = ids.get(r.table()).id();
      Optional<Missing> gap =
          r.fields().isEmpty() || holder == null
              ? Optional.empty()
              : missingField(viewColumns, holder, r);
      if (gap.isEmpty()) {
        return Optional.empty(); // a reading Spark can resolve, or one whose fields are not known
      }
      // The reading its qualifier names is the one Spark reports (t.s.zz over ... bronze.u t).
      if (failed == null || (r.qualified() && !failed.qualified())) {
        failed = r;
        missing = gap.get();
      }
    }
    if (failed == null) {
      return Optional.empty();
    }
    String field = failed.fields().get(missing.depth());
    String column = columnAsWritten(ref.text(), failed, missing.depth());
    String table = ids.get(failed.table()).shown();
    String holder =
        missing.depth() == 0
            ? "column " + failed.column()
            : "field "
                + String.join(
                    ".",
                    java.util.stream.Stream.concat(
                            java.util.stream.Stream.of(failed.column()),
                            failed.fields().subList(0, missing.depth()).stream())
                        .toList());
    Optional<String> near = Suggestions.nearest(field, missing.known());
    return Optional.of(
        Diagnostic.error(
            FIELD,
            ref.position(),
            "field "
                + quoted(field)
                + " of "
                + column
                + " cannot be resolved: "
                + holder
                + " of "
                + table
                + " holds a struct with the fields "
                + listed(missing.known().stream().map(UpstreamColumnCheck::quoted).toList())
                + "; Spark would refuse "
                + project.names().display(v.id())
                + " when apply or refresh runs it ([FIELD_NOT_FOUND])",
            near.map(n -> "did you mean '" + column + "." + quoted(n) + "'?")
                .orElse("read a field the struct has")));
  }

  /** The first field of a reading its struct lacks: its index, and the fields the struct has. */
  private record Missing(int depth, List<String> known) {}

  /**
   * Follows the fields of {@code r} down the structs of {@code holder}: the first one missing, or
   * empty when all are there or a struct's fields are not known (a field that is no struct, a map,
   * a table the target did not read).
   */
  private static Optional<Missing> missingField(
      ViewColumns viewColumns, ObjectId holder, ColumnRefs.Reading r) {
    List<String> path = new java.util.ArrayList<>(List.of(r.column()));
    for (int depth = 0; depth < r.fields().size(); depth++) {
      Optional<List<String>> fields = viewColumns.fields(holder, path);
      if (fields.isEmpty()) {
        return Optional.empty();
      }
      String wanted = r.fields().get(depth);
      Optional<String> has =
          fields.get().stream().filter(f -> f.equalsIgnoreCase(wanted)).findFirst();
      if (has.isEmpty()) {
        return Optional.of(new Missing(depth, fields.get()));
      }
      path.add(has.get());
    }
    return Optional.empty();
  }

  /**
   * The text of {@code ref} up to the column of {@code r} and {@code fields} fields after it
   * ({@code o.s} of {@code o.s.nosuch}), without the blanks written around its dots.
   */
  private static String columnAsWritten(String text, ColumnRefs.Reading r, int fields) {
    int dots = (r.qualified() ? 1 : 0) + fields;
    StringBuilder out = new StringBuilder();
    boolean quoted = false;
    for (char c : text.toCharArray()) {
      if (c == '`') {
        quoted = !quoted;
      } else if (!quoted && c == '.' && dots-- == 0) {
        break;
      } else if (!quoted && Character.isWhitespace(c)) {
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }

  /** A name as it may be written in SQL: in backticks unless it is a plain identifier. */
  private static String quoted(String name) {
    return name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : "`" + name.replace("`", "``") + "`";
  }

  /**
   * A reference that only a query two or more levels around its subquery can resolve: Spark 4.1.1
   * resolves an outer reference against the immediately enclosing query only (measured:
   * UNRESOLVED_COLUMN for o.amount in a subquery within a subquery of the query over o).
   */
  private static Diagnostic tooFarOut(
      Project project,
      ProjectView v,
      ColumnRefs.Ref ref,
      List<InScope> ids,
      List<Set<String>> columns,
      int level) {
    List<String> tables = new ArrayList<>();
    for (ColumnRefs.Reading r : ref.readings()) {
      ColumnRefs.Scoped scope = ref.scopes().get(r.table());
      if (scope.level() == level && columns.get(r.table()).contains(r.column())) {
        String shown = shown(ids.get(r.table()), scope.qualifier());
        if (!tables.contains(shown)) {
          tables.add(shown);
        }
      }
    }
    return Diagnostic.error(
        RULE,
        ref.position(),
        "column "
            + ref.text()
            + " cannot be resolved: only "
            + String.join(" and ", tables)
            + " has it, in the query "
            + level
            + " levels around this subquery, and Spark resolves a subquery's outer reference"
            + " only against the query immediately around it; Spark would refuse "
            + project.names().display(v.id())
            + " when apply or refresh runs it ([UNRESOLVED_COLUMN.WITH_SUGGESTION])",
        "move the condition that reads it into the query around this subquery, joining the"
            + " inner subquery's table there, so that it reads "
            + ref.text()
            + " one level out");
  }

  /**
   * {@code SELECT amount * qty AS revenue, SUM(revenue) ...}: no table in scope has the column, so
   * it is the SELECT list's alias, which Spark 4.1.1 does not read inside an aggregate function or
   * a window ([UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC], {@code _IN_WINDOW}).
   */
  private static Diagnostic lateralAlias(Project project, ProjectView v, ColumnRefs.Ref ref) {
    boolean window = ref.lateral().equals("a window");
    // x.a: a field of the alias x (found by QA, refused by Spark as x is).
    int dot = ref.text().indexOf('.');
    String alias = dot < 0 ? ref.text() : ref.text().substring(0, dot);
    return Diagnostic.error(
        "LATERAL_ALIAS",
        ref.position(),
        (dot < 0 ? alias : alias + " (in " + ref.text() + ")")
            + " is an alias of this SELECT list (no table in scope has such a column), read inside "
            + ref.lateral()
            + ", where Spark reads no lateral column alias; Spark would refuse "
            + project.names().display(v.id())
            + " when apply or refresh runs it ([UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_"
            + (window ? "WINDOW" : "AGGREGATE_FUNC")
            + "])",
        "write the aliased expression itself there, or compute "
            + alias
            + " in a subquery or CTE and "
            + (window ? "apply the window" : "aggregate it")
            + " in the query around it");
  }

  private static Optional<Diagnostic> unresolved(
      Project project,
      ViewColumns viewColumns,
      ProjectView v,
      ColumnRefs.Ref ref,
      Map<ObjectId, Optional<Set<String>>> produced) {
    if (ref.tables().isEmpty()) {
      return Optional.empty();
    }
    List<InScope> tables = new ArrayList<>();
    for (int i = 0; i < ref.tables().size(); i++) {
      OutputNames.Derived d = ref.derived().get(i);
      if (d != null) {
        Optional<List<String>> c = viewColumns.of(d.columns());
        if (c.isEmpty()) {
          return Optional.empty(); // a * over a table whose columns are not known, ...
        }
        String shown = "the " + d.kind() + " " + d.name();
        tables.add(new InScope(null, d.name(), shown, shown, true, lower(c.get())));
        continue;
      }
      ObjectId id;
      try {
        id = project.names().resolve(ref.tables().get(i));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
      // Lower case, as Spark matches them.
      Optional<Set<String>> c =
          produced.computeIfAbsent(id, t -> viewColumns.of(t).map(UpstreamColumnCheck::lower));
      if (c.isEmpty()) {
        return Optional.empty(); // a table the target did not tell, a PySpark or file view, ...
      }
      String shown = project.names().display(id);
      tables.add(
          new InScope(
              id,
              id.name(),
              shown,
              shown + " (" + viewColumns.origin(id) + ")",
              viewColumns.isView(id),
              c.get()));
    }
    List<Set<String>> columns = tables.stream().map(InScope::columns).toList();
    int nearest = Integer.MAX_VALUE;
    for (ColumnRefs.Reading r : ref.readings()) {
      if (columns.get(r.table()).contains(r.column())) {
        nearest =
            ref.scopes().size() == tables.size()
                ? Math.min(nearest, ref.scopes().get(r.table()).level())
                : 0;
      }
    }
    if (ref.alias()) {
      // GROUP BY x, x also a select alias: the alias when no FROM item of this query has x.
      return nearest == 0 ? ambiguous(project, v, ref, tables, columns) : Optional.empty();
    }
    if (ref.lateral() != null) {
      // A column of that name wins over the alias; without one, Spark takes the alias and refuses.
      return nearest != Integer.MAX_VALUE
          ? Optional.empty()
          : Optional.of(lateralAlias(project, v, ref));
    }
    if (nearest >= 2 && nearest != Integer.MAX_VALUE) {
      return Optional.of(tooFarOut(project, v, ref, tables, columns, nearest));
    }
    if (nearest != Integer.MAX_VALUE) {
      Optional<Diagnostic> field = unknownField(project, viewColumns, v, ref, tables, columns);
      return field.isPresent() ? field : ambiguous(project, v, ref, tables, columns);
    }
    // The views its qualifier names (s.amount), else every view in scope (amount).
    List<ColumnRefs.Reading> meant =
        ref.readings().stream().filter(ColumnRefs.Reading::qualified).toList();
    if (meant.isEmpty() && ref.semiJoin() == null && ref.scopes().size() == tables.size()) {
      Optional<Diagnostic> typo = unknownQualifier(project, v, ref, columns);
      if (typo.isPresent()) {
        return typo;
      }
    }
    if (meant.isEmpty()) {
      meant = ref.readings();
    }
    String column = meant.get(0).column();
    Set<Integer> named = new LinkedHashSet<>();
    meant.forEach(r -> named.add(r.table()));
    List<String> views = new ArrayList<>();
    List<String> placed = new ArrayList<>();
    Set<String> offered = new LinkedHashSet<>();
    boolean viewsOnly = true;
    for (int i : named) {
      InScope t = tables.get(i);
      if (!views.contains(t.shown())) {
        views.add(t.shown());
        placed.add(t.placed());
        offered.addAll(t.columns());
        viewsOnly &= t.view();
      }
    }
    boolean allViews = viewsOnly;
    boolean one = views.size() == 1;
    // A view produces its columns, and its SELECT can select one more; a table has them.
    String lacks =
        allViews
            ? (one ? " does not produce " : " do not produce ")
            : (one ? " does not have " : " do not have ");
    String readOne =
        "read a column "
            + String.join(" or ", views)
            + (allViews ? " produces" : one ? " has" : " have");
    String selectIt = "select " + column + " in " + (one ? views.get(0) : "one of them");
    Optional<String> near = Suggestions.nearest(column, offered);
    if (ref.using() != null) {
      return Optional.of(usingColumn(project, v, ref, placed, lacks, one, offered, near));
    }
    return Optional.of(
        Diagnostic.error(
            RULE,
            ref.position(),
            "column "
                + ref.text()
                + " cannot be resolved: "
                + String.join(", ", placed)
                + lacks
                + column
                + (one ? ", only " : "; their columns are ")
                + listed(offered)
                + "; Spark would refuse "
                + project.names().display(v.id())
                + " when apply or refresh runs it ([UNRESOLVED_COLUMN.WITH_SUGGESTION])"
                + (ref.unseenAlias() == null
                    ? ""
                    : "; "
                        + ref.text()
                        + " is an alias of the SELECT list, which Spark does not resolve in "
                        + ref.unseenAlias())
                + (ref.semiJoin() == null
                    ? ""
                    : "; "
                        + qualifier(ref.text())
                        + " is the right side of a "
                        + ref.semiJoin()
                        + ", whose columns Spark resolves only in that join's ON"),
            ref.semiJoin() != null
                ? "read "
                    + qualifier(ref.text())
                    + "'s columns only in the ON of the "
                    + ref.semiJoin()
                    + (ref.semiJoin().contains("SEMI") ? ", or JOIN it to select them" : "")
                : ref.unseenAlias() != null
                    ? "repeat the aliased expression there, or compute it in a subquery or CTE"
                        + " (WITH q AS (SELECT ... AS "
                        + ref.text()
                        + " ...) SELECT ... FROM q WHERE "
                        + ref.text()
                        + " ...)"
                    : near.map(
                            n ->
                                "did you mean '"
                                    + n
                                    + "'?"
                                    + (allViews ? " If not, " + selectIt : ""))
                        .orElse(allViews ? readOne + ", or " + selectIt : readOne)));
  }

  /**
   * {@code a JOIN b USING (x)} where no FROM item of one side has x: Spark refuses the join
   * ([UNRESOLVED_USING_COLUMN_FOR_JOIN]), naming the side; {@code placed} are that side's tables.
   */
  private static Diagnostic usingColumn(
      Project project,
      ProjectView v,
      ColumnRefs.Ref ref,
      List<String> placed,
      String lacks,
      boolean one,
      Set<String> offered,
      Optional<String> near) {
    return Diagnostic.error(
        RULE,
        ref.position(),
        "USING column "
            + ref.text()
            + " cannot be resolved on the "
            + ref.using()
            + " side of the join: "
            + String.join(", ", placed)
            + lacks
            + ref.readings().get(0).column()
            + (one ? ", only " : "; their columns are ")
            + listed(offered)
            + "; Spark would refuse "
            + project.names().display(v.id())
            + " when apply or refresh runs it ([UNRESOLVED_USING_COLUMN_FOR_JOIN])",
        near.map(n -> "did you mean '" + n + "'?")
            .orElse(
                "name in USING only columns both sides of the join have, or join them ON a"
                    + " condition over each side's column"));
  }

  /**
   * {@code x.amount} where no table in scope is named or aliased x, and x is no column either: the
   * qualifier is mistyped, so the message names the tables' qualifiers, not a column to add.
   */
  private static Optional<Diagnostic> unknownQualifier(
      Project project, ProjectView v, ColumnRefs.Ref ref, List<Set<String>> columns) {
    int dot = ref.text().indexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    String column = ref.text().substring(dot + 1);
    String wanted = column.replace("`", "").toLowerCase(Locale.ROOT);
    Set<String> qualifiers = new LinkedHashSet<>();
    List<String> fixes = new ArrayList<>();
    for (int i = 0; i < ref.scopes().size(); i++) {
      String q = ref.scopes().get(i).qualifier();
      qualifiers.add(q);
      if (columns.get(i).contains(wanted)) {
        fixes.add(q + "." + column);
      }
    }
    String fix =
        switch (fixes.size()) {
          case 0 -> "qualify it with a table in scope: " + String.join(", ", qualifiers);
          case 1 -> "did you mean '" + fixes.get(0) + "'?";
          default -> "qualify it with the table it comes from: " + String.join(" or ", fixes);
        };
    return Optional.of(
        Diagnostic.error(
            RULE,
            ref.position(),
            "column "
                + ref.text()
                + " cannot be resolved: no table in scope is named or aliased "
                + qualifier(ref.text())
                + " (the tables are "
                + String.join(", ", qualifiers)
                + "), and no table has a column of that name; Spark would refuse "
                + project.names().display(v.id())
                + " when apply or refresh runs it ([UNRESOLVED_COLUMN.WITH_SUGGESTION])",
            fix));
  }

  /** A table in scope as messages name it: silver.s, or silver.s AS x when aliased otherwise. */
  private static String shown(InScope t, String qualifier) {
    String name = t.id() == null ? "" : t.id().name();
    return t.shown()
        + (qualifier.equalsIgnoreCase(name) || t.id() == null ? "" : " AS " + qualifier);
  }

  /** The qualifier of {@code b.y} as written: {@code b}. */
  private static String qualifier(String text) {
    int dot = text.indexOf('.');
    return dot < 0 ? text : text.substring(0, dot);
  }

  private static Set<String> lower(List<String> names) {
    Set<String> lower = new LinkedHashSet<>();
    names.forEach(n -> lower.add(n.toLowerCase(Locale.ROOT)));
    return lower;
  }

  /** At most 20 names, so that a view of thousands of columns stays readable. */
  private static String listed(java.util.Collection<String> columns) {
    List<String> shown = columns.stream().limit(20).toList();
    return String.join(", ", shown)
        + (columns.size() > shown.size()
            ? " and " + (columns.size() - shown.size()) + " more"
            : "");
  }
}
