package dev.mlv.refresh;

import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.RefreshPolicy;
import dev.mlv.sql.RefreshAnalysis;
import dev.mlv.sql.RefreshAnalysis.ColumnCheck;
import dev.mlv.sql.RefreshAnalysis.Construct;
import dev.mlv.sql.RefreshAnalysis.FromColumn;
import dev.mlv.sql.RefreshAnalysis.RefContext;
import dev.mlv.sql.RefreshAnalysis.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Decides how a view is refreshed, before it runs, from what the target knows without running
 * anything: the versions of its sources now and those its last refresh consumed (skip), the SQL's
 * construct-by-construct verdict, and each changed source's Delta log (change data feed on, only
 * appends since). The order follows Fabric's D1 to D5.
 */
public final class StrategyDecider {
  /** Incremental is not worth it once the new data is this share of the source or more. */
  public static final double FULL_CHEAPER_SHARE = 0.5;

  private StrategyDecider() {}

  /**
   * What the decision is made from. {@code consumed} is empty for a view never refreshed; {@code
   * consumedTableIds} holds the Delta table id the last refresh recorded for each source, when it
   * recorded one, and {@code consumedCommits} the id of the commit at the version it read. The
   * analysis of the SQL is asked for only when a source has new commits, so deciding that nothing
   * needs refreshing parses nothing.
   */
  public record Input(
      ObjectId view,
      boolean fullRequested,
      Optional<String> forcedReason,
      boolean optimalRefresh,
      RefreshPolicy policy,
      boolean pyspark,
      Optional<Map<ObjectId, Long>> consumed,
      Map<ObjectId, String> consumedTableIds,
      Map<ObjectId, String> consumedCommits,
      Map<ObjectId, Long> current,
      java.util.function.Supplier<RefreshAnalysis> analysis,
      SourceLogs logs,
      Optional<java.time.Instant> refreshedAt) {

    public Input {
      consumedTableIds = Map.copyOf(consumedTableIds);
      consumedCommits = Map.copyOf(consumedCommits);
    }

    /** Without recorded table or commit ids, as for state written before they were kept. */
    public Input(
        ObjectId view,
        boolean fullRequested,
        Optional<String> forcedReason,
        boolean optimalRefresh,
        RefreshPolicy policy,
        boolean pyspark,
        Optional<Map<ObjectId, Long>> consumed,
        Map<ObjectId, Long> current,
        java.util.function.Supplier<RefreshAnalysis> analysis,
        SourceLogs logs,
        Optional<java.time.Instant> refreshedAt) {
      this(
          view,
          fullRequested,
          forcedReason,
          optimalRefresh,
          policy,
          pyspark,
          consumed,
          Map.of(),
          Map.of(),
          current,
          analysis,
          logs,
          refreshedAt);
    }
  }

  /** Reads a source's Delta log since a version; called only for sources with new commits. */
  @FunctionalInterface
  public interface SourceLogs {
    SourceLog since(ObjectId source, long consumedVersion);

    /** When the source's table was created (its first commit), if its log still says. */
    default Optional<java.time.Instant> createdAt(ObjectId source) {
      return Optional.empty();
    }

    /** The source's Delta table id ({@code metaData.id}) now, if known. */
    default Optional<String> tableId(ObjectId source) {
      return Optional.empty();
    }

    /**
     * The table id at {@code version} in the source's log as it is now, if that version is still in
     * it: a table replaced in place (CREATE OR REPLACE, as every full refresh of a view) has a new
     * id from then on, and its old one before.
     */
    default Optional<String> tableIdAt(ObjectId source, long version) {
      return Optional.empty();
    }

    /** The id ({@code txnId}) of the commit at {@code version} in the log as it is now, if told. */
    default Optional<String> commitIdAt(ObjectId source, long version) {
      return Optional.empty();
    }

    /** The source's column names now, if known: they settle how Spark reads some names. */
    default Optional<List<String>> columns(ObjectId source) {
      return Optional.empty();
    }
  }

