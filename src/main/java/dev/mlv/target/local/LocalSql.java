package dev.mlv.target.local;

import dev.mlv.check.Checker;
import dev.mlv.check.SparkFunctions;
import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import dev.mlv.sql.Name;
import dev.mlv.sql.Places;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.DeployedView;
import dev.mlv.target.SqlResult;
import dev.mlv.target.SqlValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * {@code mlv sql} on the local lakehouse: plain Spark SQL passes through; the MLV management
 * statements, which open-source Spark does not know, are carried out on mlv's own view tables; DML
 * into a view is refused as Fabric refuses it.
 */
final class LocalSql {
  private static final int MAX_ROWS = 10_000;

  private final LocalTarget target;
  private final Project project;
  private final RunListener listener;

  LocalSql(LocalTarget target, Project project, RunListener listener) {
    this.target = target;
    this.project = project;
    this.listener = listener;
  }

  SqlResult run(SqlStatement st) {
    if (st instanceof SqlStatement.Other o) {
      return other(o);
    } else if (st instanceof SqlStatement.ShowViews s) {
      return showViews(s);
    } else if (st instanceof SqlStatement.ShowCreate s) {
      DeployedView v = view(s.view());
      return new SqlResult(List.of("createtab_stmt"), List.of(List.of(v.definition())), null);
    } else if (st instanceof SqlStatement.Rename r) {
      return target.underLock("ALTER ... RENAME", () -> rename(r));
    } else if (st instanceof SqlStatement.Drop d) {
      return target.underLock("DROP MATERIALIZED LAKE VIEW", () -> drop(d));
    } else if (st instanceof SqlStatement.Refresh r) {
      return refresh(r);
    } else if (st instanceof SqlStatement.CreateView c) {
      return target.underLock("CREATE MATERIALIZED LAKE VIEW", () -> create(c.definition()));
    }
    throw new IllegalStateException("unknown statement " + st);
  }

  /**
   * Parses each plain Spark statement with the session's parser (Delta's commands included) when
   * there are several: the statements run one by one and each commits, so a syntax error in a later
   * one is found before the first runs.
   */
  void checkSyntax(List<SqlStatement> statements) {
    List<SqlStatement.Other> plain = SyntaxCheck.plain(statements);
    if (statements.size() < 2 || plain.isEmpty()) {
      return;
    }
    target.materializer(project);
    SyntaxCheck.check(
        target.runtime().session().sessionState().sqlParser(),
        plain,
        "no statement was run: the statements run one by one and each commits, so all are"
            + " checked first");
  }

