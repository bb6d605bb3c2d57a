package dev.mlv.target.local;

import dev.mlv.diag.MlvException;
import dev.mlv.logging.QuietLogging;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * The embedded Spark + Delta engine of the local target, started on first use because starting
 * Spark costs seconds that {@code validate} or {@code plan} should never pay.
 *
 * <p>Every lakehouse is a catalog ({@code lh.schema.table}) and every workspace a catalog over its
 * lakehouses ({@code ws.lh.schema.table}); the session starts in the default lakehouse and schema,
 * so one- and two-part names resolve as mlv's lineage resolves them. A JVM holds one Spark session:
 * create one runtime per process.
 */
public final class SparkRuntime implements AutoCloseable {

  /**
   * How to start Spark. {@code lakehouses} maps each lakehouse to its workspace; {@code conf}
   * entries override mlv's defaults.
   */
  public record Settings(
      Path warehouse,
      Map<String, String> lakehouses,
      String defaultLakehouse,
      String defaultSchema,
      Optional<String> master,
      Map<String, String> conf,
      boolean debug) {

    public Settings {
      Objects.requireNonNull(warehouse, "warehouse");
      lakehouses = Map.copyOf(lakehouses);
      conf = Map.copyOf(conf);
      if (!lakehouses.containsKey(defaultLakehouse)) {
        throw new IllegalArgumentException(
            "default lakehouse " + defaultLakehouse + " is not among " + lakehouses.keySet());
      }
    }

    /** Local defaults: {@code local[*]}, no extra conf, quiet. */
    public static Settings of(
        Path warehouse, String workspace, String defaultLakehouse, String defaultSchema) {
      return new Settings(
          warehouse,
          Map.of(defaultLakehouse, workspace),
          defaultLakehouse,
          defaultSchema,
          Optional.empty(),
          Map.of(),
          false);
    }
  }

  private final Settings settings;
  private final Warehouse warehouse;
  // lakehouse -> workspace, lower case; guarded by this
  private final Map<String, String> lakehouses = new LinkedHashMap<>();
  private SparkSession session; // guarded by this
  // spelled catalog name -> its catalog settings; guarded by this
  private final Map<String, Map<String, String>> spellings = new LinkedHashMap<>();

  public SparkRuntime(Settings settings) {
    this.settings = settings;
    this.warehouse = new Warehouse(settings.warehouse());
    settings.lakehouses().forEach((lh, ws) -> remember(ws, lh));
  }

  public Warehouse warehouse() {
    return warehouse;
  }

  public synchronized boolean started() {
    return session != null;
  }

  /** The session, started on the first call. */
  public synchronized SparkSession session() {
    if (session == null) {
      session = start();
    }
    return session;
  }

  /**
   * Makes {@code lakehouse} reachable as {@code lakehouse.schema.table} and {@code
   * workspace.lakehouse.schema.table}, also after the session started (Spark reads catalog settings
   * when a catalog name is first resolved).
   */
  public synchronized void registerLakehouse(String workspace, String lakehouse) {
    remember(workspace, lakehouse);
    if (session != null) {
      catalogConf(Warehouse.fold(workspace), Warehouse.fold(lakehouse))
          .forEach((k, v) -> session.conf().set(k, v));
    }
  }

  /**
   * Spark matches catalog names exactly as written, while MLV names are case-insensitive: makes
   * {@code spelled} (say {@code Sales_LH}) a second name of a registered lakehouse or workspace.
   */
  public synchronized void registerSpelling(String spelled) {
    String folded = Warehouse.fold(spelled);
    if (spelled.equals(folded) || spellings.containsKey(spelled)) {
      return;
    }
    String lh = folded;
    String ws = lakehouses.get(folded);
    if (ws == null) {
      ws = folded;
      lh =
          lakehouses.entrySet().stream()
              .filter(e -> e.getValue().equals(folded))
              .map(Map.Entry::getKey)
              .findFirst()
              .orElse(null);
      if (lh == null) {
        return;
      }
    }
    String prefix = "spark.sql.catalog." + folded;
    Map<String, String> conf = new LinkedHashMap<>();
    catalogConf(ws, lh)
        .forEach(
            (k, v) -> {
              if (k.equals(prefix) || k.startsWith(prefix + ".")) {
                conf.put("spark.sql.catalog." + spelled + k.substring(prefix.length()), v);
              }
            });
    spellings.put(spelled, conf);
    if (session != null) {
      conf.forEach((k, v) -> session.conf().set(k, v));
    }
  }

