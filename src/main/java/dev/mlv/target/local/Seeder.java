package dev.mlv.target.local;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Suggestions;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.SeedFormat;
import dev.mlv.project.SourceConfig;
import dev.mlv.refresh.RunListener;
import dev.mlv.sql.Name;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Loads the seed files that mlv.yml declares for sources (CSV with a header row, or Parquet) into
 * Delta tables of the local lakehouse, replacing what they held, in one commit each.
 */
public final class Seeder {

  /**
   * One source loaded: its id, the rows written, the table version after the commit, and how its
   * columns differ from the table it replaced (a seed's types are inferred again on every load).
   */
  public record Loaded(ObjectId table, long rows, long version, List<String> schemaChanges) {
    public Loaded {
      schemaChanges = List.copyOf(schemaChanges);
    }
  }

  private final LocalTarget target;
  private final Project project;

  Seeder(LocalTarget target, Project project) {
    this.target = target;
    this.project = project;
  }

  List<Loaded> load(List<String> names, RunListener listener) {
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
        List<String> seeded =
            project.config().sources().stream()
                .filter(s -> s.seed().isPresent())
                .map(SourceConfig::name)
                .toList();
        throw new MlvException(
            "SEED_UNKNOWN",
            "no source named '"
                + n
                + "' with a seed file in mlv.yml"
                + Suggestions.nearest(n, seeded)
                    .map(c -> "; did you mean '" + c + "'?")
                    .orElse(""));
      }
    }
    if (chosen.isEmpty()) {
      throw new MlvException(
          "SEED_NONE",
          "no source in mlv.yml declares a seed file (sources: - name: ..., seed: ...)");
    }
    // Read by the shutdown hook below as this thread adds to it.
    List<Loaded> out = new java.util.concurrent.CopyOnWriteArrayList<>();
    // Ctrl-C (SIGINT) ends the JVM without unwinding this method: Spark shuts down under the
    // load, which then fails with "SparkContext was shut down" or "no active Spark session". That
    // failure is the interrupt, not the seed file's (found by QA): the hook says what the table
    // was left as once this thread has seen it, and this thread says nothing more.
    AtomicBoolean exiting = new AtomicBoolean();
    CountDownLatch settled = new CountDownLatch(1);
    AtomicReference<String> outcome = new AtomicReference<>();
    Thread onExit =
        new Thread(
            () -> {
              exiting.set(true);
              try {
                settled.await(LocalTarget.PARK_WAIT.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              listener.message(
                  "mlv: "
                      + Optional.ofNullable(outcome.get()).orElseGet(() -> interrupted(out, null)));
            });
    Runtime.getRuntime().addShutdownHook(onExit);
    try {
      // Registers every lakehouse of the lineage, so seeds can land in any of them.
      target.materializer(project);
      SparkSession spark = target.runtime().session();
      List<dev.mlv.diag.Diagnostic> failed = new ArrayList<>();
      for (SourceConfig s : chosen) {
        ObjectId id = project.names().resolve(Name.of(s.name()));
        OptionalLong before = Warehouse.latestCommit(target.warehouse().tableDir(id));
        try {
          out.add(loadOne(spark, s));
        } catch (RuntimeException e) {
          if (exiting.get()) {
            outcome.set(interrupted(out, new Cut(id, before)));
            settled.countDown();
            awaitHalt();
          }
          if (cancelled(e)) {
            // Ctrl-C in 'mlv shell' cancels the load's Spark jobs and the shell stays up: that is
            // the interrupt, not a fault of the seed file (found by QA: it said SEED_FAILED).
            throw new MlvException("INTERRUPTED", interrupted(out, new Cut(id, before)), e);
          }
          if (!(e instanceof MlvException m)) {
            throw e;
          }
          // Every bad seed file is said at once; the good ones are loaded all the same.
          failed.addAll(m.diagnostics());
        }
      }
      if (!failed.isEmpty()) {
        throw new PartlyLoaded(failed, out);
      }
      return List.copyOf(out);
    } catch (RuntimeException e) {
      if (exiting.get()) {
        // Spark went down before a table was reached (its start, the lakehouses' registration).
        outcome.compareAndSet(null, interrupted(out, null));
        settled.countDown();
        awaitHalt();
      }
      throw e;
    } finally {
      settled.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onExit);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is exiting: the hook is about to say so.
      }
    }
  }

  /** Whether {@code e} comes of Spark's jobs being cancelled, as the shell's Ctrl-C does. */
  private static boolean cancelled(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.apache.spark.SparkThrowable s
          && ("SPARK_JOB_CANCELLED".equals(s.getCondition())
              || "OPERATION_CANCELED".equals(s.getCondition()))) {
        return true;
      }
    }
    return false;
  }

  /** The table whose load the interrupt cut short, and its version before the load. */
  private record Cut(ObjectId table, OptionalLong before) {}

  /** What a Ctrl-C says: what was loaded, and what the table being loaded was left as. */
  private String interrupted(List<Loaded> loaded, Cut cut) {
    StringBuilder line = new StringBuilder("interrupted; seed stopped");
    if (cut != null) {
      String table = project.names().display(cut.table());
      OptionalLong now = Warehouse.latestCommit(target.warehouse().tableDir(cut.table()));
      if (!now.equals(cut.before())) {
        // Its commit landed as the signal came: the load is whole (Delta commits all or nothing).
        line.append(" after ")
            .append(table)
            .append(" was loaded (version ")
            .append(now.getAsLong())
            .append(")");
      } else if (cut.before().isPresent()) {
        line.append(" while ")
            .append(table)
            .append(" was being loaded; it was left as it was (version ")
            .append(cut.before().getAsLong())
            .append(")");
      } else {
        line.append(" while ").append(table).append(" was being loaded; it was not created");
      }
    }
    if (cut == null && loaded.isEmpty()) {
      line.append(" before it changed any table");
    } else if (!loaded.isEmpty()) {
      line.append("; loaded already: ")
          .append(
              String.join(
                  ", ", loaded.stream().map(l -> project.names().display(l.table())).toList()));
    }
    return line.toString();
  }

  /**
   * The JVM is ending, and its shutdown hook prints the interrupt's outcome: this thread waits for
   * the halt rather than print the failure Spark's shutdown caused.
   */
  private static void awaitHalt() {
    try {
      Thread.sleep(LocalTarget.PARK_WAIT.toMillis() * 2);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Some seed files could not be loaded; {@code loaded} are those that were. */
  public static final class PartlyLoaded extends MlvException {
    private final transient List<Loaded> loaded;

    PartlyLoaded(List<dev.mlv.diag.Diagnostic> failures, List<Loaded> loaded) {
      super(failures);
      this.loaded = List.copyOf(loaded);
    }

    public List<Loaded> loaded() {
      return loaded;
    }
  }

  private Loaded loadOne(SparkSession spark, SourceConfig s) {
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
    java.nio.file.Path tableDir = target.warehouse().tableDir(id);
    SeedProblems problems =
        new SeedProblems(
            file,
            project.config().root().relativize(file),
            project.names().display(id),
            format == SeedFormat.CSV);
    boolean hadFolder = Files.exists(tableDir);
    long rows;
    List<String> changes;
    problems.checkCsvText();
    try {
      Dataset<Row> df =
          format == SeedFormat.PARQUET
              ? spark.read().parquet(file.toString())
              : spark
                  .read()
                  .option("header", "true")
                  .option("inferSchema", "true")
                  .option("mode", "FAILFAST")
                  // RFC 4180, as spreadsheets write it: line breaks inside quoted fields, and
                  // a quote inside one written twice (Spark's default escape is a backslash).
                  .option("multiLine", "true")
                  .option("escape", "\"")
                  .csv(file.toString());
      problems.checkColumns(df.schema());
      changes = schemaChanges(spark, tableDir, df.schema());
      // A full read first: count() parses no column, so a malformed record would otherwise
      // surface half way through the Delta write.
      df.write().format("noop").mode("overwrite").save();
      rows = df.count();
      // Keep the table's properties (change data feed) across reloads.
      df.write()
          .format("delta")
          .mode("overwrite")
          .option("overwriteSchema", "true")
          .save(tableDir.toString());
    } catch (MlvException e) {
      throw e;
    } catch (Exception e) {
      // Spark throws its checked SparkException undeclared, so RuntimeException is not enough.
      if (!hadFolder && Warehouse.latestCommit(tableDir).isEmpty()) {
        Warehouse.deleteTree(tableDir);
      }
      throw problems.failure(e);
    }
    OptionalLong v = Warehouse.latestCommit(target.warehouse().tableDir(id));
    return new Loaded(id, rows, v.orElse(0), changes);
  }

  /** Columns added, removed or retyped against the table already there (none when it is new). */
  static List<String> schemaChanges(
      SparkSession spark, java.nio.file.Path tableDir, StructType loaded) {
    if (Warehouse.latestCommit(tableDir).isEmpty()) {
      return List.of();
    }
    StructType before = spark.read().format("delta").load(tableDir.toString()).schema();
    return schemaChanges(before, loaded);
  }

  static List<String> schemaChanges(StructType before, StructType after) {
    Map<String, DataType> old = new LinkedHashMap<>();
    for (StructField f : before.fields()) {
      old.put(f.name().toLowerCase(Locale.ROOT), f.dataType());
    }
    List<String> out = new ArrayList<>();
    for (StructField f : after.fields()) {
      DataType was = old.remove(f.name().toLowerCase(Locale.ROOT));
      if (was == null) {
        out.add("column " + f.name() + " " + f.dataType().sql() + " added");
      } else if (!was.equals(f.dataType())) {
        out.add("column " + f.name() + " " + was.sql() + " -> " + f.dataType().sql());
      }
    }
    old.forEach((name, type) -> out.add("column " + name + " " + type.sql() + " removed"));
    return out;
  }
}
