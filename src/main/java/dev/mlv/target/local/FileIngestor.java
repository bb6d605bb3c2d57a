package dev.mlv.target.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.diag.MlvException;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.Strategy;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.local.FileReader.Group;
import dev.mlv.target.local.IngestedFiles.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameWriterV2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Refreshes a file-ingesting view ({@code USING OneLake_Files}) on the local target: compares the
 * source folder with the files the view already holds, reads only what its {@code refresh_mode}
 * needs, enforces its {@code schema_mode}, and writes the rows and the new list of ingested files
 * in one Delta commit.
 */
final class FileIngestor {
  /** Rule id of a file whose columns break a FIXED schema. */
  static final String SCHEMA_DRIFT = "FILE_SCHEMA_DRIFT";

  private final Supplier<SparkRuntime> runtime;
  private final Warehouse warehouse;
  private final SourceFolders folders;

  FileIngestor(Supplier<SparkRuntime> runtime, Warehouse warehouse, SourceFolders folders) {
    this.runtime = runtime;
    this.warehouse = warehouse;
    this.folders = folders;
  }

  /** What one refresh wrote. */
  record Result(long rowsWritten, long rowsRemoved, int filesIngested, int filesRemoved) {}

  /** The folder now against the files the view holds; {@code ingested} is empty without a list. */
  record Changes(
      List<SourceFile> current,
      Optional<IngestedFiles> ingested,
      List<SourceFile> added,
      List<SourceFile> replaced,
      List<String> deleted) {

    boolean none() {
      return added.isEmpty() && replaced.isEmpty() && deleted.isEmpty();
    }

    /**
     * The files ingested before that are replaced or deleted since, in path order: APPEND_ONLY
     * keeps their rows, MIRROR removes them, and reading the whole folder again drops them.
     */
    List<String> gone() {
      Set<String> out = new java.util.TreeSet<>(deleted);
      replaced.forEach(f -> out.add(f.path()));
      return List.copyOf(out);
    }

    String summary() {
      List<String> parts = new ArrayList<>();
      if (!added.isEmpty()) {
        parts.add(DiagnosticRenderer.plural(added.size(), "new file"));
      }
      if (!replaced.isEmpty()) {
        parts.add(DiagnosticRenderer.plural(replaced.size(), "replaced file"));
      }
      if (!deleted.isEmpty()) {
        parts.add(DiagnosticRenderer.plural(deleted.size(), "deleted file"));
      }
      return String.join(", ", parts);
    }
  }

  /**
   * The strategy, from the folder listing and the view's list of ingested files alone: nothing is
   * read and Spark does not start.
   */
  Strategy decide(
      ObjectId id,
      ViewDefinition def,
      boolean fullRequested,
      Optional<String> forced,
      NameResolver names) {
    if (forced.isPresent()) {
      return new Strategy.Full(
          forced.get(),
          forced.get().equals("NEW_VIEW")
              ? "the view is new, so its first refresh reads every file in the folder"
              : "the definition changed, so every file in the folder is read again");
    }
    if (fullRequested) {
      // Said before it runs (the dry run prints this reason): what APPEND_ONLY kept goes now.
      List<String> dropped = droppedByRereading(id, def, def);
      return new Strategy.Full(
          "FULL_REQUESTED",
          "a full refresh was requested, so every file in the folder is read"
              + (dropped.isEmpty() ? "" : "; it drops " + droppedRows(dropped)));
    }
    FileSource source = FileSource.of(def);
    Changes c = changes(id, source);
    if (c.ingested().isEmpty()) {
      return new Strategy.Full(
          "NO_FILE_LIST",
          "no record of the files ingested before, so every file in the folder is read");
    }
    switch (source.refreshMode()) {
      case APPEND_ONLY -> {
        String kept = "";
        if (!c.gone().isEmpty()) {
          int n = c.gone().size();
          kept =
              "; "
                  + DiagnosticRenderer.plural(n, "replaced or deleted file")
                  + " keep"
                  + (n == 1 ? "s" : "")
                  + " the rows ingested before (APPEND_ONLY)";
        }
        return c.added().isEmpty()
            ? new Strategy.Skip("NO_NEW_FILES", "no new file in the source folder" + kept)
            : new Strategy.Incremental(
                "NEW_FILES",
                DiagnosticRenderer.plural(c.added().size(), "new file") + " to ingest" + kept);
      }
      case MIRROR -> {
        return c.none()
            ? new Strategy.Skip("NO_FILE_CHANGES", "the source folder did not change")
            : new Strategy.Incremental("FILES_CHANGED", c.summary() + " to mirror (MIRROR)");
      }
      default -> {
        return c.none()
            ? new Strategy.Skip("NO_FILE_CHANGES", "the source folder did not change")
            : new Strategy.Full(
                "FILES_CHANGED", c.summary() + "; refresh_mode FULL reads the whole folder again");
      }
    }
  }

