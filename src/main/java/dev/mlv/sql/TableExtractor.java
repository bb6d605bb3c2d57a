package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.sql.SparkSyntaxRewriter.Fragment;
import dev.mlv.sql.fallback.SparkFallbackParser;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMatchRecognize;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlPivot;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.sql.SqlUnpivot;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Finds what a Spark SQL SELECT reads, calls and uses, without a catalog: Calcite's Babel parser on
 * the text after {@link SparkSyntaxRewriter}, and Spark's own parser only when Calcite still
 * refuses. Calcite fails loudly rather than returning a wrong table set, which is what makes "fall
 * back on a parse error" safe. Stateless: one instance serves all threads.
 */
public final class TableExtractor {

  public static final String PARSE_RULE = "SQL_PARSE";

  /** Syntax of another dialect that Calcite reads and Spark does not. */
  public static final String NOT_SPARK_RULE = "NOT_SPARK_SQL";

  /**
   * BIG_QUERY lexing is Spark's: backticked identifiers, '..' and ".." strings with backslash
   * escapes, unquoted case kept and matched case-insensitively.
   */
  static final SqlParser.Config CONFIG =
      SqlParser.config()
          .withLex(Lex.BIG_QUERY)
          .withConformance(SqlConformanceEnum.BABEL)
          .withParserFactory(SqlBabelParserImpl.FACTORY);

  /** Spark's file-format data sources: {@code delta.`/path`} reads files, not a table. */
  private static final Set<String> FILE_FORMATS =
      Set.of("delta", "parquet", "csv", "json", "orc", "text", "avro", "binaryfile");

  private final SparkSyntaxRewriter rewriter = new SparkSyntaxRewriter();

  /**
   * The facts of {@code selectSql}, whose first character is at {@code start} in its file. A text
   * neither parser accepts gives facts with no tables and one {@value #PARSE_RULE} error.
   */
  public QueryFacts extract(String selectSql, Position start) {
    // Both parsers recurse per nesting level, and some constructs (nested CASE) backtrack: a
    // pathological statement is refused before either parser sees it, the stack overflow
    // below being the last line of defence.
    int tooDeep = tooDeepAt(selectSql);
    if (tooDeep >= 0) {
      return tooDeep(start.advance(selectSql, tooDeep));
    }
    try {
      return withNamesChecked(withArgumentCounts(selectSql, start, parseAndWalk(selectSql, start)));
    } catch (StackOverflowError e) {
      return tooDeep(start);
    }
  }

  /** Rule of a bare select item that is neither grouped nor aggregated. */
  public static final String GROUP_BY_RULE = "UNGROUPED_COLUMN";

  /** Rule of an aggregate, window function or generator where Spark does not allow one. */
  public static final String MISPLACED_CALL_RULE = "MISPLACED_CALL";

  public static final String WINDOW_NAME_RULE = "WINDOW_NAME";

  /** Rule of a window specification Spark refuses for its function, or on its own. */
  public static final String WINDOW_SPEC_RULE = "WINDOW_SPEC";

  /** Rule of a GROUP BY or ORDER BY position Spark refuses ({@link Ordinals}). */
  public static final String ORDINAL_RULE = "ORDINAL";

  /** Rule of a call with arguments Spark's analyzer refuses. */
  public static final String ARGUMENTS_RULE = "WRONG_NUM_ARGS";

  /**
   * The facts with an error at each call of a built-in whose argument count Spark's analyzer
   * refuses ({@link ArgumentCounts}), at each column a table function joined without LATERAL reads
   * ({@link SyntaxErrors#unlateralReads}) and at each field of date_part written as a bare word
   * ({@link SyntaxErrors#unquotedDateParts}); none when the text is no Spark SQL to begin with, as
   * Spark's parser would refuse it before its analyzer reads anything.
   */
  private static QueryFacts withArgumentCounts(String sql, Position start, QueryFacts facts) {
    if (facts.diagnostics().stream()
        .anyMatch(
            d ->
                d.ruleId().equals(PARSE_RULE)
                    || d.ruleId().equals(NOT_SPARK_RULE)
                    || d.ruleId().equals("SQL_TOO_DEEP"))) {
      return facts;
    }
    for (SyntaxErrors.Told told : ArgumentCounts.refused(sql)) {
      facts =
          facts.withDiagnostic(
              Diagnostic.error(
                  ARGUMENTS_RULE, start.advance(sql, told.offset()), told.message(), told.hint()));
    }
    for (SyntaxErrors.Told told : ArgumentCounts.unknownUnits(sql)) {
      facts =
          facts.withDiagnostic(
              Diagnostic.error(
                  "DATETIME_UNIT", start.advance(sql, told.offset()), told.message(), told.hint()));
    }
    List<SyntaxErrors.Told> unresolved = new ArrayList<>(SyntaxErrors.unlateralReads(sql));
    unresolved.addAll(SyntaxErrors.unquotedDateParts(sql));
    for (SyntaxErrors.Told told : unresolved) {
      facts =
          facts.withDiagnostic(
              Diagnostic.error(
                  "UNRESOLVED_COLUMN",
                  start.advance(sql, told.offset()),
                  told.message(),
                  told.hint()));
    }
    return facts;
  }

  /** Rule of a subquery inside a lambda, which Spark's analyzer refuses. */
  public static final String LAMBDA_SUBQUERY_RULE = "LAMBDA_SUBQUERY";

  public static final String SET_COLUMN_COUNT_RULE = "SET_COLUMN_COUNT";

  /** A subquery selecting more columns than its place takes (scalar, IN). */
  public static final String SUBQUERY_COLUMN_COUNT_RULE = "SUBQUERY_COLUMN_COUNT";

  /** Rule of a table name in the SELECT with more parts than a Fabric name can have. */
  public static final String NAME_PARTS_RULE = "TABLE_NAME_PARTS";

  /**
   * Spark's parser takes a name of any length; Fabric names a table with at most four parts. A
   * longer one is an error at the name, left out of the tables so the lineage never sees it.
   */
  private static QueryFacts withNamesChecked(QueryFacts facts) {
    List<Name> tooLong = facts.tables().stream().filter(n -> n.parts().size() > 4).toList();
    if (tooLong.isEmpty()) {
      return facts;
    }
    List<Diagnostic> found = new ArrayList<>(facts.diagnostics());
    for (Name n : tooLong) {
      found.add(
          Diagnostic.error(
              NAME_PARTS_RULE,
              n.position(),
              "table name '"
                  + n.text()
                  + "' has "
                  + n.parts().size()
                  + " parts; a table is named with at most 4"
                  + " (workspace.lakehouse.schema.table)",
              "write it as table, schema.table, lakehouse.schema.table or"
                  + " workspace.lakehouse.schema.table; a field of a struct column is read in the"
                  + " SELECT list, not in FROM"));
    }
    return new QueryFacts(
        facts.tables().stream().filter(n -> n.parts().size() <= 4).toList(),
        facts.functions(),
        facts.features(),
        facts.usedFallback(),
        found,
        facts.columns(),
        facts.unreadableChecks(),
        facts.columnRefs(),
        facts.columnLists(),
        facts.checkColumns());
  }

  /**
   * The facts of a view's SELECT and constraints: those of {@link #extract}, with the functions the
   * CHECKs call added to the SELECT's, plus the names of the constraints whose CHECK neither parser
   * reads as an expression.
   */
  public QueryFacts extractView(String selectSql, Position start, List<Constraint> constraints) {
    QueryFacts facts = extract(selectSql, start);
    List<String> unreadable = new ArrayList<>();
    List<Diagnostic> found = new ArrayList<>(facts.diagnostics());
    Set<String> functions = new java.util.HashSet<>(facts.functions());
    List<CheckColumns> checkColumns = new ArrayList<>();
    for (Constraint c : constraints) {
      Optional<SqlToken> query =
          SqlToken.tokenize(c.expression()).stream()
              .filter(t -> t.isWord("SELECT") || t.isWord("WITH"))
              .findFirst();
      if (query.isPresent()) {
        // The lineage holds only the SELECT's tables, and the constraint is checked against the
        // view's own rows: a CHECK that queries a table is neither.
        found.add(
            Diagnostic.error(
                "CONSTRAINT_SUBQUERY",
                c.position(),
                "the CHECK of constraint "
                    + c.name()
                    + " holds a subquery; a constraint tests each row of the view on its own"
                    + " columns",
                "join the other table in the view's SELECT and check the joined column"));
      } else {
        String parsed = "SELECT " + c.expression();
        QueryFacts check = extract(parsed, Position.start(c.position().file()));
        // Read as a SELECT, a CHECK with an aggregate (which MISPLACED_CALL reports) makes its
        // other columns ungrouped: that is no finding of the CHECK's.
        List<Diagnostic> errors =
            check.diagnostics().stream()
                .filter(d -> d.isError() && !d.ruleId().equals(GROUP_BY_RULE))
                .toList();
        if (!errors.isEmpty()
            && errors.stream().allMatch(d -> d.ruleId().equals(VariantPaths.RULE))) {
          // A CHECK Spark reads but refuses for a path's type (found by QA: it was reported as
          // CONSTRAINT_SYNTAX, not a valid expression): said as in a SELECT, at the path.
          for (Diagnostic d : errors) {
            int at = Position.offsetAt(parsed, d.position().line(), d.position().column());
            found.add(
                new Diagnostic(
                    d.severity(),
                    d.ruleId(),
                    Places.inConstraint(c, Math.max(0, at - "SELECT ".length())),
                    d.message(),
                    d.hint()));
          }
        } else if (!errors.isEmpty()) {
          // A generator read as a SELECT item inside another call is misplaced, not unreadable.
          List<Diagnostic> misplaced =
              errors.stream().allMatch(d -> d.ruleId().equals(MISPLACED_CALL_RULE))
                  ? misplacedInCheck(c)
                  : List.of();
          if (misplaced.isEmpty()) {
            unreadable.add(c.name());
          }
          found.addAll(misplaced);
        } else {
          // A CHECK runs in the view's refresh: a UDF there fails it as one in the SELECT would.
          functions.addAll(check.functions());
          found.addAll(misplacedInCheck(c));
          notBoolean(c).ifPresent(found::add);
          unknownColumn(c, facts.columns()).ifPresent(found::add);
          starred(c, facts.columns()).ifPresent(checkColumns::add);
        }
      }
    }
    return new QueryFacts(
        facts.tables(),
        functions,
        facts.features(),
        facts.usedFallback(),
        found,
        facts.columns(),
        unreadable,
        facts.columnRefs(),
        facts.columnLists(),
        checkColumns);
  }

  /**
   * Functions Spark calls without parentheses, which Calcite may read as names. Not among them,
   * measured on Spark 4.1.1: localtimestamp, localtime, current_catalog, current_database and
   * current_schema, which Spark reads as columns unless followed by ().
   */
  static final Set<String> NILADIC =
      Set.of(
          "current_date",
          "current_timestamp",
          "current_time",
          "current_user",
          "user",
          "session_user",
          "true",
          "false",
          "null",
          "unknown");

  /**
   * An aggregate, window function or generator in a CHECK, which Spark refuses as it refuses one in
   * WHERE: the local engine filters the SELECT's rows by the CHECK ([INVALID_WHERE_CONDITION],
   * [UNSUPPORTED_GENERATOR.OUTSIDE_SELECT], measured on Spark 4.1.1), and a constraint tests each
   * row on its own. Found by the WHERE rule of MISPLACED_CALL on the CHECK as a WHERE condition.
   */
  private List<Diagnostic> misplacedInCheck(Constraint c) {
    String prefix = "SELECT * FROM mlv_check WHERE ";
    String where = prefix + c.expression();
    List<Diagnostic> out = new ArrayList<>();
    for (Diagnostic d : extract(where, Position.start(c.position().file())).diagnostics()) {
      if (!d.ruleId().equals(MISPLACED_CALL_RULE) || !d.message().contains(" in WHERE (")) {
        continue;
      }
      int at = Position.offsetAt(where, d.position().line(), d.position().column());
      out.add(
          Diagnostic.error(
              MISPLACED_CALL_RULE,
              Places.inConstraint(c, Math.max(0, at - prefix.length())),
              d.message()
                  .replace(" in WHERE (", " in the CHECK of constraint " + c.name() + " (")
                  .replace("Spark refuses the view", "Spark refuses the constraint"),
              "a constraint tests each row of the view on its own: compute the value in the"
                  + " view's SELECT (a window over the rows, or a subquery or CTE) and check its"
                  + " column"));
    }
    return out;
  }

  /**
   * A CHECK whose text alone makes it no boolean: a number, string or date literal, arithmetic,
   * {@code ||}, or a CAST to another type. Spark refuses a condition that is not BOOLEAN
   * ([DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN], measured on Spark 4.1.1), and the local engine's
   * {@code coalesce((check), false)} refuses it too ([DATATYPE_MISMATCH.DATA_DIFF_TYPES]). A column
   * or a function's result has a type only the catalog knows, and is not read here. Found by QA.
   */
  private Optional<Diagnostic> notBoolean(Constraint c) {
    SparkSyntaxRewriter.Result rewritten = rewriter.rewrite("SELECT " + c.expression());
    if (!rewritten.fragments().isEmpty()) {
      return Optional.empty();
    }
    SqlNode item;
    try {
      if (!(parse(rewritten) instanceof SqlSelect select) || select.getSelectList().size() != 1) {
        return Optional.empty();
      }
      item = select.getSelectList().get(0);
    } catch (SqlParseException | RuntimeException e) {
      return Optional.empty();
    }
    String what = nonBoolean(item);
    if (what == null) {
      return Optional.empty();
    }
    return Optional.of(
        Diagnostic.error(
            CONSTRAINT_TYPE_RULE,
            Places.inConstraint(c, 0),
            "the CHECK of constraint "
                + c.name()
                + " is "
                + what
                + ", not a condition; Spark refuses a CHECK that is not BOOLEAN at the first"
                + " refresh ([DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN])",
            "write a condition each row must meet, such as amount > 0 or name IS NOT NULL"));
  }

