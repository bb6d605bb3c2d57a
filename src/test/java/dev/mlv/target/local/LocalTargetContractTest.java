package dev.mlv.target.local;

import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.SparkTarget;
import dev.mlv.sql.MlvParser;
import dev.mlv.target.Target;
import dev.mlv.target.TargetContractTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;

/** The target contract on the embedded engine; sources are loaded with {@code mlv sql}. */
class LocalTargetContractTest extends TargetContractTest {

  /**
   * The JVM's one SparkContext keeps its scratch folder in the warehouse of the first runtime;
   * starting it from the shared test runtime keeps it out of this class's temporary folders.
   */
  @BeforeAll
  static void sharedContext() {
    LocalSparkTestSupport.runtime();
  }

  @Override
  protected Target newTarget(Project project) {
    return open(project);
  }

  static LocalTarget open(Project project) {
    SparkTarget local = (SparkTarget) project.config().target("local").orElseThrow();
    return new LocalTarget(project.config(), local, false);
  }

  @Override
  protected void loadSource(
      Project project, ObjectId table, String columns, List<List<Object>> rows, boolean append) {
    load(target, project, table, columns, rows, append);
  }

  /** One commit: CREATE OR REPLACE TABLE ... AS SELECT, or INSERT INTO ... SELECT. */
  static void load(
      Target target,
      Project project,
      ObjectId table,
      String columns,
      List<List<Object>> rows,
      boolean append) {
    String name = table.lakehouse() + "." + table.schema() + "." + table.name();
    run(target, project, "CREATE SCHEMA IF NOT EXISTS " + table.lakehouse() + "." + table.schema());
    String[] cols = columns.split(",");
    List<String> select = new ArrayList<>();
    List<String> aliases = new ArrayList<>();
    for (int i = 0; i < cols.length; i++) {
      String[] nameType = cols[i].strip().split("\\s+", 2);
      select.add("CAST(c" + i + " AS " + nameType[1] + ") AS " + nameType[0]);
      aliases.add("c" + i);
    }
    List<String> values = new ArrayList<>();
    for (List<Object> r : rows) {
      List<String> cells = new ArrayList<>();
      for (Object v : r) {
        cells.add(
            v == null
                ? "NULL"
                : v instanceof String s ? "'" + s.replace("'", "\\'") + "'" : String.valueOf(v));
      }
      values.add("(" + String.join(", ", cells) + ")");
    }
    String query =
        "SELECT "
            + String.join(", ", select)
            + " FROM VALUES "
            + String.join(", ", values)
            + " AS t("
            + String.join(", ", aliases)
            + ")";
    run(
        target,
        project,
        append
            ? "INSERT INTO " + name + " " + query
            : "CREATE OR REPLACE TABLE " + name + " USING delta AS " + query);
  }

  static void run(Target target, Project project, String sql) {
    target.sql(project, MlvParser.parse(Position.start(null), sql).statements().get(0));
  }
}