  /**
   * The files whose rows reading the whole folder of {@code read} again drops although view {@code
   * id}, deployed as {@code kept}, holds them only because it is APPEND_ONLY: those ingested before
   * and replaced or deleted since ({@link Changes#gone}), in path order. Empty when {@code kept} is
   * of another mode (MIRROR and FULL drop those rows at their next refresh anyway), when the view
   * has no list of ingested files, or when the folder cannot be listed (the refresh then fails on
   * it and says why).
   */
  List<String> droppedByRereading(ObjectId id, ViewDefinition kept, ViewDefinition read) {
    if (!kept.isFileSource() || !read.isFileSource()) {
      return List.of();
    }
    try {
      return FileSource.of(kept).refreshMode() == FileSource.RefreshMode.APPEND_ONLY
          ? changes(id, FileSource.of(read)).gone()
          : List.of();
    } catch (MlvException | UncheckedIOException e) {
      return List.of();
    }
  }

  /** How many files are shown by name in {@link #droppedRows}; the rest are counted. */
  private static final int NAMED_FILES = 3;

  /**
   * "the rows of 2 files ingested before that are no longer in the folder or were replaced since
   * (APPEND_ONLY keeps them only until the view is rebuilt): a.csv, b.csv", for a plan's warning
   * and a full refresh's reason.
   */
  static String droppedRows(List<String> files) {
    int n = files.size();
    String named = String.join(", ", files.subList(0, Math.min(n, NAMED_FILES)));
    return "the rows of "
        + DiagnosticRenderer.plural(n, "file")
        + " ingested before that "
        + (n == 1 ? "is no longer in the folder or was" : "are no longer in the folder or were")
        + " replaced since (APPEND_ONLY keeps them only until the view is rebuilt): "
        + named
        + (n > NAMED_FILES ? " and " + (n - NAMED_FILES) + " more" : "");
  }

  /**
   * Whether an incremental ingestion now only appends rows: APPEND_ONLY keeps the rows of replaced
   * and deleted files, MIRROR removes them (a commit that is no append).
   */
  boolean onlyAppends(ObjectId id, ViewDefinition def) {
    FileSource source = FileSource.of(def);
    if (source.refreshMode() == FileSource.RefreshMode.APPEND_ONLY) {
      return true;
    }
    return changes(id, source).gone().isEmpty();
  }

  Changes changes(ObjectId id, FileSource source) {
    List<SourceFile> current = FileReader.list(folder(source));
    Path table = warehouse.tableDir(id);
    Optional<IngestedFiles> ingested =
        Warehouse.isTable(table) ? IngestedFiles.read(table) : Optional.empty();
    Map<String, SourceFile> before = new TreeMap<>();
    ingested.ifPresent(i -> i.files().forEach(f -> before.put(f.path(), f)));
    List<SourceFile> added = new ArrayList<>();
    List<SourceFile> replaced = new ArrayList<>();
    Set<String> present = new java.util.HashSet<>();
    for (SourceFile f : current) {
      present.add(f.path());
      SourceFile old = before.get(f.path());
      if (old == null) {
        added.add(f);
      } else if (!old.sameContentAs(f)) {
        replaced.add(f);
      }
    }
    List<String> deleted =
        before.keySet().stream().filter(p -> !present.contains(p)).collect(Collectors.toList());
    return new Changes(current, ingested, added, replaced, deleted);
  }