  /**
   * What a source's Delta log says: change data feed on, its partition columns, the first commit
   * since the consumed version that did not only append (if any), whether every commit since is
   * still in the log, the bytes appended since against the bytes of the whole table, and the
   * version at which change data feed was turned on when earlier commits since had it off. {@code
   * historyComplete} also needs the files those commits added to be on disk still, as the change
   * data feed reads their rows from them. {@code dataChanged} is false when every commit since
   * changed no row (each added and removed file carries {@code dataChange=false}, as OPTIMIZE's do)
   * and the log still holds them all. {@code filesRewritten} tells whether one of those commits
   * rewrote files (OPTIMIZE) rather than touching none (VACUUM, a refresh that appended no row).
   */
  public record SourceLog(
      boolean changeDataFeed,
      List<String> partitionColumns,
      Optional<NonAppend> firstNonAppend,
      boolean historyComplete,
      long appendedBytes,
      long totalBytes,
      java.util.OptionalLong feedTurnedOnAt,
      boolean dataChanged,
      boolean filesRewritten) {
    public SourceLog {
      partitionColumns = List.copyOf(partitionColumns);
    }

    public SourceLog(
        boolean changeDataFeed,
        List<String> partitionColumns,
        Optional<NonAppend> firstNonAppend,
        boolean historyComplete,
        long appendedBytes,
        long totalBytes) {
      this(
          changeDataFeed,
          partitionColumns,
          firstNonAppend,
          historyComplete,
          appendedBytes,
          totalBytes,
          java.util.OptionalLong.empty(),
          true,
          true);
    }
  }

  /** A commit that was not an append: it removed files, or changed only metadata or schema. */
  public record NonAppend(long version, String operation, boolean removedFiles) {}

  /**
   * A source dropped and created again since the view's last refresh, or another table renamed into
   * its place: its version numbers are another table's, so they may go back, reach the very version
   * the view consumed or be past it already, while its rows are not the ones the view was built
   * from. Neither skip nor incremental can be right. The table id tells for sure; where the last
   * refresh recorded none (or the log gives none), the versions and the first commit's time are
   * what is left, and miss a table created before the last refresh.
   */
  private static Optional<Strategy> recreatedSource(
      Input in, Map<ObjectId, Long> consumed, NameResolver names) {
    for (var e : in.current().entrySet()) {
      Long before = consumed.get(e.getKey());
      long now = e.getValue();
      if (before == null || now < 0) {
        continue;
      }
      String name = names.display(e.getKey());
      String recorded = in.consumedTableIds().get(e.getKey());
      Optional<String> tableId =
          recorded == null ? Optional.empty() : in.logs().tableId(e.getKey());
      // Another id now is the same table still when its log, at the version the view read, has
      // the recorded one: it was replaced in place since, which its commits show (a rewrite).
      if (tableId.isPresent()
          && !tableId.get().equals(recorded)
          && !in.logs().tableIdAt(e.getKey(), before).equals(Optional.of(recorded))) {
        return Optional.of(
            new Strategy.Full(
                "SOURCE_RECREATED source=" + name,
                name
                    + " is not the table the last refresh read (its Delta table id is "
                    + tableId.get()
                    + ", was "
                    + recorded
                    + " at v"
                    + before
                    + "): it was dropped and created again, or another table was renamed to its"
                    + " name, so the view is rebuilt from the new table"));
      }
      String commit = in.consumedCommits().get(e.getKey());
      Optional<String> commitNow =
          commit == null || now < before
              ? Optional.empty()
              : in.logs().commitIdAt(e.getKey(), before);
      if (commitNow.isPresent() && !commitNow.get().equals(commit)) {
        // Found by QA: a folder put back from a copy keeps its table id, and its next commits
        // take version numbers the view already read, so they would be skipped or half read.
        return Optional.of(
            new Strategy.Full(
                "SOURCE_RECREATED source=" + name,
                name
                    + " is not the table the last refresh read: its commit at v"
                    + before
                    + " is another one than the commit read then (txnId "
                    + commitNow.get()
                    + ", was "
                    + commit
                    + "), as when the table's folder is put back from a copy, so the view is"
                    + " rebuilt from the table as it is"));
      }
      String why = null;
      if (now < before) {
        why = "its version went back from v" + before + " to v" + now;
      } else if (tableId.isEmpty() && in.refreshedAt().isPresent()) {
        Optional<java.time.Instant> created = in.logs().createdAt(e.getKey());
        if (created.isPresent() && created.get().isAfter(in.refreshedAt().get())) {
          why = "its first commit (" + created.get() + ") is newer than the view's last refresh";
        }
      }
      if (why != null) {
        return Optional.of(
            new Strategy.Full(
                "SOURCE_RECREATED source=" + name,
                name
                    + " was dropped and created again since the last refresh ("
                    + why
                    + "), so the view is rebuilt from the new table"));
      }
    }
    return Optional.empty();
  }

