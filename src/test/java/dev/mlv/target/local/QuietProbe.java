package dev.mlv.target.local;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.OnMismatch;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts a fresh {@link SparkRuntime} in a child JVM, writes a table and fails a refresh on a FAIL
 * constraint (Spark logs task failures at ERROR); the parent checks that nothing reached stderr and
 * nothing was written to the working directory.
 */
public final class QuietProbe {

  private QuietProbe() {}

  public static void main(String[] args) {
    try (SparkRuntime runtime =
        new SparkRuntime(SparkRuntime.Settings.of(Path.of(args[0]), "ws", "lh", "dbo"))) {
      ViewMaterializer materializer = new ViewMaterializer(runtime);
      ObjectId view = new ObjectId("ws", "lh", "dbo", "v");
      materializer.materialize(
          new MaterializeRequest(
              view, "SELECT 1 AS id", List.of(), List.of(), Optional.empty(), Map.of()));
      try {
        materializer.materialize(
            new MaterializeRequest(
                view,
                "SELECT 2 AS id",
                List.of(new Constraint("small", "id < 2", OnMismatch.FAIL, null)),
                List.of(),
                Optional.empty(),
                Map.of()));
        System.out.println("NO FAILURE");
      } catch (MlvException expected) {
        System.out.println(
            "OK " + runtime.session().sql("SELECT count(*) FROM v").first().getLong(0));
      }
    }
  }
}