  private Path folder(FileSource source) {
    SourceFolders.Resolved where = folders.resolve(source.path());
    if (Files.isRegularFile(where.folder())) {
      String path = source.path().strip();
      String parent = path.substring(0, path.lastIndexOf('/') + 1);
      throw new MlvException(
          Diagnostic.error(
              FileSource.RULE,
              null,
              "source path "
                  + where.folder()
                  + " is a file, not a folder (path '"
                  + source.path()
                  + "', "
                  + where.how()
                  + ")",
              "the path of a file view names the folder that holds its files: "
                  + (parent.isEmpty() ? "" : "write '" + parent + "', or ")
                  + "move the file into a folder of its own and name that folder"));
    }
    if (!Files.isDirectory(where.folder())) {
      throw new MlvException(
          FileSource.RULE,
          "source folder "
              + where.folder()
              + " does not exist (path '"
              + source.path()
              + "', "
              + where.how()
              + "); create it, or map the OneLake folder to a local one under the local target's"
              + " files: in mlv.yml");
    }
    return where.folder();
  }

  /**
   * Runs the refresh the strategy decided, writing {@code properties} when the table is created.
   * The folder is listed again: what the run reads is what the list it commits describes.
   */
  Result ingest(
      ObjectId id,
      ViewDefinition def,
      Strategy strategy,
      Map<String, String> properties,
      NameResolver names) {
    FileSource source = FileSource.of(def);
    Path folder = folder(source);
    Path table = warehouse.tableDir(id);
    boolean exists = Warehouse.isTable(table);
    boolean create =
        !exists
            || strategy.code().equals("NEW_VIEW")
            || strategy.code().equals("DEFINITION_CHANGED");
    Changes c = changes(id, source);
    boolean whole =
        create
            || strategy instanceof Strategy.Full
            || c.ingested().isEmpty()
            || source.refreshMode() == FileSource.RefreshMode.FULL;

    List<SourceFile> toRead;
    Set<String> toRemove = new LinkedHashSet<>();
    List<SourceFile> after;
    if (whole) {
      toRead = c.current();
      after = c.current();
    } else if (source.refreshMode() == FileSource.RefreshMode.APPEND_ONLY) {
      toRead = c.added();
      after = new ArrayList<>(c.ingested().get().files());
      after.addAll(c.added());
      after.sort(Comparator.comparing(SourceFile::path));
    } else {
      toRead = new ArrayList<>(c.added());
      toRead.addAll(c.replaced());
      c.replaced().forEach(f -> toRemove.add(f.path()));
      toRemove.addAll(c.deleted());
      after = c.current();
    }

    SparkRuntime rt = runtime.get();
    rt.registerLakehouse(id.workspace(), id.lakehouse());
    SparkSession spark = rt.session();
    FileReader reader = new FileReader(spark, source, folder);
    String display = names.display(id);
    List<Group> groups;
    try {
      groups = reader.groups(toRead);
    } catch (MlvException e) {
      // Said as the other failures of a file view are: which view, then the file's problem.
      Diagnostic d = e.diagnostics().get(0);
      throw new MlvException(
          Diagnostic.error(
              d.ruleId(),
              d.position(),
              "refresh of " + display + " failed: " + d.message(),
              d.hint()),
          e);
    }
    StructType existing =
        create ? null : spark.read().format("delta").load(table.toString()).schema();
    StructType target = targetSchema(display, source.schemaMode(), existing, groups, create);
    if (create) {
      partitionColumns(display, def, target, groups.isEmpty());
    }
    String prefix = prefix(source.path());

    Dataset<Row> rows = null;
    for (Group g : groups) {
      Dataset<Row> part = align(reader.read(g, prefix), target);
      rows = rows == null ? part : rows.unionAll(part);
    }
    if (rows == null) {
      rows = spark.createDataFrame(List.of(), target);
    }

    String metadata = IngestedFiles.userMetadata(after);
    boolean grows = existing == null || target.fields().length > existing.fields().length;
    long before = Warehouse.latestCommit(table).orElse(-1);
    try {
      if (create) {
        createTable(id, def, rows, properties, metadata);
      } else if (whole) {
        rows.write()
            .format("delta")
            .mode("overwrite")
            .option("mergeSchema", String.valueOf(grows))
            .option("userMetadata", metadata)
            .save(table.toString());
      } else if (toRemove.isEmpty()) {
        rows.write()
            .format("delta")
            .mode("append")
            .option("mergeSchema", String.valueOf(grows))
            .option("userMetadata", metadata)
            .save(table.toString());
      } else {
        Set<String> replaceWhere = new LinkedHashSet<>();
        toRemove.forEach(p -> replaceWhere.add(prefix + p));
        toRead.forEach(f -> replaceWhere.add(prefix + f.path()));
        rows.write()
            .format("delta")
            .mode("overwrite")
            .option("replaceWhere", inList(replaceWhere))
            .option("mergeSchema", String.valueOf(grows))
            .option("userMetadata", metadata)
            .save(table.toString());
      }
    } catch (MlvException e) {
      throw e;
    } catch (Exception e) {
      throw new MlvException(
          ViewMaterializer.REFRESH_FAILED,
          "refresh of " + display + " failed: " + SparkMessages.explanation(e),
          e);
    }
    OptionalLong version = Warehouse.latestCommit(table);
    if (version.isEmpty() || version.getAsLong() <= before) {
      throw new IllegalStateException("no Delta commit after ingesting files into " + display);
    }
    Map<String, Long> metrics = metrics(table, version.getAsLong());
    return new Result(
        metrics.getOrDefault("numOutputRows", 0L),
        metrics.getOrDefault("numDeletedRows", 0L),
        toRead.size(),
        // A whole rewrite also takes away the rows of files changed or gone since the last
        // ingestion, as MIRROR's incremental refresh counts them: so does the rebuild of a changed
        // definition, which replaces a table that holds them (found by QA: an APPEND_ONLY view's
        // rebuild dropped a deleted file's rows and said "removed 0"). A new table removes nothing,
        // and has no list of ingested files to compare with.
        whole ? c.gone().size() : toRemove.size());
  }