  /** Rule id of a CHECK that is not a boolean condition. */
  public static final String CONSTRAINT_TYPE_RULE = "CONSTRAINT_TYPE";

  /** What a CHECK's top expression is when its text shows it is no boolean; null otherwise. */
  private static String nonBoolean(SqlNode node) {
    if (node instanceof SqlLiteral literal) {
      return switch (literal.getTypeName().getFamily() == null
          ? SqlTypeFamily.ANY
          : literal.getTypeName().getFamily()) {
        case NUMERIC -> "a number";
        case CHARACTER -> "a string";
        case DATE, TIME, TIMESTAMP, DATETIME -> "a date or time";
        case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> "an interval";
        default -> null;
      };
    }
    if (!(node instanceof SqlCall call)) {
      return null;
    }
    switch (call.getKind()) {
      case PLUS, MINUS, TIMES, DIVIDE, MOD, MINUS_PREFIX:
        return "arithmetic (" + call.getOperator().getName() + ")";
      case CAST:
        if (call.operandCount() == 2
            && call.operand(1) instanceof org.apache.calcite.sql.SqlDataTypeSpec type
            && !type.getTypeName().getSimple().equalsIgnoreCase("BOOLEAN")) {
          return "a CAST to " + type.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        }
        return null;
      default:
        return call.getOperator().getName().equals("||") ? "a string (||)" : null;
    }
  }

  /**
   * A CHECK reads the view's columns; one it names that the SELECT list (all of it known: no {@code
   * *}) does not produce fails the first refresh: the local engine filters the SELECT's rows by the
   * CHECK, where a source column the SELECT leaves out is [UNRESOLVED_COLUMN] (measured on Spark
   * 4.1.1). An error since QA found that validate and plan passed such a view that apply then
   * failed.
   */
  private Optional<Diagnostic> unknownColumn(Constraint c, Optional<OutputNames.Columns> columns) {
    if (columns.isEmpty()
        || !columns.get().complete()
        || columns.get().names().stream().anyMatch(n -> n.name() == null)) {
      return Optional.empty();
    }
    Set<String> produced = new java.util.HashSet<>();
    columns.get().names().forEach(n -> produced.add(n.name().toLowerCase(Locale.ROOT)));
    Optional<Map<String, Integer>> firstAt = columnsRead(c);
    if (firstAt.isEmpty()) {
      return Optional.empty();
    }
    Set<String> read = new java.util.TreeSet<>(firstAt.get().keySet());
    read.removeAll(produced);
    if (read.isEmpty()) {
      return Optional.empty();
    }
    int first = read.stream().mapToInt(firstAt.get()::get).min().orElse(0);
    return Optional.of(
        Diagnostic.error(
            "CONSTRAINT_COLUMN",
            Places.inConstraint(c, first),
            "the CHECK of constraint "
                + c.name()
                + " reads "
                + String.join(", ", read)
                + ", which the view's SELECT does not produce; Spark would refuse the view when apply or"
                + " refresh runs it ([UNRESOLVED_COLUMN])",
            "a constraint reads the view's own columns: "
                + String.join(", ", produced.stream().sorted().toList())));
  }

  /**
   * The names a CHECK reads, for a view whose SELECT list has a {@code *} (else {@link
   * #unknownColumn} has told them): only the tables' columns tell whether the view produces them. A
   * name of the hidden {@code _metadata} column is left out: whether a {@code *} carries it is not
   * claimed.
   */
  private Optional<CheckColumns> starred(Constraint c, Optional<OutputNames.Columns> columns) {
    if (columns.isEmpty()
        || columns.get().complete()
        || columns.get().opaque()
        || columns.get().names().stream().anyMatch(n -> n.name() == null)) {
      return Optional.empty();
    }
    return columnsRead(c)
        .map(
            firstAt -> {
              Map<String, Position> read = new HashMap<>();
              firstAt.forEach(
                  (name, at) -> {
                    if (!name.equals("_metadata")) {
                      read.put(name, Places.inConstraint(c, at));
                    }
                  });
              return new CheckColumns(c.name(), read);
            });
  }

