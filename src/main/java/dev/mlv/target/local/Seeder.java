package dev.mlv.target.local;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.SeedFormat;
import dev.mlv.project.SourceConfig;
import dev.mlv.sql.Name;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Loads the seed files that mlv.yml declares for sources (CSV with a header row, or Parquet) into
 * Delta tables of the local lakehouse, replacing what they held, in one commit each.
 */
public final class Seeder {
  /** One source loaded: its id, the rows written and the table version after the commit. */
  public record Loaded(ObjectId table, long rows, long version) {}

  private final LocalTarget target;
  private final Project project;

  Seeder(LocalTarget target, Project project) {
    this.target = target;
    this.project = project;
  }

  List<Loaded> load(List<String> names) {
    List<SourceConfig> chosen = new ArrayList<>();
    for (SourceConfig s : project.config().sources()) {
      if (s.seed().isEmpty()) {
        continue;
      }
      ObjectId id = project.names().resolve(Name.of(s.name()));
      if (names.isEmpty()
          || names.stream().anyMatch(n -> project.names().resolve(Name.of(n)).equals(id))) {
        chosen.add(s);
      }
    }
    for (String n : names) {
      ObjectId wanted = project.names().resolve(Name.of(n));
      boolean known =
          chosen.stream().anyMatch(s -> project.names().resolve(Name.of(s.name())).equals(wanted));
      if (!known) {
        throw new MlvException(
            "SEED_UNKNOWN", "no source named '" + n + "' with a seed file in mlv.yml");
      }
    }
    if (chosen.isEmpty()) {
      throw new MlvException(
          "SEED_NONE",
          "no source in mlv.yml declares a seed file (sources: - name: ..., seed: ...)");
    }
    // Registers every lakehouse of the lineage, so seeds can land in any of them.
    target.materializer(project);
    SparkSession spark = target.runtime().session();
    List<Loaded> out = new ArrayList<>();
    for (SourceConfig s : chosen) {
      ObjectId id = project.names().resolve(Name.of(s.name()));
      if (project.views().containsKey(id)) {
        throw new MlvException(
            "SEED_VIEW", "source " + s.name() + " is also a view; a view cannot be seeded");
      }
      var file = s.seed().get();
      if (!Files.isRegularFile(file)) {
        throw new MlvException("SEED_MISSING", "seed file " + file + " does not exist");
      }
      SeedFormat format = s.format().orElse(SeedFormat.CSV);
      Dataset<Row> df =
          format == SeedFormat.PARQUET
              ? spark.read().parquet(file.toString())
              : spark
                  .read()
                  .option("header", "true")
                  .option("inferSchema", "true")
                  .option("mode", "FAILFAST")
                  .csv(file.toString());
      long rows;
      try {
        rows = df.count();
        // Keep the table's properties (change data feed) across reloads.
        df.write()
            .format("delta")
            .mode("overwrite")
            .option("overwriteSchema", "true")
            .save(target.warehouse().tableDir(id).toString());
      } catch (RuntimeException e) {
        throw new MlvException(
            "SEED_FAILED",
            "loading "
                + project.config().root().relativize(file)
                + " into "
                + project.names().display(id)
                + " failed: "
                + SparkMessages.firstLine(e),
            e);
      }
      OptionalLong v = Warehouse.latestCommit(target.warehouse().tableDir(id));
      out.add(new Loaded(id, rows, v.orElse(0)));
    }
    return out;
  }
}
