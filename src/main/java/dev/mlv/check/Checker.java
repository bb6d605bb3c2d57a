package dev.mlv.check;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.diag.Suggestions;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.Node;
import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.FolderName;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.project.ReservedNames;
import dev.mlv.sql.Name;
import dev.mlv.sql.NonDeterministic;
import dev.mlv.sql.Places;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.QueryFeature;
import dev.mlv.sql.RefreshAnalysis;
import dev.mlv.sql.RefreshAnalyzer;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lint rules of {@code mlv validate}, each taken from a documented MLV limitation or from what
 * blocks optimal refresh. Rules only read the project and return diagnostics.
 */
public final class Checker {
  static final Set<String> FILE_OPTIONS = Set.of("format", "path", "header", "delimiter");
  static final Set<String> FILE_FORMATS = Set.of("csv", "parquet");

  /**
   * A URL's scheme ({@code s3://}, {@code file:}), which a plain folder path does not start with.
   */
  private static final java.util.regex.Pattern OTHER_URL =
      java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:(//|/)");

  private static final Pattern DML =
      Pattern.compile(
          "(?is)^\\s*(?:insert\\s+(?:into|overwrite)(?:\\s+table)?|update|delete\\s+from|merge\\s+into)"
              + "\\s+([`\\w.\\s]+?)(?:\\s|\\(|$)");

  // Another engine's materialized view: in a view folder, almost always a lake view missing LAKE.
  private static final Pattern MATERIALIZED_VIEW =
      Pattern.compile("(?is)^\\s*create\\s+(?:or\\s+replace\\s+)?materiali[sz]ed\\s+view\\b");

  // DECLARE [OR REPLACE] [VARIABLE|VAR] name, SET VAR[IABLE] name = ..., DROP TEMPORARY VARIABLE.
  private static final Pattern SESSION_VARIABLE =
      Pattern.compile(
          "(?is)^\\s*(declare(?:\\s+or\\s+replace)?(?:\\s+(?:variable|var)\\b)?"
              + "|set\\s+(?:variable|var)\\b|drop\\s+temporary\\s+(?:variable|var)\\b"
              + "(?:\\s+if\\s+exists)?)\\s*(`[^`]+`|\\w+)?");

  private Checker() {}

  public static List<Diagnostic> check(Project project) {
    return check(project, TableColumns.NONE);
  }

  /**
   * As {@link #check(Project)}, knowing the columns of {@code tables} too: the rules about columns
   * (UNRESOLVED_COLUMN, DUPLICATE_COLUMN through a {@code *}, COLUMN_LIST_LENGTH, PARTITION_COLUMN)
   * then reach the views that read them.
   */
  public static List<Diagnostic> check(Project project, TableColumns tables) {
    List<Diagnostic> out = new ArrayList<>();
    Set<String> lakehouses = lakehouses(project);
    ViewColumns columns = new ViewColumns(project, tables);
    for (ProjectView v : project.views().values()) {
      out.addAll(checkView(project, v, lakehouses, Optional.of(columns)));
      partialCheck(v).ifPresent(out::add);
    }
    for (SqlStatement st : project.otherStatements()) {
      otherStatement(project, st, out);
    }
    out.addAll(RefreshPolicyCheck.check(project));
    UpstreamColumnCheck.check(project, columns, out);
    scheduleSelectors(project, out);
    return out;
  }

  /**
   * PARTIAL_CHECK: a SELECT that mlv's checker (Calcite, after the rewrite) could not read, and
   * Spark's parser did: its tables and lineage are known, but the rules that read its columns,
   * types and grouping had no tree to run on. Said as a note that fails nothing, where the SELECT
   * starts (found by QA: such a view passed validate silently and failed at apply).
   */
  private static Optional<Diagnostic> partialCheck(ProjectView v) {
    if (v.facts().isEmpty()
        || !v.facts().get().usedFallback()
        || v.facts().get().diagnostics().stream().anyMatch(Diagnostic::isError)) {
      return Optional.empty();
    }
    return Optional.of(
        Diagnostic.info(
            "PARTIAL_CHECK",
            v.definition().body().position(),
            "mlv's SQL checker cannot read this SELECT's syntax, so it read it with Spark's parser:"
                + " its tables and lineage are known, but the column, type and grouping rules did"
                + " not run on it; Spark checks those when apply runs "
                + v.definition().name().text(),
            "nothing to fix if Spark accepts it; written without the construct the checker lacks"
                + " (docs/rules.md#partial_check), the view gets every check"));
  }

  /**
   * The rules of one view on its own, for a view of the project or one created ad hoc ({@code mlv
   * sql}, the shell), which Fabric would refuse alike.
   */
  public static List<Diagnostic> checkView(Project project, ProjectView v) {
    return checkView(project, v, lakehouses(project), Optional.empty());
  }

  /** Whether a target's Spark conf lets Delta take table properties it does not know. */
  private static boolean arbitraryProperties(Project project) {
    return anySparkConf(
        project,
        "spark.databricks.delta.allowArbitraryProperties.enabled",
        v -> v.equalsIgnoreCase("true"));
  }

  /**
   * Whether a target's Spark conf sets spark.sql.legacy.timeParserPolicy to anything but its
   * default, EXCEPTION: with LEGACY, Spark formats week-based patterns as Spark 2 did.
   */
  private static boolean legacyTimeParser(Project project) {
    return anySparkConf(
        project, "spark.sql.legacy.timeParserPolicy", v -> !v.equalsIgnoreCase("EXCEPTION"));
  }

  /** Whether a Spark target's conf sets {@code key} (any case) to a value {@code holds} of. */
  private static boolean anySparkConf(
      Project project, String key, java.util.function.Predicate<String> holds) {
    return project.config().targets().values().stream()
        .filter(t -> t instanceof dev.mlv.project.SparkTarget)
        .map(t -> (dev.mlv.project.SparkTarget) t)
        .flatMap(t -> t.conf().entrySet().stream())
        .anyMatch(
            e -> e.getKey().strip().equalsIgnoreCase(key) && holds.test(e.getValue().strip()));
  }

  /**
   * {@code lakehouses}: those of the project, found once for all its views; {@code columns}: those
   * of its views, for a view of the project (an ad hoc one runs against the deployed views).
   */
  private static List<Diagnostic> checkView(
      Project project, ProjectView v, Set<String> lakehouses, Optional<ViewColumns> columns) {
    List<Diagnostic> out = new ArrayList<>();
    {
      ViewDefinition d = v.definition();
      replaceWithIfNotExists(d, out);
      reservedProperties(d, out);
      TableShapeCheck.check(v, columns, arbitraryProperties(project), out);
      uppercaseSchema(d, project.config().schema(), out);
      nameCharacters(d, out);
      reservedName(project, v.id(), d.name().position()).ifPresent(out::add);
      if (d.body() instanceof ViewBody.Files f) {
        fileView(d, f, project.config().root(), out);
      }
      if (d.body() instanceof ViewBody.Select select) {
        out.addAll(dev.mlv.sql.ExternalCode.check(select.sql(), select.position()));
        if (!legacyTimeParser(project)) {
          out.addAll(dev.mlv.sql.DatetimePatterns.check(select.sql(), select.position()));
        }
        out.addAll(dev.mlv.sql.LimitValues.check(select.sql(), select.position()));
      }
      v.facts().ifPresent(f -> queryRules(project, v, f, lakehouses, columns, out));
    }
    return out;
  }

  /**
   * A view named like a table mlv keeps for itself, which mlv would overwrite or mistake for its
   * own: in a definition, or as the new name of {@code ALTER ... RENAME TO}.
   */
  public static Optional<Diagnostic> reservedName(Project project, ObjectId id, Position at) {
    if (!ReservedNames.isReserved(id)) {
      return Optional.empty();
    }
    return Optional.of(
        Diagnostic.error(
            "RESERVED_NAME",
            at,
            project.names().display(id)
                + " is a name mlv keeps for its own tables ("
                + ReservedNames.described()
                + ")",
            "rename the view"));
  }

  private static void replaceWithIfNotExists(ViewDefinition d, List<Diagnostic> out) {
    if (d.orReplace() && d.ifNotExists()) {
      out.add(
          Diagnostic.error(
              "REPLACE_IF_NOT_EXISTS",
              d.position(),
              "OR REPLACE and IF NOT EXISTS cannot be combined; Fabric rejects the statement",
              "keep CREATE OR REPLACE (mlv deploys with it anyway) and drop IF NOT EXISTS"));
    }
  }

  /** Table properties Spark sets itself and refuses in TBLPROPERTIES (CatalogV2Util). */
  private static final Set<String> RESERVED_PROPERTIES =
      Set.of("comment", "location", "provider", "owner", "external", "is_managed_location");

  private static void reservedProperties(ViewDefinition d, List<Diagnostic> out) {
    for (String key : d.properties().keySet()) {
      String k = key.toLowerCase(Locale.ROOT);
      if (RESERVED_PROPERTIES.contains(k)) {
        out.add(
            Diagnostic.error(
                "RESERVED_PROPERTY",
                propertyPosition(d, key),
                "'" + key + "' is a reserved table property; Spark refuses it in TBLPROPERTIES",
                k.equals("comment")
                    ? "use the COMMENT clause of the view"
                    : "remove it; Spark sets it for the table itself"));
      }
    }
  }

  /**
   * A schedule's views are selectors, read as the command line reads them; one that cannot be read
   * or selects nothing would otherwise fail only at plan against Fabric.
   */
  private static void scheduleSelectors(Project project, List<Diagnostic> out) {
    for (dev.mlv.schedule.Schedule s : project.config().schedules()) {
      for (int i = 0; i < s.views().size(); i++) {
        String selector = s.views().get(i);
        try {
          dev.mlv.lineage.Selection.select(project.lineage(), project.names(), List.of(selector));
        } catch (dev.mlv.diag.MlvException e) {
          out.add(
              Diagnostic.error(
                  "SCHEDULE_VIEWS",
                  s.viewsAt().get(i),
                  "schedule '" + s.name() + "': " + e.diagnostics().get(0).message(),
                  "views: takes selectors as mlv lineage does (name, schema:x, tag:x, with +)"));
        }
      }
    }
  }

  /**
   * A dot inside a quoted part would make the view's name read as more parts than it has, in mlv's
   * lineage and in Fabric's; other characters are legal in Spark but Fabric's lakehouse explorer
   * lists such tables as unidentified.
   */
  private static void nameCharacters(ViewDefinition d, List<Diagnostic> out) {
    List<String> written = d.name().written();
    // The parts as the name holds them: written() strips blanks that a quoted part keeps.
    List<String> parts = d.name().parts();
    for (int i = 0; i < written.size(); i++) {
      String part = written.get(i);
      String held = i < parts.size() ? parts.get(i) : part;
      if (!held.equals(held.strip())) {
        out.add(
            Diagnostic.error(
                "VIEW_NAME",
                d.name().partPosition(i),
                "'" + held + "' starts or ends with a blank, which is easy to miss and to mistype",
                "remove the blank: " + part));
      } else if (FolderName.characterProblem(part).isPresent()) {
        // The table is a folder named after it, locally and in OneLake. A leading dot is told
        // below, as a dot.
        out.add(
            Diagnostic.error(
                "VIEW_NAME",
                d.name().partPosition(i),
                "'"
                    + part.replaceAll("\\p{Cntrl}", "?")
                    + "' has a path separator or a control character in it, so it cannot name"
                    + " the folder that holds the view's table",
                "use letters, digits and '_'"));
      } else if (part.contains(".")) {
        out.add(
            Diagnostic.error(
                "VIEW_NAME",
                d.name().partPosition(i),
                "'"
                    + part
                    + "' has a dot in it, so the view's name cannot be told from a longer one",
                // The suggestion keeps to the rule it gives: q 13.x becomes q_13_x, not q 13_x.
                "use letters, digits and '_': " + part.replaceAll("[^A-Za-z0-9_]", "_")));
      } else if (i == written.size() - 3
          && dev.mlv.project.LakehouseName.problem(held).isPresent()) {
        // Found by QA: mlv.yml's lakehouse is held to Fabric's rule, the one named in SQL was only
        // warned about, as if it were the view's name.
        out.add(
            Diagnostic.error(
                "VIEW_NAME",
                d.name().partPosition(i),
                "the lakehouse name '"
                    + held
                    + "' "
                    + dev.mlv.project.LakehouseName.problem(held).get(),
                dev.mlv.project.LakehouseName.RULE));
      } else if (!part.matches("[A-Za-z0-9_]+") && !(written.size() == 4 && i == 0)) {
        // A workspace's name may hold blanks (the reference backticks them); it is not listed.
        out.add(
            Diagnostic.warning(
                "VIEW_NAME",
                d.name().partPosition(i),
                "'"
                    + part
                    + "' has characters other than ASCII letters, digits and '_'; Spark accepts"
                    + " it quoted, but Fabric's lakehouse explorer lists such tables as"
                    + " unidentified",
                "use letters, digits and '_'"));
      }
      // Apart from the characters: a name of 200 'é' is only a warning above, and Delta then
      // failed to create its folder at apply (found by QA).
      Optional<String> tooLong =
          i == written.size() - 1
              ? FolderName.tableTooLong(held)
              : i == written.size() - 2 ? FolderName.schemaTooLong(held) : Optional.empty();
      if (tooLong.isPresent()) {
        out.add(
            Diagnostic.error(
                "VIEW_NAME",
                d.name().partPosition(i),
                "'" + FolderName.shortened(held) + "' " + tooLong.get(),
                "shorten the name"));
      }
    }
  }

  private static void uppercaseSchema(
      ViewDefinition d, String defaultSchema, List<Diagnostic> out) {
    uppercaseSchema(d.name(), defaultSchema).ifPresent(out::add);
  }

  /** An all-uppercase schema in a view's name, which Fabric does not support (seed 001). */
  public static java.util.Optional<Diagnostic> uppercaseSchema(
      dev.mlv.sql.Name name, String defaultSchema) {
    List<String> written = name.written();
    // A one-part name lands in mlv.yml's schema, which is then the schema that breaks the rule.
    String schema = written.size() < 2 ? defaultSchema : written.get(written.size() - 2);
    if (schema == null) {
      return java.util.Optional.empty();
    }
    boolean hasLetter = schema.chars().anyMatch(Character::isLetter);
    if (!hasLetter || !schema.equals(schema.toUpperCase(Locale.ROOT))) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        Diagnostic.error(
            "UPPERCASE_SCHEMA",
            written.size() < 2 ? name.position() : name.partPosition(written.size() - 2),
            "all-uppercase schema name '"
                + schema
                + "' is not supported for materialized lake"
                + " views"
                + (written.size() < 2 ? " (the view lands in mlv.yml's schema)" : ""),
            "write it in lower or mixed case: " + schema.toLowerCase(Locale.ROOT)));
  }

