package dev.mlv.check;

import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.project.ReservedNames;
import dev.mlv.sql.ColumnRefs;
import dev.mlv.sql.OutputNames;
import dev.mlv.sql.ViewBody;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The columns the SQL views of the project produce, as far as their files tell them for certain: a
 * SELECT list of names, and {@code *} over views of the project or tables whose columns are so
 * told; and the columns of the tables the project reads and does not define, where the target told
 * them ({@link TableColumns}; none for validate, which reads no target). For the views of the
 * project only: a view created ad hoc runs against the deployed views, whose columns may not yet be
 * those of their files.
 */
final class ViewColumns {

  /**
   * One output column: its name as Spark gives it, and where it comes from: the SELECT item at
   * {@code position} ({@code star} null), or table {@code source} of the {@code *} {@code star}.
   */
  record Column(String name, Position position, OutputNames.Star star, OutputNames.Source source) {}

  private final Project project;
  private final TableColumns tables;
  private final Map<ObjectId, Optional<List<String>>> known = new HashMap<>();

  ViewColumns(Project project, TableColumns tables) {
    this.project = project;
    this.tables = tables;
  }

  /**
   * Where the columns of {@code id} come from, for messages: the file of a view of the project,
   * else the target whose table it is.
   */
  String origin(ObjectId id) {
    ProjectView v = project.views().get(id);
    return v != null
        ? v.definition().position().file().toString()
        : "a table of target " + tables.target();
  }

  /**
   * The fields of the struct at {@code path} of {@code id} (a column, then the fields that lead to
   * a struct within it): those of a source, as the target told them, or for a SQL view of the
   * project those of a source's struct column it selects as it is ({@code o.info}, {@code o.info AS
   * i}, or through a {@code *}); empty when not known.
   */
  Optional<List<String>> fields(ObjectId id, List<String> path) {
    return fields(id, path, new HashSet<>());
  }