  /**
   * The names a CHECK reads as columns, lower case, each with the offset in its expression where it
   * is first read; empty when Calcite does not read the expression. Calcite reads the names, but
   * the niladic functions and lambda parameters it would take for columns are set apart.
   */
  private Optional<Map<String, Integer>> columnsRead(Constraint c) {
    SparkSyntaxRewriter.Result rewritten = rewriter.rewrite("SELECT " + c.expression());
    if (!rewritten.fragments().isEmpty()) {
      return Optional.empty();
    }
    SqlNode root;
    try {
      root = parse(rewritten);
    } catch (SqlParseException | RuntimeException e) {
      return Optional.empty();
    }
    Set<String> lambdaParameters = new java.util.HashSet<>();
    // Where each name is first read, in the expression (the parsed text starts with SELECT).
    Map<String, Integer> firstAt = new HashMap<>();
    String parsed = "SELECT " + c.expression();
    root.accept(
        new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlIdentifier id) {
            if (!id.isStar() && !id.names.isEmpty()) {
              String name = id.names.get(0).toLowerCase(Locale.ROOT);
              SqlParserPos pos = id.getParserPosition();
              int at = offsetOf(parsed, pos.getLineNum(), pos.getColumnNum()) - "SELECT ".length();
              firstAt.merge(name, Math.max(0, at), Math::min);
            }
            return null;
          }

          @Override
          public Void visit(SqlCall call) {
            // named_struct('a', q).a, mask(s, lowerChar => 'x'): a field's or an argument's name
            // is no column (found by QA), as ColumnRefs reads them.
            if (call.getKind() == SqlKind.DOT
                || call.getKind() == SqlKind.AS
                || call.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
              return call.operand(0) == null ? null : call.operand(0).accept(this);
            }
            // filter(arr, y -> y > 0): y is the lambda's, not a column of the view.
            if (call instanceof org.apache.calcite.sql.SqlLambda lambda) {
              for (SqlNode p : lambda.getParameters()) {
                if (p instanceof SqlIdentifier id) {
                  lambdaParameters.add(id.getSimple().toLowerCase(Locale.ROOT));
                }
              }
            }
            return super.visit(call);
          }
        });
    firstAt.keySet().removeAll(lambdaParameters);
    firstAt.keySet().removeAll(NILADIC);
    // datediff(DAY, a, b): Spark takes a bare unit as the first argument (found by QA).
    firstAt.keySet().removeAll(ColumnRefs.UNITS);
    return Optional.of(firstAt);
  }

  /** Nesting that no real query reaches: parentheses, CASE ... END and chained NOTs, together. */
  static final int MAX_NESTING = 200;

  /** Offset of the token where nesting first exceeds {@link #MAX_NESTING}, or -1. */
  static int tooDeepAt(String sql) {
    int depth = 0;
    int nots = 0;
    for (Token t : Lexer.tokenize(sql)) {
      if (t.isTrivia()) {
        continue;
      }
      if (t.isSymbol("(") || t.isWord("CASE")) {
        depth++;
      } else if ((t.isSymbol(")") || t.isWord("END")) && depth > 0) {
        depth--;
      }
      nots = t.isWord("NOT") || t.isSymbol("!") || t.isSymbol("-") ? nots + 1 : 0;
      if (depth + nots > MAX_NESTING) {
        return t.offset();
      }
    }
    return -1;
  }

  private static QueryFacts tooDeep(Position at) {
    return new QueryFacts(
        List.of(),
        Set.of(),
        Set.of(),
        false,
        List.of(
            Diagnostic.error(
                "SQL_TOO_DEEP",
                at,
                "the SELECT nests more than "
                    + MAX_NESTING
                    + " levels deep (parentheses, CASE and NOT together), too deep to be analysed",
                "flatten it with CTEs (WITH ... AS) or split it into several views")));
  }

  private QueryFacts parseAndWalk(String selectSql, Position start) {
    // Both parsers accept it, each in a way of its own; Spark's analyzer then refuses it.
    Optional<SyntaxErrors.Told> misread =
        SyntaxErrors.commaReadAsColumnFrom(selectSql)
            .or(() -> SyntaxErrors.fromAtEnd(selectSql))
            .or(() -> SyntaxErrors.emptySelectList(selectSql))
            .or(() -> SyntaxErrors.misplacedNot(selectSql))
            .or(() -> SyntaxErrors.doubledSelect(selectSql))
            .or(() -> SyntaxErrors.doubledJoin(selectSql))
            .or(() -> SyntaxErrors.duplicateCteNames(selectSql));
    if (misread.isPresent()) {
      return told(selectSql, start, misread.get());
    }
    SparkSyntaxRewriter.Result rewritten = rewriter.rewrite(selectSql);
    Walk walk = new Walk(selectSql, start, rewritten);
    try {
      SqlNode root = parse(rewritten);
      if (KeywordNames.joinReadAsAlias(
          rewritten.tokens(), KeywordNames.calciteAliases(selectSql, root))) {
        // Calcite reads t SEMI JOIN u as an inner join of t aliased SEMI; Spark's parser reads
        // the semi join it is.
        throw new SqlParseException(
            "Calcite reads SEMI or ANTI before JOIN as an alias", null, null, null, null);
      }
      Optional<ForeignSyntax.Finding> foreign = ForeignSyntax.find(rewritten.tokens());
      if (foreign.isPresent()) {
        return notSpark(selectSql, start, foreign.get());
      }
      Optional<QueryFacts> refined = refinedWindow(selectSql, start, rewritten.tokens());
      if (refined.isPresent()) {
        return refined.get();
      }
      List<SqlNode> fragments = new ArrayList<>();
      for (Fragment fragment : rewritten.fragments()) {
        fragments.add(parseFragment(selectSql, fragment));
      }
      walk.query(root, Set.of());
      for (int i = 0; i < fragments.size(); i++) {
        walk.fragment(rewritten.fragments().get(i), fragments.get(i));
      }
      // The fragments Calcite did not see (a LATERAL VIEW's or table function's arguments, a
      // time-travel value, a DISTRIBUTE BY list) are never select items: the list is all here.
      // Removed text may bring names into scope (a LATERAL VIEW's columns) that the tree lacks.
      boolean whole = rewritten.fragments().isEmpty() && rewritten.markers().isEmpty();
      Optional<OutputNames.Columns> columns =
          OutputNames.of(selectSql, start, root, whole, rewritten.tokens());
      List<ColumnRefs.Ref> refs =
          whole ? ColumnRefs.of(selectSql, start, root, rewritten.tokens()) : List.of();
      Map<Integer, SqlNode> inlineTables = new HashMap<>();
      for (int i = 0; i < fragments.size(); i++) {
        Fragment f = rewritten.fragments().get(i);
        if (f.kind() == Fragment.Kind.QUERY && rewritten.markers().contains(f.offset())) {
          inlineTables.put(f.offset(), fragments.get(i));
        }
      }
      List<ColumnLists.ColumnList> lists =
          ColumnLists.of(selectSql, start, root, rewritten.markers(), inlineTables);
      QueryFacts facts = walk.facts().withView(columns, List.of(), refs, lists);
      facts =
          withKeywordNames(
              selectSql,
              start,
              rewritten.tokens(),
              facts,
              KeywordNames.calciteAliases(selectSql, root));
      // Spark's lexer, unlike Calcite, splits a shift after an array(...) call.
      return ShiftOperators.split(selectSql, start, rewritten)
          .map(facts::withDiagnostic)
          .orElse(facts);
    } catch (SqlParseException calciteError) {
      // Spark's parser refuses a literal beyond its type's range (128Y), which LexicalRules
      // reports; read as in range, the text gets no second, Calcite-worded error.
      SparkFallbackParser.Outcome spark =
          Fallback.PARSER.read(LexicalRules.withLiteralsInRange(selectSql), start);
      if (spark.facts().isPresent()) {
        // Spark's parser reads ROW(a, b) as a call; only running it fails.
        Optional<ForeignSyntax.Finding> call = ForeignSyntax.findCall(rewritten.tokens());
        if (call.isPresent()) {
          return notSpark(selectSql, start, call.get());
        }
        return withKeywordNames(
            selectSql,
            start,
            rewritten.tokens(),
            spark.facts().get(),
            KeywordNames.startsOf(rewritten.tokens(), spark.aliasEnds()));
      }
      Optional<String> sparkMessage = spark.refusal().flatMap(SparkFallbackParser.Refusal::message);
      if (sparkMessage.isPresent()) {
        // Spark's parser read the syntax and refused a value in it (an unknown collation name):
        // its own words say what is wrong, Calcite's would name a token.
        return parseError(
            spark.refusal().get().at(),
            sparkMessage.get(),
            "fix it as Spark says; mlv reads the SELECT with Spark 4.1's own parser");
      }
      if (calciteError.getCause() instanceof StackOverflowError) {
        // Calcite gave up without a position or a reason: Spark's parser tells a statement it
        // cannot hold either (a very long chain of operators, say) from a syntax error in it.
        return beyondParser(selectSql, start, spark.refusal().orElseThrow());
      }
      // Neither parser reads it: another dialect's construct gets its Spark spelling, not
      // Calcite's "Encountered ...".
      Optional<ForeignSyntax.Finding> foreign = ForeignSyntax.find(rewritten.tokens());
      if (foreign.isPresent()) {
        return notSpark(selectSql, start, foreign.get());
      }
      Optional<SqlToken> pipe = firstPipe(rewritten.tokens());
      if (pipe.isPresent()) {
        // Calcite reads no pipe syntax, so its error sits at the query's first word; Spark's
        // parser reads it, and places the mistake where it is.
        return pipeError(spark.refusal().orElseThrow());
      }
      Optional<SqlToken> clause = headerClause(rewritten.tokens());
      if (clause.isPresent()) {
        return misplacedClause(selectSql, start, clause.get());
      }
      if (String.valueOf(calciteError.getMessage())
          .startsWith("Incorrect syntax near the keyword")) {
        // Calcite stopped at a word it reserves (OVER, VALUE, ...) that Spark may take as a name:
        // its words and place are not Spark's, so Spark's own refusal is reported.
        return beyondParser(selectSql, start, spark.refusal().orElseThrow());
      }
      return parseError(selectSql, start, calciteError);
    }
  }

  /**
   * The facts with a warning for each keyword the parser read as an alias or a column's name, or
   * only the errors when it read one as a table's name ({@link KeywordNames}).
   */
  private static QueryFacts withKeywordNames(
      String sql, Position start, List<SqlToken> tokens, QueryFacts facts, Set<Integer> aliases) {
    List<Diagnostic> found = new ArrayList<>(KeywordNames.warnings(sql, start, tokens, aliases));
    found.addAll(KeywordNames.columnsAndTables(sql, start, tokens, facts.tables()));
    found.addAll(KeywordNames.clauseWordsAsOperands(sql, start, tokens));
    found.addAll(KeywordNames.joinWordsAsOperands(sql, start, tokens));
    found.addAll(KeywordNames.usingAfterOn(sql, start, tokens));
    found.addAll(KeywordNames.clauseReadAsAliasWithColumns(sql, start, tokens));
    List<Diagnostic> errors = found.stream().filter(Diagnostic::isError).toList();
    if (!errors.isEmpty()) {
      return new QueryFacts(List.of(), Set.of(), Set.of(), true, errors);
    }
    for (Diagnostic d : found) {
      facts = facts.withDiagnostic(d);
    }
    return facts;
  }

  /**
   * Parses text the rewriter produced, with the names it hid and the operators and joins it spelt
   * back.
   */
  static SqlNode parse(SparkSyntaxRewriter.Result rewritten) throws SqlParseException {
    SqlNode root = SqlParser.create(rewritten.sql(), CONFIG).parseQuery();
    root =
        SparkSyntaxRewriter.restoreOperators(
            SparkSyntaxRewriter.restoreNames(root), rewritten.sql(), rewritten.operators());
    return SparkSyntaxRewriter.restoreJoins(root, rewritten.sql(), rewritten.joins());
  }

  /** Whether a name is a file-format path read such as {@code delta.`/data/x`}. */
  public static boolean isPathTable(List<String> parts) {
    if (parts.size() != 2 || !FILE_FORMATS.contains(parts.get(0).toLowerCase(Locale.ROOT))) {
      return false;
    }
    String path = parts.get(1);
    return path.contains("/") || path.contains(":") || path.contains("\\");
  }

  /**
   * Parses removed text on its own, laid out so that Calcite's positions are the file's: the text
   * before it is blanked (line breaks kept) and the wrapper sits on a line of its own.
   */
  private static SqlNode parseFragment(String sql, Fragment fragment) throws SqlParseException {
    StringBuilder padded =
        new StringBuilder(fragment.kind() == Fragment.Kind.QUERY ? "\n" : "SELECT\n");
    for (int i = 0; i < fragment.offset(); i++) {
      char c = sql.charAt(i);
      padded.append(c == '\n' || c == '\r' ? c : ' ');
    }
    padded.append(fragment.text());
    try {
      return SqlParser.create(padded.toString(), CONFIG).parseQuery();
    } catch (SqlParseException e) {
      // Report the error where it is in the file, not in the padded text.
      SqlParserPos pos = e.getPos();
      SqlParserPos shifted =
          pos == null
              ? null
              : new SqlParserPos(
                  Math.max(1, pos.getLineNum() - 1),
                  pos.getColumnNum(),
                  Math.max(1, pos.getEndLineNum() - 1),
                  pos.getEndColumnNum());
      throw new SqlParseException(
          e.getMessage(), shifted, e.getExpectedTokenSequences(), e.getTokenImages(), e);
    }
  }

  /** Calcite read it, Spark would not: the view would fail only when apply runs it. */
  private static QueryFacts notSpark(String sql, Position start, ForeignSyntax.Finding finding) {
    Diagnostic diagnostic =
        Diagnostic.error(
            NOT_SPARK_RULE,
            start.advance(sql, finding.offset()),
            finding.construct()
                + " is not Spark SQL: Spark 4.1 (Fabric Runtime 2.0) "
                + finding.refusal(),
            finding.hint());
    return new QueryFacts(List.of(), Set.of(), Set.of(), false, List.of(diagnostic));
  }

  /**
   * A named window refined in place ({@code OVER (w ROWS ...)}), which Calcite reads: Spark's
   * parser refuses it, and its refusal is reported where it places it, when that is in such a
   * specification. Spark's parser runs only for a text that has one.
   */
  private static Optional<QueryFacts> refinedWindow(
      String sql, Position start, List<SqlToken> tokens) {
    List<WindowRefinement.Found> found = WindowRefinement.find(tokens);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Optional<SparkFallbackParser.Refusal> refusal =
        Fallback.PARSER
            .read(LexicalRules.withLiteralsInRange(sql), start)
            .refusal()
            .filter(r -> !r.tooComplex());
    if (refusal.isEmpty()) {
      return Optional.empty();
    }
    Position at = refusal.get().at();
    for (WindowRefinement.Found f : found) {
      if (!before(at, start.advance(sql, f.from())) && !before(start.advance(sql, f.to()), at)) {
        Diagnostic diagnostic =
            Diagnostic.error(
                NOT_SPARK_RULE,
                at,
                f.construct()
                    + " is not Spark SQL: Spark 4.1 (Fabric Runtime 2.0) takes a window's name only"
                    + " alone (OVER w, OVER (w), WINDOW w2 AS w) and cannot parse it"
                    + " ([PARSE_SYNTAX_ERROR] syntax error"
                    + refusal.get().near().map(n -> " at or near " + n).orElse("")
                    + ")",
                "write the frame or ordering into the window's definition, WINDOW w AS"
                    + " (PARTITION BY ... ORDER BY ... ROWS BETWEEN ...), define another window"
                    + " for it, or write the whole specification in OVER (...)");
        return Optional.of(
            new QueryFacts(List.of(), Set.of(), Set.of(), true, List.of(diagnostic)));
      }
    }
    return Optional.empty();
  }

  private static boolean before(Position a, Position b) {
    return a.line() < b.line() || a.line() == b.line() && a.column() < b.column();
  }

  /** The first pipe operator {@code |>}, which the lexer gives as '|' then '>'. */
  private static Optional<SqlToken> firstPipe(List<SqlToken> tokens) {
    for (int i = 0; i + 1 < tokens.size(); i++) {
      if (tokens.get(i).isSymbol("|")
          && tokens.get(i + 1).isSymbol(">")
          && tokens.get(i + 1).start() == tokens.get(i).end()) {
        return Optional.of(tokens.get(i));
      }
    }
    return Optional.empty();
  }

  private static QueryFacts pipeError(SparkFallbackParser.Refusal refusal) {
    return parseError(
        refusal.at(),
        "syntax error" + refusal.near().map(n -> " at or near " + n).orElse(""),
        "Spark 4.1 reads SQL pipe syntax (FROM t |> WHERE ... |> SELECT ...); after each |> it"
            + " takes SELECT, EXTEND, SET, DROP, AS, WHERE, AGGREGATE, a JOIN, UNION, INTERSECT,"
            + " EXCEPT, ORDER BY, LIMIT, OFFSET, TABLESAMPLE, PIVOT or UNPIVOT");
  }

  /** A clause of the view's header written after its SELECT. */
  private static Optional<SqlToken> headerClause(List<SqlToken> tokens) {
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken t = tokens.get(i);
      SqlToken next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
      if (t.isWord("TBLPROPERTIES")
          || (t.isWord("PARTITIONED") && next != null && next.isWord("BY"))
          || (t.isWord("COMMENT") && next != null && next.kind() == SqlToken.Kind.STRING)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  private static QueryFacts beyondParser(
      String sql, Position start, SparkFallbackParser.Refusal refusal) {
    Diagnostic diagnostic =
        refusal.tooComplex()
            ? Diagnostic.error(
                "SQL_TOO_COMPLEX",
                start,
                "the SELECT is too long or too deeply nested for the SQL parsers: Spark's"
                    + " refuses it ([FAILED_TO_PARSE_TOO_COMPLEX]), so mlv could not check it",
                "split it: compute parts in CTEs (WITH ... AS) or in views of their own")
            : Diagnostic.error(
                PARSE_RULE,
                refusal.at(),
                "syntax error" + refusal.near().map(n -> " at or near " + n).orElse(""),
                "Check the SELECT at this point; mlv reads it with Spark SQL syntax.");
    if (!refusal.tooComplex()) {
      Optional<SyntaxErrors.Told> empty = conditionless(sql, start, refusal);
      if (empty.isPresent()) {
        return told(sql, start, empty.get());
      }
      Optional<SyntaxErrors.Told> told =
          SyntaxErrors.of(
              sql,
              offsetIn(sql, start, refusal.at()),
              refusal.near().filter(n -> n.equals("end of input")).isPresent(),
              false);
      if (told.isPresent()) {
        return told(sql, start, told.get());
      }
    }
    return new QueryFacts(List.of(), Set.of(), Set.of(), true, List.of(diagnostic));
  }

  /**
   * A HAVING with no condition: Spark refuses it as "extra input 'HAVING'" with no position, so the
   * error would sit at the SELECT's first character; it is placed at the last HAVING, followed by
   * nothing or by a clause.
   */
  private static Optional<SyntaxErrors.Told> conditionless(
      String sql, Position start, SparkFallbackParser.Refusal refusal) {
    if (!refusal.at().equals(start) || !refusal.near().equals(Optional.of("'HAVING'"))) {
      return Optional.empty();
    }
    List<SqlToken> tokens = SqlToken.tokenize(sql);
    for (int i = tokens.size() - 1; i >= 0; i--) {
      if (tokens.get(i).isWord("HAVING")) {
        SqlToken next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
        return Optional.of(
            new SyntaxErrors.Told(
                tokens.get(i).start(),
                "this HAVING has no condition: "
                    + (next == null
                        ? "the SELECT ends right after it"
                        : next.text() + " follows it"),
                "write the condition after HAVING (HAVING count(*) > 1), or remove HAVING"));
      }
    }
    return Optional.empty();
  }

  /** The offset in {@code sql}, which starts at {@code start}, of position {@code at} in it. */
  private static int offsetIn(String sql, Position start, Position at) {
    int line = at.line() - start.line() + 1;
    int column = line == 1 ? at.column() - start.column() + 1 : at.column();
    return line < 1 ? 0 : Position.offsetAt(sql, line, Math.max(1, column));
  }

  private static QueryFacts misplacedClause(String sql, Position start, SqlToken clause) {
    String name = clause.upper().equals("PARTITIONED") ? "PARTITIONED BY" : clause.upper();
    Diagnostic diagnostic =
        Diagnostic.error(
            PARSE_RULE,
            start.advance(sql, clause.start()),
            name + " is a clause of the view's header and cannot follow its SELECT",
            "move it before AS: CREATE MATERIALIZED LAKE VIEW name [(CONSTRAINT ...)]"
                + " [PARTITIONED BY (...)] [COMMENT '...'] [TBLPROPERTIES (...)] AS SELECT ...");
    return new QueryFacts(List.of(), Set.of(), Set.of(), true, List.of(diagnostic));
  }

  private static QueryFacts parseError(String sql, Position start, SqlParseException error) {
    SqlParserPos pos = error.getPos();
    if (pos == null) {
      return parseError(start, readable(error));
    }
    int offset = offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
    Optional<SqlToken> name =
        SqlToken.tokenize(sql).stream()
            .filter(t -> t.start() <= offset && offset < t.end())
            .filter(t -> t.kind() == SqlToken.Kind.WORD && t.text().chars().anyMatch(c -> c > 0x7f))
            .findFirst();
    if (name.isPresent()) {
      // Calcite's lexer stops inside a name with an emoji in it, which Spark's refuses as a
      // whole (é, 中文 and 😀 alike): the name is what to fix, not a half of its character.
      return new QueryFacts(
          List.of(),
          Set.of(),
          Set.of(),
          true,
          List.of(
              MlvParser.nonAsciiName(start.advance(sql, name.get().start()), name.get().text())));
    }
    List<SqlToken> at = SqlToken.tokenize(sql.substring(offset));
    if (!at.isEmpty() && at.get(0).start() == 0 && at.get(0).isWord("CREATE")) {
      return parseError(
          start.advance(sql, offset),
          readable(error),
          "a new statement starts here: end the one before it with ';'");
    }
    // The first line names what Calcite met; the lines after it, what it expected.
    String message = String.valueOf(error.getMessage()).lines().findFirst().orElse("");
    Optional<SqlToken> second = secondOfAValidPair(sql, offset, error);
    Optional<SyntaxErrors.Told> told =
        SyntaxErrors.of(
            sql,
            second.map(SqlToken::start).orElse(offset),
            message.contains("<EOF>"),
            message.startsWith("Non-query expression encountered in illegal context"));
    if (told.isPresent()) {
      return told(sql, start, told.get());
    }
    if (second.isPresent()) {
      return parseError(
          start.advance(sql, second.get().start()),
          "syntax error: unexpected '"
              + second.get().text()
              + "' after '"
              + sql.substring(offset, firstTokenEnd(sql, offset))
              + "'");
    }
    Optional<SyntaxErrors.Told> unexpected =
        message.startsWith("Encountered \"")
            ? SyntaxErrors.unexpected(sql, offset)
            : Optional.empty();
    if (unexpected.isPresent()) {
      // Calcite's 'Encountered "c"' names the token as its grammar images it ('\'y\''): the
      // token is named as written, with what Calcite expected when that is short.
      String readable = readable(error);
      int expected = readable.indexOf("; expected ");
      return parseError(
          start.advance(sql, unexpected.get().offset()),
          "syntax error: "
              + unexpected.get().message()
              + (expected < 0 ? "" : readable.substring(expected)));
    }
    return parseError(start.advance(sql, offset), readable(error));
  }

  private static QueryFacts told(String sql, Position start, SyntaxErrors.Told told) {
    return parseError(
        start.advance(sql, told.offset()), "syntax error: " + told.message(), told.hint());
  }

  private static QueryFacts parseError(Position at, String message) {
    return parseError(
        at, message, "Check the SELECT at this point; mlv reads it with Spark SQL syntax.");
  }

  private static QueryFacts parseError(Position at, String message, String hint) {
    Diagnostic diagnostic = Diagnostic.error(PARSE_RULE, at, message, hint);
    return new QueryFacts(List.of(), Set.of(), Set.of(), true, List.of(diagnostic));
  }

  /**
   * Calcite names as many tokens as its longest lookahead ({@code Encountered "= ="}) and places
   * the error at the first, which may be a valid start of one of the sequences it expected; then
   * the error is the token after it, where Spark places it too.
   */
  private static Optional<SqlToken> secondOfAValidPair(
      String sql, int offset, SqlParseException error) {
    String message = error.getMessage() == null ? "" : error.getMessage();
    if (!message.startsWith("Encountered \"") || error.getExpectedTokenSequences() == null) {
      return Optional.empty();
    }
    List<SqlToken> tokens = SqlToken.tokenize(sql.substring(offset)).stream().limit(2).toList();
    if (tokens.size() < 2 || tokens.get(0).start() != 0) {
      return Optional.empty();
    }
    String image = "\"" + tokens.get(0).text().toUpperCase(Locale.ROOT) + "\"";
    String[] images = error.getTokenImages();
    for (int[] sequence : error.getExpectedTokenSequences()) {
      if (sequence.length >= 2 && image.equalsIgnoreCase(images[sequence[0]])) {
        SqlToken t = tokens.get(1);
        return Optional.of(new SqlToken(t.kind(), t.start() + offset, t.end() + offset, t.text()));
      }
    }
    return Optional.empty();
  }

  private static int firstTokenEnd(String sql, int offset) {
    return offset + SqlToken.tokenize(sql.substring(offset)).get(0).end();
  }

  /** Calcite's first message line without its own "at line, column" and without a token dump. */
  private static String readable(SqlParseException error) {
    String message =
        error.getMessage() == null
            ? "syntax error"
            : SparkSyntaxRewriter.unhide(error.getMessage());
    java.util.regex.Matcher lexical =
        java.util.regex.Pattern.compile("Lexical error.*?Encountered: .*? \\((\\d+)\\)")
            .matcher(message);
    if (lexical.find()) {
      // Calcite's lexer: 'Encountered: "\u20ac" (8364), after : ""'.
      int code = Integer.parseInt(lexical.group(1));
      String c = new String(Character.toChars(code));
      // A zero-width space or byte order mark shows as nothing between the quotes: name it.
      return String.format(
          Locale.ROOT, "syntax error: unexpected character '%s' (U+%04X)", c, code);
    }
    String first =
        message.lines().findFirst().orElse(message).replaceAll(" at line \\d+, column \\d+", "");
    first = first.replaceAll("\\.$", "");
    Collection<String> expected = error.getExpectedTokenNames();
    if (expected != null && !expected.isEmpty() && expected.size() <= 8) {
      first +=
          "; expected "
              + expected.stream()
                  .map(TableExtractor::expectedToken)
                  .distinct()
                  .sorted()
                  .collect(Collectors.joining(", "));
    }
    return "syntax error: " + first;
  }

  /** A token Calcite expected, in words: {@code <BACK_QUOTED_IDENTIFIER>} is "a name". */
  private static String expectedToken(String token) {
    if (token.matches("<[A-Z_]*IDENTIFIER>")) {
      return "a name";
    }
    if (token.matches("<[A-Z_]*(STRING|CHAR)[A-Z_]*>")) {
      return "a string";
    }
    if (token.matches("<[A-Z_]*(LITERAL|NUMERIC)[A-Z_]*>")) {
      return "a number";
    }
    return token.replace("\"", "");
  }

  /**
   * Offset of a 1-based line and column of Calcite's; columns count characters, tabs included, and
   * a lone carriage return ends a line, as in Calcite's lexer and {@link Position#advance}.
   */
  public static int offsetOf(String text, int line, int column) {
    return Position.offsetOf(text, line, column);
  }

  /** Holds Spark's parser so that its classes load on the first fallback, not before. */
  private static final class Fallback {
    static final SparkFallbackParser PARSER = new SparkFallbackParser();
  }

  /** One walk over one parsed query; not shared between threads. */
  private static final class Walk {
    private final String sql;
    private final Position start;
    private final Set<Integer> markers;
    private final Set<QueryFeature> features = EnumSet.noneOf(QueryFeature.class);
    private final Set<String> functions = new TreeSet<>();

    /** The windows a SELECT walked now may name without defining them: its FROM's holder's. */
    private Set<String> windowsFromAbove = Set.of();

    private final List<Ref> refs = new ArrayList<>();
    private final Set<String> allCteNames = new HashSet<>();

    /** Lines to subtract from Calcite's positions: 1 while walking a wrapped fragment. */
    private int lineShift;

    /** How many subqueries in expressions enclose the walk: their columns may be the outer's. */
    private int inExpression;

    /** The higher-order function whose lambda encloses the walk, or null outside lambdas. */
    private String inLambdaOf;

    /**
     * Whether the subquery the walk reaches next stands where Spark takes rows of any width
     * (EXISTS, IN), not a single value: set by the call around it.
     */
    private boolean rowsSubquery;

    private final List<Diagnostic> findings = new ArrayList<>();

    /**
     * The ORDER BY of each SELECT that Calcite wraps in one (the SELECT's own list is then empty),
     * by identity: its checks need the list as they walk the SELECT.
     */
    private final Map<SqlSelect, SqlNodeList> orderedBy = new java.util.IdentityHashMap<>();

    private record Ref(int offset, Name name) {}

    Walk(String sql, Position start, SparkSyntaxRewriter.Result rewritten) {
      this.sql = sql;
      this.start = start;
      this.markers = rewritten.markers();
      features.addAll(rewritten.features());
      functions.addAll(rewritten.functions());
    }

    QueryFacts facts() {
      Map<List<String>, Name> distinct = new LinkedHashMap<>();
      refs.stream()
          .sorted(Comparator.comparingInt(Ref::offset))
          .forEach(ref -> distinct.putIfAbsent(ref.name().parts(), ref.name()));
      return new QueryFacts(List.copyOf(distinct.values()), functions, features, false, findings);
    }

    /**
     * Removed text lost its place in the tree, so a subquery inside it sees every CTE name of the
     * statement: that can hide a same-named table, never invent one.
     */
    void fragment(Fragment fragment, SqlNode node) {
      lineShift = 1;
      Set<String> scope = Set.copyOf(allCteNames);
      if (fragment.kind() == Fragment.Kind.QUERY) {
        query(node, scope);
      } else {
        expression(((SqlSelect) node).getSelectList(), scope);
      }
      lineShift = 0;
    }

    void query(SqlNode node, Set<String> ctes) {
      if (node instanceof SqlWith with) {
        Set<String> scope = new HashSet<>(ctes);
        for (SqlNode item : with.withList) {
          SqlWithItem cte = (SqlWithItem) item;
          String name = cte.name.getSimple().toLowerCase(Locale.ROOT);
          allCteNames.add(name);
          if (cte.recursive != null && cte.recursive.booleanValue()) {
            scope.add(name);
          }
          Set<String> windows = windowsFromAbove;
          windowsFromAbove = Set.of(); // a CTE's body sees no WINDOW clause of its reader
          query(cte.query, Set.copyOf(scope));
          windowsFromAbove = windows;
          scope.add(name);
        }
        query(with.body, Set.copyOf(scope));
      } else if (node instanceof SqlOrderBy orderBy) {
        if (orderBy.query instanceof SqlSelect select) {
          orderedBy.put(select, orderBy.orderList);
        }
        query(orderBy.query, ctes);
        if (orderBy.query instanceof SqlSelect select) {
          distinctOrder(select, orderBy.orderList);
        }
        windowInOrderBy(orderBy.orderList).ifPresent(this::misplaced);
        orderBy.orderList.forEach(this::withoutOver);
        orderPositions(orderBy.orderList, certainWidth(orderBy.query));
        if (lineShift == 0) {
          variantMisuses(
              VariantPaths.orderedBy(orderBy.orderList, VariantPaths.first(orderBy.query), sql));
        }
        if (!orderBy.orderList.isEmpty()) {
          features.add(QueryFeature.ORDER_BY);
        }
        expression(orderBy.orderList, ctes);
        limit(orderBy.offset, orderBy.fetch, ctes);
      } else if (node instanceof SqlSelect select) {
        select(select, ctes);
      } else if (node instanceof SqlCall call && call.getOperator() instanceof SqlSetOperator op) {
        if (op.getKind() == SqlKind.UNION) {
          features.add(op.isAll() ? QueryFeature.UNION_ALL : QueryFeature.UNION_DISTINCT);
        } else {
          features.add(QueryFeature.INTERSECT_EXCEPT);
        }
        for (SqlNode operand : call.getOperandList()) {
          query(operand, ctes);
        }
        setWidths(call, op);
        if (lineShift == 0) {
          variantMisuses(VariantPaths.setOperation(call, sql));
        }
      } else if (node != null && node.getKind() == SqlKind.VALUES) {
        expression(node, ctes);
      } else if (node != null) {
        from(node, ctes);
      }
    }

    private void select(SqlSelect select, Set<String> ctes) {
      if (select.isDistinct()) {
        features.add(QueryFeature.DISTINCT);
      }
      // Spark applies a WINDOW clause to the derived tables of its FROM too (not to CTE bodies
      // or subqueries in expressions): they see this SELECT's windows and those it sees.
      Set<String> inherited = windowsFromAbove;
      Set<String> visible = new HashSet<>(inherited);
      visible.addAll(declaredWindows(select));
      windowsFromAbove = visible;
      // Hints name tables (BROADCAST(t)) without reading them, so they are not walked.
      if (select.getFrom() != null) {
        from(select.getFrom(), ctes);
      }
      windowsFromAbove = Set.of();
      expression(select.getSelectList(), ctes);
      expression(select.getWhere(), ctes);
      if (select.getGroup() != null) {
        features.add(QueryFeature.GROUP_BY);
        expression(select.getGroup(), ctes);
        if (inExpression == 0) {
          ungroupedColumns(select);
        }
      } else if (inExpression == 0
          && select.getSelectList().stream()
              .anyMatch(item -> MisplacedCalls.aggregate(item).isPresent())) {
        bareColumns(select, Set.of(), false);
        ungroupedInside(select, Set.of(), false);
      }
      groupedSubqueries(select);
      ordinals(select);
      misplacedCalls(select);
      windowNames(select, inherited);
      windowSpecs(select);
      if (lineShift == 0) {
        variantMisuses(VariantPaths.misuses(select, sql));
      }
      expression(select.getHaving(), ctes);
      expression(select.getWindowList(), ctes);
      expression(select.getQualify(), ctes);
      if (select.getOrderList() != null && !select.getOrderList().isEmpty()) {
        features.add(QueryFeature.ORDER_BY);
        expression(select.getOrderList(), ctes);
        distinctOrder(select, select.getOrderList());
      }
      limit(select.getOffset(), select.getFetch(), ctes);
      windowsFromAbove = inherited;
    }

    /**
     * A select item that is a bare column, neither grouped nor aggregated: Spark refuses the view
     * at its first refresh (MISSING_AGGREGATION), so it is an error here. Only what is certain
     * without a catalog counts: a column whose name appears nowhere in GROUP BY (a struct column
     * grouped covers its fields, a qualifier may differ), that is no earlier item's alias nor a
     * field of one, with no ordinal, ALL or rewritten text in GROUP BY; subqueries in expressions
     * are left out, as their columns may belong to the outer query.
     */
    private void ungroupedColumns(SqlSelect select) {
      Set<String> grouped = new HashSet<>();
      for (SqlNode item : select.getGroup()) {
        if (touchesMarker(item)
            || (item instanceof SqlNodeList list && list.isEmpty())
            || (item instanceof SqlCall call && call.operandCount() == 0)) {
          return; // rewritten text, or GROUP BY ALL (which the rewriter makes "()")
        }
        boolean[] other = new boolean[1];
        item.accept(
            new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
              @Override
              public Void visit(SqlLiteral literal) {
                // An ordinal, also inside ROLLUP (1, 2): resolving it is not worth the risk.
                other[0] |= literal.getTypeName().getFamily() == SqlTypeFamily.NUMERIC;
                return null;
              }

              @Override
              public Void visit(SqlCall call) {
                // Grouping by a time window names it: Spark resolves window.start or
                // session_window.end against the grouping expression's column.
                String fn = SparkSyntaxRewriter.functionName(call);
                if (fn.equals("window") || fn.equals("session_window")) {
                  grouped.add(fn);
                }
                return super.visit(call);
              }

              @Override
              public Void visit(SqlIdentifier id) {
                List<String> parts = writtenParts(id);
                if (parts == null || parts.equals(List.of("all"))) {
                  other[0] = true;
                } else {
                  grouped.add(parts.get(parts.size() - 1));
                }
                return null;
              }
            });
        if (other[0]) {
          return;
        }
      }
      // GROUP BY y, where y is an item's alias (year(d) AS y), groups by that item's expression:
      // its columns count as named in GROUP BY, as they would written there (found by QA:
      // year(d) + 1 AS ny beside it was reported).
      for (SqlNode item : select.getSelectList()) {
        if (item instanceof SqlCall as
            && as.getKind() == SqlKind.AS
            && grouped.contains(String.valueOf(writtenAlias(as.operand(1))))) {
          as.operand(0)
              .accept(
                  new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
                    @Override
                    public Void visit(SqlIdentifier id) {
                      id.names.forEach(n -> grouped.add(n.toLowerCase(Locale.ROOT)));
                      return null;
                    }
                  });
        }
      }
      bareColumns(select, grouped, true);
      ungroupedInside(select, grouped, true);
    }

    /**
     * The bare columns of a SELECT that groups by {@code grouped} ({@code grouping}) or, with no
     * GROUP BY, aggregates: Spark refuses each (MISSING_AGGREGATION, MISSING_GROUP_BY).
     */
    private void bareColumns(SqlSelect select, Set<String> grouped, boolean grouping) {
      Set<String> aliases = new HashSet<>();
      // Aliases that are also a column of the FROM clause, as their own item reads that column
      // (MAX(st) AS st): a later st or st.p is the column, which Spark takes before the alias.
      Map<String, String> columnAliases = new HashMap<>();
      for (SqlNode item : select.getSelectList()) {
        SqlNode expr = item;
        String alias = null;
        if (item instanceof SqlCall as && as.getKind() == SqlKind.AS) {
          expr = as.operand(0);
          alias = writtenAlias(as.operand(1));
        }
        if (expr instanceof SqlIdentifier id && !id.isStar() && !touchesMarker(id)) {
          List<String> parts = writtenParts(id);
          if (parts != null
              // current_timestamp, user, ...: functions Spark calls without parentheses
              && !(parts.size() == 1 && NILADIC.contains(parts.get(0)))
              && !(alias != null && grouped.contains(alias))
              // an earlier item's alias, or a field of one (MAX(st) AS ms, ms.p): a lateral alias
              && !(aliases.contains(parts.get(0)) && !columnAliases.containsKey(parts.get(0)))
              && parts.stream().noneMatch(grouped::contains)) {
            SqlParserPos pos = id.getParserPosition();
            int from = startOf(pos);
            String shown = String.join(".", id.names);
            String column = columnAliases.get(parts.get(0));
            String wins =
                column == null
                    ? ""
                    : "; "
                        + id.names.get(0)
                        + " here is the FROM clause's column, which "
                        + column
                        + " reads: Spark takes a FROM column before an earlier item's alias";
            findings.add(
                grouping
                    ? Diagnostic.error(
                        GROUP_BY_RULE,
                        start.advance(sql, from),
                        "column "
                            + shown
                            + " is neither in GROUP BY nor inside an aggregate function; Spark"
                            + " refuses the view at its first refresh ([MISSING_AGGREGATION])"
                            + wins,
                        "add "
                            + shown
                            + " to GROUP BY, or aggregate it (MAX("
                            + shown
                            + "), any_value("
                            + shown
                            + "))")
                    : Diagnostic.error(
                        GROUP_BY_RULE,
                        start.advance(sql, from),
                        "column "
                            + shown
                            + " is selected beside an aggregate function with no GROUP BY; Spark"
                            + " refuses the view at its first refresh ([MISSING_GROUP_BY])"
                            + wins,
                        "add GROUP BY "
                            + shown
                            + ", or aggregate it (MAX("
                            + shown
                            + "), any_value("
                            + shown
                            + "))"));
          }
        }
        if (alias != null) {
          if (!aliases.contains(alias) && readsColumn(expr, alias)) {
            columnAliases.put(
                alias,
                sql.substring(startOf(expr.getParserPosition()), endOf(expr.getParserPosition())));
          }
          aliases.add(alias);
        }
      }
    }

    /**
     * The columns a grouped ({@code grouping}) or aggregating SELECT reads outside any aggregate
     * function inside a SELECT item's expression ({@code sum(amount) / qty}, a CASE around an
     * aggregate, a window's argument or PARTITION BY), in HAVING or in ORDER BY, whose name appears
     * nowhere in GROUP BY: Spark refuses each (measured on Spark 4.1.1: MISSING_AGGREGATION or
     * MISSING_GROUP_BY in the SELECT list, UNRESOLVED_COLUMN in HAVING and ORDER BY). As {@link
     * #bareColumns}, only what is certain: a name that is any item's alias (a lateral alias, HAVING
     * and ORDER BY by alias), a lambda parameter, a datetime unit or a niladic function is left
     * out, as are subqueries and an item GROUP BY names by its alias; HAVING and ORDER BY are left
     * out when GROUP BY names an expression by its alias, which they may repeat.
     */
    private void ungroupedInside(SqlSelect select, Set<String> grouped, boolean grouping) {
      Set<String> aliases = new HashSet<>();
      Set<SqlNode> byAlias = new HashSet<>();
      for (SqlNode item : select.getSelectList()) {
        if (item instanceof SqlCall as && as.getKind() == SqlKind.AS) {
          String alias = writtenAlias(as.operand(1));
          if (alias == null) {
            return;
          }
          aliases.add(alias);
          if (grouped.contains(alias)) {
            byAlias.add(item);
          }
        }
      }
      List<SqlIdentifier> found = new ArrayList<>();
      for (SqlNode item : select.getSelectList()) {
        SqlNode expr =
            item instanceof SqlCall as && as.getKind() == SqlKind.AS ? as.operand(0) : item;
        if (!(expr instanceof SqlIdentifier) && !byAlias.contains(item)) {
          outsideAggregates(expr, Set.of(), found);
        }
      }
      int inSelect = found.size();
      int inHaving = inSelect;
      if (byAlias.isEmpty()) {
        outsideAggregates(select.getHaving(), Set.of(), found);
        inHaving = found.size();
        outsideAggregates(select.getOrderList(), Set.of(), found);
        outsideAggregates(orderedBy.get(select), Set.of(), found);
      }
      Set<String> reported = new HashSet<>();
      for (int i = 0; i < found.size(); i++) {
        SqlIdentifier id = found.get(i);
        List<String> parts = touchesMarker(id) ? null : writtenParts(id);
        if (parts == null
            || (parts.size() == 1
                && (NILADIC.contains(parts.get(0)) || ColumnRefs.UNITS.contains(parts.get(0))))
            || aliases.contains(parts.get(0))
            || parts.get(0).equals("_metadata")
            // HAVING LIMIT: a clause word read as a column, which KEYWORD_READ_AS_COLUMN_NAME tells
            || (parts.size() == 1
                && KeywordNames.CLAUSE_NAMES.contains(parts.get(0).toUpperCase(Locale.ROOT))
                && sql.charAt(startOf(id.getParserPosition())) != '`')
            || parts.stream().anyMatch(grouped::contains)) {
          continue;
        }
        String shown = String.join(".", id.names);
        int from = startOf(id.getParserPosition());
        if (!reported.add(from + " " + shown)) {
          continue;
        }
        boolean selected = i < inSelect;
        String clause = selected ? "" : i < inHaving ? " in HAVING" : " in ORDER BY";
        String refusal =
            !selected
                ? "[UNRESOLVED_COLUMN]: it is no column of the "
                    + (grouping ? "grouped" : "aggregated")
                    + " rows"
                : grouping ? "[MISSING_AGGREGATION]" : "[MISSING_GROUP_BY]";
        findings.add(
            Diagnostic.error(
                GROUP_BY_RULE,
                start.advance(sql, from),
                "column "
                    + shown
                    + clause
                    + (grouping
                        ? " is neither in GROUP BY nor inside an aggregate function"
                        : " is read beside an aggregate function with no GROUP BY, outside any"
                            + " aggregate")
                    + "; Spark refuses the view at its first refresh ("
                    + refusal
                    + ")",
                (grouping ? "add " + shown + " to GROUP BY, or" : "add GROUP BY " + shown + ", or")
                    + " read it inside an aggregate function (MAX("
                    + shown
                    + "), any_value("
                    + shown
                    + "))"));
      }
    }

    /**
     * Adds to {@code out} the columns {@code node} reads outside any aggregate function and any
     * subquery, {@code lambda} the parameters in scope. A window's function is no aggregate of the
     * grouped rows: its arguments, PARTITION BY and ORDER BY read them (sum(sum(x)) OVER () is
     * fine, sum(x) OVER () is not).
     */
    private static void outsideAggregates(
        SqlNode node, Set<String> lambda, List<SqlIdentifier> out) {
      if (node == null) {
        return;
      }
      if (node instanceof SqlNodeList list) {
        for (SqlNode n : list) {
          outsideAggregates(n, lambda, out);
        }
      } else if (node instanceof SqlIdentifier id) {
        // e and e.f of a lambda's parameter e are no columns.
        if (!id.isStar()
            && !id.names.isEmpty()
            && !lambda.contains(id.names.get(0).toLowerCase(Locale.ROOT))) {
          out.add(id);
        }
      } else if (node instanceof SqlWindow window) {
        outsideAggregates(window.getPartitionList(), lambda, out);
        outsideAggregates(window.getOrderList(), lambda, out);
      } else if (node instanceof org.apache.calcite.sql.SqlLambda l) {
        Set<String> inner = new HashSet<>(lambda);
        for (SqlNode p : l.getParameters()) {
          if (p instanceof SqlIdentifier id) {
            inner.add(id.getSimple().toLowerCase(Locale.ROOT));
          }
        }
        outsideAggregates(l.getExpression(), inner, out);
      } else if (node instanceof SqlCall call && !isQuery(call)) {
        switch (call.getKind()) {
          // An alias, a field's name and a named argument's name are not columns.
          case AS, DOT, ARGUMENT_ASSIGNMENT -> outsideAggregates(call.operand(0), lambda, out);
          // count(*) FILTER (WHERE c), percentile_cont(0.5) WITHIN GROUP (ORDER BY x): an
          // aggregate's own clauses read the rows it aggregates.
          case FILTER, WITHIN_GROUP, WITHIN_DISTINCT -> {}
          case OVER -> {
            if (call.operand(0) instanceof SqlCall windowed) {
              windowed.getOperandList().forEach(o -> outsideAggregates(o, lambda, out));
            }
            if (call.operand(1) instanceof SqlWindow window) {
              outsideAggregates(window, lambda, out);
            }
          }
          default -> {
            if (!MisplacedCalls.isAggregate(call)) {
              call.getOperandList().forEach(o -> outsideAggregates(o, lambda, out));
            }
          }
        }
      }
    }

    /**
     * Whether {@code expr} reads a column named {@code name}, written as one name outside any
     * subquery (whose names may be its own) in an item with no lambda parameter of that name: then
     * the FROM clause has such a column.
     */
    private boolean readsColumn(SqlNode expr, String name) {
      boolean[] found = new boolean[2];
      expr.accept(
          new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
              if (isQuery(call)) {
                return null;
              }
              if (call instanceof org.apache.calcite.sql.SqlLambda lambda) {
                for (SqlNode p : lambda.getParameters()) {
                  found[1] |=
                      p instanceof SqlIdentifier id && name.equalsIgnoreCase(id.getSimple());
                }
                lambda.getExpression().accept(this);
                return null;
              }
              if (call.getKind() == SqlKind.AS || call.getKind() == SqlKind.OVER) {
                // struct(k AS p), sum(a) OVER w: the name after AS or OVER is no column.
                call.operand(0).accept(this);
                return null;
              }
              return super.visit(call);
            }

            @Override
            public Void visit(SqlIdentifier id) {
              List<String> parts = touchesMarker(id) ? null : writtenParts(id);
              found[0] |= parts != null && parts.equals(List.of(name)) && !NILADIC.contains(name);
              return null;
            }
          });
      return found[0] && !found[1];
    }

    /**
     * The GROUP BY and ORDER BY positions of a SELECT that Spark refuses ({@link Ordinals}), when
     * its SELECT list's length is certain.
     */
    private void ordinals(SqlSelect select) {
      int width = certainWidth(select);
      if (width == ColumnLists.UNKNOWN) {
        return;
      }
      if (select.getGroup() != null) {
        for (SqlNode item : select.getGroup()) {
          for (SqlNode literal : Ordinals.inGroupBy(item)) {
            groupPosition(select, literal, width);
          }
        }
      }
      if (select.getOrderList() != null) {
        orderPositions(select.getOrderList(), width);
      }
    }

    /**
     * The number of columns {@code query} selects when its text fixes it: no {@code *}, no
     * generator (which may give several), no rewritten text in its first SELECT list.
     */
    private int certainWidth(SqlNode query) {
      SqlNode first = query;
      while (!(first instanceof SqlSelect)) {
        if (first instanceof SqlOrderBy o) {
          first = o.query;
        } else if (first instanceof SqlWith w) {
          first = w.body;
        } else if (first instanceof SqlCall c && c.getOperator() instanceof SqlSetOperator) {
          first = c.operand(0);
        } else {
          return ColumnLists.UNKNOWN;
        }
      }
      for (SqlNode item : ((SqlSelect) first).getSelectList()) {
        SqlNode value =
            item instanceof SqlCall as && as.getKind() == SqlKind.AS ? as.operand(0) : item;
        if (touchesMarker(item)
            || (value instanceof SqlCall call
                && OutputNames.GENERATORS.contains(SparkSyntaxRewriter.functionName(call)))) {
          return ColumnLists.UNKNOWN;
        }
      }
      return ColumnLists.width(query);
    }

    private void groupPosition(SqlSelect select, SqlNode literal, int width) {
      OptionalInt position = writtenPosition(literal);
      if (position.isEmpty()) {
        return;
      }
      int p = position.getAsInt();
      Position at = start.advance(sql, literalStart(literal));
      if (p < 1 || p > width) {
        findings.add(outOfRange("GROUP BY", p, width, at));
        return;
      }
      SqlNode item = select.getSelectList().get(p - 1);
      SqlNode value =
          item instanceof SqlCall as && as.getKind() == SqlKind.AS ? as.operand(0) : item;
      Optional<SqlCall> aggregate = MisplacedCalls.aggregate(value);
      if (aggregate.isPresent() && !touchesMarker(value)) {
        SqlParserPos pos = value.getParserPosition();
        String text = sql.substring(startOf(pos), Math.min(sql.length(), endOf(pos)));
        findings.add(
            Diagnostic.error(
                ORDINAL_RULE,
                at,
                "GROUP BY "
                    + p
                    + " names item "
                    + p
                    + " of the SELECT list, "
                    + (text.length() > 60 ? text.substring(0, 57) + "..." : text)
                    + ", which holds the aggregate function "
                    + SparkSyntaxRewriter.functionName(aggregate.get())
                    + "; Spark refuses the view at its first refresh ([GROUP_BY_POS_AGGREGATE])",
                "group by the other items only: an aggregate is computed for each group, not"
                    + " grouped by"));
      }
    }

    private void orderPositions(SqlNodeList orderList, int width) {
      if (width == ColumnLists.UNKNOWN) {
        return;
      }
      for (SqlNode item : orderList) {
        SqlNode literal = Ordinals.inOrderBy(item);
        OptionalInt position = literal == null ? OptionalInt.empty() : writtenPosition(literal);
        if (position.isPresent() && (position.getAsInt() < 1 || position.getAsInt() > width)) {
          findings.add(
              outOfRange(
                  "ORDER BY",
                  position.getAsInt(),
                  width,
                  start.advance(sql, literalStart(literal))));
        }
      }
    }

    /** Where a literal's text starts, past the parentheses Calcite's span may hold. */
    private int literalStart(SqlNode literal) {
      int at = startOf(literal.getParserPosition());
      while (at < sql.length()
          && (sql.charAt(at) == '(' || Character.isWhitespace(sql.charAt(at)))) {
        at++;
      }
      return at;
    }

    /** The position a literal stands for as written (2L is no position), or empty. */
    private OptionalInt writtenPosition(SqlNode literal) {
      if (touchesMarker(literal)) {
        return OptionalInt.empty();
      }
      SqlParserPos pos = literal.getParserPosition();
      int to = Math.min(sql.length(), endOf(pos));
      if (to < sql.length()
          && (Character.isLetterOrDigit(sql.charAt(to)) || sql.charAt(to) == '.')) {
        return OptionalInt.empty(); // 2L, 2BD: the rewriter took the suffix off for Calcite
      }
      // Calcite may span (5) for the 5 in it; Spark reads both as the position.
      return Ordinals.position(sql.substring(startOf(pos), to).replaceAll("[()\\s]", ""));
    }

    private static Diagnostic outOfRange(String clause, int p, int width, Position at) {
      String error = clause.startsWith("GROUP") ? "GROUP_BY" : "ORDER_BY";
      return Diagnostic.error(
          ORDINAL_RULE,
          at,
          clause
              + " "
              + p
              + " names item "
              + p
              + " of the SELECT list, which has "
              + (width == 1 ? "1 item" : width + " items")
              + "; Spark refuses the view at its first refresh (["
              + error
              + "_POS_OUT_OF_RANGE])",
          clause
              + " reads a whole number as the position of a SELECT item, from 1 to "
              + width
              + ": write a number in that range, or the column or expression itself");
    }

    /**
     * An aggregate nested in another, and (outside subqueries in expressions, whose aggregates may
     * be the outer query's) an aggregate, window function or generator in WHERE or GROUP BY: Spark
     * refuses each at the view's first refresh. One finding per clause.
     */
    private void misplacedCalls(SqlSelect select) {
      List<Optional<MisplacedCalls.Found>> found = new ArrayList<>();
      if (inExpression == 0) {
        found.add(MisplacedCalls.inWhere(select.getWhere()));
        if (select.getGroup() != null) {
          found.add(
              select.getGroup().stream()
                  .map(MisplacedCalls::inGroupBy)
                  .flatMap(Optional::stream)
                  .findFirst());
        }
      }
      found.add(
          select.getSelectList().stream()
              .map(MisplacedCalls::nestedAggregate)
              .flatMap(Optional::stream)
              .findFirst());
      found.add(MisplacedCalls.nestedAggregate(select.getHaving()));
      found.add(
          select.getSelectList().stream()
              .map(MisplacedCalls::nestedGenerator)
              .flatMap(Optional::stream)
              .findFirst());
      found.add(MisplacedCalls.windowInHaving(select.getHaving()));
      if (select.getOrderList() != null) {
        found.add(windowInOrderBy(select.getOrderList()));
      }
      found.stream().flatMap(Optional::stream).forEach(this::misplaced);
    }

    private static Optional<MisplacedCalls.Found> windowInOrderBy(SqlNodeList orderList) {
      return orderList.stream()
          .map(MisplacedCalls::windowInOrderBy)
          .flatMap(Optional::stream)
          .findFirst();
    }

    private void misplaced(MisplacedCalls.Found f) {
      if (touchesMarker(f.call())) {
        return; // rewritten text: its span is not the call as written
      }
      SqlParserPos pos = f.call().getParserPosition();
      int from = startOf(pos);
      String text = sql.substring(from, Math.min(sql.length(), Math.max(from, endOf(pos))));
      String shown = text.length() > 60 ? text.substring(0, 57) + "..." : text;
      findings.add(
          Diagnostic.error(
              MISPLACED_CALL_RULE,
              start.advance(sql, from),
              f.what()
                  + " ("
                  + shown
                  + "); Spark refuses the view at its first refresh"
                  + refusal(f.sparkError()),
              misplacedHint(f)));
    }

    /**
     * Spark's refusal as a message ends: " ([ERROR_CLASS])", or its message quoted where it has no
     * class, or nothing where its message names internals.
     */
    private static String refusal(String sparkError) {
      return sparkError.isEmpty()
          ? ""
          : sparkError.contains(" ") ? " (\"" + sparkError + "\")" : " ([" + sparkError + "])";
    }

    private static String misplacedHint(MisplacedCalls.Found f) {
      if (f.sparkError().equals("NESTED_AGGREGATE_FUNCTION")) {
        return "compute the inner aggregate in a subquery or CTE and aggregate its result outside";
      }
      if (f.sparkError().startsWith("UNSUPPORTED_GENERATOR.NESTED")) {
        return "select the generator as an item of its own (or in a LATERAL VIEW) in a subquery"
            + " or CTE, and apply the function to its column outside";
      }
      if (f.what().endsWith(" in ORDER BY")) {
        return "select the window with an alias (..., rank() OVER (...) AS r) and order by r";
      }
      if (f.what().endsWith(" in GROUP BY")) {
        return "group by the columns it reads, or compute it in a subquery or CTE and group by"
            + " its result";
      }
      return f.what().startsWith("aggregate")
          ? "filter groups with HAVING, or compute the aggregate in a subquery or CTE and filter"
              + " on its result"
          : "compute it in a subquery or CTE and filter on its result outside";
    }

    /**
     * Windows named in OVER must be defined by this SELECT's WINDOW clause, once each: Spark
     * refuses OVER w without one ([MISSING_WINDOW_SPECIFICATION]) and a name defined twice
     * ([INVALID_SQL_SYNTAX.REPETITIVE_WINDOW_DEFINITION]) when the view first refreshes.
     */
    private void windowNames(SqlSelect select, Set<String> inherited) {
      // Spark compares window names with their case (measured: WINDOW w, W is no repetition, and
      // OVER w finds no WINDOW W).
      Set<String> defined = new HashSet<>();
      for (SqlNode w : select.getWindowList()) {
        if (w instanceof SqlWindow window && window.getDeclName() != null) {
          String name = window.getDeclName().getSimple();
          if (!defined.add(name) && !touchesMarker(window.getDeclName())) {
            findings.add(
                Diagnostic.error(
                    WINDOW_NAME_RULE,
                    start.advance(sql, startOf(window.getDeclName().getParserPosition())),
                    "window "
                        + window.getDeclName().getSimple()
                        + " is defined twice in the WINDOW clause; Spark refuses the view at its"
                        + " first refresh ([INVALID_SQL_SYNTAX.REPETITIVE_WINDOW_DEFINITION])",
                    "give each window a name of its own"));
          }
        }
      }
      List<SqlIdentifier> used = new ArrayList<>();
      for (SqlNode n : select.getSelectList()) {
        windowRefs(n, used);
      }
      windowRefs(select.getHaving(), used);
      windowRefs(select.getQualify(), used);
      for (SqlIdentifier ref : used) {
        String name = ref.getSimple();
        if (!defined.contains(name) && !inherited.contains(name) && !touchesMarker(ref)) {
          findings.add(
              Diagnostic.error(
                  WINDOW_NAME_RULE,
                  start.advance(sql, startOf(ref.getParserPosition())),
                  "window "
                      + ref.getSimple()
                      + " is not defined: this SELECT has no WINDOW "
                      + ref.getSimple()
                      + " AS (...); Spark refuses the view at its first refresh"
                      + " ([MISSING_WINDOW_SPECIFICATION])",
                  defined.isEmpty()
                      ? "add WINDOW "
                          + ref.getSimple()
                          + " AS (PARTITION BY ... ORDER BY ...) after the GROUP BY/HAVING of"
                          + " this SELECT, or write the window in OVER (...)"
                      : "the windows of this SELECT are "
                          + String.join(", ", new TreeSet<>(defined))));
        }
      }
    }

    /**
     * Each window function of this SELECT (its items, HAVING, QUALIFY, ORDER BY) over a window
     * Spark refuses for it: one finding per call, at the call. A window named in OVER is looked up
     * in this SELECT's WINDOW clause (a name it does not define is WINDOW_NAME's); a refinement of
     * a named window, which Spark's grammar refuses, and rewritten text are left alone.
     */
    private void windowSpecs(SqlSelect select) {
      Map<String, SqlWindow> declared = new HashMap<>();
      for (SqlNode w : select.getWindowList()) {
        if (w instanceof SqlWindow window && window.getDeclName() != null) {
          declared.putIfAbsent(window.getDeclName().getSimple(), window);
        }
      }
      List<SqlCall> overs = new ArrayList<>();
      windowCalls(select.getSelectList(), overs);
      windowCalls(select.getHaving(), overs);
      windowCalls(select.getQualify(), overs);
      windowCalls(select.getOrderList(), overs);
      List<SqlNode> clauses = new ArrayList<>(select.getSelectList());
      clauses.add(select.getWhere());
      if (select.getGroup() != null) {
        clauses.addAll(select.getGroup());
      }
      clauses.add(select.getHaving());
      clauses.add(select.getQualify());
      clauses.add(select.getOrderList());
      clauses.forEach(this::withoutOver);
      for (SqlCall over : overs) {
        SqlWindow window = windowOf(over.operand(1), declared);
        if (window == null || touchesMarker(over) || touchesMarker(window)) {
          continue;
        }
        String function = WindowSpecs.function(over);
        SqlParserPos pos = window.getParserPosition();
        String text = sql.substring(startOf(pos), Math.min(sql.length(), endOf(pos)));
        boolean sorted = SPARK_SORT.matcher(text).find();
        WindowSpecs.refusedOverAWindow(over, function)
            .or(() -> WindowSpecs.check(function, window, sorted))
            .ifPresent(f -> windowFinding(over, f));
      }
    }

    /** A window-only function called without OVER in {@code node} ({@link WindowSpecs}). */
    private void withoutOver(SqlNode node) {
      WindowSpecs.withoutOver(node)
          .filter(call -> !touchesMarker(call))
          .ifPresent(
              call ->
                  windowFinding(
                      call, WindowSpecs.withoutOver(SparkSyntaxRewriter.functionName(call))));
    }

    private void windowFinding(SqlCall at, WindowSpecs.Found f) {
      findings.add(
          Diagnostic.error(
              WINDOW_SPEC_RULE,
              start.advance(sql, startOf(at.getParserPosition())),
              f.what() + "; Spark refuses the view at its first refresh" + refusal(f.sparkError()),
              f.hint()));
    }

    /**
     * SORT BY in a window's text: Spark's word for its ORDER BY. CLUSTER BY in a window only
     * partitions it (measured: lag(x) OVER (CLUSTER BY x) needs an ordered window).
     */
    private static final java.util.regex.Pattern SPARK_SORT =
        java.util.regex.Pattern.compile("(?i)\\bSORT\\s+BY\\b");

    /**
     * The window an OVER call applies, with named windows resolved ({@code OVER w}, {@code OVER
     * (w)}, {@code WINDOW w2 AS w}); null when a name is not defined here or a named window is
     * refined.
     */
    private static SqlWindow windowOf(SqlNode spec, Map<String, SqlWindow> declared) {
      SqlNode at = spec;
      for (int hops = 0; hops <= 2 * declared.size() + 1; hops++) {
        if (at instanceof SqlIdentifier id && id.isSimple()) {
          at = declared.get(id.getSimple());
        } else if (at instanceof SqlWindow window && window.getRefName() != null) {
          boolean refined =
              window.getLowerBound() != null
                  || (window.getOrderList() != null && !window.getOrderList().isEmpty())
                  || (window.getPartitionList() != null && !window.getPartitionList().isEmpty());
          if (refined) {
            return null;
          }
          at = window.getRefName();
        } else {
          return at instanceof SqlWindow window ? window : null;
        }
      }
      return null; // a cycle of names: Spark refuses it on its own
    }

    /** The OVER calls in {@code node}, outside nested queries. */
    private static void windowCalls(SqlNode node, List<SqlCall> out) {
      if (node == null || isQuery(node)) {
        return;
      }
      if (node instanceof SqlCall call) {
        if (call.getKind() == SqlKind.OVER && call.operandCount() > 1) {
          out.add(call);
        }
        for (SqlNode operand : call.getOperandList()) {
          windowCalls(operand, out);
        }
      } else if (node instanceof SqlNodeList list) {
        for (SqlNode item : list) {
          windowCalls(item, out);
        }
      }
    }

    private static Set<String> declaredWindows(SqlSelect select) {
      Set<String> names = new HashSet<>();
      for (SqlNode w : select.getWindowList()) {
        if (w instanceof SqlWindow window && window.getDeclName() != null) {
          names.add(window.getDeclName().getSimple());
        }
      }
      return names;
    }

    /** The window names read by OVER in {@code node}, outside nested queries. */
    private static void windowRefs(SqlNode node, List<SqlIdentifier> out) {
      if (node == null || isQuery(node)) {
        return;
      }
      if (node instanceof SqlCall call) {
        if (call.getKind() == SqlKind.OVER && call.operandCount() > 1) {
          SqlNode w = call.operand(1);
          if (w instanceof SqlIdentifier id && id.isSimple()) {
            out.add(id);
          } else if (w instanceof SqlWindow window
              && window.getRefName() != null
              && window.getRefName().isSimple()) {
            out.add(window.getRefName());
          }
        }
        for (SqlNode operand : call.getOperandList()) {
          windowRefs(operand, out);
        }
      } else if (node instanceof SqlNodeList list) {
        for (SqlNode item : list) {
          windowRefs(item, out);
        }
      }
    }

    /**
     * Calcite takes an alias after PIVOT (...), as UNPIVOT has one; Spark's grammar gives PIVOT
     * none, so the view would fail at apply with a parse error.
     */
    private void pivotAlias(SqlNode alias) {
      if (touchesMarker(alias)) {
        return;
      }
      int at = startOf(alias.getParserPosition());
      int word = at - 1;
      while (word >= 0 && Character.isWhitespace(sql.charAt(word))) {
        word--;
      }
      // Point at AS when it is written, where Spark's parser stops.
      if (word >= 1 && sql.regionMatches(true, word - 1, "AS", 0, 2)) {
        at = word - 1;
      }
      findings.add(
          Diagnostic.error(
              PARSE_RULE,
              start.advance(sql, at),
              "PIVOT takes no alias in Spark SQL (UNPIVOT does): Spark refuses '"
                  + alias
                  + "' after PIVOT (...) with a syntax error",
              "remove the alias; to name the pivoted rows, wrap them in a subquery:"
                  + " FROM (SELECT * FROM ... PIVOT (...)) AS "
                  + alias));
    }

    /** Each use of an uncast variant path Spark refuses, once per path ({@link VariantPaths}). */
    private void variantMisuses(List<VariantPaths.Misuse> misuses) {
      Map<Integer, VariantPaths.Misuse> first = new java.util.TreeMap<>();
      for (VariantPaths.Misuse m : misuses) {
        if (!touchesMarker(m.path())) {
          first.putIfAbsent(startOf(OutputNames.start(m.path())), m);
        }
      }
      for (Map.Entry<Integer, VariantPaths.Misuse> e : first.entrySet()) {
        VariantPaths.Misuse m = e.getValue();
        int from = e.getKey();
        SqlParserPos pos = m.path().getParserPosition();
        int to = Math.min(sql.length(), Math.max(from, endOf(pos)));
        // (v:a): placed at the path, not at the parenthesis Calcite's node starts with.
        while (to - from > 2 && sql.charAt(from) == '(' && sql.charAt(to - 1) == ')') {
          from++;
          to--;
          while (from < to && Character.isWhitespace(sql.charAt(from))) {
            from++;
          }
          while (to > from && Character.isWhitespace(sql.charAt(to - 1))) {
            to--;
          }
        }
        // A path written over lines is quoted on one.
        String text = sql.substring(from, to).replaceAll("\\s+", " ");
        findings.add(
            Diagnostic.error(
                VariantPaths.RULE,
                start.advance(sql, from),
                text
                    + " is a VARIANT value, and Spark cannot "
                    + m.use()
                    + " until it is cast; Spark refuses the view at its first refresh (["
                    + m.sparkError()
                    + "])",
                "cast the path to the type it holds, for example "
                    + text
                    + m.cast()
                    + ", or try_cast("
                    + text
                    + " AS "
                    + m.cast().substring(2).toUpperCase(Locale.ROOT)
                    + ") for NULL where it holds another type"));
      }
    }

    /**
     * A correlated scalar subquery in a grouped SELECT's item, outside an aggregate: Spark refuses
     * it at its opening parenthesis ({@link GroupedSubqueries}).
     */
    private void groupedSubqueries(SqlSelect select) {
      for (GroupedSubqueries.Found f : GroupedSubqueries.of(select)) {
        SqlParserPos pos = f.subquery().getParserPosition();
        if (touchesMarker(f.subquery()) || touchesMarker(f.outer())) {
          continue;
        }
        int at = startOf(pos);
        int open = at - 1;
        while (open >= 0 && Character.isWhitespace(sql.charAt(open))) {
          open--;
        }
        String column = String.join(".", f.outer().names);
        findings.add(
            Diagnostic.error(
                GROUP_BY_RULE,
                start.advance(sql, open >= 0 && sql.charAt(open) == '(' ? open : at),
                "the subquery reads "
                    + column
                    + " of the outer query and is neither in GROUP BY nor inside an aggregate"
                    + " function; Spark refuses such a correlated subquery in a grouped SELECT,"
                    + " even over a grouped column, at the view's first refresh"
                    + " ([SCALAR_SUBQUERY_IS_IN_GROUP_BY_OR_AGGREGATE_FUNCTION])",
                "wrap the subquery in an aggregate (any_value((SELECT ...)), max((SELECT ...))),"
                    + " add it to GROUP BY, or join its table and aggregate the joined column"));
      }
    }

    /** Offset in the file's SQL where Calcite's {@code pos} starts, fragments' wrapper line off. */
    private int startOf(SqlParserPos pos) {
      return offsetOf(sql, pos.getLineNum() - lineShift, pos.getColumnNum());
    }

    /** Offset just past Calcite's {@code pos}. */
    private int endOf(SqlParserPos pos) {
      return offsetOf(sql, pos.getEndLineNum() - lineShift, pos.getEndColumnNum()) + 1;
    }

    /** Whether a placeholder of the rewriter sits in {@code node}'s text. */
    private boolean touchesMarker(SqlNode node) {
      SqlParserPos pos = node.getParserPosition();
      if (pos == null || pos.getLineNum() <= lineShift) {
        return true;
      }
      int from = startOf(pos);
      int to = endOf(pos);
      return markers.stream().anyMatch(m -> m >= from && m < to);
    }

    /** The parts of an identifier as the file writes it, lower case; null if not found there. */
    private List<String> writtenParts(SqlIdentifier id) {
      SqlParserPos pos = id.getParserPosition();
      if (pos == null || pos.getLineNum() <= lineShift) {
        return null;
      }
      int from = startOf(pos);
      int to = endOf(pos);
      List<String> parts = partsOf(sql.substring(from, Math.min(sql.length(), Math.max(from, to))));
      return parts.size() == id.names.size() && !parts.isEmpty() ? parts : null;
    }

    private String writtenAlias(SqlNode node) {
      List<String> parts = node instanceof SqlIdentifier id ? writtenParts(id) : null;
      return parts == null || parts.size() != 1 ? null : parts.get(0);
    }

    private void limit(SqlNode offset, SqlNode fetch, Set<String> ctes) {
      if (offset != null || fetch != null) {
        features.add(QueryFeature.LIMIT);
        expression(offset, ctes);
        expression(fetch, ctes);
      }
    }

    private void from(SqlNode node, Set<String> ctes) {
      if (node instanceof SqlIdentifier identifier) {
        table(identifier, ctes);
      } else if (node instanceof SqlJoin join) {
        join(join);
        from(join.getLeft(), ctes);
        from(join.getRight(), ctes);
        expression(join.getCondition(), ctes);
      } else if (node instanceof SqlSnapshot snapshot) {
        features.add(QueryFeature.TIME_TRAVEL);
        from(snapshot.getTableRef(), ctes);
        expression(snapshot.getPeriod(), ctes);
      } else if (node instanceof SqlPivot pivot) {
        from(pivot.query, ctes);
        expression(pivot.aggList, ctes);
        expression(pivot.axisList, ctes);
        expression(pivot.inList, ctes);
      } else if (node instanceof SqlUnpivot unpivot) {
        from(unpivot.query, ctes);
      } else if (node instanceof SqlMatchRecognize match) {
        from(match.getTableRef(), ctes);
      } else if (node instanceof SqlBasicCall call) {
        fromCall(call, ctes);
      } else {
        query(node, ctes);
      }
    }

    private void fromCall(SqlBasicCall call, Set<String> ctes) {
      switch (call.getKind()) {
        case AS -> {
          if (call.operand(0) instanceof SqlPivot) {
            pivotAlias(call.operand(1));
          }
          from(call.operand(0), ctes);
        }
        case EXPLICIT_TABLE -> from(call.operand(0), ctes);
        case LATERAL -> {
          // A lateral subquery may name the columns of the tables before it, as an expression's.
          inExpression++;
          from(call.operand(0), ctes);
          inExpression--;
        }
        case TABLESAMPLE -> {
          features.add(QueryFeature.TABLE_SAMPLE);
          from(call.operand(0), ctes);
        }
        case COLLECTION_TABLE -> {
          features.add(QueryFeature.TABLE_FUNCTION);
          expression(call.operand(0), ctes);
        }
        case UNNEST -> expression(call, ctes);
        default -> query(call, ctes);
      }
    }

    private void join(SqlJoin join) {
      JoinType type = join.getJoinType();
      QueryFeature feature =
          switch (type) {
            // Spark reads a comma between FROM items as an inner join without a condition.
            case INNER, COMMA -> QueryFeature.INNER_JOIN;
            case LEFT -> QueryFeature.LEFT_OUTER_JOIN;
            case RIGHT -> QueryFeature.RIGHT_OUTER_JOIN;
            case FULL -> QueryFeature.FULL_OUTER_JOIN;
            case CROSS -> QueryFeature.CROSS_JOIN;
            case LEFT_SEMI_JOIN -> QueryFeature.LEFT_SEMI_JOIN;
            case LEFT_ANTI_JOIN -> QueryFeature.LEFT_ANTI_JOIN;
            default -> null;
          };
      if (feature != null) {
        features.add(feature);
      }
    }

    private void table(SqlIdentifier identifier, Set<String> ctes) {
      SqlParserPos pos = identifier.getParserPosition();
      int from = startOf(pos);
      if (markers.contains(from)) {
        return;
      }
      int to = endOf(pos);
      String text = sql.substring(from, Math.min(sql.length(), Math.max(from, to)));
      List<String> parts = partsOf(text);
      if (parts.size() != identifier.names.size()) {
        // The span did not cover the name as written (a fragment rebuilt by the rewriter).
        parts = identifier.names.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
        text = String.join(".", identifier.names);
      }
      if (parts.size() == 1 && ctes.contains(parts.get(0))) {
        return;
      }
      if (isPathTable(parts)) {
        features.add(QueryFeature.PATH_TABLE);
        return;
      }
      refs.add(new Ref(from, new Name(parts, text, start.advance(sql, from))));
    }

    /** The parts of a name as written: split at dots outside backticks, unquoted, lower case. */
    private static List<String> partsOf(String text) {
      return SqlToken.tokenize(text).stream()
          .filter(SqlToken::isIdentifier)
          .map(token -> token.identifierValue().toLowerCase(Locale.ROOT))
          .toList();
    }

    private void expression(SqlNode node, Set<String> ctes) {
      if (node == null) {
        return;
      }
      if (node instanceof SqlNodeList list) {
        for (SqlNode item : list) {
          expression(item, ctes);
        }
      } else if (isQuery(node)) {
        features.add(QueryFeature.SUBQUERY_EXPRESSION);
        if (!rowsSubquery) {
          scalarWidth(node);
        }
        rowsSubquery = false;
        String lambdaOf = inLambdaOf;
        if (lambdaOf != null) {
          subqueryInLambda(node, lambdaOf);
        }
        inLambdaOf = null; // one finding for the outermost subquery of a lambda
        inExpression++;
        query(node, ctes);
        inExpression--;
        inLambdaOf = lambdaOf;
      } else if (node instanceof SqlCall call) {
        call(call, ctes);
      } else if (node instanceof SqlIdentifier id
          && id.names.size() == 1
          && !id.isComponentQuoted(0)
          && NonDeterministic.bareCall(id.getSimple()).isPresent()) {
        // Calcite reads current_date without parentheses as a column; Spark as the function.
        functions.add(id.getSimple().toLowerCase(Locale.ROOT));
      }
    }

    private void call(SqlCall call, Set<String> ctes) {
      if (call.getKind() == SqlKind.OVER) {
        features.add(QueryFeature.WINDOW_FUNCTION);
      }
      // Only calls by name: Calcite resolves the special syntaxes it knows while parsing (TRIM,
      // EXTRACT, TIMESTAMPADD, translate as TRANSLATE3...) and gives them names of its own.
      if (call.getOperator() instanceof SqlUnresolvedFunction function) {
        // A qualified name (builtin.sum, my_schema.f) is kept whole: Spark 4.1.1 looks it up as a
        // function of a catalog's schema, never as the built-in of its last part (measured:
        // builtin.upper and system.builtin.upper are refused, on spark_catalog as on lh).
        SqlIdentifier id = function.getSqlIdentifier();
        String name =
            id != null && id.names.size() > 1 ? String.join(".", id.names) : function.getName();
        functions.add(SparkSyntaxRewriter.unhide(name).toLowerCase(Locale.ROOT));
      }
      if (SparkSyntaxRewriter.isDistinct(call)) {
        features.add(QueryFeature.DISTINCT);
      }
      if (call.getKind() == SqlKind.PLUS && call.operandCount() == 2) {
        stringPlus(call);
      }
      if ((call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN)
          && call.operandCount() == 2
          && isQuery(call.operand(1))) {
        inWidth(call.operand(0), call.operand(1));
      }
      for (SqlNode operand : call.getOperandList()) {
        String lambdaOf = inLambdaOf;
        if (operand instanceof org.apache.calcite.sql.SqlLambda) {
          inLambdaOf = SparkSyntaxRewriter.unhide(call.getOperator().getName());
        }
        rowsSubquery = isQuery(operand) && !SCALAR_CONTEXT.test(call, operand);
        expression(operand, ctes);
        rowsSubquery = false;
        inLambdaOf = lambdaOf;
      }
    }

    /**
     * Whether a subquery operand of {@code call} stands for one value: everywhere but as the rows
     * of IN, EXISTS, a quantified comparison or a query constructor.
     */
    private static final java.util.function.BiPredicate<SqlCall, SqlNode> SCALAR_CONTEXT =
        (call, operand) ->
            switch (call.getKind()) {
              case IN, NOT_IN -> operand != call.operand(1);
              case EXISTS,
                  UNIQUE,
                  SOME,
                  ALL,
                  ARRAY_QUERY_CONSTRUCTOR,
                  MAP_QUERY_CONSTRUCTOR,
                  MULTISET_QUERY_CONSTRUCTOR,
                  LATERAL,
                  WITH,
                  ORDER_BY ->
                  false;
              default -> !(call.getOperator() instanceof SqlSetOperator);
            };

    /**
     * A scalar subquery whose SELECT list tells that it gives two or more columns: Spark refuses it
     * at the view's first refresh. Nothing is claimed when a {@code *} or a generator leaves the
     * count to Spark.
     */
    private void scalarWidth(SqlNode subquery) {
      if (touchesMarker(subquery)) {
        return;
      }
      int width = ColumnLists.width(subquery);
      if (width == ColumnLists.UNKNOWN || width < 2) {
        return;
      }
      findings.add(
          Diagnostic.error(
              SUBQUERY_COLUMN_COUNT_RULE,
              start.advance(sql, queryStart(subquery)),
              "this scalar subquery selects "
                  + width
                  + " columns where one value is read: Spark refuses the view at its first"
                  + " refresh ([INVALID_SUBQUERY_EXPRESSION"
                  + ".SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN])",
              "select one column in the subquery; for several values, join the query in (from a"
                  + " CTE or a subquery in FROM) and read its columns"));
    }

    /**
     * {@code x IN (SELECT a, b ...)} or {@code (x, y) IN (SELECT a ...)}: the values before IN and
     * the columns of the subquery differ in number, where both are told (a parenthesised list of
     * values is as many, {@code STRUCT(x, y)} is left to Spark, which takes its fields as values;
     * the subquery's SELECT list without {@code *} or generator). Only a subquery in one pair of
     * parentheses: in two, Spark reads it as a scalar subquery among the values.
     */
    private void inWidth(SqlNode values, SqlNode subquery) {
      if (touchesMarker(values) || touchesMarker(subquery)) {
        return;
      }
      int left;
      if (values instanceof SqlCall row && row.getKind() == SqlKind.ROW) {
        left = row.operandCount();
      } else if (values instanceof SqlCall c
          && c.getOperator().getName().equalsIgnoreCase("struct")) {
        return;
      } else {
        left = 1;
      }
      int right = ColumnLists.width(subquery);
      if (right == ColumnLists.UNKNOWN || right == left) {
        return;
      }
      int at = queryStart(subquery);
      int open = at - 1;
      while (open >= 0 && Character.isWhitespace(sql.charAt(open))) {
        open--;
      }
      int before = open - 1;
      while (before >= 0 && Character.isWhitespace(sql.charAt(before))) {
        before--;
      }
      if (open < 0
          || sql.charAt(open) != '('
          || before < 1
          || !sql.regionMatches(true, before - 1, "IN", 0, 2)) {
        return;
      }
      findings.add(
          Diagnostic.error(
              SUBQUERY_COLUMN_COUNT_RULE,
              start.advance(sql, at),
              "this IN subquery selects "
                  + columns(right)
                  + " and "
                  + (left == 1 ? "1 value stands" : left + " values stand")
                  + " before IN: Spark refuses the view at its first refresh"
                  + " ([DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH])",
              left == 1
                  ? "select one column in the subquery, or compare several with (a, b) IN (SELECT"
                      + " a, b ...)"
                  : "select as many columns in the subquery as there are values in (...) before"
                      + " IN"));
    }

    /**
     * Strings that ANSI casts read as numbers or timestamps though they hold no digit (measured:
     * amount + 'Infinity' runs); a literal like one is left to Spark.
     */
    private static final Set<String> NUMBER_WORDS =
        Set.of(
            "nan",
            "+nan",
            "-nan",
            "inf",
            "+inf",
            "-inf",
            "infinity",
            "+infinity",
            "-infinity",
            "now",
            "today",
            "yesterday",
            "tomorrow",
            "epoch");

    /**
     * T-SQL's {@code +} to join strings, {@code name + ' ' + region}: Spark's {@code +} adds
     * numbers, and refuses one operand a string literal that holds no digit whatever the other is
     * and whatever the data (measured on Spark 4.1.1, over an empty table too: a string, a date, a
     * timestamp, a boolean, NULL or another string literal beside it is BINARY_OP_WRONG_TYPE or
     * UNEXPECTED_INPUT_TYPE at analysis; a number or an interval, CAST_INVALID_INPUT as the literal
     * is folded). Left alone beside {@code ||}, which Spark binds as tightly as {@code +}, so its
     * operand may not be the literal alone there.
     */
    private void stringPlus(SqlCall call) {
      SqlNode literal =
          call.operand(0) instanceof org.apache.calcite.sql.SqlCharStringLiteral
              ? call.operand(0)
              : call.operand(1);
      if (!(literal instanceof org.apache.calcite.sql.SqlCharStringLiteral string)
          || touchesMarker(call)) {
        return;
      }
      String value = string.getValueAs(String.class);
      if (value.indexOf('\\') >= 0
          || value.chars().anyMatch(c -> c >= '0' && c <= '9')
          || NUMBER_WORDS.contains(value.strip().toLowerCase(Locale.ROOT))) {
        return;
      }
      int from = startOf(literal.getParserPosition());
      int to = endOf(literal.getParserPosition());
      List<SqlToken> tokens = SqlToken.tokenize(sql);
      int plus = -1;
      for (int i = 0; i < tokens.size(); i++) {
        SqlToken t = tokens.get(i);
        boolean next = i + 1 < tokens.size();
        if (t.end() <= from && next && tokens.get(i + 1).start() >= from) {
          // The tokens either side of the literal: a + on one, no || on either.
          SqlToken after = null;
          for (int j = i + 1; j < tokens.size(); j++) {
            if (tokens.get(j).start() >= to) {
              after = tokens.get(j);
              break;
            }
          }
          if (t.isSymbol("||") || after != null && after.isSymbol("||")) {
            return;
          }
          plus =
              t.isSymbol("+")
                  ? t.start()
                  : after != null && after.isSymbol("+") ? after.start() : -1;
          break;
        }
      }
      if (plus < 0) {
        return;
      }
      String written = sql.substring(from, Math.min(sql.length(), to));
      findings.add(
          Diagnostic.error(
              NOT_SPARK_RULE,
              start.advance(sql, plus),
              "+ to join the string "
                  + written
                  + " is not Spark SQL: Spark 4.1 (Fabric Runtime 2.0) adds numbers with +, and"
                  + " refuses a string that is no number as an operand whatever the data"
                  + " ([DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE] beside a string,"
                  + " [CAST_INVALID_INPUT] beside a number)",
              "concatenate with || or concat(...): name || ' ' || region"));
    }

    /** Where a subquery's text starts: its first word, after any parentheses around it. */
    private int queryStart(SqlNode subquery) {
      int at = startOf(subquery.getParserPosition());
      while (at < sql.length()
          && (sql.charAt(at) == '(' || Character.isWhitespace(sql.charAt(at)))) {
        at++;
      }
      return at;
    }

    /**
     * A column a SELECT DISTINCT sorts by without selecting it: Spark sorts the distinct rows by
     * their own columns only and refuses the view at its first refresh (found by QA). Only bare
     * names against a SELECT list that names every column ({@code *} leaves it to Spark).
     */
    private void distinctOrder(SqlSelect select, SqlNodeList orderList) {
      if (!select.isDistinct() || select.getGroup() != null || orderList == null) {
        return;
      }
      Set<String> selected = new HashSet<>();
      for (SqlNode item : select.getSelectList()) {
        if (item instanceof SqlCall as && as.getKind() == SqlKind.AS) {
          if (as.operand(as.operandCount() - 1) instanceof SqlIdentifier alias) {
            selected.add(alias.names.get(alias.names.size() - 1).toLowerCase(Locale.ROOT));
          }
          if (as.operandCount() > 2) {
            return; // a generator's several columns
          }
        } else if (item instanceof SqlIdentifier id) {
          if (id.isStar()) {
            return;
          }
          selected.add(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT));
        } else if (item instanceof SqlCall call
            && OutputNames.GENERATORS.contains(
                call.getOperator().getName().toLowerCase(Locale.ROOT))) {
          return;
        }
      }
      for (SqlNode order : orderList) {
        SqlNode key = order;
        while (key instanceof SqlCall c
            && (c.getKind() == SqlKind.DESCENDING
                || c.getKind() == SqlKind.NULLS_FIRST
                || c.getKind() == SqlKind.NULLS_LAST)) {
          key = c.operand(0);
        }
        if (!(key instanceof SqlIdentifier id) || id.isStar() || touchesMarker(id)) {
          continue;
        }
        String name = SparkSyntaxRewriter.unhide(id.names.get(id.names.size() - 1));
        // s.a or t.s.a over a selected struct column s reads its field (found by QA: DISTINCT s
        // ... ORDER BY s.a and DISTINCT t.s ... ORDER BY t.s.a run on Spark 4.1.1).
        if (selected.contains(name.toLowerCase(Locale.ROOT))
            || id.names.subList(0, id.names.size() - 1).stream()
                .anyMatch(
                    n ->
                        selected.contains(
                            SparkSyntaxRewriter.unhide(n).toLowerCase(Locale.ROOT)))) {
          continue;
        }
        int at = startOf(id.getParserPosition());
        String written = sql.substring(at, Math.min(sql.length(), endOf(id.getParserPosition())));
        findings.add(
            Diagnostic.error(
                "UNRESOLVED_COLUMN",
                start.advance(sql, at),
                "ORDER BY "
                    + written
                    + " in a SELECT DISTINCT that does not select it: Spark sorts the distinct"
                    + " rows by their own columns only and refuses the view at its first refresh"
                    + " ([UNRESOLVED_COLUMN])",
                "select " + written + " too, or sort by a column the SELECT list has"));
        return;
      }
    }

    /**
     * The two queries of a set operation selecting different numbers of columns, where both SELECT
     * lists tell theirs: Spark refuses the view at its first refresh. (A chain {@code a UNION b
     * UNION c} is nested, so each query is compared with the ones before it.)
     */
    private void setWidths(SqlCall call, SqlSetOperator op) {
      if (call.operandCount() != 2 || touchesMarker(call)) {
        return;
      }
      int left = ColumnLists.width(call.operand(0));
      int right = ColumnLists.width(call.operand(1));
      if (left == ColumnLists.UNKNOWN || right == ColumnLists.UNKNOWN || left == right) {
        return;
      }
      int at = startOf(call.operand(1).getParserPosition());
      while (at < sql.length()
          && (sql.charAt(at) == '(' || Character.isWhitespace(sql.charAt(at)))) {
        at++;
      }
      String name = op.getName().toUpperCase(Locale.ROOT);
      findings.add(
          Diagnostic.error(
              SET_COLUMN_COUNT_RULE,
              start.advance(sql, at),
              "this query of the "
                  + name
                  + " selects "
                  + columns(right)
                  + " and the query before it "
                  + left
                  + ": Spark refuses a "
                  + name
                  + " of queries with different numbers of columns at the view's first refresh"
                  + " ([NUM_COLUMNS_MISMATCH])",
              "select the same columns, in the same order, in every query of the "
                  + name
                  + " (CAST(NULL AS type) AS name for one a query lacks)"));
    }

    private static String columns(int n) {
      return n == 1 ? "1 column" : n + " columns";
    }

    /**
     * A subquery in the lambda of a higher-order function: Spark's analyzer refuses it at the
     * view's first refresh, placing the error at the start of the statement.
     */
    private void subqueryInLambda(SqlNode subquery, String function) {
      if (touchesMarker(subquery)) {
        return;
      }
      // Calcite starts a scalar subquery at its parenthesis, one after IN at its SELECT.
      int at = startOf(subquery.getParserPosition());
      while (at < sql.length()
          && (sql.charAt(at) == '(' || Character.isWhitespace(sql.charAt(at)))) {
        at++;
      }
      findings.add(
          Diagnostic.error(
              LAMBDA_SUBQUERY_RULE,
              start.advance(sql, at),
              "a subquery inside the lambda of "
                  + function.toLowerCase(Locale.ROOT)
                  + "(...): Spark does not allow a subquery within a higher-order function and"
                  + " refuses the view at its first refresh"
                  + " ([UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.HIGHER_ORDER_FUNCTION])",
              "compute the subquery's value outside the lambda: join it in (from a CTE or a"
                  + " subquery in FROM) and read its column in the lambda"));
    }
  }

  /**
   * Whether a node is a query: a SELECT, WITH, ORDER BY over one, a set operation, or {@code TABLE
   * t}, which is a query too wherever a subquery may stand ({@code x IN (TABLE t)}).
   */
  static boolean isQuery(SqlNode node) {
    return node instanceof SqlSelect
        || node instanceof SqlOrderBy
        || node instanceof SqlWith
        || (node instanceof SqlCall call
            && (call.getOperator() instanceof SqlSetOperator
                || call.getKind() == SqlKind.EXPLICIT_TABLE));
  }
}
