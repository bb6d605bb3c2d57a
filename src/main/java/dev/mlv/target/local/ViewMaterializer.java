package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OnMismatch;
import dev.mlv.sql.Places;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.VariantType;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;

/**
 * Writes a view's result into its Delta table in exactly one commit, applying the view's
 * constraints on the way: DROP rules remove rows and are counted, FAIL rules (the default) abort
 * the refresh, and a failed refresh leaves the table at its previous version.
 *
 * <p>The SELECT runs once. Each row's constraint results are folded into a bit mask, a
 * nondeterministic UDF adds the mask's bits to accumulators and decides whether the row is kept,
 * and a FAIL violation raises an error from the same expression. Accumulators rather than {@code
 * Dataset.observe}: an {@code Observation} stays empty when the write is a Delta CTAS.
 */
public final class ViewMaterializer {

  /** Rule id of the diagnostic for a row that breaks an {@code ON MISMATCH FAIL} constraint. */
  public static final String CONSTRAINT_FAILED = "CONSTRAINT_FAILED";

  /** Rule id for any other failed refresh: bad SQL, missing source, runtime error. */
  public static final String REFRESH_FAILED = "REFRESH_FAILED";

  private static final int MAX_CONSTRAINTS = 62; // one bit each in a signed long
  private static final int EXAMPLE_COLUMNS = 5;
  private static final int FAILING_ROWS = 5;
  private static final String FAIL_START = "MLVFAIL<<";
  private static final String FAIL_END = ">>MLVFAIL";
  private static final Pattern FAIL_MARKER =
      Pattern.compile(Pattern.quote(FAIL_START) + "(\\d+)\\|(.*?)" + Pattern.quote(FAIL_END));

  private final SparkRuntime runtime;

  public ViewMaterializer(SparkRuntime runtime) {
    this.runtime = runtime;
  }

  public MaterializeResult materialize(MaterializeRequest request) {
    return materialize(request, Optional.empty());
  }

  /**
   * Materializes the view and, with a quarantine, appends the rows its DROP rules removed to the
   * quarantine table once the view's commit has landed. The SELECT's result is then cached for the
   * two writes, so both see the same rows even when a source changes in between.
   */
  public MaterializeResult materialize(
      MaterializeRequest request, Optional<QuarantineTarget> quarantine) {
    // Spark reads each source at the version recorded as consumed, never a later commit: the next
    // incremental refresh reads the changes after that version.
    Map<Path, Long> pins = new java.util.HashMap<>();
    request.readAt().forEach((source, version) -> pins.put(tableDir(source), version));
    return ReadPins.with(pins, () -> write(request, quarantine));
  }

  private MaterializeResult write(
      MaterializeRequest request, Optional<QuarantineTarget> quarantine) {
    ObjectId view = request.view();
    List<Constraint> constraints = request.constraints();
    if (constraints.size() > MAX_CONSTRAINTS) {
      throw new MlvException(
          REFRESH_FAILED,
          view + " declares " + constraints.size() + " constraints; at most " + MAX_CONSTRAINTS);
    }
    SparkSession spark = prepare(view);
    createSchema(view);
    String select = stripTrailingSemicolon(request.selectSql());
    List<String> columns = analyse(spark, view, select, request.selectAt());
    checkPartitionColumns(view, request.partitionedBy(), columns);
    if (quarantine.isPresent()) {
      QuarantineStore.checkColumns(view, columns);
    }

    String suffix = UUID.randomUUID().toString().replace("-", "");
    String udfName = "mlv_tally_" + suffix;
    Dataset<Row> cached = null;
    String source = select;
    if (quarantine.isPresent()) {
      cached = spark.sql(select).persist(StorageLevel.MEMORY_AND_DISK());
      cached.createOrReplaceTempView("mlv_source_" + suffix);
      source = "SELECT * FROM mlv_source_" + suffix;
    }
    try {
      Tally tally = new Tally(spark, constraints);
      UserDefinedFunction udf =
          functions.udf(tally, DataTypes.BooleanType).asNondeterministic().withName(udfName);
      spark.udf().register(udfName, udf);
      try {
        spark.sql(createOrReplaceSql(request, source, columns, udfName));
      } catch (Exception e) {
        // First: a constraint Spark cannot resolve (its error quotes the plan, FAIL markers too).
        MlvException unresolved =
            unresolvedConstraint(spark, source, view, constraints, columns, e);
        if (unresolved != null) {
          throw unresolved;
        }
        if (String.valueOf(SparkMessages.telling(e).getMessage()).contains(VARIANT_SCAN_RULE)) {
          throw variantCase(spark, select, view, e);
        }
        throw translate(view, constraints, e, spark, source, columns);
      } finally {
        spark.sql("DROP TEMPORARY FUNCTION IF EXISTS " + udfName);
      }

      long version =
          Warehouse.latestCommit(tableDir(view))
              .orElseThrow(
                  () -> new IllegalStateException("no Delta commit after writing " + view));
      Map<String, Long> violations = new LinkedHashMap<>();
      for (int i = 0; i < constraints.size(); i++) {
        violations.merge(constraints.get(i).name(), tally.violations[i].value(), Long::sum);
      }
      long dropped = tally.dropped.value();
      if (quarantine.isPresent() && dropped > 0) {
        QuarantineTarget q = quarantine.get();
        prepare(q.table());
        QuarantineStore.append(
            q.table(),
            tableDir(q.table()),
            spark.sql(quarantineSql(source, constraints)),
            q.runId(),
            version,
            Instant.now());
      }
      return new MaterializeResult(tally.kept.value(), dropped, violations, version);
    } finally {
      if (cached != null) {
        spark.catalog().dropTempView("mlv_source_" + suffix);
        cached.unpersist();
      }
    }
  }

