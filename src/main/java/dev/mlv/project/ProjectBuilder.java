package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.IoReason;
import dev.mlv.diag.Position;
import dev.mlv.diag.Severity;
import dev.mlv.diag.Suggestions;
import dev.mlv.lineage.Edge;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.Node;
import dev.mlv.lineage.NodeKind;
import dev.mlv.lineage.ObjectId;
import dev.mlv.pyspark.PySparkReader;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.Name;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.TableExtractor;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the definition files of a project in parallel, parses them, extracts what each SELECT
 * reads, resolves every name with the project's defaults, and builds the lineage, collecting every
 * problem as a diagnostic rather than stopping at the first.
 */
public final class ProjectBuilder {
  private static final Pattern ONELAKE =
      Pattern.compile(
          "abfss://([^@/]+)@[^/]+/([^/]+?)(?:\\.Lakehouse)?/Files/?(.*)", Pattern.CASE_INSENSITIVE);

  /**
   * Created on first use: the extractor's static set-up loads Calcite, which a run answered wholly
   * from the parse cache never needs.
   */
  private static final class Extractor {
    static final TableExtractor INSTANCE = new TableExtractor();
  }

  /** One parsed definition file. */
  private record ParsedFile(
      Path file,
      List<SqlStatement> statements,
      Map<ViewDefinition, QueryFacts> facts,
      List<Diagnostic> diagnostics,
      List<Name> unfinishedViews) {

    ParsedFile(
        Path file,
        List<SqlStatement> statements,
        Map<ViewDefinition, QueryFacts> facts,
        List<Diagnostic> diagnostics) {
      this(file, statements, facts, diagnostics, List.of());
    }
  }

  public Project build(ProjectConfig config, List<Path> files, List<Diagnostic> earlier) {
    NameResolver names = resolver(config);
    List<Diagnostic> diagnostics = new ArrayList<>(earlier);
    Optional<ParseCache> cache = ParseCache.open(config.root());
    List<ParsedFile> parsed =
        files.parallelStream()
            .map(f -> parse(config.root(), f, cache))
            .collect(Collectors.toList());
    cache.ifPresent(ParseCache::save);

    Map<ObjectId, ProjectView> views = new LinkedHashMap<>();
    Set<ObjectId> definedTwice = new HashSet<>();
    Set<ObjectId> unparsed = new HashSet<>();
    List<SqlStatement> others = new ArrayList<>();
    Map<ObjectId, ViewSettings.Effective> settings = settings(config, names, diagnostics);
    for (ParsedFile pf : parsed) {
      diagnostics.addAll(pf.diagnostics());
      pf.unfinishedViews().forEach(n -> unparsed.add(names.resolve(n)));
      for (SqlStatement st : pf.statements()) {
        if (st instanceof SqlStatement.CreateView cv) {
          ViewDefinition def = cv.definition();
          ObjectId id = names.resolve(def.name());
          ProjectView existing = views.get(id);
          if (existing != null) {
            // At the names, as other name rules point: the statement's start is the same for
            // every view of a file.
            diagnostics.add(
                Diagnostic.error(
                    "DUPLICATE_VIEW",
                    namePosition(def),
                    "view "
                        + names.display(id)
                        + " is already defined at "
                        + namePosition(existing.definition()),
                    "keep one definition per view"));
            definedTwice.add(id);
            continue;
          }
          views.put(
              id,
              new ProjectView(
                  id,
                  def,
                  Optional.ofNullable(pf.facts().get(def)),
                  settings.getOrDefault(id, config.defaults().views().resolve())));
        } else {
          others.add(st);
        }
      }
    }
    unparsed.removeAll(views.keySet());
    unknownViewConfig(config, names, views, unparsed, diagnostics);
    LineageGraph graph = lineage(config, names, views, diagnostics);
    return new Project(
        config, names, files, views, others, graph, diagnostics, definedTwice, unparsed);
  }

  /** Where the view's name is written, or its statement when the reader gave the name none. */
  private static Position namePosition(ViewDefinition def) {
    return def.name().position() != null ? def.name().position() : def.position();
  }

  public static NameResolver resolver(ProjectConfig config) {
    Map<String, String> lakehouses = new HashMap<>();
    config.lakehouses().forEach((k, v) -> lakehouses.put(k, v.workspace()));
    return new NameResolver(config.workspace(), config.lakehouse(), config.schema(), lakehouses);
  }