  /**
   * The columns the write ends with. DYNAMIC: the table's columns, then any new ones in the order
   * files bring them; a column may not change type. FIXED: the columns of the files at creation,
   * which must agree; afterwards every file must have exactly those columns.
   */
  static StructType targetSchema(
      String view,
      FileSource.SchemaMode mode,
      StructType existing,
      List<Group> groups,
      boolean create) {
    StructType base = existing == null ? new StructType() : existing;
    boolean pinned =
        existing != null
            && java.util.Arrays.stream(existing.fieldNames())
                .anyMatch(n -> !n.equalsIgnoreCase(FileReader.PATH_COLUMN));
    if (mode == FileSource.SchemaMode.FIXED) {
      if (pinned) {
        StructType fixed = withoutPath(existing);
        for (Group g : groups) {
          String diff = difference(fixed, g.schema());
          if (!diff.isEmpty()) {
            throw new MlvException(
                SCHEMA_DRIFT,
                "refresh of "
                    + view
                    + " failed: file '"
                    + g.files().get(0).path()
                    + "'"
                    + more(g.files().size())
                    + " does not match the FIXED schema of the view: "
                    + diff
                    + "; nothing was written. Fix or remove the file, or use 'schema_mode' ="
                    + " 'DYNAMIC'");
          }
        }
        return existing;
      }
      for (int i = 1; i < groups.size(); i++) {
        String diff = difference(groups.get(0).schema(), groups.get(i).schema());
        if (!diff.isEmpty()) {
          throw new MlvException(
              SCHEMA_DRIFT,
              "refresh of "
                  + view
                  + " failed: a FIXED schema needs files that share one schema, but file '"
                  + groups.get(i).files().get(0).path()
                  + "' differs from '"
                  + groups.get(0).files().get(0).path()
                  + "' ("
                  + diff.replace("in the view", "in '" + groups.get(0).files().get(0).path() + "'")
                  + "); nothing was written. Point the view at files with one schema, or use"
                  + " 'schema_mode' = 'DYNAMIC'");
        }
      }
    }
    Map<String, StructField> columns = new LinkedHashMap<>();
    for (StructField f : base.fields()) {
      columns.put(f.name().toLowerCase(Locale.ROOT), f);
    }
    for (Group g : groups) {
      for (StructField f : g.schema().fields()) {
        StructField known = columns.get(f.name().toLowerCase(Locale.ROOT));
        if (known == null) {
          columns.put(
              f.name().toLowerCase(Locale.ROOT),
              f.copy(f.name(), f.dataType(), true, f.metadata()));
        } else if (!sameType(known, f)) {
          throw new MlvException(
              SCHEMA_DRIFT,
              "refresh of "
                  + view
                  + " failed: column "
                  + known.name()
                  + " is "
                  + known.dataType().simpleString()
                  + " in the view but "
                  + f.dataType().simpleString()
                  + " in file '"
                  + g.files().get(0).path()
                  + "'"
                  + more(g.files().size())
                  + "; a DYNAMIC schema adds columns but does not change their types; nothing was"
                  + " written");
        }
      }
    }
    String pathKey = FileReader.PATH_COLUMN;
    if (!columns.containsKey(pathKey)) {
      columns.put(
          pathKey,
          new StructField(
              pathKey,
              org.apache.spark.sql.types.DataTypes.StringType,
              true,
              org.apache.spark.sql.types.Metadata.empty()));
    }
    StructType out = new StructType();
    for (StructField f : columns.values()) {
      out = out.add(f);
    }
    return out;
  }

