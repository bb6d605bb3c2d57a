package dev.mlv.pyspark;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.Fingerprint;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.Name;
import dev.mlv.sql.OnMismatch;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.TableExtractor;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the views a .py file or notebook defines with {@code @fmlv.materialized_lake_view}, without
 * running Python: the decorator arguments (literals only, as Fabric requires), the checks, the
 * function and the helpers it calls, and what it reads ({@code spark.read.table("...")}, {@code
 * spark.table("...")}, literal {@code spark.sql("...")}, {@code # mlv: depends-on}). It also
 * applies Fabric's notebook rules: one view per cell, helpers above, only {@code %%pyspark} and
 * {@code %%sql} magics at the top of a cell, no unrelated code.
 */
public final class PySparkReader {
  private static final Pattern DEPENDS_ON =
      Pattern.compile("^#\\s*mlv:\\s*depends-on\\s*:?\\s*(.*)$", Pattern.CASE_INSENSITIVE);
  private static final Set<String> VIEW_ARGS =
      Set.of("name", "comment", "table_properties", "partition_cols", "replace");
  private static final List<String> CHECK_ARGS = List.of("name", "condition", "action");

  private final Supplier<TableExtractor> extractor;

  /** The extractor is asked for only when a file has SQL to read, so Calcite loads lazily. */
  public PySparkReader(Supplier<TableExtractor> extractor) {
    this.extractor = extractor;
  }

  /** What one file defines, and every problem found in it. */
  public record Result(
      List<SqlStatement> statements,
      Map<ViewDefinition, QueryFacts> facts,
      List<Diagnostic> diagnostics) {}

  private record Line(int from, int to, int indent) {}

  /** A top-level function of the file, decorated or not. */
  private record Function(
      String name,
      Cell cell,
      String code,
      List<PyToken> tokens,
      List<Line> decorators,
      Line def,
      List<Line> body,
      int order) {
    int firstLine() {
      Line first = decorators.isEmpty() ? def : decorators.get(0);
      return tokens.get(first.from()).line();
    }

    int lastLine() {
      Line last = body.isEmpty() ? def : body.get(body.size() - 1);
      return tokens.get(last.to()).line();
    }
  }

  private record Decorator(String kind, Position position, Map<String, Object> args) {}

  public Result read(Path file, String text) {
    List<Diagnostic> diags = new ArrayList<>();
    List<SqlStatement> statements = new ArrayList<>();
    Map<ViewDefinition, QueryFacts> facts = new HashMap<>();
    Cells.Split split = Cells.of(file, text);
    diags.addAll(split.diagnostics());

    Map<String, Function> functions = new LinkedHashMap<>();
    List<Function> views = new ArrayList<>();
    List<Cell> cellsWithComments = new ArrayList<>();
    Map<Cell, List<PyToken>> comments = new LinkedHashMap<>();
    List<Position> unrelated = new ArrayList<>();
    boolean importsFmlv = false;
    int order = 0;

    for (Cell cell : split.cells()) {
      String code = magic(cell, diags);
      if (code == null) {
        continue;
      }
      if (code.startsWith("\u0000sql")) {
        sqlCell(cell, code.substring(4), statements, facts, diags);
        continue;
      }
      PyLexer.Result lexed = PyLexer.lex(code);
      if (lexed.failure().isPresent()) {
        PyLexer.Failure f = lexed.failure().get();
        diags.add(
            Diagnostic.error(
                "PY_SYNTAX",
                cell.at(f.line(), f.column()),
                f.message(),
                "fix the Python so that the cell runs"));
        continue;
      }
      cellsWithComments.add(cell);
      comments.put(cell, lexed.comments());
      List<PyToken> toks = lexed.tokens();
      List<Line> lines = lines(toks);
      int top = lines.stream().mapToInt(Line::indent).min().orElse(0);
      int viewsInCell = 0;
      for (int i = 0; i < lines.size(); ) {
        Line line = lines.get(i);
        PyToken first = toks.get(line.from());
        if (line.indent() > top) {
          i++;
          continue;
        }
        List<Line> decorators = new ArrayList<>();
        int j = i;
        while (j < lines.size()
            && lines.get(j).indent() == top
            && toks.get(lines.get(j).from()).is("@")) {
          decorators.add(lines.get(j));
          j++;
        }
        if (j < lines.size() && isDef(toks, lines.get(j)) && lines.get(j).indent() == top) {
          Line def = lines.get(j);
          int k = j + 1;
          List<Line> body = new ArrayList<>();
          while (k < lines.size() && lines.get(k).indent() > top) {
            body.add(lines.get(k));
            k++;
          }
          String name = defName(toks, def);
          Function fn = new Function(name, cell, code, toks, decorators, def, body, order++);
          functions.putIfAbsent(name, fn);
          if (decorators.stream().anyMatch(d -> isViewDecorator(toks, d))) {
            viewsInCell++;
            if (viewsInCell > 1 && cell.explicit()) {
              PyToken at = toks.get(decorators.get(0).from());
              diags.add(
                  Diagnostic.error(
                      "PY_ONE_VIEW_PER_CELL",
                      cell.at(at.line(), at.column()),
                      "a second @fmlv.materialized_lake_view in the same cell; Fabric supports one"
                          + " view definition per cell",
                      "move each view to a cell of its own"));
            }
            views.add(fn);
          }
          i = k;
          continue;
        }
        if (!decorators.isEmpty()) {
          PyToken at = toks.get(decorators.get(0).from());
          if (decorators.stream().anyMatch(d -> isFmlv(toks, d))) {
            diags.add(
                Diagnostic.error(
                    "PY_DECORATOR_WITHOUT_FUNCTION",
                    cell.at(at.line(), at.column()),
                    "an @fmlv decorator must be followed by the function that defines the view",
                    "put 'def view_name():' right below the decorators"));
          }
          i = j;
          continue;
        }
        if (first.isName("import") || first.isName("from")) {
          importsFmlv |= mentionsFmlv(toks, line);
        } else if (!first.isName("class") && !isAssignment(toks, line)) {
          unrelated.add(cell.at(first.line(), first.column()));
        }
        i++;
        while (i < lines.size() && lines.get(i).indent() > top) {
          i++;
        }
      }
    }

    if (!views.isEmpty() && !importsFmlv) {
      Function v = views.get(0);
      PyToken at = v.tokens().get(v.decorators().get(0).from());
      diags.add(
          Diagnostic.warning(
              "PY_FMLV_NOT_IMPORTED",
              v.cell().at(at.line(), at.column()),
              "the file uses @fmlv decorators but never imports fmlv",
              "add 'import fmlv' above the first view"));
    }
    if (!views.isEmpty()) {
      for (Position p : unrelated) {
        diags.add(
            Diagnostic.warning(
                "PY_UNRELATED_CODE",
                p,
                "top-level code that is neither an import, a helper nor a view; Fabric runs the"
                    + " notebook's cells on every refresh, so it runs each time too",
                "keep unrelated code out of the notebooks that define views"));
      }
    }

    Map<Function, List<Name>> declared = dependsOn(file, views, cellsWithComments, comments, diags);
    for (Function v : views) {
      view(file, v, functions, declared.getOrDefault(v, List.of()), statements, facts, diags);
    }
    return new Result(statements, facts, diags);
  }

  // ---- magics and %%sql cells -------------------------------------------------------------

  /**
   * The cell's code with its magic line blanked, prefixed with a NUL marker for {@code %%sql}
   * cells; null when the cell cannot be read (an unsupported magic).
   */
  private static String magic(Cell cell, List<Diagnostic> diags) {
    String[] lines = cell.text().split("\n", -1);
    boolean sql = false;
    boolean seenCode = false;
    for (int i = 0; i < lines.length; i++) {
      String stripped = lines[i].strip();
      if (stripped.isEmpty()) {
        continue;
      }
      if (stripped.startsWith("%")) {
        int col = lines[i].indexOf('%') + 1;
        String magic = stripped.split("\\s+")[0];
        boolean supported = magic.equals("%%pyspark") || magic.equals("%%sql");
        if (!supported) {
          diags.add(
              Diagnostic.error(
                  "PY_MAGIC_UNSUPPORTED",
                  cell.at(i + 1, col),
                  "magic command " + magic + " is not supported in a notebook that defines views",
                  "only %%pyspark and %%sql are, at the top of a cell"));
          return null;
        }
        if (seenCode) {
          diags.add(
              Diagnostic.error(
                  "PY_MAGIC_NOT_AT_TOP",
                  cell.at(i + 1, col),
                  magic + " must be the first line of its cell",
                  "start a new cell with the magic"));
          return null;
        }
        sql = magic.equals("%%sql");
        lines[i] = " ".repeat(lines[i].length());
      }
      seenCode = true;
    }
    String code = String.join("\n", lines);
    return sql ? "\u0000sql" + code : code;
  }

  private void sqlCell(
      Cell cell,
      String sql,
      List<SqlStatement> statements,
      Map<ViewDefinition, QueryFacts> facts,
      List<Diagnostic> diags) {
    MlvParser.Result parsed = MlvParser.parse(cell.at(1, 1), sql);
    diags.addAll(parsed.diagnostics());
    for (SqlStatement st : parsed.statements()) {
      statements.add(st);
      if (st instanceof SqlStatement.CreateView cv
          && cv.definition().body() instanceof ViewBody.Select select) {
        QueryFacts f =
            extractor
                .get()
                .extractView(select.sql(), select.position(), cv.definition().constraints());
        diags.addAll(f.diagnostics());
        facts.put(cv.definition(), f);
      }
    }
  }

  // ---- logical lines ----------------------------------------------------------------------

  private static List<Line> lines(List<PyToken> toks) {
    List<Line> out = new ArrayList<>();
    int start = -1;
    for (int i = 0; i < toks.size(); i++) {
      PyToken t = toks.get(i);
      if (t.kind() == PyToken.Kind.END) {
        break;
      }
      if (start < 0) {
        start = i;
      }
      if (t.kind() == PyToken.Kind.NEWLINE) {
        if (i > start) {
          out.add(new Line(start, i, Math.max(0, toks.get(start).indent())));
        }
        start = -1;
      }
    }
    return out;
  }

  private static boolean isDef(List<PyToken> toks, Line line) {
    PyToken t = toks.get(line.from());
    return t.isName("def") || (t.isName("async") && toks.get(line.from() + 1).isName("def"));
  }

  private static String defName(List<PyToken> toks, Line def) {
    int i = toks.get(def.from()).isName("async") ? def.from() + 2 : def.from() + 1;
    return toks.get(i).text();
  }

  private static boolean isFmlv(List<PyToken> toks, Line d) {
    return d.to() > d.from() + 1 && toks.get(d.from() + 1).isName("fmlv");
  }

  private static boolean isViewDecorator(List<PyToken> toks, Line d) {
    return isFmlv(toks, d)
        && d.to() > d.from() + 3
        && toks.get(d.from() + 3).isName("materialized_lake_view");
  }

  private static boolean mentionsFmlv(List<PyToken> toks, Line line) {
    for (int i = line.from(); i < line.to(); i++) {
      if (toks.get(i).isName("fmlv")) {
        return true;
      }
    }
    return false;
  }

  /** {@code x = ...}, {@code x: int = ...}, {@code x += ...}: a top-level '=' outside brackets. */
  private static boolean isAssignment(List<PyToken> toks, Line line) {
    int depth = 0;
    for (int i = line.from(); i < line.to(); i++) {
      PyToken t = toks.get(i);
      if (t.kind() != PyToken.Kind.OP) {
        continue;
      }
      switch (t.text()) {
        case "(", "[", "{" -> depth++;
        case ")", "]", "}" -> depth--;
        case "=" -> {
          boolean comparison =
              i + 1 < line.to() && toks.get(i + 1).is("=")
                  || i > line.from() && "=!<>".contains(toks.get(i - 1).text());
          if (depth == 0 && !comparison) {
            return true;
          }
        }
        default -> {}
      }
    }
    return false;
  }

  // ---- views ------------------------------------------------------------------------------

  private void view(
      Path file,
      Function fn,
      Map<String, Function> functions,
      List<Name> declared,
      List<SqlStatement> statements,
      Map<ViewDefinition, QueryFacts> facts,
      List<Diagnostic> diags) {
    Decorator view = null;
    List<Constraint> constraints = new ArrayList<>();
    boolean ok = true;
    for (Line d : fn.decorators()) {
      if (!isFmlv(fn.tokens(), d)) {
        continue;
      }
      Optional<Decorator> dec = decorator(fn, d, diags);
      if (dec.isEmpty()) {
        ok = false;
        continue;
      }
      switch (dec.get().kind()) {
        case "materialized_lake_view" -> view = dec.get();
        case "check" -> {
          Optional<Constraint> c = check(dec.get(), diags);
          if (c.isEmpty()) {
            ok = false;
          } else {
            constraints.add(c.get());
          }
        }
        default -> {
          diags.add(
              Diagnostic.error(
                  "PY_UNKNOWN_DECORATOR",
                  dec.get().position(),
                  "@fmlv." + dec.get().kind() + " is not an fmlv decorator",
                  "use @fmlv.materialized_lake_view and @fmlv.check"));
          ok = false;
        }
      }
    }
    if (view == null || !ok) {
      return;
    }
    Map<String, Object> a = view.args();
    Optional<Name> name = viewName(view, diags);
    if (name.isEmpty()) {
      return;
    }
    Optional<String> comment = optionalString(view, "comment", diags);
    Map<String, String> props = stringMap(view, "table_properties", diags);
    List<String> partitions = stringList(view, "partition_cols", diags);
    boolean replace = Boolean.TRUE.equals(a.get("replace"));
    if (a.containsKey("replace") && !(a.get("replace") instanceof Boolean)) {
      diags.add(typeError(view, "replace", "True or False"));
      return;
    }
    if (comment == null || props == null || partitions == null) {
      return;
    }

    List<Function> code = helpers(fn, functions, diags);
    StringBuilder source = new StringBuilder();
    StringBuilder normal = new StringBuilder();
    for (Function f : code) {
      source.append(text(f, false)).append('\n');
      normal.append(text(f, true)).append('\n');
    }
    List<Name> tables = new ArrayList<>(declared);
    for (Function f : code) {
      tables.addAll(reads(f, diags));
    }
    PyToken defTok = fn.tokens().get(fn.def().from());
    Position defPos = fn.cell().at(defTok.line(), defTok.column());
    ViewBody.Python body =
        new ViewBody.Python(
            fn.name(), source.toString(), defPos, Fingerprint.of(normal.toString()));
    ViewDefinition def =
        new ViewDefinition(
            name.get(),
            replace,
            false,
            constraints,
            partitions,
            comment,
            props,
            body,
            view.position(),
            text(fn, false));
    statements.add(new SqlStatement.CreateView(def));
    // A check's condition is Spark SQL, as in a SQL view: one that does not parse is found here.
    List<String> unreadable = new java.util.ArrayList<>();
    for (Constraint c : constraints) {
      if (!extractor.get().extract("SELECT " + c.expression(), c.position()).parsed()) {
        unreadable.add(c.name());
      }
    }
    facts.put(
        def,
        new QueryFacts(dedupe(tables), Set.of(), Set.of(), false, List.of())
            .withView(Optional.empty(), unreadable, List.of(), List.of()));
  }

  private static List<Name> dedupe(List<Name> tables) {
    Map<String, Name> out = new LinkedHashMap<>();
    for (Name t : tables) {
      out.putIfAbsent(t.dotted(), t);
    }
    return new ArrayList<>(out.values());
  }

  private static Optional<Decorator> decorator(Function fn, Line d, List<Diagnostic> diags) {
    List<PyToken> toks = fn.tokens();
    PyToken at = toks.get(d.from());
    Position pos = fn.cell().at(at.line(), at.column());
    int i = d.from() + 1;
    // @fmlv.kind or @fmlv.kind(args)
    if (i + 2 >= d.to()
        || !toks.get(i + 1).is(".")
        || toks.get(i + 2).kind() != PyToken.Kind.NAME) {
      diags.add(
          Diagnostic.error(
              "PY_UNKNOWN_DECORATOR",
              pos,
              "cannot read this @fmlv decorator",
              "write @fmlv.materialized_lake_view(...) or @fmlv.check(...)"));
      return Optional.empty();
    }
    String kind = toks.get(i + 2).text();
    Map<String, Object> args = new LinkedHashMap<>();
    int k = i + 3;
    if (k < d.to() && toks.get(k).is("(")) {
      Literals lit = new Literals(toks, k + 1, d.to());
      String current = "";
      try {
        int positional = 0;
        while (!lit.peek().is(")")) {
          PyToken t = lit.peek();
          String key;
          if (t.kind() == PyToken.Kind.NAME && lit.peekAt(1).is("=") && !lit.peekAt(2).is("=")) {
            key = t.text();
            lit.next();
            lit.next();
          } else {
            key = "#" + positional++;
          }
          current = key.startsWith("#") ? "" : key + "=";
          Object value = lit.value();
          if (args.containsKey(key)) {
            diags.add(
                Diagnostic.error(
                    "PY_DECORATOR_ARGUMENT",
                    fn.cell().at(t.line(), t.column()),
                    "argument " + key + " is given twice",
                    null));
            return Optional.empty();
          }
          args.put(key, value);
          if (lit.peek().is(",")) {
            lit.next();
          } else if (!lit.peek().is(")")) {
            throw new PySparkReaderNotLiteral(lit.peek());
          }
        }
      } catch (PySparkReaderNotLiteral e) {
        PyToken bad = e.at;
        diags.add(
            Diagnostic.error(
                "PY_DECORATOR_NOT_LITERAL",
                fn.cell().at(bad.line(), bad.column()),
                "@fmlv."
                    + kind
                    + " argument "
                    + current
                    + (current.isEmpty() ? "" : " ")
                    + "is not a literal (found '"
                    + (bad.text().isEmpty() ? "end of line" : bad.text())
                    + "'); Fabric reads decorator arguments without running the notebook, so a"
                    + " variable or expression there does not work",
                "write the value itself: a string, True/False, a list or a dict of strings"));
        return Optional.empty();
      }
    }
    return Optional.of(new Decorator(kind, pos, args));
  }

  private static Optional<Name> viewName(Decorator view, List<Diagnostic> diags) {
    Map<String, Object> a = view.args();
    Object n = a.containsKey("name") ? a.get("name") : a.get("#0");
    for (String key : a.keySet()) {
      if (!key.startsWith("#") && !VIEW_ARGS.contains(key)) {
        diags.add(
            Diagnostic.error(
                "PY_DECORATOR_ARGUMENT",
                view.position(),
                "@fmlv.materialized_lake_view has no argument '" + key + "'",
                "the arguments are " + String.join(", ", new java.util.TreeSet<>(VIEW_ARGS))));
        return Optional.empty();
      }
    }
    if (a.keySet().stream().filter(k -> k.startsWith("#")).count()
        > (a.containsKey("name") ? 0 : 1)) {
      diags.add(
          Diagnostic.error(
              "PY_DECORATOR_ARGUMENT",
              view.position(),
              "@fmlv.materialized_lake_view takes keyword arguments only, apart from the name",
              "write name=\"...\", comment=\"...\", ..."));
      return Optional.empty();
    }
    if (!(n instanceof String s) || s.isBlank()) {
      diags.add(
          Diagnostic.error(
              "PY_VIEW_NAME",
              view.position(),
              n == null
                  ? "@fmlv.materialized_lake_view needs name=\"[lakehouse.]schema.view\""
                  : "name must be a string",
              "name is required, for example name=\"silver.customer_silver\""));
      return Optional.empty();
    }
    Optional<Name> parsed = parseName(s, view.position());
    if (parsed.isEmpty()) {
      diags.add(
          Diagnostic.error(
              "PY_VIEW_NAME",
              view.position(),
              "'"
                  + s
                  + "' is not a view name: 1 to 4 dot-separated parts, and the view's own name"
                  + " cannot contain a period",
              "write [workspace.][lakehouse.][schema.]view"));
    }
    return parsed;
  }

  /** Splits a dotted name outside backticks; a quoted part with a period is refused. */
  static Optional<Name> parseName(String text, Position position) {
    List<String> parts = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '`') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        parts.add(cur.toString().strip());
        cur.setLength(0);
      } else if (c == '.' || c == '/' || c == '\0' || c == '\n') {
        return Optional.empty();
      } else {
        cur.append(c);
      }
    }
    parts.add(cur.toString().strip());
    if (quoted || parts.size() > 4 || parts.stream().anyMatch(String::isEmpty)) {
      return Optional.empty();
    }
    List<String> lower = parts.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
    return Optional.of(new Name(lower, text, position));
  }

  private static Optional<String> optionalString(Decorator d, String key, List<Diagnostic> diags) {
    Object v = d.args().get(key);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof String s)) {
      diags.add(typeError(d, key, "a string"));
      return null;
    }
    return Optional.of(s);
  }

  private static Map<String, String> stringMap(Decorator d, String key, List<Diagnostic> diags) {
    Object v = d.args().get(key);
    if (v == null) {
      return Map.of();
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, String> out = new LinkedHashMap<>();
      for (var e : m.entrySet()) {
        if (!(e.getValue() instanceof String) && !(e.getValue() instanceof Boolean)) {
          diags.add(typeError(d, key, "a dict of strings"));
          return null;
        }
        Object val = e.getValue();
        out.put(
            (String) e.getKey(),
            val instanceof Boolean b ? b.toString().toLowerCase(Locale.ROOT) : (String) val);
      }
      return out;
    }
    diags.add(typeError(d, key, "a dict of strings"));
    return null;
  }

  private static List<String> stringList(Decorator d, String key, List<Diagnostic> diags) {
    Object v = d.args().get(key);
    if (v == null) {
      return List.of();
    }
    if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof String)) {
      return l.stream().map(String.class::cast).toList();
    }
    diags.add(typeError(d, key, "a list of column names"));
    return null;
  }

  private static Diagnostic typeError(Decorator d, String key, String expected) {
    return Diagnostic.error(
        "PY_DECORATOR_ARGUMENT",
        d.position(),
        "@fmlv." + d.kind() + " argument " + key + " must be " + expected,
        null);
  }

  private static Optional<Constraint> check(Decorator d, List<Diagnostic> diags) {
    Map<String, Object> a = d.args();
    Object[] v = new Object[3];
    for (int i = 0; i < 3; i++) {
      v[i] = a.containsKey(CHECK_ARGS.get(i)) ? a.get(CHECK_ARGS.get(i)) : a.get("#" + i);
    }
    for (String key : a.keySet()) {
      if (!key.startsWith("#") && !CHECK_ARGS.contains(key)) {
        diags.add(
            Diagnostic.error(
                "PY_DECORATOR_ARGUMENT",
                d.position(),
                "@fmlv.check has no argument '" + key + "'",
                "write @fmlv.check(\"name\", \"condition\", \"drop\"|\"fail\")"));
        return Optional.empty();
      }
    }
    if (!(v[0] instanceof String name) || !(v[1] instanceof String condition)) {
      diags.add(
          Diagnostic.error(
              "PY_CHECK",
              d.position(),
              "@fmlv.check needs a constraint name and a condition, both strings",
              "write @fmlv.check(\"valid_id\", \"id IS NOT NULL\", \"drop\")"));
      return Optional.empty();
    }
    OnMismatch action = OnMismatch.FAIL;
    if (v[2] != null) {
      String s = v[2] instanceof String str ? str.toUpperCase(Locale.ROOT) : "";
      if (!s.equals("DROP") && !s.equals("FAIL")) {
        diags.add(
            Diagnostic.error(
                "PY_CHECK",
                d.position(),
                "the action of @fmlv.check must be \"drop\" or \"fail\", found " + v[2],
                null));
        return Optional.empty();
      }
      action = OnMismatch.valueOf(s);
    }
    return Optional.of(new Constraint(name, condition, action, d.position()));
  }

  // ---- helpers and reads ------------------------------------------------------------------

  /**
   * The view's function and, transitively, the helpers of this file it calls, in file order. A
   * helper defined below the view is an error: the notebook runs cells top to bottom.
   */
  private static List<Function> helpers(
      Function view, Map<String, Function> functions, List<Diagnostic> diags) {
    Set<Function> seen = new LinkedHashSet<>();
    Deque<Function> todo = new ArrayDeque<>();
    todo.add(view);
    while (!todo.isEmpty()) {
      Function f = todo.poll();
      if (!seen.add(f)) {
        continue;
      }
      for (Line l : f.body()) {
        for (int i = l.from(); i < l.to(); i++) {
          PyToken t = f.tokens().get(i);
          boolean call =
              t.kind() == PyToken.Kind.NAME
                  && i + 1 < l.to()
                  && f.tokens().get(i + 1).is("(")
                  && (i == l.from() || !f.tokens().get(i - 1).is("."));
          Function h = call ? functions.get(t.text()) : null;
          if (h == null || h == f || seen.contains(h)) {
            continue;
          }
          if (h.order() > view.order()) {
            diags.add(
                Diagnostic.error(
                    "PY_HELPER_BELOW",
                    f.cell().at(t.line(), t.column()),
                    "helper "
                        + h.name()
                        + "() is defined below the view that calls it; the notebook runs top to"
                        + " bottom",
                    "move " + h.name() + "() to a cell above the view"));
          } else if (h.cell() == view.cell()
              && view.cell().explicit()
              && h.decorators().isEmpty()) {
            diags.add(
                Diagnostic.warning(
                    "PY_HELPER_IN_VIEW_CELL",
                    h.cell().at(h.tokens().get(h.def().from()).line(), 1),
                    "helper "
                        + h.name()
                        + "() shares its cell with a view; Fabric expects helpers in cells above"
                        + " the @fmlv cell",
                    "move it to a cell above"));
          }
          todo.add(h);
        }
      }
    }
    List<Function> out = new ArrayList<>(seen);
    out.sort(java.util.Comparator.comparingInt(Function::order));
    return out;
  }

  private List<Name> reads(Function f, List<Diagnostic> diags) {
    List<Name> out = new ArrayList<>();
    List<PyToken> toks = f.tokens();
    for (Line l : f.body()) {
      for (int i = l.from() + 2; i + 1 < l.to(); i++) {
        PyToken t = toks.get(i);
        if (t.kind() != PyToken.Kind.NAME || !toks.get(i + 1).is("(")) {
          continue;
        }
        boolean method = toks.get(i - 1).is(".");
        int argAt;
        String what;
        if (method && t.text().equals("forName") && toks.get(i - 2).isName("DeltaTable")) {
          if (i + 3 >= l.to() || !toks.get(i + 3).is(",")) {
            continue;
          }
          argAt = i + 4;
          what = "table";
        } else if (method
            && (t.text().equals("table") || t.text().equals("sql"))
            && "spark".equals(root(toks, i - 2, l.from()))) {
          argAt = i + 2;
          what = t.text();
        } else {
          continue;
        }
        Optional<PyToken> lit = literal(toks, argAt, l.to());
        PyToken arg = toks.get(Math.min(argAt, l.to() - 1));
        Position argPos = f.cell().at(arg.line(), arg.column());
        if (lit.isEmpty()) {
          diags.add(
              Diagnostic.warning(
                  "PY_DYNAMIC_READ",
                  argPos,
                  "the "
                      + (what.equals("sql") ? "SQL" : "table name")
                      + " at line "
                      + argPos.line()
                      + " is built at run time, so mlv cannot see what it reads",
                  "declare it with a comment '# mlv: depends-on schema.table' in the file"));
          continue;
        }
        PyToken s = lit.get();
        Position inside = insideQuote(f.cell(), s);
        if (what.equals("table")) {
          Optional<Name> n = parseName(s.value(), inside);
          if (n.isEmpty()) {
            diags.add(
                Diagnostic.error(
                    "PY_TABLE_NAME",
                    argPos,
                    "'" + s.value() + "' is not a table name",
                    "write [lakehouse.]schema.table"));
          } else {
            out.add(n.get());
          }
        } else {
          QueryFacts facts = extractor.get().extract(s.value(), inside);
          diags.addAll(facts.diagnostics());
          out.addAll(facts.tables());
        }
      }
    }
    return out;
  }

  /** Where the content of a string literal starts, after its prefix and opening quotes. */
  private static Position insideQuote(Cell cell, PyToken s) {
    String t = s.text();
    int quote = 0;
    while (quote < t.length() && "rRbBuUfF".indexOf(t.charAt(quote)) >= 0) {
      quote++;
    }
    char q = quote < t.length() ? t.charAt(quote) : '"';
    boolean triple = t.startsWith(String.valueOf(q).repeat(3), quote);
    return cell.at(s.line(), s.column() + quote + (triple ? 3 : 1));
  }

  /** The name a call chain such as {@code spark.read.option(...).table} starts from. */
  private static String root(List<PyToken> toks, int i, int lineStart) {
    while (i >= lineStart) {
      PyToken t = toks.get(i);
      if (t.is(")")) {
        int depth = 0;
        while (i >= lineStart) {
          if (toks.get(i).is(")")) {
            depth++;
          } else if (toks.get(i).is("(") && --depth == 0) {
            break;
          }
          i--;
        }
        i--;
        continue;
      }
      if (t.kind() != PyToken.Kind.NAME) {
        return null;
      }
      if (i > lineStart && toks.get(i - 1).is(".")) {
        i -= 2;
        continue;
      }
      return t.text();
    }
    return null;
  }

  /** A string literal argument (adjacent literals joined) followed by ',' or ')'. */
  private static Optional<PyToken> literal(List<PyToken> toks, int i, int end) {
    StringBuilder value = new StringBuilder();
    PyToken first = null;
    int j = i;
    while (j < end && toks.get(j).kind() == PyToken.Kind.STRING) {
      if (first == null) {
        first = toks.get(j);
      }
      value.append(toks.get(j).value());
      j++;
    }
    if (first == null || j >= end || !(toks.get(j).is(",") || toks.get(j).is(")"))) {
      return Optional.empty();
    }
    return Optional.of(
        new PyToken(
            first.kind(),
            first.text(),
            value.toString(),
            first.offset(),
            first.line(),
            first.column(),
            false,
            -1));
  }

  // ---- depends-on comments ----------------------------------------------------------------

  private static Map<Function, List<Name>> dependsOn(
      Path file,
      List<Function> views,
      List<Cell> cells,
      Map<Cell, List<PyToken>> comments,
      List<Diagnostic> diags) {
    Map<Function, List<Name>> out = new HashMap<>();
    for (Cell cell : cells) {
      for (PyToken c : comments.get(cell)) {
        Matcher m = DEPENDS_ON.matcher(c.text().strip());
        if (!m.matches()) {
          continue;
        }
        Position at = cell.at(c.line(), c.column());
        List<Name> names = new ArrayList<>();
        for (String part : m.group(1).split("[,\\s]+")) {
          if (part.isBlank()) {
            continue;
          }
          Optional<Name> n = parseName(part, at);
          if (n.isEmpty()) {
            diags.add(
                Diagnostic.error(
                    "PY_DEPENDS_ON",
                    at,
                    "'" + part + "' in '# mlv: depends-on' is not a table name",
                    "write # mlv: depends-on schema.table, other_schema.other_table"));
          } else {
            names.add(n.get());
          }
        }
        List<Function> scope =
            views.stream()
                .filter(
                    v ->
                        v.cell() == cell
                            && (cell.explicit()
                                || (c.line() >= v.firstLine() - 1 && c.line() <= v.lastLine())))
                .toList();
        if (scope.isEmpty()) {
          scope = views;
        }
        for (Function v : scope) {
          out.computeIfAbsent(v, k -> new ArrayList<>()).addAll(names);
        }
      }
    }
    return out;
  }

  // ---- source text ------------------------------------------------------------------------

  /**
   * The function as code: with {@code normal} its tokens only (no comments, one space between
   * tokens), which is what the fingerprint covers.
   */
  private static String text(Function f, boolean normal) {
    List<Line> all = new ArrayList<>(f.decorators());
    all.add(f.def());
    all.addAll(f.body());
    if (!normal) {
      PyToken first = f.tokens().get(all.get(0).from());
      PyToken last = f.tokens().get(all.get(all.size() - 1).to() - 1);
      int from = f.code().lastIndexOf('\n', first.offset()) + 1;
      return f.code().substring(from, last.offset() + last.text().length());
    }
    StringBuilder sb = new StringBuilder();
    for (Line l : all) {
      sb.append(l.indent()).append(':');
      for (int i = l.from(); i < l.to(); i++) {
        sb.append(' ').append(f.tokens().get(i).text());
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
