package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Plan;
import dev.mlv.project.Project;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.sql.SqlStatement;
import java.util.List;
import java.util.Optional;

/**
 * Where views are deployed and refreshed: the embedded local lakehouse or a Fabric workspace. Every
 * command talks to a target only through this interface, and one contract test suite runs against
 * every implementation.
 */
public interface Target extends AutoCloseable {

  String name();

  /**
   * Whether this target deploys and runs PySpark ({@code @fmlv}) views; where it does not, plan
   * leaves them out of the changes and refresh reports them as skipped.
   */
  default boolean deploysPySparkViews() {
    return true;
  }

  /** The target's refresh schedules; empty where it has no job scheduler (the local target). */
  default Optional<dev.mlv.schedule.Schedules> schedules() {
    return Optional.empty();
  }

  /**
   * Cancels what this target is running for the current SQL statement (Ctrl-C in the shell), from
   * another thread; the statement then fails and the target stays usable.
   */
  default void cancelRunning() {}

  /**
   * Ctrl-C in {@code mlv shell} during a command that uses this target, from the signal's thread:
   * stops what the command runs (a refresh or apply then ends {@code Interrupted}) and leaves the
   * target usable. The default interrupts the command's thread, which a target whose calls wait on
   * the network sees (Fabric's).
   */
  default void cancelCommand(Thread command) {
    command.interrupt();
  }

  /**
   * Includes the lakehouses upstream of this one in the next refresh: the given ones, or all of
   * them when the list is empty. A target whose refresh cannot reach other lakehouses refuses,
   * since a silently narrower refresh is worse than an error.
   */
  default void extendedLineage(List<UpstreamLakehouse> lakehouses) {
    throw new dev.mlv.diag.MlvException(
        "EXTENDED_LINEAGE_LOCAL",
        "--extended-lineage and --upstream-lakehouse work only on a Fabric target: target '"
            + name()
            + "' is local and refreshes just the project's own views; run without them, or with"
            + " -t <fabric target>");
  }

  /**
   * How to fix {@code table} missing from {@link #state}, a sentence; empty where the state would
   * not list it even if it existed (a target that lists only part of what a project may read), so
   * its absence says nothing.
   */
  default Optional<String> missingTableFix(Project project, ObjectId table) {
    return Optional.empty();
  }

  /**
   * What replacing deployed view {@code view} with the project's definition loses that the view's
   * own refreshes keep, one sentence each, for the plan to show on that replace: the rows of files
   * an APPEND_ONLY file view ingested before and its rebuild no longer finds. Read-only; empty
   * where nothing is lost, or where the target cannot tell.
   */
  default List<String> replaceWarnings(Project project, ObjectId view) {
    return List.of();
  }

  /** The views and tables the target holds now. Read-only; never changes anything. */
  DeployedState state(Project project);

  /**
   * Makes the target match the plan: turns on change data feed, renames, drops, creates and
   * replaces views, then refreshes what changed and everything downstream of it.
   */
  RunReport apply(Project project, Plan plan, RunListener listener);

  /** Refreshes the requested views in dependency order, as one run. */
  RunReport refresh(Project project, RefreshRequest request, RunListener listener);

  /**
   * The most recent runs, newest first. A stored run record that cannot be read is left out, with a
   * {@code warning:} line to {@code listener}'s {@link RunListener#message}.
   */
  List<RunReport> runs(int limit, RunListener listener);

  /** {@link #runs(int, RunListener)} for a caller that shows no warnings. */
  default List<RunReport> runs(int limit) {
    return runs(limit, RunListener.NONE);
  }

  /** The run of this id; records that cannot be read are left out as in {@link #runs}. */
  Optional<RunReport> run(String id, RunListener listener);

  default Optional<RunReport> run(String id) {
    return run(id, RunListener.NONE);
  }

  /**
   * The rows refreshes of {@code view} dropped and kept in its quarantine table, newest first,
   * optionally of one run; empty when the view has no quarantine.
   */
  default SqlResult quarantine(Project project, ObjectId view, Optional<String> runId, int limit) {
    throw new dev.mlv.diag.MlvException(
        "UNSUPPORTED", "target " + name() + " does not keep quarantined rows");
  }

  /** Runs one statement of Spark SQL or MLV management SQL and returns its rows. */
  SqlResult sql(Project project, SqlStatement statement);

  /**
   * {@link #sql(Project, SqlStatement)}, with the messages of a run the statement makes (REFRESH)
   * sent to {@code listener}: its {@code warning:} lines say what was lost.
   */
  default SqlResult sql(Project project, SqlStatement statement, RunListener listener) {
    return sql(project, statement);
  }

  /**
   * Checks the syntax of statements about to run one after another, before any runs: a typo in the
   * last must not leave the first ones committed. A target that has no parser of its own at hand
   * checks nothing and each statement fails when it runs.
   */
  default void checkSql(Project project, java.util.List<SqlStatement> statements) {}

  /**
   * The column names and struct fields of every table and view the target holds, in one read, for
   * the column rules that plan and apply run over the sources. Read-only, and without starting an
   * engine; a target that cannot list them cheaply returns none.
   */
  default TableSchemas schemas(Project project) {
    return TableSchemas.NONE;
  }

  /** The column names of {@link #schemas}, for completion in {@code mlv shell}. */
  default java.util.SortedMap<dev.mlv.lineage.ObjectId, List<String>> columns(Project project) {
    return schemas(project).columns();
  }

  @Override
  void close();
}