  private void remember(String workspace, String lakehouse) {
    String ws = Warehouse.fold(workspace);
    String lh = Warehouse.fold(lakehouse);
    // A Spark catalog name can be a lakehouse or a workspace, not both: `x.a.b` would be ambiguous.
    if (lakehouses.containsKey(ws) || lakehouses.containsValue(lh) || ws.equals(lh)) {
      throw new MlvException(
          "LOCAL_NAME_CLASH",
          "the local engine needs workspace and lakehouse names to differ, but '"
              + ws
              + "' is both; rename one of them in mlv.yml");
    }
    String previous = lakehouses.putIfAbsent(lh, ws);
    if (previous != null && !previous.equals(ws)) {
      throw new MlvException(
          "LOCAL_NAME_CLASH",
          "lakehouse '"
              + lh
              + "' appears in workspaces '"
              + previous
              + "' and '"
              + ws
              + "'; a local warehouse holds each lakehouse name once");
    }
  }

  /** {@code USE lakehouse.schema}, creating the schema folder, as Fabric's default {@code dbo}. */
  public void use(String lakehouse, String schema) {
    SparkSession spark = session();
    try {
      Files.createDirectories(warehouse.schemaDir(lakehouse, schema));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    spark.sql("USE " + quote(Warehouse.fold(lakehouse)) + "." + quote(Warehouse.fold(schema)));
  }

  private SparkSession start() {
    QuietLogging.apply(settings.debug() || QuietLogging.debugRequested());
    // The context outlives this runtime's project (tests, the shell), so its scratch space is
    // the process's own, not a folder of the first project that happened to start Spark.
    Path scratch =
        Path.of(System.getProperty("java.io.tmpdir"), "mlv-spark-" + ProcessHandle.current().pid());
    try {
      Files.createDirectories(scratch.resolve("spark-local"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.master", settings.master().orElse("local[*]"));
    conf.put("spark.app.name", "mlv");
    conf.put("spark.ui.enabled", "false");
    conf.put("spark.ui.showConsoleProgress", "false");
    conf.put("spark.driver.host", "127.0.0.1");
    conf.put("spark.driver.bindAddress", "127.0.0.1");
    conf.put("spark.local.dir", scratch.resolve("spark-local").toString());
    conf.put("spark.sql.warehouse.dir", scratch.resolve("spark-warehouse").toUri().toString());
    // No Hive, no Derby metastore_db: the folders are the catalog.
    conf.put("spark.sql.catalogImplementation", "in-memory");
    conf.put("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension");
    conf.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    // Local tables are small; Spark's 200 shuffle partitions would mostly schedule empty tasks.
    conf.put("spark.sql.shuffle.partitions", "4");
    conf.put("spark.databricks.delta.snapshotPartitions", "2");
    // ConvertToLocalRelation evaluates a filter over literal rows (VALUES) inside the optimizer,
    // once per optimisation, which would run ViewMaterializer's counting UDF more than once per
    // row; without it the filter runs once, in the query.
    conf.put(
        "spark.sql.optimizer.excludedRules",
        "org.apache.spark.sql.catalyst.optimizer.ConvertToLocalRelation");
    synchronized (this) {
      lakehouses.forEach((lh, ws) -> conf.putAll(catalogConf(ws, lh)));
      spellings.values().forEach(conf::putAll);
    }
    conf.putAll(settings.conf());

    // One SparkContext per JVM, and a session of its own per runtime: the catalogs, USE and
    // temporary functions of one project never leak into another (tests, the shell).
    SparkSession spark = root(conf).newSession();
    conf.forEach(
        (k, v) -> {
          try {
            spark.conf().set(k, v);
          } catch (Exception e) {
            // Static and core settings belong to the shared context, set when it was built.
          }
        });
    session = spark;
    use(settings.defaultLakehouse(), settings.defaultSchema());
    return spark;
  }

  private static SparkSession root; // guarded by SparkRuntime.class

  private static synchronized SparkSession root(Map<String, String> conf) {
    if (root == null || root.sparkContext().isStopped()) {
      SparkSession.Builder builder = SparkSession.builder();
      conf.forEach(builder::config);
      root = builder.getOrCreate();
    }
    return root;
  }

  private Map<String, String> catalogConf(String workspace, String lakehouse) {
    String lhKey = "spark.sql.catalog." + lakehouse;
    String wsKey = "spark.sql.catalog." + workspace;
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put(lhKey, LakehouseCatalog.class.getName());
    conf.put(lhKey + "." + LakehouseCatalog.OPTION_PATH, warehouse.tablesDir(lakehouse).toString());
    conf.put(lhKey + "." + LakehouseCatalog.OPTION_WORKSPACE, workspace);
    conf.put(wsKey, LakehouseCatalog.class.getName());
    conf.put(wsKey + "." + LakehouseCatalog.OPTION_MODE, LakehouseCatalog.MODE_WORKSPACE);
    conf.put(wsKey + "." + LakehouseCatalog.OPTION_WAREHOUSE, warehouse.root().toString());
    return conf;
  }

  static String quote(String identifierPart) {
    return "`" + identifierPart.replace("`", "``") + "`";
  }

  /**
   * Releases this runtime's session. The shared SparkContext stays up for other runtimes in the JVM
   * and is stopped by Spark's own shutdown hook when the process ends.
   */
  @Override
  public synchronized void close() {
    session = null;
  }
}
