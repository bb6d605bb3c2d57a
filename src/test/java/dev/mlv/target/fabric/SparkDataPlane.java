package dev.mlv.target.fabric;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.project.SparkTarget;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.SqlStatement;
import dev.mlv.target.SqlResult;
import dev.mlv.target.local.LocalTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Rows and Delta history kept by the embedded Spark engine: the simulator's lakehouse is a local
 * project whose views are the simulator's MLV catalog, so a Fabric job computes the same rows,
 * constraint outcomes and Delta versions the local target would.
 */
final class SparkDataPlane implements DataPlane, AutoCloseable {
  private final Path dir;
  private final String workspace;
  private final String lakehouse;
  private LocalTarget local;

  SparkDataPlane(Path dir, String workspace, String lakehouse) {
    this.dir = dir;
    this.workspace = workspace;
    this.lakehouse = lakehouse;
    try {
      Files.createDirectories(dir.resolve("views"));
      Files.writeString(
          dir.resolve("mlv.yml"),
          "name: fabric_simulator\nworkspace: "
              + workspace
              + "\nlakehouse: "
              + lakehouse
              + "\nschema: dbo\ndefaults:\n  enable_cdf: false\n  parallelism: 1\n"
              + "targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n    master: local[2]\n",
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Map<String, String> built;
  private Project cached;

  private synchronized Project project(Map<String, String> views) {
    if (cached != null && views.equals(built)) {
      return cached;
    }
    try {
      Path folder = dir.resolve("views");
      try (Stream<Path> old = Files.list(folder)) {
        for (Path p : old.toList()) {
          Files.delete(p);
        }
      }
      for (Map.Entry<String, String> v : views.entrySet()) {
        Files.writeString(
            folder.resolve(v.getKey() + ".sql"), v.getValue(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LoadResult loaded = ProjectLoader.load(dir, Map.of());
    ProjectConfig config = loaded.orThrow();
    Project p =
        new ProjectBuilder()
            .build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    if (local == null) {
      local = new LocalTarget(config, (SparkTarget) config.target("local").orElseThrow(), false);
    }
    built = new java.util.LinkedHashMap<>(views);
    cached = p;
    return p;
  }

  private SqlStatement statement(String sql) {
    List<SqlStatement> st = MlvParser.parse(Position.start(null), sql).statements();
    if (st.size() != 1) {
      throw new MlvException("PARSE", "expected one statement");
    }
    return st.get(0);
  }

  private static final String NAME = "((?:`[^`]*`|[\\w$]+)(?:\\s*\\.\\s*(?:`[^`]*`|[\\w$]+)){0,3})";
  private static final java.util.regex.Pattern SHOW_SCHEMAS =
      java.util.regex.Pattern.compile("(?is)^\\s*SHOW\\s+SCHEMAS\\s*$");
  private static final java.util.regex.Pattern SHOW_TABLES =
      java.util.regex.Pattern.compile("(?is)^\\s*SHOW\\s+TABLES\\s+IN\\s+" + NAME + "\\s*$");
  private static final java.util.regex.Pattern HISTORY =
      java.util.regex.Pattern.compile(
          "(?is)^\\s*DESCRIBE\\s+HISTORY\\s+" + NAME + "\\s+LIMIT\\s+1\\s*$");
  private static final java.util.regex.Pattern PROPS =
      java.util.regex.Pattern.compile(
          "(?is)^\\s*SHOW\\s+TBLPROPERTIES\\s+" + NAME + "\\s*\\(\\s*'([^']*)'\\s*\\)\\s*$");

  /**
   * Metadata statements are answered from the Delta log files, exactly what Spark's DESCRIBE
   * HISTORY reads, without a Spark job each: the target asks for them many times per command.
   */
  @Override
  public synchronized SqlResult sql(Map<String, String> views, String sql) {
    java.util.regex.Matcher m;
    dev.mlv.target.local.Warehouse wh =
        new dev.mlv.target.local.Warehouse(dir.resolve(".mlv/warehouse").toAbsolutePath());
    if (SHOW_SCHEMAS.matcher(sql).matches()) {
      return new SqlResult(List.of("namespace"), children(wh.tablesDir(lakehouse), false), null);
    } else if ((m = SHOW_TABLES.matcher(sql)).matches()) {
      String schema = m.group(1).replace("`", "").toLowerCase(java.util.Locale.ROOT);
      List<List<String>> rows = new java.util.ArrayList<>();
      for (List<String> t : children(wh.schemaDir(lakehouse, schema), true)) {
        rows.add(List.of(schema, t.get(0), "false"));
      }
      return new SqlResult(List.of("namespace", "tableName", "isTemporary"), rows, null);
    } else if ((m = HISTORY.matcher(sql)).matches()) {
      return DeltaLog.history(wh.tableDir(id(m.group(1))));
    } else if ((m = PROPS.matcher(sql)).matches()) {
      return DeltaLog.property(wh.tableDir(id(m.group(1))), m.group(2));
    }
    Project p = project(views);
    return local.sql(p, statement(sql));
  }

  private ObjectId id(String written) {
    String[] parts =
        written.replace("`", "").toLowerCase(java.util.Locale.ROOT).split("\\s*\\.\\s*");
    int n = parts.length;
    return new ObjectId(workspace, lakehouse, parts[n - 2], parts[n - 1]);
  }

  private static List<List<String>> children(Path folder, boolean tables) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(Files::isDirectory)
          .filter(p -> !tables || dev.mlv.target.local.Warehouse.isTable(p))
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith("_") && !n.startsWith("."))
          .sorted()
          .map(List::of)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public synchronized void create(Map<String, String> views, String key, String statement) {
    Project p = project(views);
    local.sql(p, statement(statement));
  }

  @Override
  public synchronized void rename(Map<String, String> views, String from, String to) {
    Project p = project(views);
    local.sql(p, statement("ALTER MATERIALIZED LAKE VIEW " + from + " RENAME TO " + to));
  }

  @Override
  public synchronized void drop(Map<String, String> views, String key) {
    Project p = project(views);
    local.sql(p, statement("DROP MATERIALIZED LAKE VIEW IF EXISTS " + key));
  }

  @Override
  public synchronized Refreshed refresh(
      Map<String, String> views, List<String> keys, boolean full) {
    Project p = project(views);
    TreeSet<ObjectId> ids = new TreeSet<>();
    for (String k : keys) {
      String[] sn = k.split("\\.");
      ids.add(new ObjectId(workspace, lakehouse, sn[0], sn[1]));
    }
    RunReport r =
        local.refresh(
            p,
            new RefreshRequest(ids, full, 1, Duration.ofHours(1), false, Map.of()),
            RunListener.NONE);
    for (ViewRun v : r.views()) {
      if (v.status() == ViewStatus.Failed) {
        return new Refreshed(v.id().shortName(), v.error().orElse("failed"));
      }
    }
    return new Refreshed(null, null);
  }

  @Override
  public synchronized void close() {
    if (local != null) {
      local.close();
    }
  }
}
