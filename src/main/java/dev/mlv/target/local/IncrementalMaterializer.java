package dev.mlv.target.local;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.StrategyDecider;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OnMismatch;
import dev.mlv.sql.RefreshAnalysis;
import dev.mlv.sql.RefreshAnalysis.OutputColumn;
import dev.mlv.sql.RefreshAnalysis.RefContext;
import dev.mlv.sql.RefreshAnalysis.Role;
import dev.mlv.sql.RefreshAnalysis.TableRef;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * Refreshes a view from the rows appended to its sources since the versions its last refresh
 * consumed, read with Delta's change data feed, in one Delta commit that also records the new
 * consumed versions (as the commit's user metadata).
 *
 * <p>The view's SELECT is rewritten by text: every table reference (placed by Calcite) is replaced
 * with a temporary view over one pinned version of the table: its old version (the consumed one),
 * its new version (the one decided on), or its change rows. For references {@code 1..n} of a query
 * that is linear in each reference (projections, filters, inner joins, the left side of left
 * joins), the new result rows are the union over changed references {@code k} of the query with
 * references before {@code k} at their new version, {@code k} replaced by its change rows and those
 * after {@code k} at their old version: {@code ΔA⋈B_new ∪ A_old⋈ΔB} for a join, each new pair
 * counted once. A reference in another branch of a UNION ALL than {@code k} reads no rows.
 */
final class IncrementalMaterializer {
  private static final List<String> CDF_COLUMNS =
      List.of("_change_type", "_commit_version", "_commit_timestamp");

  private final LocalTarget target;
  private final Project project;

  /** Source views not created yet, by temporary view name (see {@link #registerNamedIn}). */
  private final Map<String, Supplier<Dataset<Row>>> pending = new LinkedHashMap<>();

  /** The temporary views created for this refresh, dropped at its end. */
  private final List<String> temps = new ArrayList<>();

  /** The aggregate view's output columns by position, from the analysis of its SELECT. */
  private List<OutputColumn> analysisColumns = List.of();

  IncrementalMaterializer(LocalTarget target, Project project) {
    this.target = target;
    this.project = project;
  }

  ViewRun run(ObjectId id, ViewDefinition def, LocalStrategy.Decided decided, long t0) {
    Strategy strategy = decided.strategy();
    String reason = strategy.code() + ": " + strategy.detail();
    if (!(def.body() instanceof ViewBody.Select select)) {
      throw new IllegalStateException("an incremental refresh needs a SELECT");
    }
    analysisColumns = decided.analysis().columns();
    boolean drops = def.constraints().stream().anyMatch(c -> c.onMismatch() == OnMismatch.DROP);
    if (drops
        && decided.analysis().shape() != RefreshAnalysis.Shape.APPEND
        && target.quarantineFor(project, id).isPresent()) {
      // Rows dropped from merged aggregates have no single source row to quarantine.
      Strategy full =
          new Strategy.Full(
              "QUARANTINE_NEEDS_FULL",
              "the view keeps a quarantine and aggregates, so its dropped rows are only known in a"
                  + " full refresh");
      return target.materialize(
          project, id, def, target.upstreamOf(project, id, def), full, true, t0);
    }
    ViewMaterializer materializer = target.materializer(project);
    SparkSession spark = materializer.prepare(id);
    String tag = "mlv_inc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    // An append of no rows must still commit: the commit records the versions consumed.
    spark.conf().set("spark.databricks.delta.skipRecordingEmptyCommits", "false");
    try {
      Rewrite rewrite = prepareSources(spark, tag, decided, temps);
      String sql = ViewMaterializer.stripTrailingSemicolon(select.sql());
      String meta =
          ConsumedVersions.userMetadata(
              decided.current(),
              target.tableIds(decided.current().keySet()),
              target.commitIds(decided.current()));
      String path = target.warehouse().tableDir(id).toString();
      Written w;
      try {
        w =
            switch (decided.analysis().shape()) {
              case APPEND -> append(spark, id, def, sql, rewrite, meta, path, tag);
              case MERGE_AGGREGATE -> merge(spark, id, sql, rewrite, meta, path, tag, temps);
              case PARTITION_AGGREGATE ->
                  recompute(spark, id, sql, rewrite, meta, path, tag, temps);
              case NONE -> throw new IllegalStateException("no incremental shape");
            };
      } catch (FullNeeded e) {
        return target.materialize(
            project, id, def, target.upstreamOf(project, id, def), e.strategy, true, t0);
      } catch (RewriteFailed e) {
        // The substituted SQL did not resolve (e.g. a column qualified with the full table
        // name): the same refresh in full is always correct.
        Strategy full =
            new Strategy.Full(
                "INCREMENTAL_REWRITE_FAILED",
                "the SELECT could not be rewritten over change rows ("
                    + e.getMessage()
                    + "), so the view is recomputed");
        return target.materialize(
            project, id, def, target.upstreamOf(project, id, def), full, true, t0);
      }
      return new ViewRun(
          id,
          ViewStatus.Completed,
          strategy.label(),
          reason,
          w.rows(),
          w.dropped(),
          w.violations(),
          LocalTarget.elapsed(t0),
          Optional.empty());
    } catch (MlvException e) {
      return target.failed(id, strategy.label(), reason, LocalTarget.placed(e, def), t0, e);
    } catch (Exception e) { // Spark's AnalysisException is checked, yet thrown undeclared
      MlvException failure =
          new MlvException(
              ViewMaterializer.REFRESH_FAILED,
              "incremental refresh failed: " + SparkMessages.explanation(e),
              e);
      return target.failed(
          id, strategy.label(), reason, LocalTarget.placed(failure, def), t0, failure);
    } finally {
      for (String t : temps) {
        spark.catalog().dropTempView(t);
      }
    }
  }

  private record Written(long rows, long dropped, Map<String, Long> violations) {}

  /** The SQL of a view could not be resolved once rewritten over change rows. */
  private static final class RewriteFailed extends RuntimeException {
    RewriteFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The view's stored rows cannot be merged with the new ones; a full refresh can. */
  private static final class FullNeeded extends RuntimeException {
    private final Strategy.Full strategy;

    FullNeeded(Strategy.Full strategy) {
      super(strategy.detail(), null, false, false);
      this.strategy = strategy;
    }
  }

  // ---- sources ----

  /** Temporary views per source (old, new, change rows) and the rewrite over them. */
  private record Rewrite(
      List<TableRef> refs,
      List<ObjectId> ids,
      Map<ObjectId, String> names,
      List<Integer> changedRefs) {

    /** The SELECT with every reference replaced; {@code k} the changed reference, or -1. */
    String text(String sql, int k) {
      StringBuilder out = new StringBuilder();
      int at = 0;
      for (int j = 0; j < refs.size(); j++) {
        TableRef ref = refs.get(j);
        String base = names.get(ids.get(j));
        String version;
        if (k < 0) {
          version = "_n";
        } else if (j == k) {
          version = "_d";
        } else if (ref.apartFrom(refs.get(k))) {
          version = "_e";
        } else {
          version = j < k ? "_n" : "_o";
        }
        out.append(sql, at, ref.from()).append(base).append(version);
        if (!ref.aliased()) {
          List<String> written = ref.name().written();
          out.append(" AS ").append(SparkRuntime.quote(written.get(written.size() - 1)));
        }
        at = ref.to();
      }
      return out.append(sql.substring(at)).toString();
    }

    /** Union of every changed reference's term: the rows the change adds to the result. */
    String delta(String sql) {
      List<String> terms = new ArrayList<>();
      for (int k : changedRefs) {
        terms.add("SELECT * FROM (\n" + text(sql, k) + "\n) AS mlv_term_" + k);
      }
      return String.join("\nUNION ALL\n", terms);
    }
  }

  private Rewrite prepareSources(
      SparkSession spark, String tag, LocalStrategy.Decided decided, List<String> temps) {
    List<TableRef> refs =
        decided.analysis().refs().stream()
            .sorted(java.util.Comparator.comparingInt(TableRef::from))
            .toList();
    List<ObjectId> ids = refs.stream().map(r -> project.names().resolve(r.name())).toList();
    Map<ObjectId, String> names = new LinkedHashMap<>();
    List<Integer> changedRefs = new ArrayList<>();
    // A source whose commits since only rewrote files (OPTIMIZE) has the same rows: it is read at
    // its new version only, with no change rows (no term of its own in the union).
    Set<ObjectId> committed = new java.util.TreeSet<>();
    decided
        .current()
        .forEach(
            (src, v) -> {
              if (!v.equals(decided.consumed().getOrDefault(src, v))) {
                committed.add(src);
              }
            });
    Set<ObjectId> rowsChanged =
        StrategyDecider.rowsChanged(
            committed,
            decided.consumed(),
            decided.current(),
            new SourceLogReader(target.deltaState(), target.warehouse()));
    for (int j = 0; j < refs.size(); j++) {
      ObjectId id = ids.get(j);
      long now = decided.current().get(id);
      long before = decided.consumed().getOrDefault(id, now);
      boolean changed = rowsChanged.contains(id);
      if (changed && refs.get(j).context() == RefContext.FROM) {
        changedRefs.add(j);
      }
      if (names.containsKey(id)) {
        continue;
      }
      String base = tag + "_" + names.size();
      names.put(id, base);
      String path = target.warehouse().tableDir(id).toString();
      // Each version read costs a Delta snapshot (Spark jobs over the log), so a view is only
      // created when a query names it: a single-source view reads the change rows alone.
      Supplier<Dataset<Row>> newer =
          Memo.of(() -> spark.read().format("delta").option("versionAsOf", now).load(path));
      pending.put(base + "_n", newer);
      pending.put(base + "_e", () -> newer.get().limit(0));
      if (changed) {
        pending.put(
            base + "_o",
            () -> spark.read().format("delta").option("versionAsOf", before).load(path));
        pending.put(
            base + "_d",
            () ->
                spark
                    .read()
                    .format("delta")
                    .option("readChangeFeed", "true")
                    .option("startingVersion", before + 1)
                    .option("endingVersion", now)
                    .load(path)
                    .where(functions.col("_change_type").equalTo("insert"))
                    .drop(CDF_COLUMNS.toArray(new String[0])));
      } else {
        pending.put(base + "_o", newer);
        pending.put(base + "_d", () -> newer.get().limit(0));
      }
    }
    return new Rewrite(refs, ids, names, changedRefs);
  }

  private static void register(Dataset<Row> rows, String name, List<String> temps) {
    rows.createOrReplaceTempView(name);
    temps.add(name);
  }

  /** Registers the pending source views that {@code sql} names. */
  private void registerNamedIn(String sql) {
    for (var it = pending.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (Pattern.compile("\\b" + Pattern.quote(e.getKey()) + "\\b").matcher(sql).find()) {
        register(e.getValue().get(), e.getKey(), temps);
        it.remove();
      }
    }
  }

  private Dataset<Row> resolve(SparkSession spark, String sql) {
    registerNamedIn(sql);
    try {
      Dataset<Row> rows = spark.sql(sql);
      rows.schema();
      return rows;
    } catch (Exception e) { // AnalysisException is checked in Java's eyes, thrown unchecked
      throw new RewriteFailed(SparkMessages.explanation(e), e);
    }
  }

  // ---- projections, filters, joins, UNION ALL: append ----

  private Written append(
      SparkSession spark,
      ObjectId id,
      ViewDefinition def,
      String sql,
      Rewrite rewrite,
      String meta,
      String path,
      String tag) {
    String delta = rewrite.delta(sql);
    List<String> columns = new ArrayList<>();
    for (StructField f : resolve(spark, delta).schema().fields()) {
      columns.add(f.name());
    }
    if (target.quarantineFor(project, id).isPresent()) {
      QuarantineStore.checkColumns(id, columns);
    }
    List<Constraint> constraints = def.constraints();
    String udfName = tag + "_tally";
    ViewMaterializer.Tally tally = new ViewMaterializer.Tally(spark, constraints);
    UserDefinedFunction udf =
        functions.udf(tally, DataTypes.BooleanType).asNondeterministic().withName(udfName);
    spark.udf().register(udfName, udf);
    MaterializeRequest request =
        new MaterializeRequest(id, sql, constraints, def.partitionedBy(), def.comment(), Map.of());
    String kept =
        "SELECT * FROM (\n"
            + delta
            + "\n) AS mlv_source\nWHERE "
            + ViewMaterializer.keepCondition(request, columns, udfName);
    try {
      spark
          .sql(kept)
          .select(
              columns.stream()
                  .map(c -> functions.col(SparkRuntime.quote(c)))
                  .toArray(Column[]::new))
          .write()
          .format("delta")
          .mode("append")
          .option("userMetadata", meta)
          .save(path);
    } catch (Exception e) {
      // The change rows are still readable: the error shows the rows that broke the rule.
      throw ViewMaterializer.translate(id, constraints, e, spark, delta, columns);
    } finally {
      spark.sql("DROP TEMPORARY FUNCTION IF EXISTS " + udfName);
    }
    Map<String, Long> violations = new LinkedHashMap<>();
    for (int i = 0; i < constraints.size(); i++) {
      violations.merge(constraints.get(i).name(), tally.violations[i].value(), Long::sum);
    }
    long dropped = tally.dropped.value();
    Optional<ViewMaterializer.QuarantineTarget> quarantine = target.quarantineFor(project, id);
    if (quarantine.isPresent() && dropped > 0) {
      // The change rows of fixed versions read the same again, so these are the rows dropped.
      long version =
          Warehouse.latestCommit(target.warehouse().tableDir(id))
              .orElseThrow(() -> new IllegalStateException("no Delta commit after " + id));
      ObjectId table = quarantine.get().table();
      target.materializer(project).prepare(table);
      QuarantineStore.append(
          table,
          target.warehouse().tableDir(table),
          spark.sql(ViewMaterializer.quarantineSql(delta, constraints)),
          quarantine.get().runId(),
          version,
          java.time.Instant.now());
    }
    return new Written(tally.kept.value(), dropped, violations);
  }

  // ---- SUM / COUNT / MIN / MAX group-by: merge partial aggregates ----

  private Written merge(
      SparkSession spark,
      ObjectId id,
      String sql,
      Rewrite rewrite,
      String meta,
      String path,
      String tag,
      List<String> temps) {
    Dataset<Row> current = spark.read().format("delta").load(path);
    StructField[] fields = current.schema().fields();
    List<OutputColumn> roles = columnsOf(id, fields);
    if (!spark.sessionState().conf().ansiEnabled()) {
      for (int i = 0; i < fields.length; i++) {
        if (roles.get(i).role() == Role.SUM
            && fields[i].dataType() instanceof org.apache.spark.sql.types.DecimalType) {
          // Without ANSI mode a SUM of decimals past its precision is NULL, and stays NULL as
          // rows come: a NULL stored or new partial sum may be that or a group of NULLs.
          throw new FullNeeded(
              new Strategy.Full(
                  "DECIMAL_SUM_WITHOUT_ANSI col=" + fields[i].name(),
                  "spark.sql.ansi.enabled is false, so a SUM of decimals that overflows is NULL,"
                      + " which merged sums cannot tell from a group of NULLs"));
        }
      }
    }
    // One pass: the partials are read once, inside the merge; a flag column marks the groups they
    // touch, counted by an observation of the same write instead of a second job.
    Dataset<Row> partials = resolve(spark, rewrite.delta(sql));
    register(partials, tag + "_partials", temps);
    register(current, tag + "_view", temps);
    List<String> select = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < fields.length; i++) {
      String c = SparkRuntime.quote(fields[i].name());
      Role role = roles.get(i).role();
      String merged =
          switch (role) {
            case KEY -> c;
            case SUM, COUNT -> "SUM(" + c + ")";
            case MIN -> "MIN(" + c + ")";
            case MAX -> "MAX(" + c + ")";
            case OTHER -> throw new IllegalStateException("not mergeable: " + fields[i].name());
          };
      if (role == Role.KEY) {
        keys.add(c);
      }
      select.add("CAST(" + merged + " AS " + fields[i].dataType().sql() + ") AS " + c);
    }
    String flag = tag + "_new";
    String mergedSql =
        "SELECT "
            + String.join(", ", select)
            + ", MAX("
            + flag
            + ") AS "
            + flag
            + " FROM (SELECT *, 0 AS "
            + flag
            + " FROM "
            + tag
            + "_view UNION ALL SELECT *, 1 AS "
            + flag
            + " FROM "
            + tag
            + "_partials) AS mlv_all"
            + (keys.isEmpty() ? "" : " GROUP BY " + String.join(", ", keys));
    Observation touchedGroups = new Observation(tag + "_touched");
    Dataset<Row> merged =
        spark
            .sql(mergedSql)
            .observe(touchedGroups, functions.sum(functions.col(flag)).as("touched"))
            .drop(flag);
    merged.write().format("delta").mode("overwrite").option("userMetadata", meta).save(path);
    long groups;
    try {
      Object touched = touchedGroups.getAsJava().get("touched");
      groups = touched instanceof Number n ? n.longValue() : 0L;
    } catch (InterruptedException e) {
      // The commit is made; only the count is lost.
      Thread.currentThread().interrupt();
      groups = 0L;
    }
    return new Written(keys.isEmpty() ? 1 : groups, 0, Map.of());
  }

  private List<OutputColumn> columnsOf(ObjectId id, StructField[] fields) {
    // The analysis was made from the SELECT; its output columns are the table's, by position.
    List<OutputColumn> columns = analysisColumns;
    if (columns.size() != fields.length) {
      throw new MlvException(
          ViewMaterializer.REFRESH_FAILED,
          "refresh of "
              + id.shortName()
              + " failed: the table has "
              + fields.length
              + " columns, the SELECT "
              + columns.size());
    }
    return columns;
  }

  // ---- other aggregates grouped by the sources' partition column: recompute touched groups ----

  private Written recompute(
      SparkSession spark,
      ObjectId id,
      String sql,
      Rewrite rewrite,
      String meta,
      String path,
      String tag,
      List<String> temps) {
    Dataset<Row> current = spark.read().format("delta").load(path);
    register(current, tag + "_view", temps);
    StructField[] fields = current.schema().fields();
    List<OutputColumn> roles = columnsOf(id, fields);
    // For each changed source: the values its new rows have in its partition column, and the
    // view column grouped by that column.
    List<String> touched = new ArrayList<>();
    Map<ObjectId, Boolean> done = new LinkedHashMap<>();
    for (int k : rewrite.changedRefs()) {
      ObjectId source = rewrite.ids().get(k);
      if (done.put(source, true) != null) {
        continue;
      }
      TableState state = target.deltaState().read(source, target.warehouse().tableDir(source));
      String partition =
          state.partitionColumns().stream()
              .filter(p -> columnOf(roles, p) >= 0)
              .findFirst()
              .orElseThrow(
                  () ->
                      new MlvException(
                          ViewMaterializer.REFRESH_FAILED,
                          "refresh of "
                              + id.shortName()
                              + " failed: no GROUP BY column partitions "
                              + source));
      String values = tag + "_touched_" + touched.size();
      registerNamedIn(rewrite.names().get(source) + "_d");
      register(
          spark
              .table(rewrite.names().get(source) + "_d")
              .select(functions.col(SparkRuntime.quote(partition)).as("v"))
              .distinct(),
          values,
          temps);
      String column = SparkRuntime.quote(fields[columnOf(roles, partition)].name());
      touched.add("EXISTS (SELECT 1 FROM " + values + " t WHERE t.v <=> x." + column + ")");
    }
    String isTouched = "(" + String.join(" OR ", touched) + ")";
    String fresh = rewrite.text(sql, -1);
    List<String> viewColumns = new ArrayList<>();
    for (StructField f : fields) {
      viewColumns.add(SparkRuntime.quote(f.name()));
    }
    Dataset<Row> recomputed =
        resolve(spark, "SELECT * FROM (\n" + fresh + "\n) AS x WHERE " + isTouched)
            .localCheckpoint();
    register(recomputed, tag + "_recomputed", temps);
    String cols = String.join(", ", viewColumns);
    String mergedSql =
        "SELECT "
            + cols
            + " FROM "
            + tag
            + "_view AS x WHERE NOT "
            + isTouched
            + "\nUNION ALL\nSELECT * FROM "
            + tag
            + "_recomputed";
    spark
        .sql(mergedSql)
        .write()
        .format("delta")
        .mode("overwrite")
        .option("userMetadata", meta)
        .save(path);
    return new Written(recomputed.count(), 0, Map.of());
  }

  private static int columnOf(List<OutputColumn> roles, String sourceColumn) {
    String wanted = sourceColumn.toLowerCase(Locale.ROOT);
    for (OutputColumn c : roles) {
      if (c.role() == Role.KEY && wanted.equals(c.sourceColumn())) {
        return c.position();
      }
    }
    return -1;
  }
}