  /**
   * A view_config entry no definition creates: a typo there would silently drop the quality gates
   * or quarantine it sets.
   */
  private static void unknownViewConfig(
      ProjectConfig config,
      NameResolver names,
      Map<ObjectId, ProjectView> views,
      Set<ObjectId> unparsed,
      List<Diagnostic> diagnostics) {
    if (views.isEmpty()) {
      return; // nothing defined yet (or every file failed): the entries are not the problem
    }
    List<String> known = views.keySet().stream().map(names::display).sorted().toList();
    for (var e : config.viewConfig().entrySet()) {
      ObjectId id = names.resolve(Name.of(e.getKey()));
      // A view whose file has a syntax error is defined: that error is the one to fix.
      if (!views.containsKey(id) && !unparsed.contains(id)) {
        diagnostics.add(
            Diagnostic.warning(
                "VIEW_CONFIG_UNKNOWN",
                e.getValue().position(),
                "view_config names " + e.getKey() + ", which no definition in the project creates",
                sameName(id, views.keySet(), names)
                    .or(() -> Suggestions.nearest(names.display(id), known))
                    .map(n -> "did you mean '" + n + "'?")
                    .orElse("fix the name, or remove the entry")));
      }
    }
  }

  /**
   * The one view whose own name the entry has, in another schema: a 1-part key lands in mlv.yml's
   * schema, which is rarely the view's.
   */
  private static Optional<String> sameName(
      ObjectId id, java.util.Set<ObjectId> views, NameResolver names) {
    List<ObjectId> same = views.stream().filter(v -> v.name().equals(id.name())).toList();
    return same.size() == 1 ? Optional.of(names.display(same.get(0))) : Optional.empty();
  }

  private Map<ObjectId, ViewSettings.Effective> settings(
      ProjectConfig config, NameResolver names, List<Diagnostic> diagnostics) {
    Map<ObjectId, ViewSettings.Effective> out = new HashMap<>();
    for (var e : config.viewConfig().entrySet()) {
      out.put(names.resolve(Name.of(e.getKey())), config.settingsFor(e.getKey()));
    }
    return out;
  }

