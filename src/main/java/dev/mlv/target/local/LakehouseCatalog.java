package dev.mlv.target.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Spark catalog over folders laid out like OneLake, so that no metastore is needed: a new JVM
 * sees every table by reading the folders.
 *
 * <p>In lakehouse mode (option {@code path=<root>/<lh>.Lakehouse/Tables}) namespaces are schemas
 * and {@code lh.schema.table} is {@code Tables/<schema>/<table>}. In workspace mode (options {@code
 * mode=workspace}, {@code warehouse=<root>}) namespaces are {@code [lakehouse, schema]}, which
 * makes four-part names {@code ws.lh.schema.table} work; a lakehouse belongs to the workspace named
 * by its own catalog's {@code workspace} option, read from the live session conf so lakehouses can
 * be registered after the workspace catalog was first used.
 *
 * <p>Tables are Delta tables addressed by path: every table operation is delegated to the session
 * catalog ({@code DeltaCatalog}) with a {@code delta.`/path`} identifier, because {@code
 * DeltaCatalog} itself cannot be registered as a non-session catalog. Names are case-insensitive:
 * folders are lower case.
 */
public class LakehouseCatalog implements StagingTableCatalog, SupportsNamespaces {

  static final String OPTION_PATH = "path";
  static final String OPTION_MODE = "mode";
  static final String OPTION_WAREHOUSE = "warehouse";
  static final String OPTION_WORKSPACE = "workspace";
  static final String MODE_WORKSPACE = "workspace";
  private static final String[] DEFAULT_NAMESPACE = {"dbo"};

