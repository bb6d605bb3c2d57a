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

  /** The views and tables the target holds now. Read-only; never changes anything. */
  DeployedState state(Project project);

  /**
   * Makes the target match the plan: turns on change data feed, renames, drops, creates and
   * replaces views, then refreshes what changed and everything downstream of it.
   */
  RunReport apply(Project project, Plan plan, RunListener listener);

  /** Refreshes the requested views in dependency order, as one run. */
  RunReport refresh(Project project, RefreshRequest request, RunListener listener);

  /** The most recent runs, newest first. */
  List<RunReport> runs(int limit);

  Optional<RunReport> run(String id);

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

  @Override
  void close();
}