  /** Where a refresh keeps the rows it drops, and the run they are recorded under. */
  public record QuarantineTarget(ObjectId table, String runId) {}

  /**
   * The dropped rows with the names of every rule each broke. Only DROP rules matter: had a FAIL
   * rule been broken the view's commit would not have landed.
   */
  static String quarantineSql(String source, List<Constraint> constraints) {
    List<String> names = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (Constraint c : constraints) {
      String broken = broken(c);
      names.add("CASE WHEN " + broken + " THEN " + literal(c.name()) + " END");
      if (c.onMismatch() == OnMismatch.DROP) {
        dropped.add(broken);
      }
    }
    return "SELECT mlv_source.*, filter(array("
        + String.join(", ", names)
        + "), mlv_c -> mlv_c IS NOT NULL) AS "
        + QuarantineStore.CONSTRAINTS
        + "\nFROM (\n"
        + source
        + "\n) AS mlv_source\nWHERE "
        + (dropped.isEmpty() ? "false" : String.join("\n   OR ", dropped));
  }

  /** A few rows that break a FAIL rule, looked up after the failure so a failed run names them. */
  private static java.util.function.IntFunction<List<String>> failingRows(
      SparkSession spark, String source, List<String> columns, List<Constraint> constraints) {
    return i -> {
      try {
        // The columns the rule reads are always among the few shown: the value that broke it.
        java.util.regex.Pattern word = java.util.regex.Pattern.compile("\\w+");
        java.util.Set<String> read = new java.util.HashSet<>();
        word.matcher(constraints.get(i).expression().toLowerCase(java.util.Locale.ROOT))
            .results()
            .forEach(r -> read.add(r.group()));
        java.util.Set<String> chosen = new java.util.HashSet<>();
        columns.stream()
            .filter(c -> read.contains(c.toLowerCase(java.util.Locale.ROOT)))
            .forEach(chosen::add);
        for (String c : columns) {
          if (chosen.size() >= EXAMPLE_COLUMNS) {
            break;
          }
          chosen.add(c);
        }
        // In the SELECT's order, which is how a reader finds the row.
        List<String> picked = columns.stream().filter(chosen::contains).toList();
        Dataset<Row> sample =
            spark.sql(
                "SELECT "
                    + picked.stream()
                        .map(c -> "mlv_source." + SparkRuntime.quote(c))
                        .collect(Collectors.joining(", "))
                    + " FROM (\n"
                    + source
                    + "\n) AS mlv_source WHERE "
                    + broken(constraints.get(i))
                    + " LIMIT "
                    + FAILING_ROWS);
        org.apache.spark.sql.types.StructField[] fields = sample.schema().fields();
        List<String> rows = new ArrayList<>();
        for (Row r : sample.collectAsList()) {
          List<String> cells = new ArrayList<>();
          for (int k = 0; k < fields.length; k++) {
            // As mlv sql shows values: binary in hex, NULL inside arrays and maps.
            cells.add(
                fields[k].name()
                    + "="
                    + (r.isNullAt(k)
                        ? "NULL"
                        : dev.mlv.target.SqlValue.display(
                            SparkValues.of(r.get(k), fields[k].dataType()))));
          }
          rows.add(String.join(", ", cells) + (picked.size() < columns.size() ? ", ..." : ""));
        }
        return rows;
      } catch (Exception e) { // the failure itself is what the user needs; samples are a bonus
        return List.of();
      }
    };
  }