  /**
   * Without a header, a CSV file view's columns are _c0, _c1, ... and __filepath__ whatever its
   * files hold, so a PARTITIONED BY column of another name can only fail the first refresh. With a
   * header, or Parquet, the columns come from the files and the refresh checks them.
   */
  private static void fileViewPartitions(ViewDefinition d, ViewBody.Files f, List<Diagnostic> out) {
    boolean header = f.options().getOrDefault("header", "false").strip().equalsIgnoreCase("true");
    if (!f.format().equalsIgnoreCase("csv") || header) {
      return;
    }
    for (String p : d.partitionedBy()) {
      String name = p.replace("`", "");
      if (!name.matches("(?i)_c\\d+|__filepath__")) {
        out.add(
            Diagnostic.error(
                "PARTITION_COLUMN",
                d.partitionColumnPosition(p),
                "PARTITIONED BY column "
                    + name
                    + " is not a column of this file view: a CSV file view without 'header' ="
                    + " 'true' has the columns _c0, _c1, ... and __filepath__",
                "partition by one of those, or set 'header' = 'true' to name the columns after"
                    + " the files' first line"));
      }
    }
  }

  private static void fileView(
      ViewDefinition d, ViewBody.Files f, java.nio.file.Path root, List<Diagnostic> out) {
    fileViewPartitions(d, f, out);
    if (!d.constraints().isEmpty()) {
      out.add(
          Diagnostic.error(
              "FILE_VIEW_CONSTRAINT",
              d.constraints().get(0).position(),
              "a file-ingesting view (USING OneLake_Files) cannot have data quality constraints",
              "apply them in a downstream view that selects from " + d.name().text()));
    }
    for (String key : f.options().keySet()) {
      if (!FILE_OPTIONS.contains(key)) {
        boolean property = key.equals("schema_mode") || key.equals("refresh_mode");
        out.add(
            Diagnostic.error(
                "FILE_OPTION",
                f.positionOf(key),
                "unsupported option '" + key + "' for USING OneLake_Files",
                property
                    ? key + " is a table property: write it in TBLPROPERTIES ('" + key + "' = ...)"
                    : "supported options are format, path, header and delimiter; other CSV"
                        + " parsing options (nullValue, quote, escape, ...) are not available"));
      }
    }
    String format = f.format().toLowerCase(Locale.ROOT);
    if (!FILE_FORMATS.contains(format)) {
      out.add(
          Diagnostic.error(
              "FILE_OPTION",
              f.positionOf("format"),
              f.options().containsKey("format")
                  ? "unsupported format '" + f.format() + "'"
                  : "missing option 'format'",
              "use 'format' = 'csv' or 'parquet'"));
    }
    if (f.path().isBlank()) {
      out.add(
          Diagnostic.error(
              "FILE_OPTION",
              f.positionOf("path"),
              "missing option 'path'",
              "'path' = 'abfss://<workspace>@onelake.dfs.fabric.microsoft.com/<lakehouse>.Lakehouse"
                  + "/Files/<folder>/'"));
    } else if (f.path().contains(" ") || f.path().toLowerCase(Locale.ROOT).contains("%20")) {
      out.add(
          Diagnostic.error(
              "FILE_PATH_SPACE",
              f.positionOf("path"),
              "source path '"
                  + f.path()
                  + "' contains a raw space or %20; Fabric does not currently accept such source"
                  + " paths",
              "rename the folder, or create a OneLake folder shortcut without spaces that points"
                  + " to it and use the shortcut's path"));
    } else if (!f.path().regionMatches(true, 0, "abfss://", 0, 8)
        && OTHER_URL.matcher(f.path()).lookingAt()) {
      // s3://, https://, file:///...: no target reads them; the local one took them for a folder
      // of the project named s3: (found by QA).
      out.add(
          Diagnostic.error(
              "FILE_OPTION",
              f.positionOf("path"),
              "source path '"
                  + f.path()
                  + "' is a URL of another kind than OneLake's: a file view reads a OneLake"
                  + " folder (abfss://...onelake...) or, on the local target only, a folder path",
              "write the folder's OneLake URL (a OneLake shortcut can point at S3, ADLS or GCS)"
                  + " and map it to a local folder under the local target's 'files:' in mlv.yml,"
                  + " or write the local folder's path without a scheme"));
    } else if (!f.path().regionMatches(true, 0, "abfss://", 0, 8)) {
      out.add(
          leavesProject(f.path(), root)
              ? Diagnostic.warning(
                  "FILE_PATH_LOCAL",
                  f.positionOf("path"),
                  "source path '"
                      + f.path()
                      + "' is not a OneLake URL and leads out of the project folder; only the"
                      + " local target reads it, from wherever that folder is on this machine"
                      + " (another machine or CI reads other files, or none)",
                  "copy the files into a folder of the project, write the abfss://...onelake..."
                      + " URL of the folder and map it to that folder under the local target's"
                      + " 'files:' in mlv.yml")
              : Diagnostic.warning(
                  "FILE_PATH_LOCAL",
                  f.positionOf("path"),
                  "source path '"
                      + f.path()
                      + "' is not a OneLake URL; only the local target reads it",
                  "write the abfss://...onelake... URL of the folder and map it to a local folder"
                      + " under the local target's 'files:' in mlv.yml"));
    } else if (dev.mlv.project.OneLakeFolder.parse(f.path()).isEmpty()) {
      out.add(
          Diagnostic.error(
              "FILE_OPTION",
              f.positionOf("path"),
              "source path '" + f.path() + "' is not a folder under a lakehouse's Files",
              "'path' = 'abfss://<workspace>@onelake.dfs.fabric.microsoft.com/<lakehouse>.Lakehouse"
                  + "/Files/<folder>/'"));
    } else if (dev.mlv.project.OneLakeFolder.parse(f.path()).get().hasDotSegment()) {
      out.add(
          Diagnostic.error(
              "FILE_PATH_DOTS",
              f.positionOf("path"),
              "source path '"
                  + f.path()
                  + "' has a '.' or '..' segment; a file view reads a folder under the"
                  + " lakehouse's Files, named without climbing",
              "write the folder's path from Files/ down, without '.' or '..'"));
    }
    if (f.options().containsKey("delimiter") && f.options().get("delimiter").length() != 1) {
      out.add(
          Diagnostic.error(
              "FILE_OPTION",
              f.positionOf("delimiter"),
              "delimiter must be one character",
              "for example '|' or ';'"));
    }
    String header = f.options().get("header");
    if (header != null && !header.equalsIgnoreCase("true") && !header.equalsIgnoreCase("false")) {
      out.add(
          Diagnostic.error(
              "FILE_OPTION",
              f.positionOf("header"),
              "header must be 'true' or 'false', found '" + header + "'",
              null));
    }
    if ("parquet".equals(format)
        && (f.options().containsKey("header") || f.options().containsKey("delimiter"))) {
      out.add(
          Diagnostic.warning(
              "FILE_OPTION",
              f.positionOf(f.options().containsKey("header") ? "header" : "delimiter"),
              "header and delimiter apply to CSV only",
              "remove them"));
    }
    enumProperty(d, "schema_mode", Set.of("DYNAMIC", "FIXED"), out);
    enumProperty(d, "refresh_mode", Set.of("APPEND_ONLY", "FULL", "MIRROR"), out);
  }

