package dev.mlv.target.fabric;

import dev.mlv.target.SqlResult;
import java.util.List;
import java.util.Map;

/**
 * Where the simulator keeps table data. The simulator itself owns the MLV catalog (definitions as
 * sent, answered from its own state); the data plane stores rows and Delta history: either a
 * catalog of versions only (fast, no rows) or the embedded Spark engine.
 */
interface DataPlane {

  /** Result of one refresh of the listed views: the first failure's view and message, if any. */
  record Refreshed(String failedView, String failure) {
    boolean ok() {
      return failedView == null;
    }
  }

  /**
   * Runs one statement that is not MLV management SQL. {@code views} maps {@code schema.name} to
   * the CREATE text of every MLV of the lakehouse.
   */
  SqlResult sql(Map<String, String> views, String sql);

  /** Creates or replaces a view's table from its definition and fills it. */
  void create(Map<String, String> views, String key, String statement);

  void rename(Map<String, String> views, String from, String to);

  void drop(Map<String, String> views, String key);

  /** Refreshes the views (keys in dependency order). */
  Refreshed refresh(Map<String, String> views, List<String> keys, boolean full);
}