  private SqlResult other(SqlStatement.Other o) {
    target.materializer(project);
    var parser = target.runtime().session().sessionState().sqlParser();
    for (WriteTargets.Write w : WriteTargets.of(parser, o.sql(), o.position())) {
      ObjectId id = project.names().resolve(inCurrentSchema(w.table()));
      boolean deployed;
      try {
        deployed = target.deployed(id).isPresent();
      } catch (MlvException m) {
        throw placed(m, w.table().position());
      }
      if (deployed) {
        throw new MlvException(
            Diagnostic.error(
                "DML_ON_VIEW", w.table().position(), w.refusal(project.names().display(id)), null));
      }
    }
    QueryFacts facts = target.extractor().extract(o.sql(), o.position());
    target.registerSpellings(facts.tables());
    try {
      Dataset<Row> df = target.runtime().session().sql(o.sql());
      String[] cols = df.columns();
      if (cols.length == 0) {
        df.collectAsList();
        return SqlResult.message("OK");
      }
      List<Row> rows = df.limit(MAX_ROWS + 1).collectAsList();
      var fields = df.schema().fields();
      List<List<SqlValue>> out = new ArrayList<>();
      for (int i = 0; i < Math.min(rows.size(), MAX_ROWS); i++) {
        Row r = rows.get(i);
        List<SqlValue> cells = new ArrayList<>(cols.length);
        for (int c = 0; c < cols.length; c++) {
          cells.add(SparkValues.of(r.get(c), fields[c].dataType()));
        }
        out.add(cells);
      }
      String note =
          rows.size() > MAX_ROWS ? "(only the first " + MAX_ROWS + " rows are shown)" : null;
      List<String> types =
          java.util.Arrays.stream(fields).map(f -> f.dataType().typeName()).toList();
      return SqlResult.typed(List.of(cols), types, out, note);
    } catch (Exception e) { // Spark's AnalysisException is checked, yet thrown undeclared
      Optional<String> unknown = unknownFunction(e, facts);
      if (unknown.isPresent()) {
        throw new MlvException(
            Diagnostic.error(
                "SQL_FAILED",
                Places.call(o.sql(), o.position(), unknown.get()),
                "[UNRESOLVED_ROUTINE] function '"
                    + unknown.get()
                    + "' is not a Spark built-in, and the lakehouse holds no functions",
                "check the name against Spark's functions (SHOW FUNCTIONS)"),
            e);
      }
      Position at = SparkMessages.place(e, o.sql(), o.position()).orElse(o.position());
      // mlv's own refusal from inside Spark's catalog (delta.`/path`, a name that cannot be a
      // folder): its rule and words, placed at the statement, not wrapped in SQL_FAILED.
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof MlvException m && m.diagnostics().size() == 1) {
          throw placed(m, at);
        }
      }
      // Spark's own parser refusing the statement is a syntax error, as docs/rules.md says.
      throw new MlvException(
          Diagnostic.error(
              e instanceof org.apache.spark.sql.catalyst.parser.ParseException
                  ? "SQL_PARSE"
                  : "SQL_FAILED",
              at,
              dev.mlv.sql.fallback.SparkFallbackParser.placeless(
                  SparkMessages.withoutSparkPlace(SparkMessages.explanation(e))),
              null),
          e);
    }
  }

  /** {@code m}'s one finding placed at {@code at} when it has no place of its own. */
  private static MlvException placed(MlvException m, Position at) {
    if (m.diagnostics().size() != 1 || m.diagnostics().get(0).position() != null) {
      return m;
    }
    Diagnostic d = m.diagnostics().get(0);
    return new MlvException(Diagnostic.error(d.ruleId(), at, d.message(), d.hint()), m);
  }

  /**
   * The function Spark could not find, when it says so only as "Catalog lh does not support
   * functions" (an unknown name is looked up in the current catalog, a lakehouse): the first call
   * in the statement that is no Spark built-in.
   */
  private static Optional<String> unknownFunction(Exception e, QueryFacts facts) {
    if (!String.valueOf(e.getMessage()).contains("MISSING_CATALOG_ABILITY.FUNCTIONS")) {
      return Optional.empty();
    }
    return facts.functions().stream().filter(fn -> !SparkFunctions.isBuiltin(fn)).findFirst();
  }

  /**
   * The refresh's error is already a formatted diagnostic ("<input>:1:55: error[REFRESH_FAILED]:
   * ..."): one diagnostic, placed there, rather than a diagnostic quoted inside another.
   */
  private static MlvException createFailed(String error) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?s)^(.+?):(\\d+):(\\d+): error\\[\\w+\\]: (.*)$")
            .matcher(error);
    if (!m.matches()) {
      return new MlvException("CREATE_FAILED", error + "; the view was not created");
    }
    Position at =
        new Position(
            m.group(1).equals("<input>") ? null : java.nio.file.Path.of(m.group(1)),
            Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3)));
    return new MlvException(
        Diagnostic.error("CREATE_FAILED", at, m.group(4) + "; the view was not created", null));
  }

  /**
   * A 1-part name as Spark reads it: in the session's current catalog and schema, which a USE
   * statement may have changed, not mlv.yml's default schema.
   */
  private Name inCurrentSchema(Name name) {
    if (name.parts().size() != 1) {
      return name;
    }
    var catalog = target.runtime().session().catalog();
    String qualified =
        SparkRuntime.quote(catalog.currentCatalog())
            + "."
            + catalog.currentDatabase()
            + "."
            + SparkRuntime.quote(name.parts().get(0));
    Name full = Name.of(qualified);
    if (full.parts().size() < 3 || full.parts().size() > 4) {
      return name;
    }
    return new Name(full.parts(), full.text(), name.position());
  }

  private DeployedView view(Name name) {
    ObjectId id = project.names().resolve(name);
    return target
        .deployed(id)
        .orElseThrow(
            () ->
                new MlvException(
                    Diagnostic.error(
                        "VIEW_NOT_FOUND",
                        name.position(),
                        "materialized lake view "
                            + name.text()
                            + " does not exist"
                            + (name.parts().size() == 1 ? " in schema " + id.schema() : ""),
                        "SHOW MATERIALIZED LAKE VIEWS lists the views"
                            + (name.parts().size() == 1
                                ? "; a one-part name is read in the current schema, so name it"
                                    + " with its own: <schema>."
                                    + name.text()
                                : ""))));
  }

  private SqlResult showViews(SqlStatement.ShowViews s) {
    String lakehouse = project.config().lakehouse().toLowerCase(java.util.Locale.ROOT);
    String schema = null;
    if (s.schema() != null) {
      List<String> p = s.schema().parts();
      schema = p.get(p.size() - 1);
      if (p.size() >= 2) {
        lakehouse = p.get(p.size() - 2);
      }
      if (!java.nio.file.Files.isDirectory(
          target.warehouse().tablesDir(lakehouse).resolve(schema))) {
        // As Spark's SHOW TABLES IN says: an empty answer would read as "no views there".
        throw new MlvException(
            Diagnostic.error(
                "SCHEMA_NOT_FOUND",
                s.schema().position(),
                "schema " + s.schema().text() + " does not exist in lakehouse " + lakehouse,
                "SHOW MATERIALIZED LAKE VIEWS without IN lists the views of every schema"));
      }
    }
    List<List<String>> rows = new ArrayList<>();
    for (TableState t : target.deltaState().scan(target.warehouse().root())) {
      if (!t.id().lakehouse().equals(lakehouse)
          || (schema != null && !t.id().schema().equals(schema))
          || !t.properties().containsKey(LocalTarget.P_DEFINITION)) {
        continue;
      }
      rows.add(
          List.of(
              t.id().schema(),
              t.id().name(),
              LastRefreshed.of(t).toString(),
              String.valueOf(t.version())));
    }
    rows.sort((a, b) -> (a.get(0) + "." + a.get(1)).compareTo(b.get(0) + "." + b.get(1)));
    return new SqlResult(List.of("namespace", "viewName", "lastRefreshed", "version"), rows, null);
  }

  private SqlResult rename(SqlStatement.Rename r) {
    DeployedView v = view(r.from());
    Checker.uppercaseSchema(r.to(), project.config().schema())
        .ifPresent(
            d -> {
              throw new MlvException(d);
            });
    ObjectId to = r.target(v.id(), project.names());
    if (!to.lakehouse().equals(v.id().lakehouse())) {
      throw at("RENAME_LAKEHOUSE", r.position(), "a view can be renamed only within its lakehouse");
    }
    // Before anything moves: renamed to x__quarantine, the view was then taken for its own
    // quarantine table and moved on to x__quarantine__quarantine, and the rename failed half done
    // (found by QA); in mlv_history it would sit among the run history's tables.
    Checker.reservedName(project, to, r.to().position())
        .ifPresent(
            d -> {
              throw new MlvException(d);
            });
    if (target.deployed(to).isPresent() || Warehouse.isTable(target.warehouse().tableDir(to))) {
      throw at("RENAME_EXISTS", r.position(), r.to().text() + " already exists");
    }
    ViewMaterializer m = target.materializer(project);
    Optional<String> warning = target.renameView(m, v.id(), to);
    // The stored statement names the view with its schema, or SHOW CREATE would put it in dbo.
    Name written =
        r.to().parts().size() == 1
            ? Name.of(SparkRuntime.quote(to.schema()) + "." + r.to().text())
            : r.to();
    m.setTableProperties(to, Map.of(LocalTarget.P_DEFINITION, renamed(v.definition(), written)));
    return SqlResult.message(
        "Renamed "
            + project.names().display(v.id())
            + " to "
            + project.names().display(to)
            + warning.map(w -> "\n" + w).orElse(""));
  }

  /** The stored CREATE statement with its name replaced, so SHOW CREATE tells the truth. */
  static String renamed(String statement, Name newName) {
    Optional<ViewDefinition> def = LocalTarget.parseDefinition(statement);
    if (def.isEmpty()) {
      return statement;
    }
    Name old = def.get().name();
    int offset = Position.offsetAt(statement, old.position().line(), old.position().column());
    return statement.substring(0, offset)
        + newName.text()
        + statement.substring(offset + old.text().length());
  }

  private SqlResult drop(SqlStatement.Drop d) {
    ObjectId id = project.names().resolve(d.view());
    if (target.deployed(id).isEmpty()) {
      if (Warehouse.isTable(target.warehouse().tableDir(id))) {
        // Even with IF EXISTS: something by that name exists, and it is not this statement's to
        // drop.
        throw at(
            "NOT_A_VIEW",
            d.position(),
            d.view().text()
                + " is a table, not a materialized lake view; DROP MATERIALIZED LAKE VIEW drops"
                + " only views (DROP TABLE drops a table)");
      }
      if (d.ifExists()) {
        return SqlResult.message("Nothing to drop: " + d.view().text() + " does not exist");
      }
      throw at(
          "VIEW_NOT_FOUND",
          d.position(),
          "materialized lake view " + d.view().text() + " does not exist");
    }
    target.materializer(project).dropTable(id);
    StringBuilder said = new StringBuilder("Dropped " + project.names().display(id));
    // Said, not refused: Fabric drops it too; the readers fail their next refresh.
    List<String> readers =
        project.lineage().node(id) == null
            ? List.of()
            : project.lineage().downstream(id).stream().map(project.names()::display).toList();
    if (!readers.isEmpty()) {
      said.append("; ")
          .append(String.join(", ", readers))
          .append(readers.size() == 1 ? " reads" : " read")
          .append(" it and will fail to refresh until it is back");
    }
    if (project.views().containsKey(id)) {
      said.append("; it is still defined in the project, and 'mlv apply' creates it again");
    }
    return SqlResult.message(said.toString());
  }

  private SqlResult refresh(SqlStatement.Refresh r) {
    ObjectId id = project.names().resolve(r.view());
    DeployedView deployed = view(r.view());
    if (!project.views().containsKey(id)) {
      return target.underLock("REFRESH", () -> refreshAdHoc(id, deployed, r));
    }
    RunReport run =
        target.refresh(
            project,
            new RefreshRequest(
                new TreeSet<>(List.of(id)),
                r.full(),
                1,
                project.config().defaults().refreshTimeout(),
                false,
                Map.of()),
            listener);
    if (run.views().isEmpty() && run.status() == dev.mlv.refresh.RunStatus.Skipped) {
      // Another run held the lock: refused as RENAME and DROP are, not reported as a success.
      throw new dev.mlv.diag.BusyException(
          "LAKEHOUSE_BUSY",
          "REFRESH was not run: "
              + target.holderText()
              + " is refreshing lakehouse "
              + project.config().lakehouse()
              + "; run it again when that run is over");
    }
    if (run.views().isEmpty()) {
      return SqlResult.message("Refresh " + run.status() + " (run " + run.id() + ")");
    }
    return refreshed(run.views());
  }

  /** What REFRESH answers: a row per view refreshed. */
  private SqlResult refreshed(List<ViewRun> runs) {
    List<List<String>> rows = new ArrayList<>();
    for (ViewRun v : runs) {
      rows.add(
          List.of(
              project.names().display(v.id()),
              v.status().name(),
              v.strategy(),
              String.valueOf(v.rowsWritten()),
              String.valueOf(v.rowsDropped()),
              v.error().orElse("")));
    }
    return new SqlResult(
        List.of("view", "status", "strategy", "rowsWritten", "rowsDropped", "error"), rows, null);
  }

  /**
   * A view created with {@code mlv sql} and not defined in the project: its place in the lineage is
   * unknown, so it alone is refreshed, in full, from its stored definition.
   */
  private SqlResult refreshAdHoc(ObjectId id, DeployedView deployed, SqlStatement.Refresh r) {
    ViewDefinition def =
        LocalTarget.parseDefinition(deployed.definition())
            .orElseThrow(
                () ->
                    at(
                        "BAD_DEFINITION",
                        r.position(),
                        "the definition stored with "
                            + r.view().text()
                            + " cannot be parsed; recreate it with CREATE OR REPLACE"));
    Strategy strategy =
        r.full()
            ? new Strategy.Full("FULL_REQUESTED", "a full refresh was requested")
            : new Strategy.Full(
                "NOT_IN_PROJECT",
                "the view is not defined in the project, so it is refreshed alone and in full");
    return refreshed(
        List.of(
            target.materialize(
                project,
                id,
                def,
                target.upstreamOf(project, id, def),
                strategy,
                deployed.managed(),
                System.nanoTime())));
  }

  private SqlResult create(ViewDefinition def) {
    ObjectId id = project.names().resolve(def.name());
    Optional<QueryFacts> facts =
        def.body() instanceof ViewBody.Select select
            ? Optional.of(
                target.extractor().extractView(select.sql(), select.position(), def.constraints()))
            : Optional.empty();
    List<Diagnostic> refused = new ArrayList<>(adHocRules(id, def, facts));
    facts.ifPresent(f -> refused.addAll(tempViewSources(f)));
    if (!refused.isEmpty()) {
      throw new MlvException(refused);
    }
    Optional<DeployedView> existing = target.deployed(id);
    if (existing.isPresent() && def.ifNotExists()) {
      return SqlResult.message(def.name().text() + " already exists; nothing done (IF NOT EXISTS)");
    }
    if (existing.isPresent() && !def.orReplace()) {
      throw at(
          "VIEW_EXISTS",
          def.position(),
          "materialized lake view " + def.name().text() + " already exists; use CREATE OR REPLACE");
    }
    if (existing.isEmpty() && Warehouse.isTable(target.warehouse().tableDir(id))) {
      throw at(
          "TABLE_EXISTS", def.position(), "a table named " + def.name().text() + " already exists");
    }
    ViewRun r =
        target.materialize(
            project,
            id,
            def,
            target.upstreamOf(project, id, def),
            new Strategy.Full("CREATED", "created with mlv sql"),
            existing.map(DeployedView::managed).orElse(false),
            System.nanoTime());
    if (r.error().isPresent()) {
      throw createFailed(r.error().get());
    }
    return SqlResult.message(
        "Created "
            + project.names().display(id)
            + ": "
            + DiagnosticRenderer.plural(r.rowsWritten(), "row")
            + " written, "
            + r.rowsDropped()
            + " dropped");
  }

  /**
   * What validate would refuse in a project file (an all-uppercase schema, time travel, a UDF, a
   * column Delta cannot store): Fabric refuses the same statement, so an ad-hoc CREATE does too,
   * with the same rule, rather than with whatever Spark says later or not at all.
   */
  private List<Diagnostic> adHocRules(ObjectId id, ViewDefinition def, Optional<QueryFacts> facts) {
    ProjectView view =
        new ProjectView(id, def, facts, project.config().defaults().views().resolve());
    return Checker.checkView(project, view).stream().filter(Diagnostic::isError).toList();
  }

  /**
   * A temporary view of this shell or statement list lives only in the session: the view's
   * refreshes, here and in Fabric, read what the lakehouse stores, so a view over one is refused at
   * its name (else mlv's lineage looks for a table of that name and reports it missing).
   */
  private List<Diagnostic> tempViewSources(QueryFacts facts) {
    var catalog = target.runtime().session().sessionState().catalog();
    String globalDb =
        target.runtime().session().conf().get("spark.sql.globalTempDatabase", "global_temp");
    List<Diagnostic> out = new ArrayList<>();
    for (Name t : facts.tables()) {
      List<String> parts = t.parts();
      boolean temp =
          (parts.size() == 1 && catalog.getTempView(parts.get(0)).isDefined())
              || (parts.size() == 2
                  && parts.get(0).equalsIgnoreCase(globalDb)
                  && catalog.getGlobalTempView(parts.get(1)).isDefined());
      if (temp) {
        out.add(
            Diagnostic.error(
                "TEMP_VIEW_SOURCE",
                t.position(),
                t.text()
                    + " is a temporary view, which lives only in this Spark session; a"
                    + " materialized lake view reads tables and views stored in the lakehouse, as"
                    + " each refresh runs in a session of its own",
                "put the temporary view's SELECT in the view as a CTE (WITH "
                    + parts.get(parts.size() - 1)
                    + " AS (...)), or save it as a table first"));
      }
    }
    return out;
  }

  /** An error placed in the SQL text, the place first as in every other diagnostic. */
  private static MlvException at(String rule, Position position, String message) {
    return new MlvException(Diagnostic.error(rule, position, message, null));
  }
}
