package dev.mlv.check;

import dev.mlv.diag.Diagnostic;
import dev.mlv.project.ProjectView;
import dev.mlv.sql.CertainTypes;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OutputNames;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.QueryFeature;
import dev.mlv.sql.ViewDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Rules about the Delta table a view becomes, read from its file without Spark: what Delta would
 * refuse at the first refresh (column names, duplicate columns, a missing partition column, a CHECK
 * that is not an expression, property values, column mapping with change data feed).
 */
final class TableShapeCheck {
  private TableShapeCheck() {}

  /** {@code columns}: those of the project's views, for a view of the project (see ViewColumns). */
  /**
   * {@code arbitraryProperties}: a target's Spark conf lets Delta take table properties it does not
   * know ({@code spark.databricks.delta.allowArbitraryProperties.enabled}).
   */
  static void check(
      ProjectView v,
      Optional<ViewColumns> columns,
      boolean arbitraryProperties,
      List<Diagnostic> out) {
    ViewDefinition d = v.definition();
    columnMappingWithCdf(v, out);
    deltaProperties(d, arbitraryProperties, out);
    partitionedTwice(d, out);
    // What the parse found (and the parse cache kept): no second parse here.
    v.facts()
        .ifPresent(
            f -> {
              columnNames(v, f, columns, changeDataFeed(v), out);
              constraintSyntax(d, f, out);
            });
  }

