package dev.mlv.sql;

import dev.mlv.diag.Position;
import dev.mlv.sql.RefreshAnalysis.Construct;
import dev.mlv.sql.RefreshAnalysis.FromColumn;
import dev.mlv.sql.RefreshAnalysis.OutputColumn;
import dev.mlv.sql.RefreshAnalysis.RefContext;
import dev.mlv.sql.RefreshAnalysis.Role;
import dev.mlv.sql.RefreshAnalysis.Shape;
import dev.mlv.sql.RefreshAnalysis.Support;
import dev.mlv.sql.RefreshAnalysis.TableRef;
import dev.mlv.sql.RefreshAnalysis.UnionBranch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Reads a view's SELECT with Calcite and gives each construct its verdict for incremental refresh,
 * following Fabric's rules: deterministic projections and filters, inner joins, UNION ALL, left
 * joins while their right side is unchanged, SUM/COUNT/MIN/MAX group-bys, other aggregates only
 * over sources partitioned by a GROUP BY column, and subqueries in expressions while their tables
 * are unchanged. Anything it cannot place is a full refresh, never a guess.
 */
public final class RefreshAnalyzer {

  private static final Set<String> MERGEABLE = Set.of("sum", "count", "min", "max");

  /**
   * Aggregates that cannot be merged from partial results (or not without more state). A name
   * missing here is read as a plain function: in a GROUP BY view its column became a group key and
   * without GROUP BY the view an append of one more row per refresh, so every aggregate Spark
   * registers must be listed.
   */
  static final Set<String> OTHER_AGGREGATES =
      Set.of(
          "avg",
          "mean",
          "stddev",
          "stddev_pop",
          "stddev_samp",
          "std",
          "variance",
          "var_pop",
          "var_samp",
          "percentile",
          "percentile_approx",
          "approx_percentile",
          "percentile_cont",
          "percentile_disc",
          "median",
          "mode",
          "collect_list",
          "collect_set",
          "array_agg",
          "first",
          "first_value",
          "last",
          "last_value",
          "any_value",
          "corr",
          "covar_pop",
          "covar_samp",
          "skewness",
          "kurtosis",
          "count_if",
          "bool_and",
          "bool_or",
          "every",
          "some",
          "any",
          "max_by",
          "min_by",
          "approx_count_distinct",
          "string_agg",
          "listagg",
          "product",
          "bit_and",
          "bit_or",
          "bit_xor",
          "histogram_numeric",
          "regr_avgx",
          "regr_avgy",
          "regr_count",
          "regr_intercept",
          "regr_r2",
          "regr_slope",
          "regr_sxx",
          "regr_sxy",
          "regr_syy",
          "try_avg",
          "try_sum",
          "hll_sketch_agg",
          "hll_union_agg",
          "theta_sketch_agg",
          "theta_union_agg",
          "theta_intersection_agg",
          "kll_sketch_agg_bigint",
          "kll_sketch_agg_float",
          "kll_sketch_agg_double",
          "approx_top_k",
          "approx_top_k_accumulate",
          "approx_top_k_combine",
          "bitmap_construct_agg",
          "bitmap_or_agg",
          "bitmap_and_agg",
          "count_min_sketch",
          "schema_of_variant_agg");

  private RefreshAnalyzer() {}

  /** Whether {@code fn} (lower case) is one of Spark's aggregate functions mlv knows. */
  static boolean isAggregateName(String fn) {
    return MERGEABLE.contains(fn) || OTHER_AGGREGATES.contains(fn);
  }

  /** The verdict for a view; a file-ingesting or PySpark view is never incremental here. */
  public static RefreshAnalysis analyze(ViewDefinition def) {
    if (def.body() instanceof ViewBody.Python) {
      return new RefreshAnalysis(
          Shape.NONE,
          List.of(
              new Construct(
                  "PySpark view",
                  def.body().position(),
                  Support.FULL,
                  "PYSPARK_VIEW",
                  "PySpark views are never refreshed incrementally")),
          List.of(),
          List.of());
    }
    if (!(def.body() instanceof ViewBody.Select select)) {
      return new RefreshAnalysis(
          Shape.NONE,
          List.of(
              new Construct(
                  "USING OneLake_Files",
                  def.body().position(),
                  Support.FULL,
                  "FILE_VIEW",
                  "a file-ingesting view is read in full")),
          List.of(),
          List.of());
    }
    return analyze(select.sql(), select.position(), def.constraints());
  }

  /** The word that starts a FROM item the rewriter replaced by its marker. */
  private static final java.util.regex.Pattern MARKED_ITEM =
      java.util.regex.Pattern.compile("([A-Za-z_][A-Za-z0-9_.]*)");

  /** Where each construct only Spark's grammar has is written, to point at its first use. */
  private static final Map<QueryFeature, java.util.regex.Pattern> FEATURE_KEYWORDS =
      Map.of(
          QueryFeature.GROUP_BY,
          java.util.regex.Pattern.compile("(?i)\\bGROUP\\s+BY\\s+ALL\\b"),
          QueryFeature.LATERAL_VIEW,
          java.util.regex.Pattern.compile("(?i)\\bLATERAL\\s+VIEW\\b"),
          QueryFeature.DISTRIBUTE_OR_SORT_BY,
          java.util.regex.Pattern.compile("(?i)\\b(CLUSTER|DISTRIBUTE|SORT)\\s+BY\\b"),
          QueryFeature.TABLE_SAMPLE,
          java.util.regex.Pattern.compile("(?i)\\bTABLESAMPLE\\b"),
          QueryFeature.TIME_TRAVEL,
          java.util.regex.Pattern.compile("(?i)\\b(VERSION|TIMESTAMP|SYSTEM_TIME)\\s+AS\\s+OF\\b"),
          QueryFeature.GROUPING_SETS,
          java.util.regex.Pattern.compile("(?i)\\bWITH\\s+(ROLLUP|CUBE)\\b"));