  private ParsedFile parse(Path root, Path file, Optional<ParseCache> cache) {
    Path rel = root.relativize(file);
    Position start = Position.start(rel);
    List<Diagnostic> diagnostics = new ArrayList<>();
    boolean python = !file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".sql");
    String text;
    String key = null;
    byte[] bytes = new byte[0];
    try {
      bytes = Files.readAllBytes(file);
      Optional<Diagnostic> nul = nulByte(bytes, start);
      if (nul.isPresent()) {
        // NUL is valid UTF-8, so UTF-16 without a byte order mark decodes: the parser then
        // reported NOT_A_VIEW and a character it could not show (found by QA).
        diagnostics.add(nul.get());
        return new ParsedFile(rel, List.of(), Map.of(), diagnostics);
      }
      if (python) {
        PySparkReader.Result r =
            new PySparkReader(() -> Extractor.INSTANCE).read(rel, decode(bytes));
        diagnostics.addAll(r.diagnostics());
        if (r.statements().isEmpty()
            && r.diagnostics().stream().noneMatch(d -> d.severity() == Severity.ERROR)) {
          // As for an emptied .sql file below: plan --prune would drop the views it held.
          diagnostics.add(
              Diagnostic.warning(
                  "EMPTY_FILE",
                  start,
                  "the file defines no view (no @fmlv.materialized_lake_view function and no"
                      + " %%sql cell with a CREATE MATERIALIZED LAKE VIEW)",
                  "delete the file, or write the view; a helper belongs in the file of the"
                      + " views that call it, as a Fabric notebook runs on its own"));
        }
        return new ParsedFile(rel, r.statements(), r.facts(), diagnostics);
      }
      if (cache.isPresent()) {
        key = ParseCache.key(rel, bytes);
        Optional<ParseCache.Entry> hit = cache.get().get(key);
        if (hit.isPresent()) {
          ParseCache.Entry e = hit.get();
          return new ParsedFile(rel, e.statements(), e.facts(), e.diags());
        }
      }
      text = decode(bytes);
    } catch (CharacterCodingException e) {
      diagnostics.add(
          Diagnostic.error(
              "FILE_ENCODING",
              firstInvalidByte(file, start),
              utf16(bytes)
                  ? "the file is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8"
                  : "the file is not valid UTF-8 (a byte here is not; Windows-1252 or Latin-1"
                      + " text?)",
              "save it as UTF-8, as Fabric notebooks expect"));
      return new ParsedFile(rel, List.of(), Map.of(), diagnostics);
    } catch (IOException e) {
      diagnostics.add(
          Diagnostic.error(
              "FILE_READ",
              start,
              "cannot read the file: " + IoReason.of(e),
              "make it readable by the user running mlv; until then its views count as missing"));
      return new ParsedFile(rel, List.of(), Map.of(), diagnostics, viewsNamedBy(rel));
    }
    MlvParser.Result result = MlvParser.parse(start, text);
    diagnostics.addAll(result.diagnostics());
    if (result.statements().isEmpty() && result.diagnostics().isEmpty()) {
      // Emptying a file is how a view could be deleted by mistake: plan --prune drops it.
      diagnostics.add(
          Diagnostic.warning(
              "EMPTY_FILE",
              start,
              "the file holds no statement, only blanks or comments",
              "delete the file, or write the view's CREATE MATERIALIZED LAKE VIEW statement"));
    }
    Map<ViewDefinition, QueryFacts> facts = new HashMap<>();
    for (SqlStatement st : result.statements()) {
      if (st instanceof SqlStatement.CreateView cv
          && cv.definition().body() instanceof ViewBody.Select select) {
        QueryFacts f =
            Extractor.INSTANCE.extractView(
                select.sql(), select.position(), cv.definition().constraints());
        // A name the file's lexical pass reported may be reported again by the query's parser.
        f.diagnostics().stream().filter(d -> !diagnostics.contains(d)).forEach(diagnostics::add);
        facts.put(cv.definition(), f);
      }
    }
    // A file whose view has a syntax error is being edited: parsed again rather than cached, as
    // the cache does not keep the names of such views.
    if (key != null && result.unfinishedViews().isEmpty()) {
      cache.get().put(key, new ParseCache.Entry(result.statements(), facts, diagnostics));
    }
    return new ParsedFile(rel, result.statements(), facts, diagnostics, result.unfinishedViews());
  }

  /**
   * The views a file that cannot be read most likely defines, by the usual layout ({@code
   * views/<schema>/<name>.sql}, or {@code <name>.sql} in the default schema): its view_config entry
   * and the views reading it are not told of a typo, beside the FILE_READ error that says why
   * (found by QA). A wrong guess only leaves those warnings as they were.
   */
  private static List<Name> viewsNamedBy(Path rel) {
    String file = rel.getFileName().toString();
    int dot = file.lastIndexOf('.');
    String stem = dot > 0 ? file.substring(0, dot) : file;
    List<Name> names = new ArrayList<>();
    try {
      names.add(Name.of(stem));
      if (rel.getParent() != null && !stem.contains(".")) {
        names.add(Name.of(rel.getParent().getFileName() + "." + stem));
      }
    } catch (RuntimeException notAName) {
      // A file name no view name can be: nothing to guess.
    }
    return names;
  }

  /** Whether the bytes start with a UTF-16 byte order mark (FF FE or FE FF). */
  static boolean utf16(byte[] bytes) {
    return bytes.length >= 2
        && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE)
            || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF));
  }

  /**
   * A NUL byte, which no SQL or Python source holds: UTF-16 text without a byte order mark (every
   * other byte NUL, said at the file's start), or binary data (said where the NUL is).
   */
  static Optional<Diagnostic> nulByte(byte[] bytes, Position start) {
    int first = -1;
    for (int i = 0; i < bytes.length && first < 0; i++) {
      if (bytes[i] == 0) {
        first = i;
      }
    }
    if (first < 0) {
      return Optional.empty();
    }
    int sample = Math.min(bytes.length, 512);
    int even = 0;
    int odd = 0;
    for (int i = 0; i < sample; i++) {
      if (bytes[i] == 0) {
        if (i % 2 == 0) {
          even++;
        } else {
          odd++;
        }
      }
    }
    String fix = "save it as UTF-8, as Fabric notebooks expect";
    // Mostly ASCII text as UTF-16: a NUL in the high byte of most characters, all on one side.
    int oneSide = Math.max(even, odd);
    if (oneSide >= sample / 4 && Math.min(even, odd) * 10 <= oneSide) {
      return Optional.of(
          Diagnostic.error(
              "FILE_ENCODING",
              start,
              "the file is UTF-16 text without a byte order mark (every other byte is NUL), not"
                  + " UTF-8",
              fix));
    }
    String before = new String(bytes, 0, first, StandardCharsets.UTF_8);
    return Optional.of(
        Diagnostic.error(
            "FILE_ENCODING",
            start.advance(before, before.length()),
            "the file holds a NUL byte here, which no UTF-8 text does (binary data, or UTF-16 or"
                + " UTF-32 text?)",
            fix));
  }

  /** Where the first byte that is not UTF-8 is, counted as a reader of the text would. */
  static Position firstInvalidByte(Path file, Position start) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      var decoder =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
      ByteBuffer in = ByteBuffer.wrap(bytes);
      java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length + 1);
      decoder.decode(in, out, true);
      out.flip();
      return start.advance(out, out.length());
    } catch (IOException e) {
      return start;
    }
  }

  private static String decode(byte[] bytes) throws CharacterCodingException {
    String s =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes))
            .toString();
    return s.startsWith("\uFEFF") ? s.substring(1) : s;
  }

  private static LineageGraph lineage(
      ProjectConfig config,
      NameResolver names,
      Map<ObjectId, ProjectView> views,
      List<Diagnostic> diagnostics) {
    Map<ObjectId, Node> nodes = new TreeMap<>();
    List<Edge> edges = new ArrayList<>();
    for (SourceConfig s : config.sources()) {
      ObjectId id = names.resolve(Name.of(s.name()));
      if (ReservedNames.isReserved(id)) {
        // Seeding it would replace the run history or a quarantine table (found by QA); an error
        // of loading, so that seed refuses it before it touches any table.
        diagnostics.add(
            Diagnostic.error(
                "RESERVED_NAME",
                s.position(),
                "source "
                    + s.name()
                    + " is a name mlv keeps for its own tables ("
                    + ReservedNames.described()
                    + ")",
                "remove it from sources:, or rename the table it stands for"));
      }
      if (views.containsKey(id)) {
        diagnostics.add(
            Diagnostic.warning(
                "SOURCE_IS_VIEW",
                s.position(),
                "source "
                    + s.name()
                    + " is also defined as a view at "
                    + views.get(id).definition().position(),
                "remove it from sources:"));
        continue;
      }
      nodes.put(id, new Node(id, NodeKind.TABLE, s.position(), Set.of()));
    }
    for (ProjectView v : views.values()) {
      nodes.put(
          v.id(),
          new Node(
              v.id(),
              v.definition().isPython() ? NodeKind.PYSPARK_VIEW : NodeKind.VIEW,
              v.definition().position(),
              v.settings().tags().stream()
                  .map(t -> t.toLowerCase(Locale.ROOT))
                  .collect(Collectors.toSet())));
    }
    for (ProjectView v : views.values()) {
      if (v.definition().body() instanceof ViewBody.Files f) {
        ObjectId folder = folderId(names, f.path());
        nodes.putIfAbsent(folder, new Node(folder, NodeKind.FILES, f.position(), Set.of()));
        edges.add(new Edge(folder, v.id(), f.position()));
        continue;
      }
      Set<ObjectId> seen = new java.util.HashSet<>();
      for (Name t : v.facts().map(QueryFacts::tables).orElse(List.of())) {
        ObjectId dep = names.resolve(t);
        if (!seen.add(dep)) {
          continue;
        }
        nodes.putIfAbsent(dep, new Node(dep, NodeKind.TABLE, null, Set.of()));
        edges.add(new Edge(dep, v.id(), t.position()));
      }
    }
    folderClashes(config, names, views, diagnostics);
    LineageGraph graph = new LineageGraph(nodes, edges);
    for (List<Edge> cycle : graph.cycles()) {
      StringBuilder path = new StringBuilder();
      for (Edge e : cycle) {
        path.append(names.display(e.from()))
            .append(" is read by ")
            .append(names.display(e.to()))
            .append(" at ")
            .append(e.position())
            .append("; ");
      }
      Edge first = cycle.get(0);
      String loop =
          cycle.stream().map(e -> names.display(e.from())).collect(Collectors.joining(" -> "))
              + " -> "
              + names.display(first.from());
      diagnostics.add(
          Diagnostic.error(
              "CYCLE",
              first.position(),
              "dependency cycle " + loop + " (" + path.toString().replaceAll("; $", "") + ")",
              "a view cannot read itself, directly or through other views; break the cycle"));
    }
    return graph;
  }

  /**
   * A table, view or source named like the lineage id of a folder a file view reads ({@code
   * files.orders} beside {@code Files/orders/}): the two would be one node, so the file view would
   * wait for, and be skipped with, a view it does not read (found by QA). Each is an error where
   * the name is written.
   */
  private static void folderClashes(
      ProjectConfig config,
      NameResolver names,
      Map<ObjectId, ProjectView> views,
      List<Diagnostic> diagnostics) {
    Map<ObjectId, ProjectView> folders = new TreeMap<>();
    for (ProjectView v : views.values()) {
      if (v.definition().body() instanceof ViewBody.Files f) {
        ObjectId id = folderId(names, f.path());
        ProjectView first = folders.putIfAbsent(id, v);
        String firstPath =
            first == null ? null : ((ViewBody.Files) first.definition().body()).path();
        if (first != null && !folderAsWritten(firstPath).equals(folderAsWritten(f.path()))) {
          // Files/A/B/ and Files/a/b/ are two folders (OneLake's names keep their case) that the
          // lineage, whose names have none, would take for one (found by QA).
          diagnostics.add(
              Diagnostic.error(
                  "FILES_NAME_CLASH",
                  f.positionOf("path"),
                  "folder '"
                      + f.path()
                      + "' differs only in case from '"
                      + firstPath
                      + "', which "
                      + names.display(first.id())
                      + " reads ("
                      + first.definition().position()
                      + "); mlv's lineage cannot tell the two folders apart",
                  "give one of the folders another name"));
        }
      }
    }
    if (folders.isEmpty()) {
      return;
    }
    java.util.function.BiConsumer<ObjectId, Position> clash =
        (id, at) -> {
          ProjectView reader = folders.get(id);
          String path = ((ViewBody.Files) reader.definition().body()).path();
          diagnostics.add(
              Diagnostic.error(
                  "FILES_NAME_CLASH",
                  at,
                  names.display(id)
                      + " is also the lineage name of folder '"
                      + path
                      + "', which "
                      + names.display(reader.id())
                      + " reads ("
                      + reader.definition().position()
                      + "); mlv cannot tell the table from the folder",
                  "name the table in another schema than files, or read another folder"));
        };
    java.util.Set<ObjectId> sources = new java.util.HashSet<>();
    for (SourceConfig s : config.sources()) {
      ObjectId id = names.resolve(Name.of(s.name()));
      sources.add(id);
      if (folders.containsKey(id)) {
        clash.accept(id, s.position());
      }
    }
    for (ProjectView v : views.values()) {
      if (folders.containsKey(v.id())) {
        clash.accept(v.id(), v.definition().position());
      }
      if (!(v.definition().body() instanceof ViewBody.Files)) {
        for (Name t : v.facts().map(QueryFacts::tables).orElse(List.of())) {
          ObjectId dep = names.resolve(t);
          // A view or source of that name is told once, where it is defined.
          if (folders.containsKey(dep) && !views.containsKey(dep) && !sources.contains(dep)) {
            clash.accept(dep, t.position());
          }
        }
      }
    }
  }

  /** A source path's folder as written, from {@code Files/} down, without a trailing slash. */
  private static String folderAsWritten(String path) {
    Matcher m = ONELAKE.matcher(path);
    return (m.matches() ? m.group(3) : path).replaceAll("/+$", "");
  }

  /** The lineage id of a OneLake folder, {@code workspace.lakehouse.files.<folder>}. */
  public static ObjectId folderId(NameResolver names, String path) {
    Matcher m = ONELAKE.matcher(path);
    if (m.matches()) {
      String folder = m.group(3).replaceAll("/+$", "");
      return new ObjectId(m.group(1), m.group(2), "files", folder.isEmpty() ? "/" : folder);
    }
    String folder = path.replaceAll("/+$", "");
    return new ObjectId(names.workspace(), names.lakehouse(), "files", folder);
  }
}