  /**
   * The full refresh that {@code --full}, {@code refresh_policy: full} or {@code optimal_refresh:
   * false} asks for whatever the sources did, in that order; shared with the Fabric target, which
   * must ask Fabric for a full refresh for the same views and say so with the same codes.
   */
  public static Optional<Strategy> alwaysFull(
      boolean fullRequested, RefreshPolicy policy, boolean optimalRefresh) {
    if (fullRequested) {
      return Optional.of(new Strategy.Full("FULL_REQUESTED", "a full refresh was requested"));
    }
    if (policy == RefreshPolicy.FULL) {
      return Optional.of(new Strategy.Full("POLICY_FULL", "refresh_policy is full for this view"));
    }
    if (!optimalRefresh) {
      return Optional.of(
          new Strategy.Full(
              "OPTIMAL_REFRESH_OFF", "optimal refresh is off, so every run rebuilds the view"));
    }
    return Optional.empty();
  }

  public static Strategy decide(Input in, NameResolver names) {
    // Whatever else is asked (--full, a new or changed definition), a refresh that reads a
    // table that is gone fails: say so first, so a dry run knows it and skips what reads it.
    for (var e : in.current().entrySet()) {
      if (e.getValue() < 0) {
        return new Strategy.Full(
            "SOURCE_MISSING source=" + names.display(e.getKey()),
            names.display(e.getKey()) + " does not exist; the refresh fails until it does");
      }
    }
    if (in.forcedReason().isPresent()) {
      String code = in.forcedReason().get();
      return new Strategy.Full(
          code,
          code.equals("NEW_VIEW")
              ? "the view is new, so its first refresh is full"
              : "the definition changed, so the whole view is recomputed");
    }
    Optional<Strategy> always = alwaysFull(in.fullRequested(), in.policy(), in.optimalRefresh());
    if (always.isPresent()) {
      return always.get();
    }
    if (in.consumed().isEmpty()) {
      return new Strategy.Full("NEVER_REFRESHED", "no record of a previous refresh");
    }
    Map<ObjectId, Long> consumed = in.consumed().get();
    Optional<Strategy> recreated = recreatedSource(in, consumed, names);
    if (recreated.isPresent()) {
      return recreated.get();
    }
    List<String> changedText = new ArrayList<>();
    Set<ObjectId> changed = new TreeSet<>();
    for (var e : in.current().entrySet()) {
      Long before = consumed.get(e.getKey());
      if (before == null) {
        changedText.add(names.display(e.getKey()) + " (new source)");
        changed.add(e.getKey());
      } else if (e.getValue() < 0) {
        changedText.add(names.display(e.getKey()) + " (missing)");
        changed.add(e.getKey());
      } else if (!before.equals(e.getValue())) {
        changedText.add(names.display(e.getKey()) + " v" + before + "→v" + e.getValue());
        changed.add(e.getKey());
      }
    }
    if (changed.isEmpty()) {
      return new Strategy.Skip("NO_NEW_COMMITS", "no source has a commit since the last refresh");
    }
    String what = "new commits on " + String.join(", ", changedText);
    // D2 read as Delta's change data feed reads a log: a commit whose files all carry
    // dataChange=false (OPTIMIZE, ZORDER, auto compaction, REORG ... PURGE) holds the same rows in
    // other files, so sources with only such commits since have no new data for the view.
    Map<ObjectId, SourceLog> logs = new java.util.TreeMap<>();
    Set<ObjectId> rowsChanged = rowsChanged(changed, consumed, in.current(), in.logs(), logs);
    if (rowsChanged.isEmpty()) {
      boolean rewrote = logs.values().stream().anyMatch(SourceLog::filesRewritten);
      // Said from the view's last refresh: a skip writes nothing, so the next run reads the same
      // commits again and must not sound as if they were new (found by QA).
      return new Strategy.Skip(
          "NO_DATA_CHANGE",
          "the commits on "
              + String.join(", ", changedText)
              + " since the view's last refresh "
              + (rewrote
                  ? "only rewrote files (dataChange=false, as OPTIMIZE does): no row changed"
                  : "added and removed no file (as VACUUM does, mlv apply's turning on of change"
                      + " data feed, and a refresh of an upstream view that appended no row): no"
                      + " row changed"));
    }
    // D3: a PySpark view, or a source without change data feed, can only be rebuilt.
    if (in.pyspark()) {
      return new Strategy.Full("PYSPARK_VIEW", "PySpark views are never refreshed incrementally");
    }
    for (ObjectId id : changed) {
      Long before = consumed.get(id);
      if (before == null) {
        return new Strategy.Full("SOURCES_CHANGED", what + "; no version to read changes from");
      }
    }
    // A construct that always forces a full refresh is the reason, whatever the sources' feeds:
    // turning the feed on would not change it (and plan does not turn it on for such a view).
    RefreshAnalysis analysis = in.analysis().get();
    Optional<Construct> blocker = analysis.blocker();
    if (blocker.isPresent()) {
      Construct b = blocker.get();
      return new Strategy.Full(b.code(), what + "; " + b.because(b.note()));
    }
    // A name the sources' columns settle is as much the SQL's as a blocker, whatever the feeds.
    Optional<Strategy> byColumns = settledByColumns(analysis, what, in.logs()::columns, names);
    if (byColumns.isPresent()) {
      return byColumns.get();
    }
    for (ObjectId id : in.current().keySet()) {
      long from = consumed.getOrDefault(id, in.current().get(id));
      SourceLog log =
          logs.computeIfAbsent(
              id, s -> in.logs().since(s, changed.contains(s) ? from : in.current().get(s)));
      if (!log.changeDataFeed()) {
        return new Strategy.Full(
            "CDF_OFF source=" + names.display(id),
            what + "; change data feed is off on " + names.display(id));
      }
    }
    // D4: the rest of the SQL.
    if (analysis.shape() == RefreshAnalysis.Shape.NONE) {
      return new Strategy.Full("NOT_ANALYSABLE", what + "; the SQL could not be analysed");
    }
    Map<ObjectId, List<String>> partitions = new java.util.TreeMap<>();
    logs.forEach((id, log) -> partitions.put(id, log.partitionColumns()));
    for (Construct c : analysis.conditions()) {
      Optional<String> broken =
          brokenCondition(c, analysis, rowsChanged, partitions, in.logs()::columns, names);
      if (broken.isPresent()) {
        return new Strategy.Full(c.code(), what + "; " + c.because(broken.get()));
      }
    }
    // D5: only appends since the last refresh.
    long appended = 0;
    long total = 0;
    for (ObjectId id : changed) {
      SourceLog log = logs.get(id);
      if (!log.historyComplete()) {
        return new Strategy.Full(
            "HISTORY_INCOMPLETE source=" + names.display(id),
            "the commits of "
                + names.display(id)
                + " since the last refresh are no longer all in its Delta log, or the files they"
                + " added are no longer all on disk (a VACUUM deletes the files an OPTIMIZE"
                + " compacted), so their new rows cannot be read from the change data feed");
      }
      if (log.feedTurnedOnAt().isPresent()) {
        long on = log.feedTurnedOnAt().getAsLong();
        return new Strategy.Full(
            "CDF_OFF source=" + names.display(id),
            what
                + "; change data feed was turned on at version "
                + on
                + " of "
                + names.display(id)
                + ", so the rows of its commits before that are not in the feed");
      }
      if (log.firstNonAppend().isPresent()) {
        NonAppend n = log.firstNonAppend().get();
        return new Strategy.Full(
            "NON_APPEND_COMMIT source="
                + names.display(id)
                + " version="
                + n.version()
                + " operation="
                + n.operation().replace(' ', '_'),
            "commit "
                + n.version()
                + " of "
                + names.display(id)
                + (n.removedFiles()
                    ? " removed or rewrote data files"
                    : " changed the table's schema, properties or protocol")
                + ", so the rows since the last refresh are not only new ones");
      }
      appended += log.appendedBytes();
      total += log.totalBytes();
    }
    return cheaperOrAppends(what, appended, total, analysis.shape());
  }