  /**
   * The rows of {@code source} that break each {@code ON MISMATCH FAIL} rule, counted in one query
   * after a refresh failed on {@code failed}, so the failed run records its violations as a
   * completed one does. Only on the failure path: a refresh that completes counts in the write's
   * own pass. DROP rules are left out, since a failed refresh dropped nothing. Empty when the rows
   * cannot be counted: the run's violations have no "unknown" (dropsNotMeasured would also deny the
   * drops, which are known: none), so no entry is the honest record, and the error still names the
   * rule. Found by QA.
   */
  private static Map<String, Long> failCounts(
      SparkSession spark, String source, List<Constraint> constraints, Constraint failed) {
    List<Constraint> fail =
        constraints.stream().filter(c -> c.onMismatch() == OnMismatch.FAIL).toList();
    try {
      Row counts =
          spark
              .sql(
                  "SELECT "
                      + fail.stream()
                          .map(c -> "count_if(" + broken(c) + ")")
                          .collect(Collectors.joining(", "))
                      + "\nFROM (\n"
                      + source
                      + "\n) AS mlv_source")
              .first();
      Map<String, Long> out = new LinkedHashMap<>();
      for (int i = 0; i < fail.size(); i++) {
        out.merge(fail.get(i).name(), counts.getLong(i), Long::sum);
      }
      // A row broke the rule the refresh failed on: a count without it read other rows than the
      // refresh did (a nondeterministic SELECT), so it is no count of that refresh.
      return out.getOrDefault(failed.name(), 0L) > 0 ? out : Map.of();
    } catch (Exception e) { // the failure itself is what the user needs; the counts are a bonus
      return Map.of();
    }
  }

  /**
   * A refresh that a row breaking an {@code ON MISMATCH FAIL} rule stopped, with the rows that
   * broke each FAIL rule ({@code violations}, empty when they could not be counted), so the failed
   * view's run records them.
   */
  static final class ConstraintFailed extends MlvException {
    private final transient Map<String, Long> violations;

    ConstraintFailed(Diagnostic diagnostic, Map<String, Long> violations, Throwable cause) {
      super(diagnostic, cause);
      this.violations = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(violations));
    }