  /** Where a TBLPROPERTIES key is written in the header, so an error points at it. */
  private static dev.mlv.diag.Position propertyPosition(ViewDefinition d, String key) {
    int at = d.statement().indexOf("'" + key + "'");
    if (at < 0) {
      at = d.statement().indexOf("\"" + key + "\"");
    }
    return at < 0 ? d.position() : d.position().advance(d.statement(), at);
  }

  /**
   * Whether a plain source path, read as the local target reads it (against the project folder),
   * names a folder outside the project: absolute, or climbing out with {@code ..}. Only lexical, as
   * the local target resolves it; a path it cannot read is reported when it reads it.
   */
  private static boolean leavesProject(String path, java.nio.file.Path root) {
    try {
      return !root.resolve(java.nio.file.Path.of(path)).normalize().startsWith(root);
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  private static void enumProperty(
      ViewDefinition d, String key, Set<String> allowed, List<Diagnostic> out) {
    for (Map.Entry<String, String> e : d.properties().entrySet()) {
      if (e.getKey().equalsIgnoreCase(key)
          && !allowed.contains(e.getValue().toUpperCase(Locale.ROOT))) {
        out.add(
            Diagnostic.error(
                "FILE_OPTION",
                propertyPosition(d, e.getKey()),
                "'"
                    + key
                    + "' must be one of "
                    + new java.util.TreeSet<>(allowed)
                    + ", found '"
                    + e.getValue()
                    + "'",
                "'"
                    + key
                    + "' = '"
                    + String.join("' or '", new java.util.TreeSet<>(allowed))
                    + "'"));
      }
    }
  }

  private static void queryRules(
      Project project,
      ProjectView v,
      QueryFacts facts,
      Set<String> lakehouses,
      Optional<ViewColumns> columns,
      List<Diagnostic> out) {
    dottedParts(facts, out);
    undeclaredTables(project, facts, out);
    lakehouseSchemaClash(project, facts, lakehouses, out);
    if (!(v.definition().body() instanceof ViewBody.Select body)) {
      return;
    }
    ColumnTypeCheck.check(v.definition(), facts, out);
    ColumnListCheck.check(project, v, facts, columns, out);
    ConstraintColumnCheck.check(facts, columns, out);
    if (facts.features().contains(QueryFeature.TIME_TRAVEL)) {
      out.add(
          Diagnostic.error(
              "TIME_TRAVEL",
              Places.timeTravel(body.sql(), body.position()),
              "time travel (VERSION AS OF / TIMESTAMP AS OF) is not allowed in a materialized"
                  + " lake view",
              "read the current version of the table"));
    }
    if (facts.features().contains(QueryFeature.PATH_TABLE)) {
      out.add(
          Diagnostic.warning(
              "PATH_TABLE",
              Places.pathTable(body.sql(), body.position()),
              "the view reads files by path (format.`path`): the lineage cannot see them, so"
                  + " nothing orders this view after what writes there, and it is always"
                  + " refreshed in full",
              "declare the table as a source in mlv.yml and read it by name"));
    }
    for (String fn : facts.functions()) {
      if (fn.equals("identifier")) {
        // IDENTIFIER('a.b') with one literal is read as the name; what is left is computed.
        out.add(
            Diagnostic.error(
                "COMPUTED_NAME",
                Places.call(body.sql(), body.position(), v.definition().constraints(), fn),
                "IDENTIFIER(...) builds a table name from an expression, so mlv cannot tell which"
                    + " table the view reads, nor order it in the lineage",
                "write the name as one string literal, IDENTIFIER('bronze.orders'), or plainly"));
      } else if (!SparkFunctions.isBuiltin(fn)) {
        String last = fn.substring(fn.lastIndexOf('.') + 1);
        boolean qualifiedBuiltin = fn.contains(".") && SparkFunctions.isBuiltin(last);
        // A misspelt built-in, or SQL Server's name for one, reads as a UDF (found by QA:
        // initcapp(name) got the advice to move the view to PySpark).
        Optional<String> meant =
            fn.contains(".")
                ? Optional.empty()
                : Optional.ofNullable(SQL_SERVER_FUNCTIONS.get(fn))
                    .map(spark -> "SQL Server's " + fn + "(...) is written " + spark + " in Spark")
                    .or(
                        () ->
                            Suggestions.nearest(fn, SparkFunctions.all())
                                .map(
                                    n ->
                                        "did you mean "
                                            + n
                                            + "(...)? If "
                                            + fn
                                            + " is a function of your own, rewrite it with"
                                            + " built-in functions, or define the view in"
                                            + " PySpark"));
        out.add(
            Diagnostic.error(
                "UDF",
                Places.call(body.sql(), body.position(), v.definition().constraints(), fn),
                "function '"
                    + fn
                    + "' is not a Spark built-in"
                    + (qualifiedBuiltin
                        ? " (Spark looks a qualified name up in a catalog, not among its"
                            + " built-ins)"
                        : "")
                    + "; user-defined functions are not allowed in materialized lake views",
                qualifiedBuiltin
                    ? "call the built-in by its name alone: " + last + "(...)"
                    : meant.orElse(
                        "rewrite it with built-in functions, or define the view in PySpark")));
      }
    }
    nonDeterministic(v.definition(), body, facts, out);
  }

  /** SQL Server functions Spark has under another name or form, with Spark's spelling. */
  private static final Map<String, String> SQL_SERVER_FUNCTIONS =
      Map.of(
          "getdate", "current_timestamp()",
          "getutcdate", "current_timestamp() (Spark's session time zone)",
          "sysdatetime", "current_timestamp()",
          "newid", "uuid()",
          "convert", "CAST(x AS type)");

  /**
   * One warning per non-deterministic call, at the call, as {@code mlv explain} and the refresh
   * decision find them (so {@code unix_timestamp(ts)} is fine and {@code unix_timestamp()} is not).
   * The analysis parses the SQL again, so it runs only when a candidate name is called.
   */
  private static void nonDeterministic(
      ViewDefinition def, ViewBody.Select body, QueryFacts facts, List<Diagnostic> out) {
    List<NonDeterministic.SpecialDatetime> literals = NonDeterministic.specialDatetimes(body.sql());
    boolean candidate =
        facts.functions().stream().anyMatch(NonDeterministic::mayBe)
            || !literals.isEmpty()
            || def.constraints().stream()
                .anyMatch(c -> NonDeterministic.inExpression(c.expression()).isPresent());
    if (!candidate) {
      return;
    }
    RefreshAnalysis analysis = RefreshAnalyzer.analyze(def);
    boolean analysed = true;
    Set<String> placed = new HashSet<>();
    for (RefreshAnalysis.Construct c : analysis.constructs()) {
      if (c.code().equals("NOT_ANALYSABLE")) {
        analysed = false;
      } else if (c.code().startsWith(NON_DETERMINISTIC_CODE)) {
        String fn = c.code().substring(NON_DETERMINISTIC_CODE.length());
        if (c.support() == RefreshAnalysis.Support.CONDITIONAL) {
          // A bare current_date is a column when the FROM has one so named, which validate
          // cannot know: warned, as before, where the text reads like the function (not user).
          if (facts.functions().contains(fn) && placed.add(fn)) {
            out.add(bareNameWarning(fn, c.position()));
          }
          continue;
        }
        placed.add(fn);
        out.add(nonDeterministicWarning(fn, c.position()));
      }
    }
    if (!analysed) {
      // Part of the SELECT is Spark-only syntax, which the analysis cannot place: find the call
      // by its name in the text.
      for (String fn : facts.functions()) {
        if (NonDeterministic.is(fn) && !placed.contains(fn)) {
          out.add(nonDeterministicWarning(fn, Places.call(body.sql(), body.position(), fn)));
        }
      }
      for (NonDeterministic.SpecialDatetime d : literals) {
        if (placed.add(d.name())) {
          out.add(
              nonDeterministicWarning(d.name(), body.position().advance(body.sql(), d.offset())));
        }
      }
    }
  }

  private static final String NON_DETERMINISTIC_CODE = "NON_DETERMINISTIC fn=";

  private static Diagnostic bareNameWarning(String fn, dev.mlv.diag.Position at) {
    return Diagnostic.warning(
        "NON_DETERMINISTIC",
        at,
        "function '"
            + fn
            + "' is not deterministic; the view can never be refreshed incrementally, unless a"
            + " table it reads there has a column "
            + fn
            + ", which Spark reads instead",
        "compute the value upstream, or accept full refreshes");
  }

  private static Diagnostic nonDeterministicWarning(String fn, dev.mlv.diag.Position at) {
    // A special date or time value is named with its type and quotes: TIMESTAMP'now'.
    if (fn.contains("'")) {
      return Diagnostic.warning(
          "NON_DETERMINISTIC",
          at,
          fn
              + " is the time of each refresh, as current_timestamp() is, not a constant; the view"
              + " can never be refreshed incrementally",
          "write the date or time itself, compute it upstream, or accept full refreshes");
    }
    return Diagnostic.warning(
        "NON_DETERMINISTIC",
        at,
        "function '" + fn + "' is not deterministic; the view can never be refreshed incrementally",
        "compute the value upstream, or accept full refreshes");
  }

  /**
   * A two-part name {@code s.t} is schema {@code s} of the default lakehouse to mlv and to Fabric's
   * name rules, but Spark takes a first part that names a catalog for the catalog: when {@code s}
   * is also a lakehouse of the project, Spark reads table {@code t} of lakehouse {@code s}, and the
   * view reads something else than its lineage says (or fails).
   */
  private static void lakehouseSchemaClash(
      Project project, QueryFacts facts, Set<String> lakehouses, List<Diagnostic> out) {
    NameResolver names = project.names();
    // The view's own name is not in the list: mlv creates the view by its resolved name.
    for (Name t : facts.tables()) {
      if (t.parts().size() != 2
          || !lakehouses.contains(t.parts().get(0).toLowerCase(Locale.ROOT))) {
        continue;
      }
      ObjectId id = names.resolve(t);
      String schema = id.schema();
      out.add(
          Diagnostic.error(
              "LAKEHOUSE_SCHEMA_CLASH",
              t.position(),
              "'"
                  + t.text()
                  + "' names schema "
                  + schema
                  + " of lakehouse "
                  + id.lakehouse()
                  + ", but "
                  + schema
                  + " is also a lakehouse of this project, and Spark reads a first part that"
                  + " names a lakehouse as the lakehouse: table "
                  + id.name()
                  + " of lakehouse "
                  + schema
                  + ", without a schema",
              "write all three parts: "
                  + id.lakehouse()
                  + "."
                  + schema
                  + "."
                  + id.name()
                  + " for this schema, or "
                  + schema
                  + ".<schema>."
                  + id.name()
                  + " for the other lakehouse"));
    }
  }

  /** The lakehouses the project knows: its own, those under lakehouses:, those a name mentions. */
  private static Set<String> lakehouses(Project project) {
    NameResolver names = project.names();
    Set<String> lakehouses = new HashSet<>(names.lakehouseWorkspaces().keySet());
    lakehouses.add(names.lakehouse());
    project.lineage().nodes().keySet().forEach(id -> lakehouses.add(id.lakehouse()));
    return lakehouses;
  }

  /**
   * A dot inside a quoted part ({@code `a.b`.c}) makes a name that mlv's dotted ids, and Fabric's,
   * cannot tell from {@code a.`b.c`}: two tables would share one lineage node and one refresh
   * state. mlv.yml refuses such names as CONFIG_VALUE; a view's SQL is held to the same.
   */
  private static void dottedParts(QueryFacts facts, List<Diagnostic> out) {
    for (Name t : facts.tables()) {
      List<String> written = t.written();
      for (int i = 0; i < written.size(); i++) {
        if (written.get(i).contains(".")) {
          out.add(
              Diagnostic.error(
                  "TABLE_NAME",
                  t.partPosition(i),
                  "'"
                      + written.get(i)
                      + "' in "
                      + t.text()
                      + " has a dot in it, so the table cannot be told from one whose name splits"
                      + " at that dot",
                  "name it with letters, digits and '_' only: "
                      + written.get(i).replace('.', '_')));
          break;
        }
      }
    }
  }

  /** The view or declared source whose name is nearest to {@code id}'s, if one is near. */
  private static Optional<String> nearestDeclared(Project project, ObjectId id) {
    List<String> declared = new ArrayList<>();
    project.views().keySet().forEach(v -> declared.add(project.names().display(v)));
    for (var source : project.config().sources()) {
      try {
        declared.add(project.names().display(project.names().resolve(Name.of(source.name()))));
      } catch (IllegalArgumentException e) {
        // a name mlv.yml's own rules report
      }
    }
    return Suggestions.nearest(project.names().display(id), declared);
  }

  private static void undeclaredTables(Project project, QueryFacts facts, List<Diagnostic> out) {
    for (Name t : facts.tables()) {
      if (t.written().stream().anyMatch(part -> part.contains("."))) {
        continue; // dottedParts reports it
      }
      ObjectId id = project.names().resolve(t);
      Node n = project.lineage().node(id);
      if (n != null
          && n.kind() == NodeKind.TABLE
          && n.position() == null
          && !project.unparsedViews().contains(id)) {
        out.add(
            Diagnostic.warning(
                "UNDECLARED_TABLE",
                t.position(),
                "table "
                    + project.names().display(id)
                    + " is neither a view of the project nor a"
                    + " declared source",
                nearestDeclared(project, id)
                    .map(
                        m ->
                            "did you mean "
                                + m
                                + "? Otherwise declare it under sources: in mlv.yml")
                    .orElse("declare it under sources: in mlv.yml, or check the name for a typo")));
      }
    }
  }

  /** The words a Spark SQL statement other than CREATE may start with. */
  private static final Set<String> STATEMENT_WORDS =
      Set.of(
          "select",
          "with",
          "insert",
          "update",
          "delete",
          "merge",
          "set",
          "reset",
          "use",
          "drop",
          "alter",
          "refresh",
          "show",
          "describe",
          "desc",
          "optimize",
          "vacuum",
          "analyze",
          "cache",
          "uncache",
          "clear",
          "truncate",
          "comment",
          "grant",
          "revoke",
          "msck",
          "explain",
          "values",
          "from",
          "table",
          "add",
          "list",
          "restore",
          "convert",
          "fsck",
          "repair",
          "load",
          "declare",
          "execute",
          "call",
          "create",
          // Delta's GENERATE manifest, and Spark SQL scripting, whose blocks hold semicolons.
          "generate",
          "begin",
          "end",
          "if",
          "while",
          "for",
          "repeat",
          "loop",
          "leave",
          "iterate",
          "case",
          "signal",
          "resignal");

  /** First words of a query, which on its own in a view file defines nothing. */
  private static final Set<String> QUERY_WORDS =
      Set.of("select", "with", "from", "values", "table");

  /**
   * Words and symbols that continue a statement and never start one: text that starts with one is
   * the rest of a statement cut by a ';' or split across files.
   */
  private static final Set<String> CLAUSE_WORDS =
      Set.of(
          "where",
          "group",
          "order",
          "having",
          "limit",
          "offset",
          "join",
          "inner",
          "left",
          "right",
          "full",
          "cross",
          "natural",
          "anti",
          "semi",
          "on",
          "using",
          "and",
          "or",
          "union",
          "intersect",
          "except",
          "minus",
          "window",
          "qualify",
          "cluster",
          "distribute",
          "sort",
          "lateral",
          "pivot",
          "unpivot",
          "as",
          "partitioned",
          "tblproperties",
          ",",
          ")",
          ".",
          "+",
          "-",
          "*",
          "/",
          "=",
          "<",
          ">",
          "||");

  /**
   * A session variable lives only in the session that declares it. mlv runs no such statement, and
   * a view's refresh (a scheduled one too) runs in a session of its own, so a view that reads the
   * variable fails there with UNRESOLVED_COLUMN, even when it was created where it was declared.
   */
  private static void sessionVariable(SqlStatement.Other o, Matcher m, List<Diagnostic> out) {
    String statement = m.group(1).strip().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
    String name = m.group(2) == null ? "the variable" : m.group(2);
    out.add(
        Diagnostic.error(
            "SESSION_VARIABLE",
            o.position(),
            statement
                + (m.group(2) == null ? "" : " " + m.group(2))
                + ": a session variable exists only in the Spark session that declares it; mlv"
                + " does not run this statement, and a materialized lake view refreshes in a"
                + " session of its own, so a view that reads "
                + name
                + " fails there ([UNRESOLVED_COLUMN])",
            "write the value in the view itself, or read it from a table (a one-row settings"
                + " table joined in); keep session SQL out of the view folders"));
  }

  private static void otherStatement(Project project, SqlStatement st, List<Diagnostic> out) {
    if (st instanceof SqlStatement.Other o) {
      Matcher m = DML.matcher(o.sql());
      if (m.find()) {
        String target = m.group(1).strip();
        try {
          ObjectId id = project.names().resolve(Name.of(target.replace("`", "")));
          if (project.views().containsKey(id)) {
            out.add(
                Diagnostic.error(
                    "DML_ON_VIEW",
                    o.position(),
                    "INSERT, UPDATE, DELETE and MERGE cannot write to the materialized lake view "
                        + project.names().display(id),
                    "a view's data comes only from its SELECT; change the definition instead"));
            return;
          }
        } catch (IllegalArgumentException e) {
          // Not a 1-4 part name: leave it to the generic warning below.
        }
      }
      if (MATERIALIZED_VIEW.matcher(o.sql()).find()) {
        out.add(
            Diagnostic.error(
                "NOT_A_LAKE_VIEW",
                o.position(),
                "CREATE MATERIALIZED VIEW is not a materialized lake view: mlv would not deploy"
                    + " it, and plan --prune would drop a deployed view it was meant to define",
                "write CREATE MATERIALIZED LAKE VIEW"));
        return;
      }
      Matcher variable = SESSION_VARIABLE.matcher(o.sql());
      if (variable.find()) {
        sessionVariable(o, variable, out);
        return;
      }
      String first = o.firstWord();
      if (CLAUSE_WORDS.contains(first)) {
        out.add(
            Diagnostic.error(
                "NOT_A_VIEW",
                o.position(),
                "this is not a complete SQL statement: '"
                    + first
                    + "' continues a statement and cannot start one, so Spark cannot run it",
                "if it is the rest of the statement before it (cut by a ';', or split across"
                    + " files), join the two"));
        return;
      }
      if (QUERY_WORDS.contains(first)) {
        // Spark runs a query on its own (FROM t too, since Spark 4), but in a view file it changes
        // nothing: most likely the rest of a view split across files, or a view lacking its header.
        out.add(
            Diagnostic.warning(
                "NOT_A_VIEW",
                o.position(),
                "this is a query on its own, not a view definition: mlv does not deploy it, and"
                    + " running it changes nothing",
                "if it is the rest of a view (cut by a ';', or split across files), join it to its"
                    + " CREATE MATERIALIZED LAKE VIEW; keep other SQL out of the view folders"));
        return;
      }
      if (first.equals("create") || !STATEMENT_WORDS.contains(first)) {
        // A misspelt header (CRATE ..., CREATE LAKE VIEW, ... LAKE VEIW) is most likely a view
        // definition gone wrong: were it a warning, plan --prune would drop the deployed view.
        out.add(
            Diagnostic.error(
                "NOT_A_VIEW",
                o.position(),
                (first.equals("create")
                        ? "this CREATE is not a CREATE MATERIALIZED LAKE VIEW"
                        : "'" + first + "' does not start a Spark SQL statement")
                    + ": mlv would not deploy it, and plan --prune would drop a deployed view it"
                    + " was meant to define",
                "write CREATE [OR REPLACE] MATERIALIZED LAKE VIEW [IF NOT EXISTS] name ... AS"
                    + " SELECT ...; keep other SQL out of the view folders"));
        return;
      }
      out.add(
          Diagnostic.warning(
              "NOT_A_VIEW",
              o.position(),
              "statement is not a CREATE MATERIALIZED LAKE VIEW; mlv does not deploy it",
              "keep only view definitions in the view folders; run other SQL with 'mlv sql'"));
    } else {
      out.add(
          Diagnostic.warning(
              "NOT_A_VIEW",
              st.position(),
              "MLV management statements are not deployed from view files",
              "run them with 'mlv sql'"));
    }
  }
}