  /**
   * The columns of a file view come from its files, so only now can a PARTITIONED BY column be
   * checked; Spark's own refusal quotes the schema as a tree and names no file.
   */
  static void partitionColumns(
      String view, ViewDefinition def, StructType target, boolean noFiles) {
    Set<String> have = new java.util.HashSet<>();
    for (String n : target.fieldNames()) {
      have.add(n.toLowerCase(Locale.ROOT));
    }
    for (String p : def.partitionedBy()) {
      String name = p.replace("`", "");
      if (have.contains(name.toLowerCase(Locale.ROOT))) {
        continue;
      }
      String columns = String.join(", ", target.fieldNames());
      throw new MlvException(
          Diagnostic.error(
              "PARTITION_COLUMN",
              def.position() != null && def.position().file() != null
                  ? def.partitionColumnPosition(p)
                  : null,
              "refresh of "
                  + view
                  + " failed: PARTITIONED BY column "
                  + name
                  + " is not a column of the view; "
                  + (noFiles
                      ? "the folder has no file to read yet, so its only column is " + columns
                      : "its files give the columns " + columns)
                  + "; nothing was written",
              noFiles
                  ? "drop a file with that column in the folder, or remove PARTITIONED BY"
                  : "partition by one of those columns, or remove PARTITIONED BY and partition a"
                      + " downstream view"));
    }
  }

  /** "missing column(s) a, b; extra column(s) c; column d is int in the view but string here". */
  static String difference(StructType expected, StructType actual) {
    Map<String, StructField> want = byName(expected);
    Map<String, StructField> have = byName(actual);
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    List<String> types = new ArrayList<>();
    want.forEach(
        (k, f) -> {
          StructField h = have.get(k);
          if (h == null) {
            missing.add(f.name());
          } else if (!sameType(f, h)) {
            types.add(
                "column "
                    + f.name()
                    + " is "
                    + f.dataType().simpleString()
                    + " in the view but "
                    + h.dataType().simpleString()
                    + " in the file");
          }
        });
    have.forEach(
        (k, f) -> {
          if (!want.containsKey(k)) {
            extra.add(f.name());
          }
        });
    List<String> parts = new ArrayList<>();
    if (!extra.isEmpty()) {
      parts.add(
          "column"
              + (extra.size() == 1 ? " " : "s ")
              + String.join(", ", extra)
              + " not in the view");
    }
    if (!missing.isEmpty()) {
      parts.add(
          "column"
              + (missing.size() == 1 ? " " : "s ")
              + String.join(", ", missing)
              + " missing from the file");
    }
    parts.addAll(types);
    return String.join("; ", parts);
  }