    Map<String, Long> violations() {
      return violations;
    }
  }

  /**
   * The first constraint Spark refuses as a condition on the SELECT's rows, as an error at the
   * constraint's expression in the view's file; null when Spark takes them all. Asked only after
   * the write failed, since Spark's own error quotes and places the SQL mlv generated around the
   * constraints ({@code mlv_tally_...}, {@code coalesce((amount), false)}), which the user never
   * wrote. A constraint is refused when Spark refuses the condition mlv generates from it or the
   * expression itself as a filter (an unknown column, an aggregate, window function or generator, a
   * CHECK that is no boolean, a STRING among them); the error then quotes Spark's refusal of the
   * expression as written, where there is one. Found by QA.
   */
  private static MlvException unresolvedConstraint(
      SparkSession spark,
      String source,
      ObjectId view,
      List<Constraint> constraints,
      List<String> columns,
      Exception writeFailure) {
    if (constraints.isEmpty()) {
      return null;
    }
    Dataset<Row> rows = spark.sql(source);
    for (Constraint c : constraints) {
      Exception generated = refusal(rows, c.brokenSql());
      // The expression alone, as a filter: Spark's error then quotes and places only its text.
      // Spark refuses a STRING there, which coalesce((check), false) casts row by row, failing
      // the write with [CAST_INVALID_INPUT] and no word of the constraint (found by QA).
      Exception written = refusal(rows, c.expression());
      if (generated == null && written == null) {
        continue;
      }
      Exception e = written != null ? written : generated;
      String condition = condition(e);
      String why =
          condition.equals("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN")
              ? "it is of type " + typeOf(rows, c) + ", not BOOLEAN ([" + condition + "])"
              : SparkMessages.withoutSparkPlace(SparkMessages.explanation(e));
      Position at =
          written == null
              ? Places.inConstraint(c, 0)
              : SparkMessages.place(written, c.expression(), Places.inConstraint(c, 0))
                  .orElse(Places.inConstraint(c, 0));
      return new MlvException(
          Diagnostic.error(
              REFRESH_FAILED,
              at,
              failedConstraint(view, c) + " cannot be evaluated: " + why,
              constraintHint(condition, e, columns)),
          writeFailure);
    }
    return null;
  }

  /** Spark's refusal of {@code condition} as a filter on {@code rows}, or null when it takes it. */
  private static Exception refusal(Dataset<Row> rows, String condition) {
    try {
      rows.where(condition).schema();
      return null;
    } catch (Exception e) { // AnalysisException or ParseException, thrown unchecked
      return e;
    }
  }

  private static String condition(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.apache.spark.SparkThrowable s && s.getCondition() != null) {
        return s.getCondition();
      }
    }
    return "";
  }

  /** The type of a constraint's expression, as Spark names it (DOUBLE), or "another type". */
  private static String typeOf(Dataset<Row> rows, Constraint c) {
    try {
      return rows.selectExpr("(" + c.expression() + ")").schema().fields()[0].dataType().sql();
    } catch (Exception e) { // the refusal is what matters; its type is a help
      return "another type";
    }
  }

  private static String constraintHint(String condition, Exception e, List<String> columns) {
    String nothing = "; nothing was written";
    if (condition.equals("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN")) {
      return "a CHECK is a condition each row must meet: write a boolean expression over the"
          + " view's columns (amount > 0, name IS NOT NULL)"
          + nothing;
    }
    if (condition.equals("INVALID_WHERE_CONDITION")
        || condition.startsWith("UNSUPPORTED_GENERATOR")
        || String.valueOf(SparkMessages.explanation(e)).contains("window functions")) {
      return "a constraint tests each row on its own: compute the aggregate, window or generator"
          + " in the view's SELECT and check its column"
          + nothing;
    }
    return "a constraint reads the columns of the view's SELECT: "
        + String.join(", ", columns)
        + nothing;
  }

  /** "refresh of V failed: constraint C CHECK (expr)", how both constraint failures begin. */
  private static String failedConstraint(ObjectId view, Constraint c) {
    return "refresh of "
        + view.shortName()
        + " failed: constraint "
        + c.name()
        + " CHECK ("
        + c.expression()
        + ")";
  }

  private static String broken(Constraint c) {
    return c.brokenSql();
  }

  public boolean tableExists(ObjectId table) {
    return Warehouse.isTable(tableDir(table));
  }

  /** Drops the table and its folder; false when there was no table. */
  public boolean dropTable(ObjectId table) {
    boolean existed = tableExists(table);
    prepare(table).sql("DROP TABLE IF EXISTS " + sqlName(table));
    return existed;
  }

  /**
   * Renames by moving the folder, also across schemas and lakehouses: without a metastore the
   * folder is the name, and the Delta log refers to its data files by relative paths.
   */
  public void renameTable(ObjectId from, ObjectId to) {
    prepare(from);
    prepare(to);
    if (!tableExists(from)) {
      throw new MlvException("TABLE_NOT_FOUND", "cannot rename " + from + ": no such table");
    }
    if (Warehouse.isTable(tableDir(to))) {
      throw new MlvException("TABLE_EXISTS", "cannot rename " + from + " to " + to + ": exists");
    }
    if (Files.exists(tableDir(to))) {
      // No commit, so no table: what a write stopped before its first commit leaves behind.
      throw new MlvException(
          "TABLE_EXISTS",
          "cannot rename "
              + from
              + " to "
              + to
              + ": the folder "
              + tableDir(to)
              + " is in the way; it holds no Delta table (no commit in _delta_log), so it is"
              + " what an interrupted write left: remove it and run again");
    }
    LakehouseCatalog.moveTable(tableDir(from), tableDir(to));
  }

  /**
   * Renames a view's table and its quarantine table with it, so the rows it dropped stay reachable
   * under the new name ({@code mlv quarantine NEW}).
   */
  public void renameView(ObjectId from, ObjectId to) {
    renameTable(from, to);
    ObjectId quarantine = QuarantineStore.tableOf(from);
    ObjectId moved = QuarantineStore.tableOf(to);
    if (tableExists(quarantine) && !Files.exists(tableDir(moved))) {
      renameTable(quarantine, moved);
    }
  }

  /** One commit setting the properties, e.g. {@code delta.enableChangeDataFeed=true}. */
  public void setTableProperties(ObjectId table, Map<String, String> properties) {
    if (properties.isEmpty()) {
      return;
    }
    SparkSession spark = prepare(table);
    // Turning the feed on changes no row: the commit says so, and the next refresh of a view
    // reading the table does not take it for a rewrite (DeltaState.ENABLE_CDF).
    boolean enablesCdf = properties.equals(Map.of("delta.enableChangeDataFeed", "true"));
    if (enablesCdf) {
      spark.conf().set(USER_METADATA, DeltaState.ENABLE_CDF);
    }
    try {
      spark.sql("ALTER TABLE " + sqlName(table) + " SET TBLPROPERTIES " + propertyList(properties));
    } finally {
      if (enablesCdf) {
        spark.conf().unset(USER_METADATA);
      }
    }
  }

  private static final String USER_METADATA = "spark.databricks.delta.commitInfo.userMetadata";

  // ---- SQL ------------------------------------------------------------------------------

  /** Makes the table's lakehouse known to Spark; the session starts here at the latest. */
  SparkSession prepare(ObjectId table) {
    runtime.registerLakehouse(table.workspace(), table.lakehouse());
    return runtime.session();
  }

  /** The local target creates a view's schema on write, as {@code apply} would in Fabric. */
  private void createSchema(ObjectId table) {
    try {
      Files.createDirectories(tableDir(table).getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path tableDir(ObjectId table) {
    return runtime.warehouse().tableDir(table);
  }

  /** Resolves the SELECT without running it: a bad query fails here, before any write. */
  static List<String> analyse(
      SparkSession spark, ObjectId view, String select, Optional<Position> selectAt) {
    try {
      List<String> columns = new ArrayList<>();
      for (StructField f : spark.sql(select).schema().fields()) {
        columns.add(f.name());
      }
      return columns;
    } catch (Exception e) { // Spark's AnalysisException is a checked exception thrown unchecked
      Optional<Position> place = selectAt.flatMap(at -> SparkMessages.place(e, select, at));
      String message =
          "refresh of " + view.shortName() + " failed: " + SparkMessages.explanation(e);
      if (place.isEmpty()) {
        throw new MlvException(REFRESH_FAILED, message, e);
      }
      throw new MlvException(
          Diagnostic.error(
              REFRESH_FAILED,
              place.get(),
              SparkMessages.withoutSparkPlace(message),
              "Spark could not resolve the SELECT, so nothing was written"),
          e);
    }
  }

  /** Spark's own error for this ("Couldn't find column day in:") ends before naming the columns. */
  static void checkPartitionColumns(
      ObjectId view, List<String> partitionedBy, List<String> columns) {
    for (String p : partitionedBy) {
      String name = p.replace("`", "");
      if (columns.stream().noneMatch(c -> c.equalsIgnoreCase(name))) {
        throw new MlvException(
            Diagnostic.error(
                REFRESH_FAILED,
                null,
                "PARTITIONED BY column "
                    + name
                    + " is not a column of "
                    + view.shortName()
                    + "'s SELECT (its columns: "
                    + String.join(", ", columns)
                    + "); nothing was written",
                "select the column, or partition by one of the selected columns"));
      }
    }
  }

  static String createOrReplaceSql(
      MaterializeRequest request, String select, List<String> columns, String udfName) {
    StringBuilder sql = new StringBuilder("CREATE OR REPLACE TABLE ");
    sql.append(sqlName(request.view())).append(" USING delta");
    if (!request.partitionedBy().isEmpty()) {
      sql.append("\nPARTITIONED BY (")
          .append(
              request.partitionedBy().stream()
                  .map(SparkRuntime::quote)
                  .collect(Collectors.joining(", ")))
          .append(')');
    }
    request.comment().ifPresent(c -> sql.append("\nCOMMENT ").append(literal(c)));
    if (!request.properties().isEmpty()) {
      sql.append("\nTBLPROPERTIES ").append(propertyList(request.properties()));
    }
    // The newline before ')' keeps a trailing "-- comment" in the SELECT from eating it.
    sql.append("\nAS SELECT * FROM (\n").append(select).append("\n) AS mlv_source");
    sql.append("\nWHERE ").append(keepCondition(request, columns, udfName));
    return sql.toString();
  }

  /**
   * {@code CASE WHEN <fail rule 1 broken> THEN raise_error(...) ... ELSE tally(mask) END}: FAIL
   * rules are tested first so that FAIL wins over DROP, and every rule's result goes into the mask
   * so that a row is counted once per rule it breaks. A NULL check result counts as broken.
   */
  static String keepCondition(MaterializeRequest request, List<String> columns, String udfName) {
    List<Constraint> constraints = request.constraints();
    StringBuilder condition = new StringBuilder("CASE");
    List<String> bits = new ArrayList<>();
    for (int i = 0; i < constraints.size(); i++) {
      Constraint c = constraints.get(i);
      String broken = broken(c);
      bits.add("CASE WHEN " + broken + " THEN " + (1L << i) + "L ELSE 0L END");
      if (c.onMismatch() == OnMismatch.FAIL) {
        condition
            .append("\n  WHEN ")
            .append(broken)
            .append(" THEN raise_error(concat(")
            .append(literal(FAIL_START + i + "|"))
            .append(", ")
            .append(exampleRow(columns))
            .append(", ")
            .append(literal(FAIL_END))
            .append("))");
      }
    }
    String tally = udfName + "(" + (bits.isEmpty() ? "0L" : String.join("\n    + ", bits)) + ")";
    return condition.length() == "CASE".length()
        ? tally
        : condition.append("\n  ELSE ").append(tally).append("\nEND").toString();
  }

  /** {@code col=value, ...} for the first few columns: enough to find the row, not a dump. */
  private static String exampleRow(List<String> columns) {
    return "concat_ws(', ', "
        + columns.stream()
            .limit(EXAMPLE_COLUMNS)
            .map(
                c ->
                    "concat("
                        + literal(c + "=")
                        + ", coalesce(CAST(mlv_source."
                        + SparkRuntime.quote(c)
                        + " AS STRING), 'NULL'))")
            .collect(Collectors.joining(", "))
        + ")";
  }

  static String sqlName(ObjectId table) {
    return SparkRuntime.quote(table.lakehouse())
        + "."
        + SparkRuntime.quote(table.schema())
        + "."
        + SparkRuntime.quote(table.name());
  }

  private static String propertyList(Map<String, String> properties) {
    return properties.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(e -> literal(e.getKey()) + " = " + literal(e.getValue()))
        .collect(Collectors.joining(", ", "(", ")"));
  }

  /** A Spark SQL string literal; Spark unescapes backslash sequences in literals. */
  static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  static String stripTrailingSemicolon(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }

  // ---- errors ---------------------------------------------------------------------------

  private static final String VARIANT_SCAN_RULE = "PushVariantIntoScan";

  /**
   * Spark 4.1.1's optimizer breaks the plan of a table write (PLAN_VALIDATION_FAILED_RULE_IN_BATCH
   * in PushVariantIntoScan) when the query selects a column of a table that has a VARIANT column
   * under a name in another letter case than the table stores ({@code SELECT ID} for {@code id}):
   * the SELECT alone runs, the write never does. Its message names neither, so this one names the
   * columns and the fix. Found by QA.
   */
  /** The references of {@code plan} to a column of {@code stored} under another letter case. */
  private static void differentlyCased(
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan,
      Map<Long, String> stored,
      Set<String> out) {
    for (var e : scala.jdk.javaapi.CollectionConverters.asJava(plan.expressions())) {
      differentlyCased(e, stored, out);
    }
    for (var child : scala.jdk.javaapi.CollectionConverters.asJava(plan.children())) {
      differentlyCased(child, stored, out);
    }
  }

  private static void differentlyCased(
      org.apache.spark.sql.catalyst.expressions.Expression e,
      Map<Long, String> stored,
      Set<String> out) {
    if (e instanceof org.apache.spark.sql.catalyst.expressions.AttributeReference a) {
      String name = stored.get(a.exprId().id());
      if (name != null && !name.equals(a.name()) && name.equalsIgnoreCase(a.name())) {
        out.add(a.name() + " (stored as " + name + ")");
      }
    }
    for (var child : scala.jdk.javaapi.CollectionConverters.asJava(e.children())) {
      differentlyCased(child, stored, out);
    }
  }

  private static MlvException variantCase(
      SparkSession spark, String select, ObjectId view, Exception e) {
    // What breaks is a reference written in another case (SELECT REGION), not an output name
    // (order_id AS Order_ID writes; found by QA): the plan's references to such a table's columns
    // whose name differs from the column's, by expression id.
    Map<Long, String> stored = new HashMap<>();
    Set<String> renamed = new java.util.TreeSet<>();
    try {
      var analyzed = spark.sql(select).queryExecution().analyzed();
      for (var leaf : scala.jdk.javaapi.CollectionConverters.asJava(analyzed.collectLeaves())) {
        var output = scala.jdk.javaapi.CollectionConverters.asJava(leaf.output());
        if (output.stream().anyMatch(a -> a.dataType() instanceof VariantType)) {
          output.forEach(a -> stored.put(a.exprId().id(), a.name()));
        }
      }
      differentlyCased(analyzed, stored, renamed);
    } catch (RuntimeException ignored) {
      // The names are a help; without them the explanation below still holds.
    }
    String which =
        renamed.isEmpty()
            ? "a column of a table that has a VARIANT column is selected under a name in another"
                + " letter case than the table stores it"
            : "the view selects "
                + String.join(", ", renamed)
                + " from a table that has a VARIANT column, in another letter case than stored";
    return new MlvException(
        Diagnostic.error(
            REFRESH_FAILED,
            null,
            "refresh of "
                + view.shortName()
                + " failed: Spark 4.1.1 cannot write this query ([PLAN_VALIDATION_FAILED_RULE_IN_BATCH]"
                + " in "
                + VARIANT_SCAN_RULE
                + "): "
                + which,
            "write each such column as the table stores it (or alias it in that case: ID AS id);"
                + " nothing was written"),
        e);
  }

  /**
   * The refresh's failure as the user reads it: for a row that broke a FAIL rule, a {@link
   * ConstraintFailed} naming the rule and a few of the rows {@code source} reads again that break
   * it, with each FAIL rule's count; else Spark's explanation.
   */
  static RuntimeException translate(
      ObjectId view,
      List<Constraint> constraints,
      Exception e,
      SparkSession spark,
      String source,
      List<String> columns) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.apache.spark.sql.AnalysisException) {
        continue; // its message quotes the plan, markers included: no row failed
      }
      Matcher m = FAIL_MARKER.matcher(String.valueOf(t.getMessage()));
      if (m.find()) {
        int index = Integer.parseInt(m.group(1));
        Constraint c = constraints.get(index);
        List<String> rows =
            new ArrayList<>(failingRows(spark, source, columns, constraints).apply(index));
        if (rows.isEmpty()) {
          rows.add(m.group(2));
        }
        String message =
            failedConstraint(view, c)
                + " is not met by "
                + (rows.size() == 1
                    ? "row " + rows.get(0)
                    : "rows (first " + rows.size() + "): " + String.join("; ", rows));
        return new ConstraintFailed(
            Diagnostic.error(
                CONSTRAINT_FAILED,
                c.position(),
                message,
                "the table was left unchanged; fix the source rows or declare the constraint"
                    + " ON MISMATCH DROP"),
            failCounts(spark, source, constraints, c),
            e);
      }
    }
    return new MlvException(
        REFRESH_FAILED,
        "refresh of " + view.shortName() + " failed: " + SparkMessages.explanation(e),
        e);
  }

  /**
   * Counts each broken rule and decides whether a row is kept; runs on executors, so it holds only
   * accumulators and the mask of DROP rules. It is marked nondeterministic so Spark neither removes
   * nor duplicates its evaluation.
   */
  static final class Tally implements UDF1<Long, Boolean> {
    final LongAccumulator[] violations;
    final LongAccumulator dropped;
    final LongAccumulator kept;
    private final long dropMask;

    Tally(SparkSession spark, List<Constraint> constraints) {
      violations = new LongAccumulator[constraints.size()];
      long mask = 0;
      for (int i = 0; i < constraints.size(); i++) {
        violations[i] = spark.sparkContext().longAccumulator("mlv.violations." + i);
        if (constraints.get(i).onMismatch() == OnMismatch.DROP) {
          mask |= 1L << i;
        }
      }
      dropMask = mask;
      dropped = spark.sparkContext().longAccumulator("mlv.dropped");
      kept = spark.sparkContext().longAccumulator("mlv.kept");
    }

    @Override
    public Boolean call(Long mask) {
      long m = mask;
      for (int i = 0; m >>> i != 0; i++) {
        if ((m & (1L << i)) != 0) {
          violations[i].add(1);
        }
      }
      if ((m & dropMask) != 0) {
        dropped.add(1);
        return false;
      }
      kept.add(1);
      return true;
    }
  }
}