  private String name;
  private Path tablesDir; // lakehouse mode
  private String workspace; // lakehouse mode: the workspace the lakehouse belongs to, if named
  private Warehouse warehouse; // workspace mode

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    if (MODE_WORKSPACE.equalsIgnoreCase(options.getOrDefault(OPTION_MODE, ""))) {
      warehouse = new Warehouse(Path.of(required(options, OPTION_WAREHOUSE)));
    } else {
      tablesDir = Path.of(required(options, OPTION_PATH)).toAbsolutePath().normalize();
      workspace = options.get(OPTION_WORKSPACE);
    }
  }

  private String required(CaseInsensitiveStringMap options, String key) {
    String value = options.get(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "catalog " + name + " needs option spark.sql.catalog." + name + "." + key);
    }
    return value;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String[] defaultNamespace() {
    return warehouse == null ? DEFAULT_NAMESPACE.clone() : new String[0];
  }

  // ---- layout ----------------------------------------------------------------------------

  /** The folder of a namespace, or empty when the namespace cannot exist in this catalog. */
  private Optional<Path> namespaceDir(String[] namespace) {
    if (warehouse == null) {
      return namespace.length == 1
          ? Optional.of(tablesDir.resolve(Warehouse.segment("schema", namespace[0])))
          : Optional.empty();
    }
    if (namespace.length == 0 || namespace.length > 2 || !ownsLakehouse(namespace[0])) {
      return Optional.empty();
    }
    return Optional.of(
        namespace.length == 1
            ? warehouse.tablesDir(namespace[0])
            : warehouse.schemaDir(namespace[0], namespace[1]));
  }

  /** Schemas are the namespaces that hold tables: depth 1 in a lakehouse, 2 in a workspace. */
  private boolean isSchema(String[] namespace) {
    return namespace.length == (warehouse == null ? 1 : 2);
  }

  private boolean ownsLakehouse(String lakehouse) {
    String key = "spark.sql.catalog." + Warehouse.fold(lakehouse) + "." + OPTION_WORKSPACE;
    String owner = session().conf().get(key, null);
    return owner != null && Warehouse.fold(owner).equals(Warehouse.fold(name));
  }

  private Optional<Path> tableDir(Identifier ident) {
    if (!isSchema(ident.namespace())) {
      return Optional.empty();
    }
    Warehouse.refusePath(ident.namespace()[ident.namespace().length - 1], ident.name());
    return namespaceDir(ident.namespace())
        .map(d -> d.resolve(Warehouse.segment("table", ident.name())));
  }

  private Path requireTableDir(Identifier ident) throws NoSuchTableException {
    Optional<Path> dir = tableDir(ident);
    if (dir.isEmpty() || !Warehouse.isTable(dir.get())) {
      throw new NoSuchTableException(ident);
    }
    return dir.get();
  }

  private Path newTableDir(Identifier ident) throws NoSuchNamespaceException {
    Optional<Path> dir = tableDir(ident);
    if (dir.isEmpty() || !Files.isDirectory(dir.get().getParent())) {
      throw new NoSuchNamespaceException(ident.namespace());
    }
    return dir.get();
  }

  private static Identifier pathIdent(Path dir) {
    return Identifier.of(new String[] {"delta"}, dir.toString());
  }

  // ---- delegation to the session's DeltaCatalog ------------------------------------------

  private static SparkSession session() {
    return SparkSession.active();
  }

  private static TableCatalog delta() {
    return (TableCatalog) session().sessionState().catalogManager().v2SessionCatalog();
  }

  private static StagingTableCatalog stagingDelta() {
    return (StagingTableCatalog) delta();
  }

  /** Only Delta is stored here; an explicit other format is refused rather than ignored. */
  private static Map<String, String> deltaProperties(Map<String, String> properties) {
    String provider = properties.get(TableCatalog.PROP_PROVIDER);
    if (provider != null && !provider.equalsIgnoreCase("delta")) {
      throw new IllegalArgumentException("only Delta tables are supported, not USING " + provider);
    }
    if (properties.containsKey(TableCatalog.PROP_LOCATION)) {
      throw new IllegalArgumentException(
          "LOCATION is not supported: a table's folder follows from its name");
    }
    Map<String, String> copy = new HashMap<>(properties);
    copy.put(TableCatalog.PROP_PROVIDER, "delta");
    return copy;
  }

  // Delta caches a DeltaLog per path; after a folder is deleted or moved it must not be reused.
  private static void forget(Path dir) {
    DeltaLog.invalidateCache(session(), new org.apache.hadoop.fs.Path(dir.toUri()));
  }

  // ---- tables ----------------------------------------------------------------------------

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    Path dir = namespaceDir(namespace).filter(Files::isDirectory).orElse(null);
    if (dir == null || !isSchema(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    List<Identifier> tables = new ArrayList<>();
    for (Path child : Warehouse.subfolders(dir)) {
      if (Warehouse.isTable(child)) {
        tables.add(Identifier.of(namespace, child.getFileName().toString()));
      }
    }
    return tables.toArray(Identifier[]::new);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    Path dir = requireTableDir(ident);
    Optional<Long> pinned = ReadPins.of(dir);
    if (pinned.isPresent()) {
      return delta().loadTable(pathIdent(dir), Long.toString(pinned.get()));
    }
    return delta().loadTable(pathIdent(dir));
  }

  /** {@code VERSION AS OF} in an ad-hoc query (a view's SELECT may not use it: validate). */
  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    return delta().loadTable(pathIdent(requireTableDir(ident)), version);
  }

  /** {@code TIMESTAMP AS OF} in an ad-hoc query, in microseconds as Spark passes it. */
  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    return delta().loadTable(pathIdent(requireTableDir(ident)), timestamp);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    return tableDir(ident).map(Warehouse::isTable).orElse(false);
  }

  @Override
  public void invalidateTable(Identifier ident) {
    tableDir(ident).ifPresent(LakehouseCatalog::forget);
  }

  @Override
  public Table createTable(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    Path dir = newTableDir(ident);
    if (Warehouse.isTable(dir)) {
      throw new TableAlreadyExistsException(ident);
    }
    return delta().createTable(pathIdent(dir), columns, partitions, deltaProperties(properties));
  }

  @Override
  public StagedTable stageCreate(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    Path dir = newTableDir(ident);
    if (Warehouse.isTable(dir)) {
      throw new TableAlreadyExistsException(ident);
    }
    return stagingDelta()
        .stageCreate(pathIdent(dir), columns, partitions, deltaProperties(properties));
  }

  @Override
  public StagedTable stageReplace(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws NoSuchNamespaceException, NoSuchTableException {
    return stagingDelta()
        .stageReplace(
            pathIdent(requireTableDir(ident)), columns, partitions, deltaProperties(properties));
  }

  @Override
  public StagedTable stageCreateOrReplace(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws NoSuchNamespaceException {
    return stagingDelta()
        .stageCreateOrReplace(
            pathIdent(newTableDir(ident)), columns, partitions, deltaProperties(properties));
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    return delta().alterTable(pathIdent(requireTableDir(ident)), changes);
  }

  @Override
  public boolean dropTable(Identifier ident) {
    Optional<Path> dir = tableDir(ident);
    if (dir.isEmpty() || !Files.exists(dir.get())) {
      return false;
    }
    boolean existed = Warehouse.isTable(dir.get());
    // A folder without a commit (a failed CTAS) is removed too, so the name can be reused.
    Warehouse.deleteTable(dir.get());
    forget(dir.get());
    return existed;
  }

  @Override
  public boolean purgeTable(Identifier ident) {
    return dropTable(ident);
  }

  /**
   * Moves the folder: with no metastore the name is the folder, and the Delta log refers to data
   * files by relative paths, so the moved table is complete. {@code ALTER TABLE ... RENAME TO}
   * gives a new name within the same catalog.
   */
  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent)
      throws NoSuchTableException, TableAlreadyExistsException {
    Path from = requireTableDir(oldIdent);
    Path to;
    try {
      to = newTableDir(renameTarget(oldIdent, newIdent));
    } catch (NoSuchNamespaceException e) {
      throw new IllegalArgumentException("schema does not exist: " + newIdent, e);
    }
    if (Files.exists(to)) {
      throw new TableAlreadyExistsException(newIdent);
    }
    moveTable(from, to);
  }

  /**
   * The new name of a rename in this catalog's own terms. Spark passes the parts written after
   * {@code RENAME TO} unresolved (a one-part name already qualified with the source's namespace),
   * so {@code lh.s.t} and {@code ws.lh.s.t} arrive with the lakehouse, and the workspace, in the
   * namespace. They must be the source's own: a table cannot move to another lakehouse, in Fabric
   * either. {@code s.t} is a schema of the source's lakehouse, in workspace mode too.
   */
  private Identifier renameTarget(Identifier from, Identifier to) {
    String[] ns = to.namespace();
    if (!isSchema(from.namespace()) || ns.length == 0 || ns.length > 3) {
      return to; // not a name of a table: refused as a missing schema
    }
    // [workspace, lakehouse] of the source; the workspace is null if the catalog was not told it.
    String[] home =
        warehouse == null
            ? new String[] {workspace, name}
            : new String[] {name, from.namespace()[0]};
    for (int i = ns.length - 2, j = 1; i >= 0; i--, j--) {
      if (home[j] == null || !Warehouse.fold(ns[i]).equals(Warehouse.fold(home[j]))) {
        String where = home[0] == null ? home[1] : home[0] + "." + home[1];
        throw new IllegalArgumentException(
            "a table cannot be moved between lakehouses (Fabric cannot either): "
                + to
                + " is not in "
                + where
                + ", the lakehouse of "
                + name
                + "."
                + from
                + "; rename it within "
                + home[1]
                + ", or copy it with CREATE TABLE ... AS SELECT and drop it");
      }
    }
    String schema = ns[ns.length - 1];
    String[] namespace = warehouse == null ? new String[] {schema} : new String[] {home[1], schema};
    return Identifier.of(namespace, to.name());
  }

  static void moveTable(Path from, Path to) {
    try {
      Files.createDirectories(to.getParent());
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    forget(from);
    forget(to);
  }

  // ---- namespaces ------------------------------------------------------------------------

  @Override
  public String[][] listNamespaces() throws NoSuchNamespaceException {
    return listNamespaces(new String[0]);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    List<String[]> result = new ArrayList<>();
    if (namespace.length == 0 && warehouse != null) {
      for (Path lakehouse : Warehouse.subfolders(warehouse.root())) {
        String lh = Warehouse.lakehouseOf(lakehouse);
        if (lh != null && ownsLakehouse(lh)) {
          result.add(new String[] {lh});
        }
      }
    } else if (namespace.length == 0) {
      for (Path schema : Warehouse.subfolders(tablesDir)) {
        result.add(new String[] {schema.getFileName().toString()});
      }
    } else if (isSchema(namespace)) {
      if (!namespaceExists(namespace)) {
        throw new NoSuchNamespaceException(namespace);
      }
    } else {
      Path dir = namespaceDir(namespace).orElseThrow(() -> new NoSuchNamespaceException(namespace));
      for (Path schema : Warehouse.subfolders(dir)) {
        String[] child = Arrays.copyOf(namespace, namespace.length + 1);
        child[namespace.length] = schema.getFileName().toString();
        result.add(child);
      }
    }
    return result.toArray(String[][]::new);
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    if (namespace.length == 0) {
      return true;
    }
    return namespaceDir(namespace).map(Files::isDirectory).orElse(false);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace)
      throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return namespace.length == 0
        ? Map.of()
        : Map.of(
            SupportsNamespaces.PROP_LOCATION, namespaceDir(namespace).orElseThrow().toString());
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    if (namespaceExists(namespace)) {
      throw new NamespaceAlreadyExistsException(namespace);
    }
    if (!isSchema(namespace)) {
      throw new IllegalArgumentException(
          "a namespace of catalog "
              + name
              + " is "
              + (warehouse == null ? "a schema" : "lakehouse.schema")
              + ", not "
              + String.join(".", namespace));
    }
    Path dir =
        namespaceDir(namespace)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "lakehouse " + namespace[0] + " is not in workspace " + name));
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("schemas are folders and carry no properties");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    if (!isSchema(namespace) || !namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    Path dir = namespaceDir(namespace).orElseThrow();
    List<Path> tables = Warehouse.subfolders(dir);
    if (!tables.isEmpty() && !cascade) {
      throw new NonEmptyNamespaceException(namespace);
    }
    tables.forEach(LakehouseCatalog::forget);
    Warehouse.deleteTree(dir);
    return true;
  }
}