  private static Map<String, StructField> byName(StructType s) {
    Map<String, StructField> out = new LinkedHashMap<>();
    for (StructField f : s.fields()) {
      if (!f.name().equalsIgnoreCase(FileReader.PATH_COLUMN)) {
        out.put(f.name().toLowerCase(Locale.ROOT), f);
      }
    }
    return out;
  }

  private static boolean sameType(StructField a, StructField b) {
    return a.dataType().catalogString().equals(b.dataType().catalogString());
  }

  private static StructType withoutPath(StructType s) {
    StructType out = new StructType();
    for (StructField f : s.fields()) {
      if (!f.name().equalsIgnoreCase(FileReader.PATH_COLUMN)) {
        out = out.add(f);
      }
    }
    return out;
  }

  /** The group's rows with the target's columns in the target's order; absent ones are NULL. */
  private static Dataset<Row> align(Dataset<Row> rows, StructType target) {
    Map<String, String> have = new LinkedHashMap<>();
    for (String n : rows.columns()) {
      have.put(n.toLowerCase(Locale.ROOT), n);
    }
    List<Column> cols = new ArrayList<>();
    for (StructField f : target.fields()) {
      String source = have.get(f.name().toLowerCase(Locale.ROOT));
      Column c =
          source == null
              ? functions.lit(null).cast(f.dataType())
              : functions.col(SparkRuntime.quote(source));
      cols.add(c.as(f.name()));
    }
    return rows.select(cols.toArray(Column[]::new));
  }

  private void createTable(
      ObjectId id,
      ViewDefinition def,
      Dataset<Row> rows,
      Map<String, String> properties,
      String metadata) {
    try {
      Files.createDirectories(warehouse.tableDir(id).getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String name =
        SparkRuntime.quote(id.lakehouse())
            + "."
            + SparkRuntime.quote(id.schema())
            + "."
            + SparkRuntime.quote(id.name());
    DataFrameWriterV2<Row> w = rows.writeTo(name).using("delta").option("userMetadata", metadata);
    for (Map.Entry<String, String> e : properties.entrySet()) {
      w = w.tableProperty(e.getKey(), e.getValue());
    }
    if (def.comment().isPresent()) {
      w = w.tableProperty("comment", def.comment().get());
    }
    if (!def.partitionedBy().isEmpty()) {
      Column[] parts =
          def.partitionedBy().stream()
              .map(p -> functions.col(SparkRuntime.quote(p)))
              .toArray(Column[]::new);
      w = w.partitionedBy(parts[0], java.util.Arrays.copyOfRange(parts, 1, parts.length));
    }
    w.createOrReplace();
  }

  /** The definition's path with one trailing '/', which file paths below it are appended to. */
  static String prefix(String path) {
    String p = path.strip();
    return p.endsWith("/") ? p : p + "/";
  }

  private static String inList(Set<String> values) {
    return SparkRuntime.quote(FileReader.PATH_COLUMN)
        + " IN ("
        + values.stream().map(ViewMaterializer::literal).collect(Collectors.joining(", "))
        + ")";
  }

  /** The operation metrics Delta recorded in the commit (numOutputRows, numDeletedRows, ...). */
  private static Map<String, Long> metrics(Path table, long version) {
    Map<String, Long> out = new LinkedHashMap<>();
    try {
      Optional<JsonNode> info = IngestedFiles.commitInfo(Warehouse.commitFile(table, version));
      info.map(i -> i.path("operationMetrics"))
          .ifPresent(
              m ->
                  m.fields()
                      .forEachRemaining(
                          e -> {
                            try {
                              out.put(e.getKey(), Long.parseLong(e.getValue().asText()));
                            } catch (NumberFormatException ignored) {
                              // a metric that is not a count is not ours to report
                            }
                          }));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static String more(int files) {
    return files > 1 ? " (and " + (files - 1) + " more with the same columns)" : "";
  }
}