  /** PARTITIONED BY (day, day): Spark refuses duplicate partition columns at the first refresh. */
  private static void partitionedTwice(ViewDefinition d, List<Diagnostic> out) {
    Set<String> seen = new HashSet<>();
    for (String p : d.partitionedBy()) {
      String name = p.replace("`", "");
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        int first = d.statement().indexOf(p);
        int again = first < 0 ? -1 : d.statement().indexOf(p, first + p.length());
        out.add(
            Diagnostic.error(
                "PARTITION_COLUMN",
                again < 0 ? d.position() : d.position().advance(d.statement(), again),
                "PARTITIONED BY names column " + name + " twice",
                "name each partition column once"));
      }
    }
  }

  /**
   * Delta refuses CREATE OR REPLACE on a table with both column mapping and change data feed
   * (DELTA_BLOCK_COLUMN_MAPPING_AND_CDC_OPERATION), so every refresh of such a view would fail.
   */
  private static void columnMappingWithCdf(ProjectView v, List<Diagnostic> out) {
    ViewDefinition d = v.definition();
    Optional<Map.Entry<String, String>> mapping =
        d.properties().entrySet().stream()
            .filter(e -> e.getKey().equalsIgnoreCase("delta.columnMapping.mode"))
            .filter(e -> !e.getValue().equalsIgnoreCase("none"))
            // A mode Delta does not know is PROPERTY_VALUE's to report, and is no mapping.
            .filter(e -> DeltaProperties.property(e.getKey()).orElseThrow().takes(e.getValue()))
            .findFirst();
    if (mapping.isEmpty()) {
      return;
    }
    // The SQL's own value wins over the project's enable_cdf: mlv adds the property only when the
    // SQL does not set it (found by QA: 'false' in the SQL was reported as CDF on).
    Optional<String> declared =
        d.properties().entrySet().stream()
            .filter(e -> e.getKey().equalsIgnoreCase("delta.enableChangeDataFeed"))
            .map(e -> e.getValue().strip())
            .findFirst();
    if (declared.isPresent()
        ? !declared.get().equalsIgnoreCase("true")
        : !v.settings().enableCdf()) {
      return;
    }
    String key = mapping.get().getKey();
    out.add(
        Diagnostic.error(
            "COLUMN_MAPPING_CDF",
            at(d, key),
            "column mapping ("
                + key
                + ") and change data feed together: Delta refuses CREATE OR REPLACE on such a"
                + " table, so no refresh of "
                + d.name().text()
                + " could succeed",
            declared.isPresent()
                ? "set delta.enableChangeDataFeed to 'false' or remove delta.columnMapping.mode in"
                    + " TBLPROPERTIES"
                : "set enable_cdf: false for this view under view_config (views reading it then"
                    + " refresh in full), or remove delta.columnMapping.mode"));
  }

  /** A CHECK that Spark's SQL cannot read, found here rather than at the view's first refresh. */
  private static void constraintSyntax(ViewDefinition d, QueryFacts facts, List<Diagnostic> out) {
    for (Constraint c : d.constraints()) {
      if (facts.unreadableChecks().contains(c.name())) {
        out.add(
            Diagnostic.error(
                "CONSTRAINT_SYNTAX",
                c.position(),
                "the CHECK of constraint "
                    + c.name()
                    + " is not a valid expression: "
                    + c.expression().strip(),
                "write a boolean expression over the view's columns"));
      }
    }
  }

  /**
   * The Delta properties in TBLPROPERTIES that Delta refuses when the view first refreshes: a key
   * it does not know ([DELTA_UNKNOWN_CONFIGURATION], unless the Spark conf allows arbitrary
   * properties), a true/false property with another value (Delta's own error for 'maybe' is
   * Java's), and an interval that is none ([DELTA_INVALID_INTERVAL]). Table features ({@code
   * delta.feature.*}) and constraints ({@code delta.constraints.*}) are Delta's to judge.
   */
  /** Delta's defaults of the two retention properties it compares (DeltaConfigs, 4.2.0). */
  private static final String LOG_RETENTION = "delta.logRetentionDuration";

  private static final String FILE_RETENTION = "delta.deletedFileRetentionDuration";

  /**
   * Delta compares the two retentions (measured on 4.2.0: "The table property
   * delta.logRetentionDuration(1 days) needs to be greater than or equal to
   * delta.deletedFileRetentionDuration(7 days)"), each declared or at its default (30 and 7 days),
   * and refuses a negative one; found by QA. Only values written as whole amounts of units are
   * compared.
   */
  private static void retentions(ViewDefinition d, List<Diagnostic> out) {
    Optional<Map.Entry<String, String>> log = declared(d, LOG_RETENTION);
    Optional<Map.Entry<String, String>> files = declared(d, FILE_RETENTION);
    if (log.isEmpty() && files.isEmpty()) {
      return;
    }
    String logValue = log.map(Map.Entry::getValue).orElse("interval 30 days");
    String filesValue = files.map(Map.Entry::getValue).orElse("interval 1 week");
    java.util.OptionalLong logMicros = DeltaProperties.micros(logValue);
    java.util.OptionalLong filesMicros = DeltaProperties.micros(filesValue);
    for (var e : List.of(log, files)) {
      if (e.isPresent() && DeltaProperties.micros(e.get().getValue()).orElse(0) < 0) {
        out.add(
            Diagnostic.error(
                "PROPERTY_VALUE",
                at(d, e.get().getKey()),
                "table property "
                    + e.get().getKey()
                    + " is negative ('"
                    + e.get().getValue()
                    + "'); Delta refuses the view at its first refresh",
                null));
        return;
      }
    }
    if (logMicros.isEmpty()
        || filesMicros.isEmpty()
        || logMicros.getAsLong() >= filesMicros.getAsLong()) {
      return;
    }
    Map.Entry<String, String> blamed = log.orElseGet(files::get);
    out.add(
        Diagnostic.error(
            "PROPERTY_VALUE",
            at(d, blamed.getKey()),
            "table property "
                + LOG_RETENTION
                + " ('"
                + logValue
                + "'"
                + (log.isEmpty() ? ", Delta's default" : "")
                + ") is shorter than "
                + FILE_RETENTION
                + " ('"
                + filesValue
                + "'"
                + (files.isEmpty() ? ", Delta's default" : "")
                + "), which Delta refuses at the view's first refresh",
            "keep the log at least as long as deleted files: raise "
                + LOG_RETENTION
                + " or lower "
                + FILE_RETENTION));
  }

  private static Optional<Map.Entry<String, String>> declared(ViewDefinition d, String key) {
    return d.properties().entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(key))
        .findFirst();
  }

  /** Where {@code key} is written in the view's TBLPROPERTIES, else the statement's start. */
  private static dev.mlv.diag.Position at(ViewDefinition d, String key) {
    int at = d.statement().indexOf(key);
    return at < 0 ? d.position() : d.position().advance(d.statement(), at - 1);
  }

  private static void deltaProperties(
      ViewDefinition d, boolean arbitraryAllowed, List<Diagnostic> out) {
    retentions(d, out);
    for (Map.Entry<String, String> e : d.properties().entrySet()) {
      String key = e.getKey();
      String lower = key.toLowerCase(Locale.ROOT);
      if (!lower.startsWith("delta.")
          || lower.startsWith("delta.feature.")
          || lower.startsWith("delta.constraints.")) {
        continue;
      }
      var where = at(d, key);
      Optional<DeltaProperties.Property> property = DeltaProperties.property(key);
      if (property.isEmpty()) {
        if (!arbitraryAllowed) {
          out.add(
              Diagnostic.error(
                  "PROPERTY_NAME",
                  where,
                  "Delta has no table property "
                      + key
                      + "; Delta refuses the view at its first refresh"
                      + " ([DELTA_UNKNOWN_CONFIGURATION])",
                  dev.mlv.diag.Suggestions.nearest(key, DeltaProperties.keys())
                      .map(n -> "did you mean " + n + "?")
                      .orElse(
                          "Delta's table properties start with delta. (delta.appendOnly,"
                              + " delta.logRetentionDuration, ...); a property of your own needs"
                              + " another prefix")));
        }
      } else if (!property.get().takes(e.getValue())) {
        DeltaProperties.Property p = property.get();
        out.add(
            Diagnostic.error(
                "PROPERTY_VALUE",
                where,
                "table property "
                    + key
                    + " must be "
                    + p.expected()
                    + ", not '"
                    + e.getValue()
                    + "'"
                    + (p.kind() == DeltaProperties.Kind.BOOLEAN
                        ? ""
                        : "; Delta refuses the view at its first refresh"),
                switch (p.kind()) {
                  case INTERVAL ->
                      "write it as 'interval 30 days' (Delta takes no months or years: '365 days'"
                          + " for a year)";
                  case INTEGER ->
                      e.getValue().strip().equals(e.getValue())
                          ? null
                          : "write the number without spaces: Delta does not strip them";
                  default -> null;
                }));
      }
    }
  }

  /**
   * What the SELECT's own column list already shows: a column named twice (Delta refuses the
   * table), also through a {@code *} over views of the project whose columns are known, and, when
   * every column is known (named, or through such a {@code *}), a PARTITIONED BY column it lacks.
   */
  private static void outputColumns(
      ViewDefinition d,
      OutputNames.Columns columns,
      Optional<ViewColumns> viewColumns,
      List<Diagnostic> out) {
    duplicates(d, columns, viewColumns, out);
    List<String> names;
    if (columns.complete()) {
      // Spark names a column without an alias after its text, sum(amount): that is its name here.
      names =
          columns.names().stream()
              .map(c -> c.name() != null ? c.name() : c.text().strip())
              .toList();
    } else {
      Optional<List<ViewColumns.Column>> all = viewColumns.flatMap(c -> c.all(columns));
      if (all.isEmpty() || all.get().stream().anyMatch(c -> c.name() == null)) {
        return;
      }
      names = all.get().stream().map(ViewColumns.Column::name).toList();
    }
    Set<String> seen = new HashSet<>();
    names.forEach(n -> seen.add(n.toLowerCase(Locale.ROOT)));
    Set<String> partitions = new HashSet<>();
    boolean allFound = true;
    for (String p : d.partitionedBy()) {
      String name = p.replace("`", "");
      partitions.add(name.toLowerCase(Locale.ROOT));
      if (!seen.contains(name.toLowerCase(Locale.ROOT))) {
        allFound = false;
        out.add(
            Diagnostic.error(
                "PARTITION_COLUMN",
                d.partitionColumnPosition(p),
                "PARTITIONED BY column " + name + " is not a column of the SELECT",
                "select it, or partition by one of: "
                    + String.join(", ", names.stream().distinct().toList())));
      }
    }
    // Each column a partition column: Delta would keep no column in the data files.
    if (allFound
        && !partitions.isEmpty()
        && partitions.size() == d.partitionedBy().size()
        && seen.size() == names.size()
        && partitions.equals(seen)) {
      String first = d.partitionedBy().get(0);
      out.add(
          Diagnostic.error(
              "PARTITION_COLUMN",
              d.partitionColumnPosition(first),
              "PARTITIONED BY names every column of the SELECT ("
                  + String.join(", ", names)
                  + "): Spark would refuse "
                  + d.name().text()
                  + " when apply or refresh runs it ([ALL_PARTITION_COLUMNS_NOT_ALLOWED])",
              "keep at least one column out of PARTITIONED BY"));
    }
  }

  /**
   * A partition column the SELECT list makes an array, a map or a struct, which Spark cannot
   * partition by ([INVALID_PARTITION_COLUMN_DATA_TYPE]): where the item's text fixes the type
   * (sql/CertainTypes), or where it is a source's struct column (or array of structs) selected as
   * it is, whose fields the target told; not under a set operation, whose column has the type of
   * all branches.
   */
  private static void complexPartitions(
      ProjectView v,
      QueryFacts facts,
      OutputNames.Columns columns,
      Optional<ViewColumns> viewColumns,
      List<Diagnostic> out) {
    if (facts.features().stream().anyMatch(SET_OPERATIONS::contains)) {
      return;
    }
    ViewDefinition d = v.definition();
    for (String p : d.partitionedBy()) {
      String name = p.replace("`", "");
      List<OutputNames.OutputName> items =
          columns.names().stream().filter(c -> name.equalsIgnoreCase(c.name())).toList();
      if (items.size() > 1) {
        continue; // named twice (DUPLICATE_COLUMN)
      }
      Optional<OutputNames.OutputName> item = items.stream().findFirst();
      Optional<String> type =
          item.flatMap(i -> CertainTypes.complex(i.text(), i.name()))
              .map(t -> (t.equals("ARRAY") ? "an " : "a ") + t)
              .or(
                  () ->
                      viewColumns
                          .flatMap(c -> c.fields(v.id(), List.of(name)))
                          .map(
                              f ->
                                  "a struct (or an array of structs) with the fields "
                                      + String.join(", ", f)));
      if (type.isEmpty()) {
        continue;
      }
      String where =
          item.map(
                  i ->
                      " (the SELECT's "
                          + i.text().strip()
                          + " at "
                          + i.position().line()
                          + ":"
                          + i.position().column()
                          + ")")
              .orElse("");
      out.add(
          Diagnostic.error(
              "PARTITION_COLUMN",
              d.partitionColumnPosition(p),
              "PARTITIONED BY column "
                  + name
                  + " is "
                  + type.get()
                  + where
                  + ", and Spark partitions only by a column of a simple type: Spark would refuse "
                  + d.name().text()
                  + " when apply or refresh runs it ([INVALID_PARTITION_COLUMN_DATA_TYPE])",
              "partition by a column of a simple type (a date, a string, a number)"));
    }
  }

  /** A set operation's column has the type of all its branches, which the first does not fix. */
  private static final Set<QueryFeature> SET_OPERATIONS =
      Set.of(QueryFeature.UNION_ALL, QueryFeature.UNION_DISTINCT, QueryFeature.INTERSECT_EXCEPT);

  /**
   * The columns a SELECT list gives, its {@code *} items expanded where the project knows their
   * tables' columns; only its names when no columns are known (validate of one file).
   */
  private static List<ViewColumns.Column> output(
      OutputNames.Columns columns, Optional<ViewColumns> viewColumns) {
    return viewColumns
        .map(c -> c.output(columns))
        .orElseGet(
            () ->
                columns.names().stream()
                    .map(n -> new ViewColumns.Column(n.name(), n.position(), null, null))
                    .toList());
  }

  /**
   * A column name the output holds twice, compared as Delta does, without case. Between two named
   * items it is reported at the second; where a {@code *} gives one of them, at the (last) {@code
   * *}, once for all the names it repeats: the columns behind it are not in the file.
   */
  private static void duplicates(
      ViewDefinition d,
      OutputNames.Columns columns,
      Optional<ViewColumns> viewColumns,
      List<Diagnostic> out) {
    List<ViewColumns.Column> output = output(columns, viewColumns);
    Map<String, List<ViewColumns.Column>> byName = new LinkedHashMap<>();
    for (ViewColumns.Column c : output) {
      if (c.name() != null) {
        byName.computeIfAbsent(c.name().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(c);
      }
    }
    // Per *, the repeated names it is blamed for, each with where its columns come from.
    Map<OutputNames.Star, List<List<ViewColumns.Column>>> atStar = new LinkedHashMap<>();
    Set<ViewColumns.Column> atItem = new HashSet<>();
    for (List<ViewColumns.Column> same : byName.values()) {
      if (same.size() < 2) {
        continue;
      }
      OutputNames.Star last = null;
      for (ViewColumns.Column c : same) {
        last = c.star() != null ? c.star() : last;
      }
      if (last == null) {
        atItem.addAll(same.subList(1, same.size()));
      } else {
        atStar.computeIfAbsent(last, k -> new ArrayList<>()).add(same);
      }
    }
    OutputNames.Star previous = null;
    for (ViewColumns.Column c : output) {
      if (c.star() == null && atItem.contains(c)) {
        out.add(
            Diagnostic.error(
                "DUPLICATE_COLUMN",
                c.position(),
                "column "
                    + c.name()
                    + " is selected twice; a Delta table's column names are unique",
                "give one of them another name with AS"));
      } else if (c.star() != null && c.star() != previous && atStar.containsKey(c.star())) {
        out.add(starDuplicates(d, c.star(), atStar.get(c.star()), viewColumns.orElseThrow()));
      }
      previous = c.star();
    }
  }

  private static Diagnostic starDuplicates(
      ViewDefinition d,
      OutputNames.Star star,
      List<List<ViewColumns.Column>> repeated,
      ViewColumns viewColumns) {
    // Names whose columns come from the same places are told together: id and amount (from ...).
    Map<String, List<String>> byOrigin = new LinkedHashMap<>();
    for (List<ViewColumns.Column> same : repeated) {
      List<String> from = new ArrayList<>();
      for (ViewColumns.Column c : same) {
        from.add(
            c.star() == null
                ? "the column "
                    + c.name()
                    + " at "
                    + c.position().line()
                    + ":"
                    + c.position().column()
                : viewColumns.shown(c.source()));
      }
      byOrigin
          .computeIfAbsent(String.join(" and ", from), k -> new ArrayList<>())
          .add(same.get(0).name());
    }
    List<String> parts = new ArrayList<>();
    int count = 0;
    for (Map.Entry<String, List<String>> e : byOrigin.entrySet()) {
      List<String> names = e.getValue();
      count += names.size();
      List<String> shown = names.stream().limit(10).toList();
      parts.add(
          String.join(", ", shown)
              + (names.size() > shown.size()
                  ? " and " + (names.size() - shown.size()) + " more"
                  : "")
              + " (from "
              + e.getKey()
              + ")");
    }
    return Diagnostic.error(
        "DUPLICATE_COLUMN",
        star.position(),
        star.text()
            + " selects "
            + (count == 1 ? "a column name twice: " : count + " column names twice: ")
            + String.join("; ", parts)
            + "; a Delta table's column names are unique: Spark would refuse "
            + d.name().text()
            + " when apply or refresh runs it ([COLUMN_ALREADY_EXISTS])",
        "select the columns by name instead of "
            + star.text()
            + ", giving one of each pair another name with AS");
  }

  /** A date or timestamp literal as written (OutputNames gives it no name, as an expression). */
  private static final Pattern TYPED_LITERAL =
      Pattern.compile("(?i)^\\s*(DATE|TIMESTAMP(?:_NTZ|_LTZ)?)\\s*'");

  /** How Spark names a typed literal's column, its value left out: TIMESTAMP '...'. */
  private static String sparkName(String literal) {
    java.util.regex.Matcher m = TYPED_LITERAL.matcher(literal);
    String type = m.find() ? m.group(1).toUpperCase(Locale.ROOT) : "DATE";
    return (type.equals("TIMESTAMP_LTZ") ? "TIMESTAMP" : type) + " '...'";
  }

  /**
   * The column names change data feed adds to its rows, which Delta refuses in a table that has it
   * on ([DELTA_TABLE_ALREADY_CONTAINS_CDC_COLUMNS]); compared as written, as Delta compares them
   * (measured on Delta with Spark 4.1.1: _COMMIT_TIMESTAMP and _Change_Type are stored).
   */
  private static final Set<String> CDC_COLUMNS =
      Set.of("_change_type", "_commit_version", "_commit_timestamp");

  /**
   * Whether the view's table has change data feed on: as TBLPROPERTIES sets it, else as enable_cdf
   * (on by default), which the targets add only when TBLPROPERTIES does not set it.
   */
  private static boolean changeDataFeed(ProjectView v) {
    return v.definition().properties().entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase("delta.enableChangeDataFeed"))
        .map(e -> e.getValue().strip().equalsIgnoreCase("true"))
        .findFirst()
        .orElse(v.settings().enableCdf());
  }

  /**
   * A column named like one of change data feed's own, in a view with change data feed on: Delta
   * refuses to create the table, so the view fails at its first refresh. Found by QA.
   */
  private static void changeDataFeedNames(
      ViewDefinition d,
      OutputNames.Columns columns,
      Optional<ViewColumns> viewColumns,
      List<Diagnostic> out) {
    boolean declared =
        d.properties().keySet().stream()
            .anyMatch(k -> k.equalsIgnoreCase("delta.enableChangeDataFeed"));
    List<ViewColumns.Column> output = output(columns, viewColumns);
    for (ViewColumns.Column c : output) {
      if (c.name() == null || !CDC_COLUMNS.contains(c.name())) {
        continue;
      }
      String what =
          c.star() == null
              ? "column name " + c.name()
              : c.star().text()
                  + " selects a column named "
                  + c.name()
                  + " (from "
                  + viewColumns.orElseThrow().shown(c.source())
                  + ")";
      out.add(
          Diagnostic.error(
              "COLUMN_NAME",
              c.star() == null ? c.position() : c.star().position(),
              what
                  + ": change data feed, which "
                  + d.name().text()
                  + (declared ? " turns on in TBLPROPERTIES" : " has on (enable_cdf, the default)")
                  + ", reserves that name, and Delta refuses the view at its first refresh"
                  + " ([DELTA_TABLE_ALREADY_CONTAINS_CDC_COLUMNS])",
              declared
                  ? "rename the column with AS, or remove delta.enableChangeDataFeed from"
                      + " TBLPROPERTIES"
                  : "rename the column with AS (for example "
                      + c.name().substring(1)
                      + "), or set enable_cdf: false for this view under view_config (views"
                      + " reading it then refresh in full)"));
    }
  }

  /** Characters Delta refuses in a column name unless the table uses column mapping. */
  private static final String NOT_IN_COLUMN_NAMES = " ,;{}()\n\t=";

  /**
   * Column names Delta cannot store: an expression without an alias (Spark names the column after
   * its text, {@code sum(amt)}) or an alias with a space or one of {@code ,;{}()=}. Without this
   * the view passed validate and every refresh failed with
   * DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES.
   */
  private static void columnNames(
      ProjectView v,
      QueryFacts facts,
      Optional<ViewColumns> viewColumns,
      boolean changeDataFeed,
      List<Diagnostic> out) {
    ViewDefinition d = v.definition();
    boolean mapped =
        d.properties().entrySet().stream()
            .anyMatch(
                e ->
                    e.getKey().equalsIgnoreCase("delta.columnMapping.mode")
                        && !e.getValue().equalsIgnoreCase("none"));
    if (mapped) {
      return;
    }
    OutputNames.Columns columns =
        facts.columns().orElse(new OutputNames.Columns(List.of(), List.of(), true));
    outputColumns(d, columns, viewColumns, out);
    complexPartitions(v, facts, columns, viewColumns, out);
    if (changeDataFeed) {
      changeDataFeedNames(d, columns, viewColumns, out);
    }
    for (OutputNames.OutputName c : columns.names()) {
      if (c.name() == null && TYPED_LITERAL.matcher(c.text()).find()) {
        out.add(
            Diagnostic.error(
                "COLUMN_NAME",
                c.position(),
                "the literal "
                    + c.text().strip()
                    + " has no alias: Spark names its column after its type and value, "
                    + sparkName(c.text())
                    + ", with a space, which Delta refuses in a column name"
                    + " ([DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES])",
                "give it a name: " + c.text().strip() + " AS some_name"));
      } else if (c.name() == null) {
        out.add(
            Diagnostic.error(
                "COLUMN_NAME",
                c.position(),
                "the expression "
                    + c.text()
                    + " has no alias: Spark names its column after the expression, and Delta"
                    + " cannot store a column name with a space or any of ,;{}()=",
                "give it a name: " + c.text() + " AS some_name"));
      } else if (c.name().chars().anyMatch(ch -> NOT_IN_COLUMN_NAMES.indexOf(ch) >= 0)) {
        out.add(
            Diagnostic.error(
                "COLUMN_NAME",
                c.position(),
                "column name '"
                    + c.name()
                    + "' holds a character Delta cannot store in a column name (a space or any"
                    + " of ,;{}()=)",
                "rename it (for example "
                    + c.name().strip().replaceAll("[ ,;{}()\\n\\t=]+", "_")
                    + "), or set TBLPROPERTIES ('delta.columnMapping.mode' = 'name') with"
                    + " enable_cdf: false"));
      }
    }
  }
}