  /**
   * FULL_CHEAPER when the {@code appended} bytes are at least {@link #FULL_CHEAPER_SHARE} of the
   * changed sources' {@code total}, else an incremental refresh of {@code shape}; {@code what}
   * names the sources' new commits.
   */
  /** Where a FULL_CHEAPER detail turns from the sources' commits to the share of new data. */
  public static final String NEW_DATA_SHARE = "; the new data is ";

  public static Strategy cheaperOrAppends(
      String what, long appended, long total, RefreshAnalysis.Shape shape) {
    if (total > 0 && appended >= FULL_CHEAPER_SHARE * total) {
      return new Strategy.Full(
          "FULL_CHEAPER",
          what
              + NEW_DATA_SHARE
              + Math.round(100.0 * appended / total)
              + "% of the sources' bytes, so a rebuild costs less");
    }
    return new Strategy.Incremental(
        "ONLY_APPENDS",
        what
            + "; only appends, "
            + switch (shape) {
              case MERGE_AGGREGATE -> "new partial aggregates are merged into the groups";
              case PARTITION_AGGREGATE -> "the touched groups are recomputed";
              default -> "the new result rows are appended";
            });
  }

  /**
   * The sources of {@code changed} (those with a commit since the version the view consumed) whose
   * commits since may have changed a row: all but those whose commits each only rewrote files
   * (dataChange=false, as OPTIMIZE's) with the log still holding them all. Their rows are the same,
   * so a condition that such a source be unchanged (a LEFT JOIN's right side, a subquery's table)
   * holds, and an incremental refresh reads no change rows of it. Shared with the local target's
   * dry run and incremental refresh.
   */
  public static Set<ObjectId> rowsChanged(
      Set<ObjectId> changed,
      Map<ObjectId, Long> consumed,
      Map<ObjectId, Long> current,
      SourceLogs logs) {
    return rowsChanged(changed, consumed, current, logs, new java.util.TreeMap<>());
  }