  private Optional<List<String>> fields(ObjectId id, List<String> path, Set<ObjectId> seen) {
    String column = path.get(0);
    if (ReservedNames.isReserved(id) || !seen.add(id)) {
      return Optional.empty();
    }
    ProjectView u = project.views().get(id);
    if (project.definedTwice().contains(id)) {
      return Optional.empty();
    }
    if (u == null) {
      return tables.fields(id, path);
    }
    if (u.facts().isEmpty() || u.facts().get().columns().isEmpty()) {
      return Optional.empty();
    }
    OutputNames.Columns columns = u.facts().get().columns().get();
    List<Column> named =
        all(columns).orElse(List.of()).stream()
            .filter(c -> c.name() != null && c.name().equalsIgnoreCase(column))
            .toList();
    if (named.size() != 1) {
      return Optional.empty();
    }
    Column c = named.get(0);
    if (c.source() != null) {
      if (c.source().derived() != null) {
        return Optional.empty(); // a CTE's or subquery's column, whose fields are not followed
      }
      return resolved(c.source().table()).flatMap(source -> fields(source, path, seen));
    }
    Optional<String> item =
        columns.names().stream()
            .filter(n -> n.position().equals(c.position()))
            .map(OutputNames.OutputName::text)
            .findFirst();
    for (ColumnRefs.Ref ref : u.facts().get().columnRefs()) {
      if (item.isPresent()
          && ref.position().equals(c.position())
          && selectedAsItIs(item.get(), ref.text())) {
        return fieldsRead(ref, path.subList(1, path.size()), seen);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether a SELECT item ({@code o.info AS i}) is the reference {@code o.info}, aliased or not.
   */
  private static boolean selectedAsItIs(String item, String ref) {
    return item.equals(ref)
        || (item.startsWith(ref)
            && item.substring(ref.length()).matches("(?is)\\s+(AS\\s+)?(`[^`]+`|\\w+)\\s*"));
  }

  /**
   * The fields of the struct at {@code inner} (fields, none for the column itself) of the one
   * struct column {@code ref} reads, when one table in scope has it.
   */
  private Optional<List<String>> fieldsRead(
      ColumnRefs.Ref ref, List<String> inner, Set<ObjectId> seen) {
    ObjectId holder = null;
    String column = null;
    for (ColumnRefs.Reading r : ref.readings()) {
      if (!r.fields().isEmpty()) {
        continue;
      }
      if (ref.derived().containsKey(r.table())) {
        return Optional.empty(); // a CTE or subquery, whose columns' fields are not followed
      }
      Optional<ObjectId> table = resolved(ref.tables().get(r.table()));
      Optional<List<String>> has = table.flatMap(this::of);
      if (has.isEmpty()) {
        return Optional.empty(); // a table in scope whose columns are not known may be the one
      }
      if (has.get().stream().anyMatch(n -> n.equalsIgnoreCase(r.column()))) {
        if (holder != null && !holder.equals(table.get())) {
          return Optional.empty();
        }
        holder = table.get();
        column = r.column();
      }
    }
    if (holder == null) {
      return Optional.empty();
    }
    List<String> path = new ArrayList<>();
    path.add(column);
    path.addAll(inner);
    return fields(holder, path, seen);
  }

  private Optional<ObjectId> resolved(dev.mlv.sql.Name name) {
    try {
      return Optional.of(project.names().resolve(name));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code id} is a view of the project, whose columns its SELECT makes. */
  boolean isView(ObjectId id) {
    return project.views().containsKey(id);
  }

  /**
   * The columns of view {@code id} in order, when its file tells all of them and they are distinct
   * (Spark refuses a view that names one twice): a SQL view whose SELECT names each column, or
   * selects {@code *} over such views or tables, or a table the project does not define whose
   * columns the target told; empty for any other table, a PySpark or file view, a generator, an
   * unnamed expression.
   */
  Optional<List<String>> of(ObjectId id) {
    Optional<List<String>> done = known.get(id);
    if (done != null) {
      return done;
    }
    known.put(id, Optional.empty()); // a view that reaches itself has no columns to tell
    Optional<List<String>> found = compute(id);
    known.put(id, found);
    return found;
  }

  private Optional<List<String>> compute(ObjectId id) {
    ProjectView u = project.views().get(id);
    if (project.definedTwice().contains(id)) {
      // DUPLICATE_VIEW is the error; which definition is meant is not known, so neither are the
      // columns its readers may read (found by QA: each was checked against the first file).
      return Optional.empty();
    }
    if (u == null) {
      // mlv's own tables (history, quarantine) change with the views they serve.
      return ReservedNames.isReserved(id)
          ? Optional.empty()
          : tables.of(id).filter(ViewColumns::distinct);
    }
    if (!(u.definition().body() instanceof ViewBody.Select)
        || u.facts().isEmpty()
        || !u.facts().get().parsed()) {
      return Optional.empty();
    }
    return u.facts().get().columns().flatMap(this::of);
  }

  /**
   * The columns a SELECT list (of a view, CTE or subquery) gives in order, when it tells all of
   * them and they are distinct: its names and its {@code *} items over tables whose columns are
   * known.
   */
  Optional<List<String>> of(OutputNames.Columns columns) {
    if (columns.opaque()) {
      return Optional.empty();
    }
    for (OutputNames.OutputName n : columns.names()) {
      // An unnamed expression is named after its text, and a[0] or (x).f by rules OutputNames
      // only approximates: such a view's columns are not claimed to be known.
      if (n.name() == null || n.name().contains("`") || n.name().contains("[")) {
        return Optional.empty();
      }
    }
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Optional<List<Column>> all = expanded(columns, true);
    if (all.isEmpty()) {
      return Optional.empty();
    }
    for (Column c : all.get()) {
      if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
        return Optional.empty();
      }
      names.add(c.name());
    }
    return Optional.of(names);
  }

  /**
   * The output of a SELECT list in order as far as told: its {@code *} items expanded where their
   * tables' columns are known, left out where not.
   */
  List<Column> output(OutputNames.Columns columns) {
    return expanded(columns, false).orElseThrow();
  }

  /**
   * All the output columns, every {@code *} expanded; empty when one cannot be expanded or an item
   * is neither a name nor a {@code *} (a generator's columns).
   */
  Optional<List<Column>> all(OutputNames.Columns columns) {
    return columns.opaque() ? Optional.empty() : expanded(columns, true);
  }

  /** As {@link #output}; when {@code whole}, empty if a {@code *} cannot be expanded. */
  private Optional<List<Column>> expanded(OutputNames.Columns columns, boolean whole) {
    List<Column> out = new ArrayList<>();
    List<OutputNames.OutputName> names = columns.names();
    int next = 0;
    for (OutputNames.Star star : columns.stars()) {
      for (; next < star.index(); next++) {
        out.add(named(names.get(next)));
      }
      Optional<List<Column>> expanded = expand(star);
      if (expanded.isEmpty() && whole) {
        return Optional.empty();
      }
      expanded.ifPresent(out::addAll);
    }
    for (; next < names.size(); next++) {
      out.add(named(names.get(next)));
    }
    return Optional.of(out);
  }

  /** A table of a {@code *} for messages: silver.a, or silver.a AS x. */
  String shown(OutputNames.Source s) {
    if (s.derived() != null) {
      String name = "the " + s.derived().kind() + " " + s.derived().name();
      return s.alias() == null || s.alias().equalsIgnoreCase(s.derived().name())
          ? name
          : name + " AS " + s.alias();
    }
    String name;
    try {
      name = project.names().display(project.names().resolve(s.table()));
    } catch (IllegalArgumentException e) {
      name = s.table().text();
    }
    return s.alias() == null ? name : name + " AS " + s.alias();
  }

  private static boolean distinct(List<String> names) {
    Set<String> seen = new HashSet<>();
    return names.stream().allMatch(n -> seen.add(n.toLowerCase(Locale.ROOT)));
  }

  private static Column named(OutputNames.OutputName n) {
    return new Column(n.name(), n.position(), null, null);
  }

  /**
   * A name of {@code star}'s EXCEPT list that none of its tables' columns has (Spark:
   * UNRESOLVED_COLUMN); empty when every name is one, or when a table's columns are not known.
   */
  Optional<String> unknownExcept(OutputNames.Star star) {
    if (star.except().isEmpty()) {
      return Optional.empty();
    }
    Optional<List<Column>> all =
        expand(
            new OutputNames.Star(
                star.index(), star.text(), star.position(), star.tables(), List.of()));
    if (all.isEmpty()) {
      return Optional.empty();
    }
    return star.except().stream()
        .filter(n -> all.get().stream().noneMatch(c -> c.name().equalsIgnoreCase(n)))
        .findFirst();
  }

  /** The columns {@code star} gives, each with its table; empty when one table's are not known. */
  private Optional<List<Column>> expand(OutputNames.Star star) {
    if (star.tables().isEmpty()) {
      return Optional.empty();
    }
    List<Column> out = new ArrayList<>();
    for (OutputNames.Source s : star.tables()) {
      Optional<List<String>> columns;
      if (s.derived() != null) {
        columns = of(s.derived().columns());
      } else {
        try {
          columns = of(project.names().resolve(s.table()));
        } catch (IllegalArgumentException e) {
          return Optional.empty();
        }
      }
      if (columns.isEmpty()) {
        return Optional.empty();
      }
      List<Column> right = new ArrayList<>();
      columns.get().forEach(c -> right.add(new Column(c, star.position(), star, s)));
      List<String> keys = s.natural() ? natural(out, right) : s.using();
      if (keys == null) {
        return Optional.empty();
      }
      if (keys.isEmpty()) {
        out.addAll(right); // also a NATURAL join with no column named alike: a cross join
      } else {
        Optional<List<Column>> joined = using(out, right, keys);
        if (joined.isEmpty()) {
          return Optional.empty();
        }
        out = joined.get();
      }
    }
    return except(out, star.except());
  }

  /**
   * {@code columns} less those {@code * EXCEPT (...)} names, compared without case as Spark does;
   * empty when one names no column there (Spark refuses it, and what it meant is not known).
   */
  private static Optional<List<Column>> except(List<Column> columns, List<String> except) {
    List<Column> out = new ArrayList<>(columns);
    for (String name : except) {
      if (!out.removeIf(c -> c.name().equalsIgnoreCase(name))) {
        return Optional.empty();
      }
    }
    return Optional.of(out);
  }

  /**
   * The columns of {@code left JOIN right USING (keys)} as Spark's * shows them: each key once,
   * found as the first column of its name on each side (the left's kept), then the left's other
   * columns, then the right's; empty when a side lacks a key (Spark refuses the join).
   */
  private static Optional<List<Column>> using(
      List<Column> left, List<Column> right, List<String> keys) {
    List<Column> out = new ArrayList<>();
    Set<Integer> leftKeys = new HashSet<>();
    Set<Integer> rightKeys = new HashSet<>();
    for (String k : keys) {
      int l = first(left, k);
      int r = first(right, k);
      if (l < 0 || r < 0) {
        return Optional.empty();
      }
      out.add(left.get(l));
      leftKeys.add(l);
      rightKeys.add(r);
    }
    for (int i = 0; i < left.size(); i++) {
      if (!leftKeys.contains(i)) {
        out.add(left.get(i));
      }
    }
    for (int i = 0; i < right.size(); i++) {
      if (!rightKeys.contains(i)) {
        out.add(right.get(i));
      }
    }
    return Optional.of(out);
  }

  /**
   * The join columns of {@code left NATURAL JOIN right}: the left's names, in order, that the right
   * has exactly (case-sensitively, as Spark intersects them); null when a side has a name twice,
   * whatever its case, whose pairing is not claimed here.
   */
  private static List<String> natural(List<Column> left, List<Column> right) {
    Set<String> leftSeen = new HashSet<>();
    for (Column c : left) {
      if (!leftSeen.add(c.name().toLowerCase(Locale.ROOT))) {
        return null;
      }
    }
    Set<String> rightNames = new HashSet<>();
    Set<String> rightSeen = new HashSet<>();
    for (Column c : right) {
      if (!rightSeen.add(c.name().toLowerCase(Locale.ROOT))) {
        return null;
      }
      rightNames.add(c.name());
    }
    return left.stream().map(Column::name).filter(rightNames::contains).toList();
  }

  private static int first(List<Column> columns, String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }
}