  /** The verdict for a SELECT whose first character is at {@code start} in its file. */
  public static RefreshAnalysis analyze(String sql, Position start, List<Constraint> constraints) {
    SparkSyntaxRewriter.Result rewritten = new SparkSyntaxRewriter().rewrite(sql);
    Walk walk = new Walk(sql, start, rewritten.markers());
    // A bare VALUES list or a table function in FROM: Calcite sees a marker; its place is known.
    for (int m : new java.util.TreeSet<>(rewritten.markers())) {
      String from = sql.substring(m);
      java.util.regex.Matcher call = MARKED_ITEM.matcher(from);
      if (call.lookingAt() && call.group(1).equalsIgnoreCase("VALUES")) {
        walk.full("VALUES", m, "CONSTANT_ROWS", "constant rows cannot be added twice");
      } else {
        String name = call.lookingAt() ? call.group(1) : "table function";
        walk.full(
            name + "(...)", m, "TABLE_FUNCTION", "a table function's rows have no change feed");
      }
    }
    for (QueryFeature f : rewritten.features()) {
      if (f == QueryFeature.TABLE_FUNCTION) {
        continue;
      }
      java.util.regex.Pattern keyword = FEATURE_KEYWORDS.get(f);
      java.util.regex.Matcher at = keyword == null ? null : keyword.matcher(sql);
      boolean found = at != null && at.find();
      walk.full(
          f == QueryFeature.GROUP_BY
              ? "GROUP BY ALL"
              : f == QueryFeature.GROUPING_SETS && found
                  ? at.group().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ")
                  : f.name(),
          found ? at.start() : 0,
          f == QueryFeature.GROUP_BY ? "GROUP_BY_ALL" : f.name(),
          "not supported by incremental refresh");
    }
    SqlNode root;
    try {
      root = TableExtractor.parse(rewritten);
    } catch (SqlParseException e) {
      // Spark reads it (the view parsed), mlv's analyser does not: say where, in one line.
      SqlParserPos p = e.getPos();
      int at =
          p == null || p.getLineNum() < 1
              ? 0
              : Math.min(
                  sql.length(), TableExtractor.offsetOf(sql, p.getLineNum(), p.getColumnNum()));
      // Calcite's own words ("Incorrect syntax near the keyword ...") are about its grammar,
      // not Spark's: the token it stopped at is named instead.
      String what =
          SqlToken.tokenize(sql).stream()
              .filter(t -> t.end() > at)
              .findFirst()
              .map(t -> "at '" + t.text() + "'")
              .orElse("at its end");
      walk.full(
          "SQL mlv cannot analyse",
          at,
          "NOT_ANALYSABLE",
          "mlv's analyser does not read the SELECT from here (" + what + ")");
      return walk.result(constraints);
    } catch (RuntimeException e) {
      walk.full(
          "SQL mlv cannot analyse",
          0,
          "NOT_ANALYSABLE",
          "mlv's analyser failed on the SELECT ("
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse(""))
              + ")");
      return walk.result(constraints);
    } catch (StackOverflowError e) {
      walk.full("SELECT", 0, "NOT_ANALYSABLE", "the SELECT nests too deeply to be analysed");
      return walk.result(constraints);
    }
    walk.query(root, Level.TOP, List.of(), RefContext.FROM, Map.of());
    walk.schemaQualifiedColumns(root);
    walk.fileMetadataColumns(root);
    for (Constraint c : constraints) {
      walk.constraint(c);
    }
    // Text Calcite did not see may read tables; that only matters while the view could be
    // incremental, and a construct found above may already make it always full.
    if (!rewritten.fragments().isEmpty() && !walk.alwaysFull()) {
      walk.full("Spark-only syntax", 0, "NOT_ANALYSABLE", "mlv cannot place every table reference");
    }
    return walk.result(constraints);
  }

  /**
   * A CTE in scope: {@code counted} when a second use makes the view full (not inside an
   * expression), its query with the CTEs visible to it, and whether that query was walked yet;
   * {@code item} is its definition, null for a recursive CTE's reference to itself.
   */
  private record Cte(
      boolean counted,
      SqlNode query,
      Map<String, Cte> scope,
      boolean[] walked,
      SqlNodeList columns,
      SqlWithItem item) {}

  /** Where a query sits: the view's own result, a FROM item, or an expression. */
  private enum Level {
    TOP,
    FROM,
    EXPRESSION
  }

  private static final class Walk {
    private final String sql;
    private final Position start;
    private final List<Construct> constructs = new ArrayList<>();
    private final List<TableRef> refs = new ArrayList<>();
    private final List<OutputColumn> columns = new ArrayList<>();
    private final Map<String, Integer> cteUses = new HashMap<>();
    private final Map<String, Construct> seenConstructs = new HashMap<>();
    private final List<RefreshAnalysis.ColumnCheck> columnChecks = new ArrayList<>();
    // What gives columns where the expressions being walked are written: Spark reads a bare
    // current_date or GROUP BY g by these, not by the SELECT's aliases or an outer query's.
    private List<FromColumn> scope = List.of();
    private boolean aggregate;
    private boolean needsPartition;
    private int unions;
    // The branches of the view's own UNION ALL, so a GROUP BY in one is named as such.
    private final Set<SqlNode> topBranches =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    private final Set<Integer> markers;

    Walk(String sql, Position start, Set<Integer> markers) {
      this.sql = sql;
      this.start = start;
      this.markers = markers;
    }

    /** Whether a construct already found makes every refresh full, whatever the sources do. */
    boolean alwaysFull() {
      return constructs.stream().anyMatch(c -> c.support() == Support.FULL);
    }

    RefreshAnalysis result(List<Constraint> constraints) {
      cteUses.forEach(
          (name, uses) -> {
            if (uses > 1) {
              // Its first use said it is inlined; read twice it is not, and only that is said.
              constructs.removeIf(c -> c.code().isEmpty() && c.construct().equals("WITH " + name));
              full("WITH " + name, 0, "CTE_REUSED name=" + name, "a CTE read twice is not linear");
            }
          });
      if (aggregate && !constraints.isEmpty()) {
        Constraint c = constraints.get(0);
        constructs.add(
            new Construct(
                "CONSTRAINT " + c.name(),
                c.position(),
                Support.FULL,
                "CONSTRAINT_ON_AGGREGATE",
                "a constraint on aggregated rows needs every group recomputed"));
      }
      if (needsPartition
          && columns.stream().noneMatch(c -> c.role() == Role.KEY && c.sourceColumn() != null)) {
        // The condition asks for a partition column among the selected GROUP BY columns; with no
        // bare column there (GROUP BY upper(part), or no GROUP BY) it never holds (found by QA:
        // explain said conditional and strict refresh_policy passed, every run was full).
        constructs.replaceAll(
            c ->
                c.support() == Support.CONDITIONAL
                        && c.code().startsWith("AGG_NEEDS_PARTITIONED_SOURCE")
                    ? new Construct(
                        c.construct(),
                        c.position(),
                        Support.FULL,
                        c.code(),
                        c.note()
                            .replace(
                                "incremental only when every source is partitioned by a GROUP BY"
                                    + " column",
                                "incremental only when the source is partitioned by a selected"
                                    + " GROUP BY column, and no GROUP BY item is a bare selected"
                                    + " column"))
                    : c);
      }
      Shape shape =
          constructs.stream().anyMatch(c -> c.support() == Support.FULL)
              ? Shape.NONE
              : !aggregate
                  ? Shape.APPEND
                  : needsPartition ? Shape.PARTITION_AGGREGATE : Shape.MERGE_AGGREGATE;
      return new RefreshAnalysis(
          shape, constructs, refs, aggregate ? columns : List.of(), columnChecks);
    }

    /**
     * A column named through its table's schema ({@code bronze.orders.id}) where the table has no
     * alias: the incremental refresh reads the new rows in the table's place under the table's last
     * name, which such a column name no longer reaches, so the view is refreshed in full.
     */
    /**
     * How many leading parts of {@code names} are trailing parts of {@code table}'s name, at least
     * two and leaving a column after them; 0 when none are.
     */
    static int qualifiedBy(List<String> names, List<String> table) {
      for (int n = Math.min(table.size(), names.size() - 1); n >= 2; n--) {
        if (names.subList(0, n).equals(table.subList(table.size() - n, table.size()))) {
          return n;
        }
      }
      return 0;
    }

    /**
     * Spark's hidden file metadata column ({@code _metadata.file_path}, {@code t._metadata}): the
     * new rows are read from the change data feed, which has no such column, so the rewritten
     * SELECT would not resolve; saying so here lets a dry run and explain tell the full refresh.
     */
    void fileMetadataColumns(SqlNode root) {
      root.accept(
          new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
              List<String> names = lower(id.names);
              // v:_metadata.x is a variant's key (found by QA: refreshed in full for it).
              if ((names.get(0).equals("_metadata")
                      || (names.size() > 1 && names.get(1).equals("_metadata")))
                  && !VariantPaths.isPath(id, sql)) {
                full(
                    text(id),
                    offset(id),
                    "FILE_METADATA",
                    "the new rows come from the change data feed, which has no _metadata column");
              }
              return null;
            }
          });
    }

    void schemaQualifiedColumns(SqlNode root) {
      List<List<String>> unaliased =
          refs.stream().filter(r -> !r.aliased()).map(r -> lower(r.name().written())).toList();
      if (unaliased.isEmpty()) {
        return;
      }
      root.accept(
          new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
              if (id.names.size() < 3) {
                return null;
              }
              List<String> names = lower(id.names);
              for (List<String> table : unaliased) {
                // The qualifier is two or more trailing parts of the table's name; what follows
                // is the column and, for a struct, its fields (bronze.t.s.a).
                int n = qualifiedBy(names, table);
                if (n > 0) {
                  String last = table.get(table.size() - 1);
                  full(
                      text(id),
                      offset(id),
                      "SCHEMA_QUALIFIED_COLUMN",
                      "a column named through its table's schema is not reached by the incremental"
                          + " rewrite; alias the table (FROM "
                          + String.join(".", table)
                          + " AS "
                          + last
                          + ") and name the column "
                          + last
                          + "."
                          + String.join(".", id.names.subList(n, id.names.size())));
                  break;
                }
              }
              return null;
            }
          });
    }

    private static List<String> lower(List<String> names) {
      return names.stream().map(x -> x.toLowerCase(Locale.ROOT)).toList();
    }

    // ---- verdicts ----

    /** Adds a construct once; the one added first for the same text and code is returned. */
    Construct add(String construct, int offset, Support support, String code, String note) {
      return add(construct + "|" + code, construct, offset, support, code, note);
    }

    /**
     * Adds a construct once for each place it is written: every join of a view has its own verdict,
     * where {@link #add} keeps the first of constructs with the same text and code.
     */
    Construct addAt(String construct, int offset, Support support, String code, String note) {
      return add(construct + "|" + code + "|" + offset, construct, offset, support, code, note);
    }

    private Construct add(
        String key, String construct, int offset, Support support, String code, String note) {
      return seenConstructs.computeIfAbsent(
          key,
          k -> {
            Construct c = new Construct(construct, start.advance(sql, offset), support, code, note);
            constructs.add(c);
            return c;
          });
    }

    void full(String construct, int offset, String code, String note) {
      add(construct, offset, Support.FULL, code, note);
    }

    void ok(String construct, SqlNode at, String note) {
      add(construct, offset(at), Support.INCREMENTAL, "", note);
    }

    /**
     * Where {@code keyword} (a word, or a regex group of words) is first written after {@code node}
     * ends, else where node starts.
     */
    int keywordAfter(SqlNode node, String keyword) {
      SqlParserPos pos = node.getParserPosition();
      int end = TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("(?i)\\b" + keyword + "\\b").matcher(sql);
      return end > 0 && end <= sql.length() && m.find(end) ? m.start() : offset(node);
    }

    /**
     * Where the clause keyword written just before {@code node} starts ({@code GROUP} of {@code
     * GROUP BY k}, {@code HAVING} of {@code HAVING (n > 1)}), so that a construct named after a
     * keyword is placed at it, as the joins and UNION ALL are; else where node starts.
     */
    int keywordBefore(SqlNode node, String... words) {
      int at = offset(node);
      List<Token> before = new ArrayList<>();
      for (Token t : tokens()) {
        if (t.offset() >= at) {
          break;
        }
        if (!t.isTrivia() && !t.isSymbol("(")) {
          before.add(t);
        }
      }
      int first = before.size() - words.length;
      if (first < 0) {
        return at;
      }
      for (int i = 0; i < words.length; i++) {
        if (!before.get(first + i).isWord(words[i])) {
          return at;
        }
      }
      return before.get(first).offset();
    }

    private static final Set<String> JOIN_WORDS =
        Set.of(
            "NATURAL", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "OUTER", "JOIN", "SEMI", "ANTI");

    /**
     * Where a join's keywords start: {@code LEFT} of {@code LEFT OUTER JOIN}, {@code JOIN} of a
     * bare join, the comma of a comma join, the word Calcite read as an alias in {@code t SEMI JOIN
     * u}. Calcite places a join at its JOIN word, or at its right side, depending on the kind
     * (found by QA: INNER JOIN at JOIN but LEFT OUTER JOIN at the right-hand table).
     */
    int joinKeyword(SqlJoin join, boolean spelledSemiOrAnti) {
      SqlNode left = join.getLeft();
      if (spelledSemiOrAnti) {
        while (left instanceof SqlJoin j) {
          left = j.getRight();
        }
        return offset(((SqlCall) left).operand(1));
      }
      SqlParserPos pos = left.getParserPosition();
      int from =
          pos == null
              ? -1
              : TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum());
      int to = offset(join.getRight());
      for (Token t : tokens()) {
        if (t.offset() <= from || t.isTrivia()) {
          continue;
        }
        if (t.offset() >= to) {
          break;
        }
        if (t.isSymbol(",")
            || (t.kind() == Token.Kind.WORD
                && JOIN_WORDS.contains(t.text().toUpperCase(Locale.ROOT)))) {
          return t.offset();
        }
      }
      return offset(join);
    }

    private List<Token> tokens;

    private List<Token> tokens() {
      if (tokens == null) {
        tokens = Lexer.tokenize(sql);
      }
      return tokens;
    }

    int offset(SqlNode node) {
      if (node == null || node.getParserPosition() == null) {
        return 0;
      }
      // Where the node is written: Calcite starts an infix x::T at the token before x (found by
      // QA: GROUP BY id, v:k::string was reported at its comma, as 'col=, v:k::string').
      SqlParserPos pos = OutputNames.start(node);
      return pos == null || pos.getLineNum() < 1
          ? 0
          : TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
    }

    String text(SqlNode node) {
      SqlParserPos pos = node.getParserPosition();
      int from = offset(node);
      int to = TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
      String t = sql.substring(from, Math.min(sql.length(), Math.max(from, to))).strip();
      return t.length() > 60 ? t.substring(0, 57) + "..." : t;
    }

    void constraint(Constraint c) {
      NonDeterministic.firstIn(c.expression())
          .ifPresent(
              found ->
                  constructs.add(
                      new Construct(
                          "CONSTRAINT " + c.name(),
                          Places.inConstraint(c, found.offset()),
                          Support.FULL,
                          "NON_DETERMINISTIC fn=" + found.name(),
                          "the check's result changes from one run to the next")));
    }

    /** What a CTE read once is: its query inlined, with its filter, which no line names. */
    private String cteNote(SqlNode query) {
      String note = "read once: its query is read where the CTE is, as a subquery in FROM";
      SqlNode q = query instanceof SqlOrderBy o ? o.query : query;
      return q instanceof SqlSelect select && select.getWhere() != null
          ? note + "; its WHERE " + text(select.getWhere()) + " filters the new rows as they arrive"
          : note;
    }

    // ---- queries ----

    /** Walks a CTE's query once, where it is first used (a CTE read twice is full anyway). */
    private void use(Cte cte, Level level, List<UnionBranch> branches, RefContext context) {
      if (cte.walked()[0]) {
        return;
      }
      cte.walked()[0] = true;
      query(
          cte.query(),
          level == Level.EXPRESSION ? level : Level.FROM,
          branches,
          context,
          cte.scope());
    }

    void query(
        SqlNode node,
        Level level,
        List<UnionBranch> branches,
        RefContext context,
        Map<String, Cte> ctes) {
      if (node instanceof SqlWith with) {
        // A CTE's tables are read where the CTE is used: in that UNION ALL branch, on that side
        // of a LEFT JOIN, in that subquery. So its query is walked at its (first) use.
        Map<String, Cte> scope = new HashMap<>(ctes);
        List<Cte> defined = new ArrayList<>();
        for (SqlNode item : with.withList) {
          SqlWithItem cte = (SqlWithItem) item;
          String name = cte.name.getSimple().toLowerCase(Locale.ROOT);
          Map<String, Cte> own = scope;
          if (cte.recursive != null && cte.recursive.booleanValue()) {
            full("WITH RECURSIVE " + name, offset(cte), "RECURSIVE_CTE", "not supported");
            // Its query reads itself: that name is the CTE, walked already and read once.
            own = new HashMap<>(scope);
            own.put(
                name,
                new Cte(false, cte.query, Map.of(), new boolean[] {true}, cte.columnList, null));
          }
          Cte c =
              new Cte(
                  level != Level.EXPRESSION,
                  cte.query,
                  Map.copyOf(own),
                  new boolean[1],
                  cte.columnList,
                  cte.recursive != null && cte.recursive.booleanValue() ? null : cte);
          defined.add(c);
          scope.put(name, c);
        }
        query(with.body, level, branches, context, scope);
        // One never used reads nothing, but its SQL is still judged. Its tables are still in
        // the text an incremental refresh rewrites per reference, where a term with the unused
        // CTE's table as the delta would re-read every old row of the others: so it is full.
        for (int i = 0; i < defined.size(); i++) {
          Cte c = defined.get(i);
          SqlWithItem item = (SqlWithItem) with.withList.get(i);
          if (!c.walked()[0]) {
            String name = item.name.getSimple().toLowerCase(Locale.ROOT);
            full(
                "WITH " + name,
                offset(item),
                "CTE_UNUSED name=" + name,
                "a CTE the query never reads; remove it to let the view refresh incrementally");
          }
          use(c, level, branches, context);
        }
      } else if (node instanceof SqlOrderBy orderBy) {
        if ((orderBy.offset != null || orderBy.fetch != null) && level != Level.EXPRESSION) {
          full(
              "LIMIT",
              limitAt(orderBy.fetch, orderBy.offset),
              "LIMIT",
              "a limited result is not additive");
        }
        query(orderBy.query, level, branches, context, ctes);
        expressions(orderBy.orderList, level, branches, context, ctes);
      } else if (node instanceof SqlSelect select) {
        select(select, level, branches, context, ctes);
      } else if (node instanceof SqlCall call && call.getOperator() instanceof SqlSetOperator op) {
        boolean unionAll = op.getKind() == SqlKind.UNION && op.isAll();
        if (level != Level.EXPRESSION) {
          if (unionAll) {
            add(
                "UNION ALL",
                keywordAfter(call.operand(0), "UNION"),
                Support.INCREMENTAL,
                "",
                "each branch's new rows are appended");
          } else {
            // Calcite names the ALL variants "INTERSECT ALL", "EXCEPT ALL" itself.
            String name =
                op.isAll() && !op.getName().endsWith(" ALL") ? op.getName() + " ALL" : op.getName();
            // At its keyword, as UNION ALL is (found by QA: at the first branch's start).
            String keyword =
                switch (op.getKind()) {
                  case EXCEPT -> "(EXCEPT|MINUS)";
                  case INTERSECT -> "INTERSECT";
                  default -> "UNION";
                };
            full(
                name,
                keywordAfter(call.operand(0), keyword),
                "SET_OPERATION op=" + name,
                "not additive");
          }
        }
        int id = unions++;
        List<SqlNode> operands = call.getOperandList();
        for (int i = 0; i < operands.size(); i++) {
          if (level == Level.TOP) {
            topBranches.add(operands.get(i));
          }
          List<UnionBranch> inner = new ArrayList<>(branches);
          inner.add(new UnionBranch(id, i));
          // The view's own GROUP BY cannot sit in one branch of a union.
          query(
              operands.get(i),
              level == Level.TOP ? Level.FROM : level,
              List.copyOf(inner),
              context,
              ctes);
        }
      } else if (node != null && node.getKind() == SqlKind.VALUES) {
        if (level != Level.EXPRESSION) {
          full("VALUES", offset(node), "CONSTANT_ROWS", "constant rows cannot be added twice");
        }
      } else if (node != null) {
        from(node, level, branches, context, ctes, false);
      }
    }

    /** Where LIMIT (or, without one, OFFSET) is written, given the clause's value nodes. */
    private int limitAt(SqlNode fetch, SqlNode offset) {
      return fetch != null ? keywordBefore(fetch, "LIMIT") : keywordBefore(offset, "OFFSET");
    }

    /** Where the SELECT's GROUP BY is written; the SELECT's place when it aggregates without. */
    private int groupByAt(SqlSelect select) {
      SqlNodeList group = select.getGroup();
      if (group == null || group.isEmpty()) {
        return offset(select);
      }
      SqlNode first = group.get(0);
      int at = keywordBefore(first, "GROUP", "BY");
      return at == offset(first) && first instanceof SqlNodeList ? offset(select) : at;
    }

    private void select(
        SqlSelect select,
        Level level,
        List<UnionBranch> branches,
        RefContext context,
        Map<String, Cte> ctes) {
      boolean expr = level == Level.EXPRESSION;
      if (select.isDistinct() && !expr) {
        full("SELECT DISTINCT", offset(select), "DISTINCT", "duplicates across runs");
      }
      if (select.getFrom() == null && !expr) {
        full("SELECT without FROM", offset(select), "CONSTANT_ROWS", "no table to read changes of");
      }
      if (select.getFrom() != null) {
        from(select.getFrom(), level, branches, context, ctes, false);
      }
      List<FromColumn> outer = scope;
      scope = select.getFrom() == null ? List.of() : fromColumns(select.getFrom(), ctes);
      boolean grouped = select.getGroup() != null || hasAggregate(select.getSelectList());
      if (grouped && !expr) {
        if (level != Level.TOP) {
          full(
              topBranches.contains(select)
                  ? "GROUP BY in a UNION ALL branch"
                  : "GROUP BY in a subquery",
              groupByAt(select),
              "AGGREGATE_IN_SUBQUERY",
              "only the view's own SELECT may aggregate");
        } else {
          aggregate = true;
          // Without GROUP BY the one group spans every partition: no partition is "touched" alone.
          groupBy(
              select, select.getGroup() != null && readsOneTableDirectly(select.getFrom(), ctes));
        }
      }
      if (select.getHaving() != null && !expr) {
        full(
            "HAVING",
            keywordBefore(select.getHaving(), "HAVING"),
            "HAVING",
            "a group can cross the condition");
      }
      expressions(select.getSelectList(), level, branches, context, ctes);
      expressions(select.getWhere(), level, branches, context, ctes);
      expressions(select.getGroup(), level, branches, context, ctes);
      expressions(select.getHaving(), level, branches, context, ctes);
      if (select.getQualify() != null && !expr) {
        full(
            "QUALIFY",
            keywordBefore(select.getQualify(), "QUALIFY"),
            "WINDOW_FUNCTION",
            "window functions");
      }
      if ((select.getOffset() != null || select.getFetch() != null) && !expr) {
        full(
            "LIMIT",
            limitAt(select.getFetch(), select.getOffset()),
            "LIMIT",
            "a limited result is not additive");
      }
      scope = outer;
    }

    /**
     * A FROM that is one table, not a join, a subquery or a CTE: only then is a GROUP BY column
     * named like the table's partition column that very column, not one a subquery renamed.
     */
    private boolean readsOneTableDirectly(SqlNode from, Map<String, Cte> ctes) {
      SqlNode table = unalias(from);
      return table instanceof SqlIdentifier id
          && !(id.isSimple() && ctes.containsKey(id.getSimple().toLowerCase(Locale.ROOT)));
    }

    /** Output columns of the view's GROUP BY, by position, and the GROUP BY-selected rule. */
    private void groupBy(SqlSelect select, boolean direct) {
      keyQualifiers = direct ? qualifiers(select.getFrom()) : List.of();
      List<SqlNode> items = select.getSelectList().getList();
      List<String> itemTexts = new ArrayList<>();
      List<String> aliases = new ArrayList<>();
      List<SqlIdentifier> itemColumns = new ArrayList<>();
      for (SqlNode item : items) {
        SqlNode e = unalias(item);
        if (e instanceof SqlIdentifier id && !VariantPaths.isPath(id, sql)) {
          itemColumns.add(id);
        } else {
          itemTexts.add(key(e));
        }
        aliases.add(aliasOf(item));
      }
      // GROUP BY ALL reaches Calcite as GROUP BY (): reported above, it has no key to check.
      boolean groupByAll =
          select.getGroup() != null
              && select.getGroup().stream()
                  .allMatch(g -> g instanceof SqlNodeList l && l.size() == 0);
      if (select.getGroup() != null && !groupByAll) {
        add(
            "GROUP BY",
            groupByAt(select),
            Support.INCREMENTAL,
            "",
            "groups are merged by their key columns");
        for (SqlNode g : select.getGroup()) {
          if (g instanceof SqlCall call
              && (call.getKind() == SqlKind.ROLLUP
                  || call.getKind() == SqlKind.CUBE
                  || call.getKind() == SqlKind.GROUPING_SETS)) {
            full(text(g), offset(g), "GROUPING_SETS", "not supported by incremental refresh");
            continue;
          }
          if (g instanceof SqlLiteral lit && lit.getValue() instanceof Number) {
            continue; // GROUP BY 1: an ordinal always names a selected column
          }
          boolean selected =
              g instanceof SqlIdentifier id && !VariantPaths.isPath(id, sql)
                  ? itemColumns.stream().anyMatch(c -> sameColumn(c, id))
                  : itemTexts.contains(key(g));
          if (!selected
              && g instanceof SqlIdentifier id
              && id.isSimple()
              && aliases.contains(id.getSimple().toLowerCase(Locale.ROOT))) {
            // Spark resolves a GROUP BY name to a column of the FROM before a SELECT alias, and
            // mlv does not know the sources' columns: `g % 2 AS g ... GROUP BY g` groups by the
            // column g, whose groups the selected g % 2 does not tell apart.
            // Settled from the sources' columns: without such a column, g is the alias.
            String name = id.getSimple().toLowerCase(Locale.ROOT);
            Construct c =
                add(
                    "GROUP BY " + text(g),
                    offset(g),
                    Support.CONDITIONAL,
                    "GROUP_BY_ALIAS col=" + name,
                    "Spark groups by a column of the FROM named "
                        + name
                        + " before the SELECT alias, and the selected expression does not tell"
                        + " its groups apart; incremental while its FROM has no column named "
                        + name);
            columnChecks.add(new RefreshAnalysis.ColumnCheck(c, name, false, scope));
            continue;
          }
          if (!selected) {
            full(
                "GROUP BY " + text(g),
                offset(g),
                "GROUP_BY_NOT_SELECTED col=" + text(g),
                "a group not in the result cannot be merged");
          }
        }
      }
      // Spark 4 reads a name no FROM column has as an earlier item's alias (a lateral column
      // alias): in `SUM(v) AS s, s * 2 AS s2` the item s2 is an expression over SUM, no group key.
      // A name the GROUP BY groups by is a FROM column (Spark refuses to group by an aggregate),
      // so in `SUM(v) AS g, g AS gg ... GROUP BY g` the item gg is that column, a group key.
      Set<String> grouped = new HashSet<>();
      if (select.getGroup() != null) {
        for (SqlNode g : select.getGroup()) {
          if (g instanceof SqlIdentifier id && id.isSimple()) {
            grouped.add(id.getSimple().toLowerCase(Locale.ROOT));
          }
        }
      }
      Map<String, String> aggregateAliases = new HashMap<>();
      for (int i = 0; i < items.size(); i++) {
        SqlNode e = unalias(items.get(i));
        Role role = Role.KEY;
        String column = null;
        String lateral = hasAggregate(e) ? null : lateralAggregate(e, aggregateAliases);
        if (lateral != null) {
          role = Role.OTHER;
          partitioned(
              e,
              lateral.toUpperCase(Locale.ROOT),
              direct,
              "an item naming the alias of an aggregate (a lateral column alias) is an expression"
                  + " over it, not a group key; ");
        } else if (e instanceof SqlCall call && isAggregate(call)) {
          String fn = SparkSyntaxRewriter.functionName(call);
          boolean distinct = SparkSyntaxRewriter.isDistinct(call);
          if (MERGEABLE.contains(fn) && !distinct) {
            role = Role.valueOf(fn.toUpperCase(Locale.ROOT));
            ok(text(e), e, "partial results merged into the existing groups");
          } else if (distinct) {
            full(text(e), offset(e), "DISTINCT", "a distinct aggregate needs every row");
          } else {
            role = Role.OTHER;
            partitioned(e, fn.toUpperCase(Locale.ROOT), direct, "");
          }
        } else if (e instanceof SqlCall filter
            && filter.getKind() == SqlKind.FILTER
            && filter.operand(0) instanceof SqlCall agg
            && isAggregate(agg)
            && !SparkSyntaxRewriter.isDistinct(agg)
            && MERGEABLE.contains(SparkSyntaxRewriter.functionName(agg))
            && !hasAggregate(filter.operand(1))) {
          // SUM(v) FILTER (WHERE c): the new rows' partial, over the rows c keeps, merges as SUM's.
          role = Role.valueOf(SparkSyntaxRewriter.functionName(agg).toUpperCase(Locale.ROOT));
          ok(text(e), e, "partial results, over the rows the FILTER keeps, merged into the groups");
        } else if (hasAggregate(e)) {
          role = Role.OTHER;
          // SUM(a) / COUNT(*): the parts merge, the expression over them does not.
          String fn = innerAggregate(e).toUpperCase(Locale.ROOT);
          partitioned(
              e,
              fn,
              direct,
              !MERGEABLE.contains(fn.toLowerCase(Locale.ROOT))
                  ? ""
                  : e.getKind() == SqlKind.FILTER
                      ? "an aggregate with FILTER is not merged; "
                      : "an expression over " + fn + " is not merged, only a bare aggregate is; ");
        } else if (e instanceof SqlIdentifier id) {
          column = id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT);
        }
        if (role != Role.KEY) {
          String alias = aliasOf(items.get(i));
          if (!alias.isEmpty() && !grouped.contains(alias)) {
            aggregateAliases.put(alias, lateral != null ? lateral : innerAggregate(e));
          }
        }
        columns.add(new OutputColumn(i, role, column));
      }
    }

    /**
     * The aggregate behind the first name in {@code e} that is the alias of an earlier aggregating
     * item, or null. A subquery's names are its own.
     */
    private static String lateralAggregate(SqlNode e, Map<String, String> aggregateAliases) {
      if (aggregateAliases.isEmpty()) {
        return null;
      }
      if (e instanceof SqlIdentifier id && !id.isStar()) {
        return aggregateAliases.get(id.names.get(0).toLowerCase(Locale.ROOT));
      }
      if (e instanceof SqlNodeList list) {
        for (SqlNode n : list) {
          String found = lateralAggregate(n, aggregateAliases);
          if (found != null) {
            return found;
          }
        }
      }
      if (e instanceof SqlCall call && !TableExtractor.isQuery(call)) {
        for (SqlNode operand : call.getOperandList()) {
          String found = operand == null ? null : lateralAggregate(operand, aggregateAliases);
          if (found != null) {
            return found;
          }
        }
      }
      return null;
    }

    private void partitioned(SqlNode e, String fn, boolean direct, String why) {
      if (!direct) {
        full(
            text(e),
            offset(e),
            "AGG_NEEDS_PARTITIONED_SOURCE fn=" + fn,
            why
                + "incremental only when the view reads one table directly and groups by a"
                + " partition column of it");
        return;
      }
      needsPartition = true;
      add(
          text(e),
          offset(e),
          Support.CONDITIONAL,
          "AGG_NEEDS_PARTITIONED_SOURCE fn=" + fn,
          why + "incremental only when every source is partitioned by a GROUP BY column");
    }

    // ---- the columns a FROM gives ----

    /**
     * What gives {@code from} its columns, as Spark resolves a name there: each table's own, the
     * names a subquery, a CTE or an alias list gives, and what the text does not tell.
     */
    private List<FromColumn> fromColumns(SqlNode from, Map<String, Cte> ctes) {
      List<FromColumn> out = new ArrayList<>();
      if (from instanceof SqlIdentifier id) {
        String simple = id.isSimple() ? id.getSimple().toLowerCase(Locale.ROOT) : null;
        if (simple != null && ctes.containsKey(simple)) {
          Cte cte = ctes.get(simple);
          if (cte.columns() != null && cte.columns().size() > 0) {
            named(cte.columns(), out);
          } else {
            out.addAll(outputColumns(cte.query(), cte.scope()));
          }
        } else {
          Optional<Name> table = tableName(id);
          out.add(
              table.isPresent()
                  ? new FromColumn.OfTable(table.get())
                  : new FromColumn.Unknown(text(id)));
        }
      } else if (from instanceof SqlJoin join) {
        out.addAll(fromColumns(join.getLeft(), ctes));
        out.addAll(fromColumns(join.getRight(), ctes));
      } else if (from instanceof SqlCall call && call.getKind() == SqlKind.AS) {
        if (call.operandCount() > 2) {
          // FROM t AS x(a, b): the alias list renames the columns.
          named(call.getOperandList().subList(2, call.operandCount()), out);
        } else {
          out.addAll(fromColumns(call.operand(0), ctes));
        }
      } else if (from != null && TableExtractor.isQuery(from)) {
        out.addAll(outputColumns(from, ctes));
      } else if (from != null) {
        out.add(new FromColumn.Unknown(text(from)));
      }
      return out;
    }

    private static void named(List<SqlNode> names, List<FromColumn> out) {
      for (SqlNode n : names) {
        out.add(
            n instanceof SqlIdentifier c && c.isSimple()
                ? new FromColumn.Named(c.getSimple().toLowerCase(Locale.ROOT))
                : new FromColumn.Unknown(String.valueOf(n)));
      }
    }

    /**
     * The columns a query gives by name: an alias, a column's last name part (also through a CAST),
     * {@code *} the columns of its FROM; a set operation's are its first branch's.
     */
    private List<FromColumn> outputColumns(SqlNode query, Map<String, Cte> ctes) {
      if (query instanceof SqlWith with) {
        Map<String, Cte> scope = new HashMap<>(ctes);
        for (SqlNode item : with.withList) {
          SqlWithItem cte = (SqlWithItem) item;
          scope.put(
              cte.name.getSimple().toLowerCase(Locale.ROOT),
              new Cte(
                  false, cte.query, Map.copyOf(scope), new boolean[] {true}, cte.columnList, cte));
        }
        return outputColumns(with.body, scope);
      }
      if (query instanceof SqlOrderBy orderBy) {
        return outputColumns(orderBy.query, ctes);
      }
      if (query instanceof SqlCall call && call.getOperator() instanceof SqlSetOperator) {
        return outputColumns(call.operand(0), ctes);
      }
      if (!(query instanceof SqlSelect select)) {
        return List.of(new FromColumn.Unknown(query == null ? "a query" : text(query)));
      }
      List<FromColumn> out = new ArrayList<>();
      for (SqlNode item : select.getSelectList()) {
        SqlNode e = item;
        if (e instanceof SqlCall as && as.getKind() == SqlKind.AS) {
          out.add(new FromColumn.Named(aliasOf(as)));
          continue;
        }
        // CAST(user AS STRING) keeps its column's name in Spark; other expressions get names
        // of their own text, which mlv does not reproduce.
        while (e instanceof SqlCall cast
            && (cast.getKind() == SqlKind.CAST || cast.getKind() == SqlKind.SAFE_CAST)
            && cast.operandCount() > 0) {
          e = cast.operand(0);
        }
        if (e instanceof SqlIdentifier id && id.isStar() && id.names.size() == 1) {
          out.addAll(select.getFrom() == null ? List.of() : fromColumns(select.getFrom(), ctes));
        } else if (e instanceof SqlIdentifier id && !id.isStar()) {
          out.add(new FromColumn.Named(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT)));
        } else {
          out.add(new FromColumn.Unknown(text(item)));
        }
      }
      return out;
    }

    // ---- FROM ----

    private void from(
        SqlNode node,
        Level level,
        List<UnionBranch> branches,
        RefContext context,
        Map<String, Cte> ctes,
        boolean aliased) {
      if (node instanceof SqlIdentifier identifier) {
        table(identifier, level, branches, context, ctes, aliased);
      } else if (node instanceof SqlJoin join) {
        RefContext right = join(join, level, context);
        from(join.getLeft(), level, branches, context, ctes, false);
        from(join.getRight(), level, branches, right, ctes, false);
        // ON sees the two sides it joins, not the tables joined after it.
        List<FromColumn> outer = scope;
        scope = fromColumns(join, ctes);
        expressions(join.getCondition(), level, branches, context, ctes);
        scope = outer;
      } else if (node instanceof SqlBasicCall call) {
        switch (call.getKind()) {
          case AS ->
              from(call.operand(0), level, branches, context, ctes, semiOrAnti(call) == null);
          case EXPLICIT_TABLE -> from(call.operand(0), level, branches, context, ctes, aliased);
          case LATERAL -> {
            full("LATERAL", keywordBefore(call, "LATERAL"), "LATERAL", "not supported");
            from(call.operand(0), level, branches, context, ctes, aliased);
          }
          case TABLESAMPLE ->
              full(
                  "TABLESAMPLE",
                  keywordAfter(call.operand(0), "TABLESAMPLE"),
                  "TABLE_SAMPLE",
                  "sampled rows");
          case COLLECTION_TABLE, UNNEST ->
              full(text(call), offset(call), "TABLE_FUNCTION", "not supported");
          default ->
              query(call, level == Level.EXPRESSION ? level : Level.FROM, branches, context, ctes);
        }
      } else if (node instanceof SqlSelect
          || node instanceof SqlWith
          || node instanceof SqlOrderBy
          || (node instanceof SqlCall c && c.getOperator() instanceof SqlSetOperator)
          || (node != null && node.getKind() == SqlKind.VALUES)) {
        query(node, level == Level.EXPRESSION ? level : Level.FROM, branches, context, ctes);
      } else if (node != null) {
        full(text(node), offset(node), "UNSUPPORTED_FROM", "not supported by incremental refresh");
      }
    }

    /** The verdict on one join, and the context of the tables on its right side. */
    private RefContext join(SqlJoin join, Level level, RefContext context) {
      JoinType spelled = join.getJoinType() == JoinType.INNER ? spelledSemiOrAnti(join) : null;
      JoinType type = spelled != null ? spelled : join.getJoinType();
      boolean expr = level == Level.EXPRESSION;
      switch (type) {
        case INNER, COMMA, CROSS -> {
          if (!expr) {
            String name =
                switch (type) {
                  case CROSS -> "CROSS JOIN";
                  case COMMA -> "comma join";
                  default -> "INNER JOIN";
                };
            addAt(
                name,
                joinKeyword(join, spelled != null),
                Support.INCREMENTAL,
                "",
                "both sides' new rows are joined, without double counting");
          }
          return context;
        }
        case LEFT, LEFT_SEMI_JOIN, LEFT_ANTI_JOIN -> {
          if (!expr) {
            String name =
                switch (type) {
                  case LEFT -> "LEFT OUTER JOIN";
                  case LEFT_SEMI_JOIN -> "LEFT SEMI JOIN";
                  default -> "LEFT ANTI JOIN";
                };
            addAt(
                name,
                joinKeyword(join, spelled != null),
                Support.CONDITIONAL,
                "LEFT_JOIN_RIGHT_CHANGED",
                "incremental while the right side's tables are unchanged");
          }
          return context == RefContext.SUBQUERY_EXPRESSION ? context : RefContext.LEFT_JOIN_RIGHT;
        }
        default -> {
          if (!expr) {
            addAt(
                type + " OUTER JOIN",
                joinKeyword(join, false),
                Support.FULL,
                "OUTER_JOIN kind=" + type,
                "rows of the other side can change with every new row");
          }
          return context;
        }
      }
    }

    /**
     * Spark reads {@code FROM t SEMI JOIN u} and {@code t ANTI JOIN u} as LEFT SEMI and LEFT ANTI
     * joins (neither word can be an alias there), Calcite as an inner join of {@code t} aliased
     * SEMI or ANTI: the join type Spark runs when the last item left of the join has that alias.
     */
    private JoinType spelledSemiOrAnti(SqlJoin join) {
      SqlNode left = join.getLeft();
      while (left instanceof SqlJoin j) {
        left = j.getRight();
      }
      return left instanceof SqlCall call && call.getKind() == SqlKind.AS ? semiOrAnti(call) : null;
    }

    /** The join type an unquoted alias SEMI or ANTI stands for, else null. */
    private JoinType semiOrAnti(SqlCall as) {
      int at = as.operandCount() == 2 ? offset(as.operand(1)) : -1;
      if (at >= 0
          && at < sql.length()
          && sql.charAt(at) != '`'
          && as.operand(1) instanceof SqlIdentifier alias
          && alias.isSimple()) {
        return switch (alias.getSimple().toUpperCase(Locale.ROOT)) {
          case "SEMI" -> JoinType.LEFT_SEMI_JOIN;
          case "ANTI" -> JoinType.LEFT_ANTI_JOIN;
          default -> null;
        };
      }
      return null;
    }

    private void table(
        SqlIdentifier identifier,
        Level level,
        List<UnionBranch> branches,
        RefContext context,
        Map<String, Cte> ctes,
        boolean aliased) {
      if (identifier.isSimple()
          && ctes.containsKey(identifier.getSimple().toLowerCase(Locale.ROOT))) {
        String name = identifier.getSimple().toLowerCase(Locale.ROOT);
        Cte cte = ctes.get(name);
        if (cte.counted()) {
          cteUses.merge(name, 1, Integer::sum);
          if (!cte.walked()[0] && cte.item() != null) {
            // Listed before what its query holds, which is judged where the CTE is read.
            ok("WITH " + name, cte.item(), cteNote(cte.query()));
          }
        }
        use(cte, level, branches, context);
        return;
      }
      SqlParserPos pos = identifier.getParserPosition();
      int from = TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
      if (markers.contains(from)) {
        return; // a VALUES list or table function, recorded where the analysis began
      }
      Optional<Name> name = tableName(identifier);
      int to =
          Math.min(
              sql.length(),
              TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1);
      String written = sql.substring(from, Math.max(from, to));
      if (name.isEmpty()) {
        full(identifier.toString(), from, "NOT_ANALYSABLE", "the table reference was not placed");
        return;
      }
      if (TableExtractor.isPathTable(name.get().parts())) {
        full(written, from, "PATH_TABLE", "a table read by path has no tracked version");
        return;
      }
      RefContext effective = level == Level.EXPRESSION ? RefContext.SUBQUERY_EXPRESSION : context;
      refs.add(new TableRef(name.get(), from, to, aliased, effective, branches));
    }

    /** A table's name as written in the SELECT, where its text is the identifier Calcite read. */
    private Optional<Name> tableName(SqlIdentifier identifier) {
      SqlParserPos pos = identifier.getParserPosition();
      int from = TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
      int to =
          Math.min(
              sql.length(),
              TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1);
      if (from < 0 || from > sql.length() || markers.contains(from)) {
        return Optional.empty();
      }
      String written = sql.substring(from, Math.max(from, to));
      List<String> parts =
          SqlToken.tokenize(written).stream()
              .filter(SqlToken::isIdentifier)
              .map(t -> t.identifierValue().toLowerCase(Locale.ROOT))
              .toList();
      List<String> expected =
          identifier.names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
      return parts.equals(expected)
          ? Optional.of(new Name(parts, written, start.advance(sql, from)))
          : Optional.empty();
    }

    // ---- expressions ----

    private void expressions(
        SqlNode node,
        Level level,
        List<UnionBranch> branches,
        RefContext context,
        Map<String, Cte> ctes) {
      if (node == null) {
        return;
      }
      if (node instanceof SqlNodeList list) {
        for (SqlNode item : list) {
          expressions(item, level, branches, context, ctes);
        }
      } else if (TableExtractor.isQuery(node)) {
        if (level != Level.EXPRESSION) {
          // Calcite starts an EXISTS's query at its parenthesis, an IN's at its SELECT: both are
          // placed and named by the query itself.
          int at = offset(node);
          String shown = text(node);
          if (at < sql.length() && sql.charAt(at) == '(' && shown.endsWith(")")) {
            shown = shown.substring(1, shown.length() - 1).strip();
            at++;
            while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
              at++;
            }
          }
          add(
              "subquery " + shown,
              at,
              Support.CONDITIONAL,
              "SUBQUERY_TABLE_CHANGED",
              "incremental while the tables the subquery reads are unchanged");
        }
        query(node, Level.EXPRESSION, branches, RefContext.SUBQUERY_EXPRESSION, ctes);
      } else if (node instanceof SqlCall call) {
        if (call.getKind() == SqlKind.OVER && level != Level.EXPRESSION) {
          full(text(call), offset(call), "WINDOW_FUNCTION", "a window sees rows of earlier runs");
        }
        String fn = SparkSyntaxRewriter.functionName(call);
        if (call.getOperator() instanceof SqlFunction && NonDeterministic.is(fn)) {
          full(
              text(call),
              offset(call),
              "NON_DETERMINISTIC fn=" + fn,
              "the result changes from one run to the next");
        } else if (fn.equals("unix_timestamp") && call.operandCount() == 0) {
          full(text(call), offset(call), "NON_DETERMINISTIC fn=" + fn, "the current time");
        } else if (fn.equals("aes_encrypt") && NonDeterministic.randomIv(call)) {
          full(
              text(call),
              offset(call),
              "NON_DETERMINISTIC fn=" + fn,
              "without an IV, each run encrypts with a random one, so the same row gives another"
                  + " value");
        } else if (call.getKind() == SqlKind.CAST
            || call.getKind() == SqlKind.SAFE_CAST
            || fn.equals("try_cast")
            || NonDeterministic.castingFunction(fn).isPresent()) {
          specialDatetime(call); // CAST('today' AS DATE), 'now'::timestamp, to_date('today')
        }
        // The name after AS is an alias, not a column: x AS current_date does not read the time.
        List<SqlNode> operands =
            call.getKind() == SqlKind.AS
                ? call.getOperandList().subList(0, 1)
                : call.getOperandList();
        for (SqlNode operand : operands) {
          expressions(operand, level, branches, context, ctes);
        }
      } else if (node instanceof SqlIdentifier id
          && id.names.size() == 1
          && NonDeterministic.literalFunction(id.getSimple()).isPresent()) {
        // current_date or user alone, backticked or not: Spark reads a column of the FROM by
        // that name, else the function. Which one is settled from the sources' columns.
        String fn = id.getSimple().toLowerCase(Locale.ROOT);
        Construct c =
            add(
                text(id),
                offset(id),
                Support.CONDITIONAL,
                "NON_DETERMINISTIC fn=" + fn,
                "Spark reads a column of the FROM named "
                    + fn
                    + " first, else the function "
                    + fn
                    + "(): "
                    + NonDeterministic.literalFunction(fn).orElseThrow()
                    + "; incremental while its FROM has a column named "
                    + fn);
        columnChecks.add(new RefreshAnalysis.ColumnCheck(c, fn, true, scope));
      } else if (node instanceof SqlLiteral) {
        specialDatetime(node); // TIMESTAMP 'now', DATE 'today'
      }
    }

    /**
     * A typed literal or a cast of a string that is one of Spark's special values but 'epoch':
     * Spark reads it as the time of the query, as current_timestamp(). Read from the node's own
     * text, which is where the value starts (an outer cast of it starts elsewhere).
     */
    private void specialDatetime(SqlNode node) {
      SqlParserPos pos = node.getParserPosition();
      int start = offset(node);
      // Calcite places 'now'::timestamp before the string; its text starts at the string.
      int literal =
          node instanceof SqlCall c && c.operandCount() > 0 && c.operand(0) instanceof SqlLiteral
              ? offset(c.operand(0))
              : start;
      int from = Math.min(start, literal);
      int to = TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
      String own = sql.substring(from, Math.min(sql.length(), Math.max(from, to)));
      NonDeterministic.specialDatetimes(own).stream()
          .filter(d -> from + d.offset() == start || from + d.offset() == literal)
          .findFirst()
          .ifPresent(
              d -> {
                String shown = own.substring(d.offset()).strip();
                full(
                    shown.length() > 60 ? shown.substring(0, 57) + "..." : shown,
                    from + d.offset(),
                    "NON_DETERMINISTIC fn=" + d.name(),
                    "a special value Spark reads as the time of each refresh");
              });
    }

    /**
     * Whether two column names name one column: the same last part, and one qualifier the end of
     * the other's. {@code a.g} and {@code b.g} of a join are different columns, and a GROUP BY of
     * one with the other selected has groups the result does not tell apart.
     */
    private static boolean sameColumn(SqlIdentifier a, SqlIdentifier b) {
      List<String> x = lower(a.names);
      List<String> y = lower(b.names);
      List<String> shorter = x.size() <= y.size() ? x : y;
      List<String> longer = x.size() <= y.size() ? y : x;
      return shorter.equals(longer.subList(longer.size() - shorter.size(), longer.size()));
    }

    private static SqlNode unalias(SqlNode item) {
      return item instanceof SqlCall c && c.getKind() == SqlKind.AS ? c.operand(0) : item;
    }

    private static String aliasOf(SqlNode item) {
      if (item instanceof SqlCall c && c.getKind() == SqlKind.AS) {
        return c.operand(1).toString().toLowerCase(Locale.ROOT).replace("`", "");
      }
      if (item instanceof SqlIdentifier id) {
        return id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT);
      }
      return "";
    }

    /**
     * A comparable form of an expression; a column compares by its last name part. Calcite's tree
     * is Spark's but for the precedence of a few operators, so an expression with one of them
     * compares by its tokens as written, which Spark parses one way only.
     */
    /**
     * The qualifiers that name the one table a grouping SELECT reads directly: its alias, else the
     * trailing parts of its name ({@code sales}, {@code bronze.sales}), lower case. In {@link #key}
     * a column so qualified is that table's column, written with or without them: Spark groups
     * {@code upper(s.region)} and {@code upper(region)} as one key (found by QA: planned full).
     */
    private List<List<String>> keyQualifiers = List.of();

    private static List<List<String>> qualifiers(SqlNode from) {
      if (from instanceof SqlCall as && as.getKind() == SqlKind.AS) {
        return as.operand(1) instanceof SqlIdentifier alias && alias.isSimple()
            ? List.of(List.of(alias.getSimple().toLowerCase(Locale.ROOT)))
            : List.of();
      }
      if (!(from instanceof SqlIdentifier table)) {
        return List.of();
      }
      List<String> names = table.names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
      List<List<String>> suffixes = new ArrayList<>();
      for (int i = names.size() - 1; i >= 0; i--) {
        suffixes.add(names.subList(i, names.size()));
      }
      return suffixes;
    }

    /** {@code e} with the qualifiers of {@link #keyQualifiers} taken off its columns. */
    private SqlNode unqualified(SqlNode e) {
      if (keyQualifiers.isEmpty()) {
        return e;
      }
      try {
        return e.accept(
            new org.apache.calcite.sql.util.SqlShuttle() {
              @Override
              public SqlNode visit(SqlIdentifier id) {
                List<String> names =
                    id.names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
                for (List<String> q : keyQualifiers) {
                  if (names.size() > q.size() && names.subList(0, q.size()).equals(q)) {
                    return id.getComponent(q.size(), names.size());
                  }
                }
                return id;
              }
            });
      } catch (RuntimeException unusual) {
        return e; // a call Calcite cannot copy: compared as written
      }
    }

    private String key(SqlNode e) {
      SqlParserPos pos = e.getParserPosition();
      int to = TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
      List<SqlToken> tokens =
          SqlToken.tokenize(
              sql.substring(offset(e), Math.max(offset(e), Math.min(sql.length(), to))));
      // A variant path's keys are compared with their case, as Spark looks them up (found by QA:
      // GROUP BY v:k::string, v:K::string was taken as one selected key, and merged wrongly).
      boolean variant = tokens.stream().anyMatch(t -> t.isSymbol(":"));
      if (e instanceof SqlIdentifier id && !variant) {
        return id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT);
      }
      if (!variant && !hasOperator(e, PRECEDENCE_NOT_SPARKS)) {
        return unqualified(e).toString().toLowerCase(Locale.ROOT);
      }
      StringBuilder written = new StringBuilder("written:");
      boolean inPath = false; // the keys after a path's colon keep their case, the rest does not
      for (SqlToken t : tokens) {
        inPath =
            t.isSymbol(":")
                || (inPath
                    && (t.isIdentifier()
                        || t.isSymbol(".")
                        || t.isSymbol("[")
                        || t.isSymbol("]")
                        || t.kind() == SqlToken.Kind.STRING
                        || t.kind() == SqlToken.Kind.NUMBER));
        written
            .append(
                t.kind() == SqlToken.Kind.STRING || inPath
                    ? t.text()
                    : t.identifierValue().toLowerCase(Locale.ROOT))
            .append(' ');
      }
      return written.toString();
    }

    /**
     * Operators whose precedence among Spark's (* / % DIV, then + - ||, shifts, &amp;, ^, |) is not
     * the one Calcite parsed them with.
     */
    private static final Set<String> PRECEDENCE_NOT_SPARKS =
        Set.of("||", "&", "^", "|", "<<", ">>", ">>>");

    private static boolean hasOperator(SqlNode node, Set<String> names) {
      if (node instanceof SqlCall call) {
        if (names.contains(call.getOperator().getName())) {
          return true;
        }
        for (SqlNode operand : call.getOperandList()) {
          if (operand != null && hasOperator(operand, names)) {
            return true;
          }
        }
      } else if (node instanceof SqlNodeList list) {
        for (SqlNode n : list) {
          if (hasOperator(n, names)) {
            return true;
          }
        }
      }
      return false;
    }

    private static boolean isAggregate(SqlCall call) {
      String fn = SparkSyntaxRewriter.functionName(call);
      return isAggregateName(fn) && call.getKind() != SqlKind.OVER;
    }

    /** The aggregate an expression over aggregates is blamed on: a non-mergeable one first. */
    private static String innerAggregate(SqlNode node) {
      List<String> found = new ArrayList<>();
      collectAggregates(node, found);
      return found.stream()
          .filter(OTHER_AGGREGATES::contains)
          .findFirst()
          .orElse(found.isEmpty() ? "expression" : found.get(0));
    }

    private static void collectAggregates(SqlNode node, List<String> found) {
      if (node instanceof SqlCall call
          && !TableExtractor.isQuery(call)
          && call.getKind() != SqlKind.OVER) {
        if (isAggregate(call)) {
          found.add(SparkSyntaxRewriter.functionName(call));
        }
        for (SqlNode operand : call.getOperandList()) {
          if (operand != null) {
            collectAggregates(operand, found);
          }
        }
      }
    }

    private static boolean hasAggregate(SqlNode node) {
      if (node instanceof SqlNodeList list) {
        for (SqlNode n : list) {
          if (hasAggregate(n)) {
            return true;
          }
        }
        return false;
      }
      if (node instanceof SqlCall call && !TableExtractor.isQuery(call)) {
        if (call.getKind() == SqlKind.OVER) {
          return false;
        }
        if (isAggregate(call)) {
          return true;
        }
        for (SqlNode operand : call.getOperandList()) {
          if (operand != null && hasAggregate(operand)) {
            return true;
          }
        }
      }
      return false;
    }
  }
}