  /** {@link #rowsChanged}, keeping the logs it read in {@code read}. */
  private static Set<ObjectId> rowsChanged(
      Set<ObjectId> changed,
      Map<ObjectId, Long> consumed,
      Map<ObjectId, Long> current,
      SourceLogs logs,
      Map<ObjectId, SourceLog> read) {
    Set<ObjectId> rows = new TreeSet<>();
    for (ObjectId id : changed) {
      Long before = consumed.get(id);
      Long now = current.get(id);
      if (before == null || now == null || now < 0) {
        rows.add(id);
        continue;
      }
      SourceLog log = read.computeIfAbsent(id, s -> logs.since(s, before));
      if (log.dataChanged() || !log.historyComplete()) {
        rows.add(id);
      }
    }
    return rows;
  }

  /**
   * Why condition {@code c} of the SQL does not hold when {@code changed} have new commits, given
   * each source's partition columns; empty when it holds. Also used by the dry run, for sources
   * that an upstream refresh of the same run will change.
   */
  public static Optional<String> brokenCondition(
      Construct c,
      RefreshAnalysis analysis,
      Set<ObjectId> changed,
      Map<ObjectId, List<String>> partitionColumns,
      Function<ObjectId, Optional<List<String>>> columns,
      NameResolver names) {
    List<ColumnCheck> checks = analysis.columnChecks(c);
    if (!checks.isEmpty()) {
      for (ColumnCheck k : checks) {
        Optional<String> broken = brokenByColumns(k, columns, names);
        if (broken.isPresent()) {
          return broken;
        }
      }
      return Optional.empty();
    }
    String code = c.code();
    if (code.equals("LEFT_JOIN_RIGHT_CHANGED") || code.equals("SUBQUERY_TABLE_CHANGED")) {
      RefContext context =
          code.equals("LEFT_JOIN_RIGHT_CHANGED")
              ? RefContext.LEFT_JOIN_RIGHT
              : RefContext.SUBQUERY_EXPRESSION;
      for (TableRef ref : analysis.refs()) {
        ObjectId id = names.resolve(ref.name());
        if (ref.context() == context && changed.contains(id)) {
          return Optional.of(names.display(id) + " changed");
        }
      }
      return Optional.empty();
    }
    if (code.startsWith("AGG_NEEDS_PARTITIONED_SOURCE")) {
      List<String> groups = analysis.groupColumns();
      for (var e : partitionColumns.entrySet()) {
        if (e.getValue().stream()
            .noneMatch(p -> groups.contains(p.toLowerCase(java.util.Locale.ROOT)))) {
          return Optional.of(
              names.display(e.getKey()) + " is not partitioned by a GROUP BY column");
        }
      }
      return Optional.empty();
    }
    return Optional.of("condition " + code + " is not known");
  }

  /**
   * The first construct that the sources' {@code columns} settle against incremental refresh, as
   * the full refresh it makes; {@code what} says what changed. Also used by the dry run and the
   * Fabric target, which knows no columns and so stays full for every such construct.
   */
  public static Optional<Strategy> settledByColumns(
      RefreshAnalysis analysis,
      String what,
      Function<ObjectId, Optional<List<String>>> columns,
      NameResolver names) {
    for (Construct c : analysis.conditions()) {
      for (ColumnCheck k : analysis.columnChecks(c)) {
        Optional<String> broken = brokenByColumns(k, columns, names);
        if (broken.isPresent()) {
          return Optional.of(new Strategy.Full(c.code(), what + "; " + c.because(broken.get())));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Why one name's reading rules out incremental refresh: Spark reads a column of the FROM when one
   * has the name (which a table's columns or the text tell), else the alias or the function.
   * Columns not known keep the refresh full, as the text alone did.
   */
  private static Optional<String> brokenByColumns(
      ColumnCheck k, Function<ObjectId, Optional<List<String>>> columns, NameResolver names) {
    String name = k.name();
    Optional<String> having = Optional.empty();
    List<String> unknown = new ArrayList<>();
    for (FromColumn f : k.from()) {
      if (f instanceof FromColumn.Named n) {
        if (n.name().equalsIgnoreCase(name)) {
          having = Optional.of("the FROM names a column " + name);
        }
      } else if (f instanceof FromColumn.OfTable t) {
        ObjectId id = names.resolve(t.table());
        Optional<List<String>> of = columns.apply(id);
        if (of.isEmpty()) {
          unknown.add(names.display(id));
        } else if (of.get().stream().anyMatch(x -> x.equalsIgnoreCase(name))) {
          having = Optional.of(names.display(id) + " has a column " + name);
        }
      } else if (f instanceof FromColumn.Unknown u) {
        unknown.add(u.what());
      }
      if (having.isPresent()) {
        break;
      }
    }
    boolean group = !k.columnAllowsIncremental();
    if (having.isPresent()) {
      return group
          ? Optional.of(
              having.get()
                  + ", which Spark groups by before the SELECT alias "
                  + name
                  + ", and the selected expression does not tell its groups apart; GROUP BY the"
                  + " expression itself or its position to refresh incrementally")
          : Optional.empty();
    }
    if (!unknown.isEmpty()) {
      return Optional.of(
          "mlv does not know the columns of "
              + String.join(", ", unknown)
              + ", so it cannot tell whether Spark reads "
              + name
              + (group
                  ? " as a column or as the SELECT alias"
                  : " as a column or as the function"));
    }
    return group
        ? Optional.empty()
        : Optional.of(
            "no table in its FROM has a column "
                + name
                + ", so Spark reads it as the function "
                + name
                + "(): "
                + dev.mlv.sql.NonDeterministic.literalFunction(name).orElse("not deterministic"));
  }
}
