package dev.mlv.sql;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlPrefixOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Rewrites the Spark-only syntax that Calcite's Babel parser rejects into text Calcite accepts,
 * without moving anything: removed text becomes spaces, replacements have the same length and line
 * breaks stay where they were, so a line and column reported by Calcite is the line and column in
 * the user's file. Only tokens are rewritten, never the inside of strings, quoted identifiers or
 * comments.
 *
 * <p>Text that is removed but still matters for lineage (a generator's arguments, a table function
 * call, sort expressions) is returned as a {@link Fragment} to be parsed on its own; constructs
 * that leave no trace in Calcite's tree are returned as {@link QueryFeature}s.
 */
final class SparkSyntaxRewriter {

  /**
   * Stands in for a table-valued function or a bare VALUES list in FROM; the extractor skips an
   * identifier at a marker offset. Three characters, so it fits the shortest call {@code f()}.
   */
  static final String MARKER = "`$`";

  /** Removed text to parse separately: a comma-separated expression list or a query. */
  record Fragment(Kind kind, int offset, String text) {
    enum Kind {
      EXPRESSIONS,
      QUERY
    }
  }

  /**
   * The rewritten text (same length as the input), the input's tokens, and what the rewrite took
   * out of it. {@code operators}: where a Spark operator Calcite does not read was spelt as one it
   * does, and the Spark operator, for {@link #restoreOperators}. {@code joins}: where a semi or
   * anti join written without LEFT was spelt LEFT JOIN (the offsets of its SEMI or ANTI and of its
   * JOIN), and its type, for {@link #restoreJoins}.
   */
  record Result(
      String sql,
      List<SqlToken> tokens,
      List<Fragment> fragments,
      Set<Integer> markers,
      Set<String> functions,
      Set<QueryFeature> features,
      Map<Integer, SqlOperator> operators,
      Map<Integer, JoinType> joins) {
    Result {
      tokens = List.copyOf(tokens);
      fragments = List.copyOf(fragments);
      functions = Set.copyOf(functions);
      markers = Set.copyOf(markers);
      features = features.isEmpty() ? Set.of() : Set.copyOf(features);
      operators = Map.copyOf(operators);
      joins = Map.copyOf(joins);
    }
  }

  /**
   * Puts back, in place, the semi and anti joins written without LEFT of a tree parsed from
   * rewritten {@code text}: a join whose type Calcite read at the LEFT that stands for SEMI or
   * ANTI, or at the JOIN after it.
   */
  static SqlNode restoreJoins(SqlNode root, String text, Map<Integer, JoinType> joins) {
    if (root == null || joins.isEmpty()) {
      return root;
    }
    root.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (call instanceof SqlJoin join && join.getJoinType() == JoinType.LEFT) {
              SqlParserPos p = join.getJoinTypeNode().getParserPosition();
              JoinType type =
                  joins.get(TableExtractor.offsetOf(text, p.getLineNum(), p.getColumnNum()));
              if (type != null) {
                join.setOperand(2, type.symbol(p));
              }
            }
            return super.visit(call);
          }
        });
    return root;
  }

  /**
   * Spark's operators that Calcite's parser lacks, each spelt as the Calcite operator of the same
   * place in the grammar ({@code a DIV b} as {@code a / b}) and put back in the tree by {@link
   * #restoreOperators}, so that {@code a DIV b} never reads as, or compares equal to, {@code a /
   * b}. Their precedence is the stand-in's, which built the tree.
   */
  static final SqlOperator DIV = binary("DIV", SqlStdOperatorTable.DIVIDE);

  static final SqlOperator BIT_OR = binary("|", SqlStdOperatorTable.BITXOR_OPERATOR);
  static final SqlOperator SHIFT_RIGHT = binary(">>", SqlStdOperatorTable.BIT_LEFT_SHIFT);
  static final SqlOperator SHIFT_RIGHT_UNSIGNED = binary(">>>", SqlStdOperatorTable.BIT_LEFT_SHIFT);
  static final SqlOperator BIT_NOT =
      new SqlPrefixOperator(
          "~",
          SqlKind.OTHER,
          SqlStdOperatorTable.UNARY_MINUS.getLeftPrec(),
          ReturnTypes.ARG0,
          null,
          OperandTypes.ANY);

  private static SqlOperator binary(String name, SqlBinaryOperator standIn) {
    return new SqlBinaryOperator(
        name,
        SqlKind.OTHER,
        standIn.getLeftPrec(),
        standIn.getLeftPrec() < standIn.getRightPrec(),
        ReturnTypes.ARG0,
        null,
        OperandTypes.ANY_ANY);
  }

  /**
   * Puts back, in place, the Spark operators of a tree parsed from rewritten {@code text}: a prefix
   * call starts at its operator, a binary one has it between its operands.
   */
  static SqlNode restoreOperators(SqlNode root, String text, Map<Integer, SqlOperator> operators) {
    if (root == null || operators.isEmpty()) {
      return root;
    }
    root.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (call instanceof SqlBasicCall basic) {
              SqlOperator op = operatorOf(basic);
              if (op != null) {
                basic.setOperator(op);
              }
            }
            return super.visit(call);
          }

          private SqlOperator operatorOf(SqlBasicCall call) {
            List<SqlNode> operands = call.getOperandList();
            if (operands.size() == 1 && call.getOperator() instanceof SqlPrefixOperator) {
              return operators.get(start(call));
            }
            if (operands.size() != 2
                || !(call.getOperator() instanceof SqlBinaryOperator)
                || operands.get(0) == null
                || operands.get(1) == null) {
              return null;
            }
            SqlParserPos left = operands.get(0).getParserPosition();
            int after = TableExtractor.offsetOf(text, left.getEndLineNum(), left.getEndColumnNum());
            int before = start(operands.get(1));
            for (Map.Entry<Integer, SqlOperator> e : operators.entrySet()) {
              if (e.getKey() > after && e.getKey() < before) {
                return e.getValue();
              }
            }
            return null;
          }

          private int start(SqlNode node) {
            SqlParserPos p = node.getParserPosition();
            return TableExtractor.offsetOf(text, p.getLineNum(), p.getColumnNum());
          }
        });
    return root;
  }

  /** Words that end a FROM item's alias or column list, so they are never taken for an alias. */
  static final Set<String> CLAUSE_WORDS =
      Set.of(
          "WHERE",
          "GROUP",
          "HAVING",
          "ORDER",
          "WINDOW",
          "QUALIFY",
          "LIMIT",
          "OFFSET",
          "UNION",
          "INTERSECT",
          "EXCEPT",
          "MINUS",
          "JOIN",
          "INNER",
          "LEFT",
          "RIGHT",
          "FULL",
          "CROSS",
          "NATURAL",
          "SEMI",
          "ANTI",
          "ON",
          "USING",
          "LATERAL",
          "CLUSTER",
          "DISTRIBUTE",
          "SORT",
          "PIVOT",
          "UNPIVOT",
          "TABLESAMPLE",
          "AS",
          "SELECT",
          "FROM",
          "FOR",
          "VERSION",
          "TIMESTAMP");

  /** Words after which a clause-level list (DISTRIBUTE BY a, b) is over. */
  private static final Set<String> LIST_END_WORDS =
      Set.of(
          "LIMIT",
          "OFFSET",
          "UNION",
          "INTERSECT",
          "EXCEPT",
          "MINUS",
          "SORT",
          "DISTRIBUTE",
          "CLUSTER",
          "ORDER",
          "WINDOW");

  /** Words that start a FROM item and are not a function name. */
  private static final Set<String> NOT_TABLE_FUNCTIONS =
      Set.of("SELECT", "VALUES", "TABLE", "LATERAL", "UNNEST", "WITH", "IDENTIFIER");

  /** Spark's numeric literal suffixes: 1L, 2S, 3Y, 1.5D, 1.5F, 1.5BD. */
  private static final Set<String> NUMBER_SUFFIXES = Set.of("L", "S", "Y", "D", "F", "BD");

  /**
   * Words Calcite reserves that are also Spark's clause or operator words (UNION ALL, WINDOW w AS,
   * VALUES (1), INTERVAL 1 DAY, = ANY (...)): names only where a name must stand, before a comma,
   * FROM...
   */
  private static final Set<String> NAMES_IN_PLACE =
      Set.of(
          "WINDOW",
          "VALUES",
          "INTERVAL",
          "DEFAULT",
          "SET",
          "UNIQUE",
          "ANY",
          "SOME",
          "ALL",
          "ROLLUP",
          "MINUS",
          "CALL",
          "DESCRIBE");

  /**
   * Clause words Spark also takes as column names (every Kafka or Event Hubs source has an {@code
   * offset}), where they stand as an operand: after a comma, a parenthesis, an operator or one of
   * {@link #OPERAND_WORDS}, and before what ends a name. As a clause they follow a table, a column,
   * a number or a parenthesis ({@code FROM t LIMIT 10}, {@code ORDER BY a OFFSET 5}).
   */
  private static final Set<String> CLAUSE_NAMES = Set.of("LIMIT", "OFFSET");

  /**
   * Functions Calcite parses with a grammar of its own that Spark's calls do not follow: {@code
   * ceil(x, 1)}, {@code floor(x, 2)}, {@code first(x, true)}, {@code last(x, true)}, {@code
   * date_diff(a, b)}. Hidden where they are called, so Calcite reads a plain call.
   */
  private static final Set<String> CALLS = Set.of("CEIL", "FLOOR", "FIRST", "LAST", "DATE_DIFF");

  /**
   * Words Calcite reserves and Spark lets a user name a column or table with ({@code SELECT date,
   * timestamp FROM t}): those below and {@link #NAMES_IN_PLACE}. Where one stands as a name, the
   * rewrite spells it in look-alike letters Calcite reads as an identifier, and {@link
   * #restoreNames} spells it back in the parsed tree.
   */
  static final Set<String> CALCITE_ONLY_KEYWORDS =
      Stream.concat(
              Stream.of(
                  "DATE",
                  "DATETIME",
                  "TIME",
                  "TIMESTAMP",
                  "MONDAY",
                  "TUESDAY",
                  "WEDNESDAY",
                  "THURSDAY",
                  "FRIDAY",
                  "SATURDAY",
                  "SUNDAY",
                  "NEW",
                  "NEXT",
                  "ORDINAL",
                  "RANGE",
                  "ROW",
                  "ROWS",
                  "SKIP",
                  "SNAPSHOT",
                  "STREAM",
                  "UUID",
                  "VARIANT",
                  "VOLATILE",
                  "PATTERN",
                  "MEASURE",
                  "DEFINE",
                  "PARTITION",
                  "CURRENT",
                  "UNSIGNED",
                  "ASOF",
                  "GROUPING"),
              Stream.of(NAMES_IN_PLACE, CLAUSE_NAMES, CALLS).flatMap(Set::stream))
          .collect(Collectors.toUnmodifiableSet());

  /**
   * Words Calcite reserves that a variant path may use as keys ({@code v:from}, {@code
   * v:group.id}): hidden there, as {@link #CALCITE_ONLY_KEYWORDS} are where Spark reads them as
   * names.
   */
  private static final Set<String> PATH_KEYWORDS =
      Set.of(
          "FROM",
          "SELECT",
          "GROUP",
          "ORDER",
          "TABLE",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "END",
          "BY",
          "IN",
          "ON",
          "IS",
          "AS",
          "NULL",
          "TRUE",
          "FALSE",
          "NOT",
          "AND",
          "OR",
          "LEFT",
          "RIGHT",
          "CROSS",
          "JOIN",
          "INNER",
          "OUTER",
          "FULL",
          "NATURAL",
          "USING",
          "WHERE",
          "HAVING",
          "OVER",
          "UNION",
          "EXCEPT",
          "INTERSECT",
          "LIMIT",
          "OFFSET",
          "DISTINCT",
          "WITH",
          "BETWEEN",
          "LIKE",
          "CAST",
          "EXISTS",
          "ESCAPE",
          "TO",
          "AT",
          "USER",
          "VALUE",
          "YEAR",
          "MONTH",
          "DAY",
          "HOUR",
          "MINUTE",
          "SECOND",
          "ARRAY",
          "MAP",
          "INTERVAL",
          "LATERAL",
          "UNNEST",
          "FETCH",
          "FOR",
          "CREATE",
          "CURSOR",
          "DELETE",
          "DROP",
          "EXPLAIN",
          "GRANT",
          "INSERT",
          "INTO",
          "JSON_SCOPE",
          "MATCH_CONDITION",
          "MATCH_RECOGNIZE",
          "MERGE",
          "QUALIFY",
          "SAFE_CAST",
          "SAFE_OFFSET",
          "SAFE_ORDINAL",
          "TABLESAMPLE",
          "TRY_CAST",
          "UPDATE");

  /** Words of a CASE expression, which end an operand before them. */
  private static final Set<String> CASE_WORDS = Set.of("WHEN", "THEN", "ELSE", "END");

  /** Words after which a clause name is an operand. */
  private static final Set<String> OPERAND_WORDS =
      Set.of(
          "SELECT",
          "DISTINCT",
          "WHERE",
          "AND",
          "OR",
          "NOT",
          "BY",
          "WHEN",
          "THEN",
          "ELSE",
          "CASE",
          "ON",
          "HAVING",
          "AS");

  /** Words after which such a word is a clause word, never a name. */
  private static final Set<String> CLAUSE_BEFORE =
      Set.of("UNION", "INTERSECT", "EXCEPT", "MINUS", "WITH");

  /** Words that end a name in a select list or a condition. */
  private static final Set<String> NAME_ENDERS =
      Set.of(
          "FROM", "AS", "IS", "AND", "OR", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "ASC",
          "DESC", "NULLS", "ON", "JOIN", "UNION", "BETWEEN", "LIKE", "IN", "NOT");

  /** Words after which an operator word (DIV, REGEXP) is a name or starts an operand. */
  private static final Set<String> OPERAND_BEFORE =
      Stream.of(
              CLAUSE_WORDS,
              NAME_ENDERS,
              Set.of("SELECT", "DISTINCT", "CASE", "WHEN", "THEN", "ELSE", "BY"))
          .flatMap(Set::stream)
          .collect(Collectors.toUnmodifiableSet());

  /** Words after which any(...) is the aggregate. */
  private static final Set<String> CALL_BEFORE =
      Set.of("SELECT", "WHERE", "AND", "OR", "NOT", "HAVING", "BY", "WHEN", "THEN", "ELSE");

  /**
   * The look-alike letters start here: the Myanmar block, which Calcite's lexer takes for letters
   * and which Spark never sees unquoted (it refuses non-ASCII names unless backticked).
   */
  private static final int HIDDEN = 0x1000;

  private static String hide(String word) {
    StringBuilder b = new StringBuilder(word.length());
    word.chars().forEach(c -> b.append((char) (HIDDEN + c)));
    return b.toString();
  }

  private static boolean isHidden(char c) {
    return c >= HIDDEN + '0' && c <= HIDDEN + 'z';
  }

  /**
   * A text with each hidden keyword spelt as the user wrote it; only runs that spell one of {@link
   * #CALCITE_ONLY_KEYWORDS} are touched, so a backticked name in those letters stays as it is.
   */
  /** The name a call is written with, as Spark reads it: unhidden, lower case. */
  static String functionName(SqlCall call) {
    return unhide(call.getOperator().getName()).toLowerCase(Locale.ROOT);
  }

  /** Whether a call is written with DISTINCT, {@code count(DISTINCT x)}. */
  static boolean isDistinct(SqlCall call) {
    org.apache.calcite.sql.SqlLiteral q = call.getFunctionQuantifier();
    return q != null && "DISTINCT".equalsIgnoreCase(String.valueOf(q.toValue()));
  }

  static String unhide(String text) {
    if (text != null && text.contains("\\u10")) {
      // Calcite's messages escape the letters: "Encountered \u1064\u1061..."
      text =
          java.util.regex.Pattern.compile("\\\\u(10[0-7][0-9A-Fa-f])")
              .matcher(text)
              .replaceAll(m -> String.valueOf((char) Integer.parseInt(m.group(1), 16)));
    }
    if (text == null || text.chars().noneMatch(c -> isHidden((char) c))) {
      return text;
    }
    StringBuilder b = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      if (!isHidden(text.charAt(i))) {
        b.append(text.charAt(i++));
        continue;
      }
      int end = i;
      StringBuilder word = new StringBuilder();
      while (end < text.length() && isHidden(text.charAt(end))) {
        word.append((char) (text.charAt(end++) - HIDDEN));
      }
      boolean keyword = hiddenWord(word.toString().toUpperCase(Locale.ROOT));
      b.append(keyword ? word : text.substring(i, end));
      i = end;
    }
    return b.toString();
  }

  /** Whether the rewrite may spell {@code upper} in hidden letters, so unhide spells it back. */
  private static boolean hiddenWord(String upper) {
    return CALCITE_ONLY_KEYWORDS.contains(upper) || PATH_KEYWORDS.contains(upper);
  }

  /** Spells back, in place, every name of a tree parsed from rewritten text. */
  static org.apache.calcite.sql.SqlNode restoreNames(org.apache.calcite.sql.SqlNode root) {
    if (root == null) {
      return null;
    }
    root.accept(
        new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
          @Override
          public Void visit(org.apache.calcite.sql.SqlIdentifier id) {
            List<String> names = id.names.stream().map(SparkSyntaxRewriter::unhide).toList();
            if (!names.equals(id.names)) {
              List<org.apache.calcite.sql.parser.SqlParserPos> positions = new ArrayList<>();
              for (int k = 0; k < names.size(); k++) {
                positions.add(id.getComponentParserPosition(k));
              }
              id.setNames(names, positions);
            }
            return null;
          }
        });
    return root;
  }

  Result rewrite(String sql) {
    return new Pass(sql).run();
  }

  /** One rewrite of one text; not shared between threads. */
  private static final class Pass {
    private final String sql;
    private final char[] out;
    private final List<SqlToken> t;
    private final List<Fragment> fragments = new ArrayList<>();
    private final Set<Integer> markers = new HashSet<>();
    private final Set<String> functions = new HashSet<>();
    private final Set<QueryFeature> features = EnumSet.noneOf(QueryFeature.class);
    private final Map<Integer, SqlOperator> operators = new java.util.HashMap<>();
    private final Map<Integer, JoinType> joins = new java.util.HashMap<>();

    /** One entry per open parenthesis: does it hold a query, and are we in its FROM clause. */
    private final Deque<boolean[]> frames = new ArrayDeque<>();

    Pass(String sql) {
      this.sql = sql;
      this.out = sql.toCharArray();
      this.t = SqlToken.tokenize(sql);
    }

    Result run() {
      // Comments say nothing to the analysis, and Spark nests /* /* */ */ where Calcite does not.
      for (Token c : Lexer.tokenize(sql)) {
        if (c.kind() == Token.Kind.COMMENT) {
          blank(c.offset(), c.end());
        }
      }
      frames.push(new boolean[] {true, false, false});
      int i = 0;
      while (i < t.size()) {
        int next = rewriteAt(i);
        i = next > i ? next : i + 1;
      }
      return new Result(
          new String(out), t, fragments, markers, functions, features, operators, joins);
    }

    /** Applies the first rule that matches at token {@code i}; returns the next token to visit. */
    private int rewriteAt(int i) {
      SqlToken token = t.get(i);
      trackClauses(i, token);
      int next;
      if ((next = semiOrAntiJoin(i)) > 0
          || (next = lateralView(i)) > 0
          || (next = tableSample(i)) > 0
          || (next = timeTravel(i)) > 0
          || (next = distributeOrSortBy(i)) > 0
          || (next = groupByAll(i)) > 0
          || (next = groupingWith(i)) > 0
          || (next = hiveGroupingSets(i)) > 0
          || (next = limitAll(i)) > 0
          || (next = intervalLiteral(i)) > 0
          || (next = intervalCast(i)) > 0
          || (next = intervalString(i)) > 0
          || (next = fromItem(i)) > 0
          || (next = generatorAliases(i)) > 0
          || (next = structFieldName(i)) > 0
          || (next = nestedType(i)) > 0
          || (next = identifierClause(i)) > 0
          || (next = rawString(i)) > 0
          || (next = zonedTimestampLiteral(i)) > 0
          || (next = numberSuffix(i)) > 0
          || (next = adjacentStrings(i)) > 0
          || (next = collate(i)) > 0
          || (next = doubledBacktick(i)) > 0
          || (next = trailingSemicolon(i)) > 0
          || (next = likeQuantifier(i)) > 0
          || (next = variantPath(i)) > 0
          || (next = keywordAsName(i)) > 0
          || (next = starExcept(i)) > 0
          || (next = existsFunction(i)) > 0
          || (next = parenthesisedTable(i)) > 0
          || (next = operator(i)) > 0) {
        return next;
      }
      if (token.isSymbol("==")) {
        replace(token.start(), "= ");
      }
      return i + 1;
    }

    private void trackClauses(int i, SqlToken token) {
      boolean[] frame = frames.peek();
      if (token.isSymbol("(")) {
        SqlToken first = at(i + 1);
        boolean query =
            first != null
                && (first.isWord("SELECT")
                    || first.isWord("WITH")
                    || first.isWord("FROM")
                    || first.isWord("VALUES")
                    || first.isSymbol("("));
        // struct(x AS a, ...): Spark's call names its fields with AS, which Calcite refuses.
        boolean struct =
            i > 0 && t.get(i - 1).isWord("STRUCT") && !(is(i - 2, "AS") || symbol(i - 2, "::"));
        frames.push(new boolean[] {query, false, struct});
      } else if (token.isSymbol(")")) {
        if (frames.size() > 1) {
          frames.pop();
        }
      } else if (frame[0] && (token.isWord("FROM") && !previousIs(i, "DISTINCT"))
          || frame[0] && token.isWord("JOIN")) {
        frame[1] = true;
      } else if (token.kind() == SqlToken.Kind.WORD
          && (LIST_END_WORDS.contains(token.upper())
              || Set.of("WHERE", "GROUP", "HAVING", "QUALIFY", "SELECT").contains(token.upper()))) {
        frame[1] = false;
      }
    }

    /**
     * {@code t SEMI JOIN u} and {@code t ANTI JOIN u}: Spark reads them as its LEFT SEMI and LEFT
     * ANTI joins (measured on Spark 4.1.1: a column of u after the ON is UNRESOLVED_COLUMN),
     * Calcite as an inner join of t aliased SEMI. Spelt LEFT JOIN, the same length, and made the
     * semi or anti join again by {@link #restoreJoins}. Not after LEFT, nor after AS (there it
     * stays the alias it was read as), a dot (a column named semi) or an operator (ON a = semi JOIN
     * u reads the column semi).
     */
    private int semiOrAntiJoin(int i) {
      SqlToken token = t.get(i);
      if (!(token.isWord("SEMI") || token.isWord("ANTI"))
          || !is(i + 1, "JOIN")
          || !endsOperand(i - 1)) {
        return -1;
      }
      replace(token.start(), "LEFT");
      JoinType type = token.isWord("SEMI") ? JoinType.LEFT_SEMI_JOIN : JoinType.LEFT_ANTI_JOIN;
      joins.put(token.start(), type);
      joins.put(t.get(i + 1).start(), type);
      return i + 1;
    }

    /**
     * {@code IDENTIFIER('schema.table')}: Spark reads the literal as the name, so the name is what
     * Calcite sees. A literal that is not a plain dotted name is left for Spark to judge.
     */
    private int identifierClause(int i) {
      if (!t.get(i).isWord("IDENTIFIER")
          || !symbol(i + 1, "(")
          || !kind(i + 2, SqlToken.Kind.STRING)
          || !symbol(i + 3, ")")) {
        return -1;
      }
      String literal = t.get(i + 2).text();
      if (Token.isRawString(literal)) {
        return -1;
      }
      String name = literal.substring(1, literal.length() - 1);
      List<SqlToken> parts = SqlToken.tokenize(name);
      boolean dotted = !parts.isEmpty() && parts.size() % 2 == 1;
      for (int k = 0; dotted && k < parts.size(); k++) {
        dotted = k % 2 == 0 ? parts.get(k).isIdentifier() : parts.get(k).isSymbol(".");
      }
      if (!dotted || name.chars().anyMatch(ch -> ch == '\\' || ch == '\n' || ch == '\r')) {
        return -1;
      }
      blank(t.get(i).start(), t.get(i + 3).end());
      replace(t.get(i).start(), name);
      return i + 4;
    }

    /**
     * {@code TIMESTAMP_NTZ '...'} and {@code TIMESTAMP_LTZ '...'}: Calcite knows neither typed
     * literal; to the analysis each is a TIMESTAMP literal, the same text in the same place.
     */
    private int zonedTimestampLiteral(int i) {
      SqlToken token = t.get(i);
      if (!(token.isWord("TIMESTAMP_NTZ") || token.isWord("TIMESTAMP_LTZ"))
          || !kind(i + 1, SqlToken.Kind.STRING)) {
        return -1;
      }
      replace(token.start(), "TIMESTAMP    ");
      return i + 2;
    }

    /** {@code r'...'}: Calcite has no raw strings, so the same text as a plain literal. */
    private int rawString(int i) {
      SqlToken token = t.get(i);
      if (token.kind() != SqlToken.Kind.STRING || !Token.isRawString(token.text())) {
        return -1;
      }
      String body = token.text().substring(1).replace('\\', ' ');
      replace(token.start(), body + " ");
      return i + 1;
    }

    /** {@code LATERAL VIEW [OUTER] gen(args) alias [AS] col, ...}: kept as a fragment. */
    private int lateralView(int i) {
      if (!t.get(i).isWord("LATERAL") || !is(i + 1, "VIEW")) {
        return -1;
      }
      int j = i + 2;
      if (is(j, "OUTER")) {
        j++;
      }
      int nameStart = j;
      j = qualifiedNameEnd(j);
      if (j == nameStart || !symbol(j, "(")) {
        return -1;
      }
      int close = matchingParen(j);
      if (close < 0) {
        return -1;
      }
      call(j - 1, j, close);
      j = close + 1;
      if (isAlias(j) && !is(j, "AS")) {
        j++;
      }
      if (is(j, "AS") && isAlias(j + 1)) {
        j++;
      }
      if (isAlias(j)) {
        j++;
        while (symbol(j, ",") && isAlias(j + 1)) {
          j += 2;
        }
      }
      blank(t.get(i).start(), t.get(j - 1).end());
      features.add(QueryFeature.LATERAL_VIEW);
      return j;
    }

    /** Spark's {@code TABLESAMPLE (10 PERCENT)}, {@code (5 ROWS)}, {@code (BUCKET 1 OUT OF 4)}. */
    private int tableSample(int i) {
      if (!t.get(i).isWord("TABLESAMPLE") || !symbol(i + 1, "(")) {
        return -1;
      }
      int close = matchingParen(i + 1);
      if (close < 0) {
        return -1;
      }
      blank(t.get(i).start(), t.get(close).end());
      features.add(QueryFeature.TABLE_SAMPLE);
      return close + 1;
    }

    /**
     * {@code [FOR] VERSION|SYSTEM_VERSION|TIMESTAMP|SYSTEM_TIME AS OF value}. Calcite knows only
     * one spelling, so all are removed and recorded; the value is kept as a fragment.
     */
    private int timeTravel(int i) {
      int k = t.get(i).isWord("FOR") ? i + 1 : i;
      SqlToken kind = at(k);
      if (kind == null
          || !(kind.isWord("VERSION")
              || kind.isWord("SYSTEM_VERSION")
              || kind.isWord("TIMESTAMP")
              || kind.isWord("SYSTEM_TIME"))
          || !is(k + 1, "AS")
          || !is(k + 2, "OF")) {
        return -1;
      }
      int valueStart = k + 3;
      int end = operandEnd(valueStart);
      if (end < 0) {
        return -1;
      }
      while (symbol(end, "+") || symbol(end, "-") || symbol(end, "||")) {
        int further = operandEnd(end + 1);
        if (further < 0) {
          break;
        }
        end = further;
      }
      expressions(t.get(valueStart).start(), t.get(end - 1).end());
      blank(t.get(i).start(), t.get(end - 1).end());
      features.add(QueryFeature.TIME_TRAVEL);
      return end;
    }

    /** One operand of a time-travel value; returns the token after it, or -1. */
    private int operandEnd(int i) {
      SqlToken token = at(i);
      if (token == null) {
        return -1;
      }
      if (token.isSymbol("-") || token.isSymbol("+")) {
        return operandEnd(i + 1);
      }
      if (token.kind() == SqlToken.Kind.STRING || token.kind() == SqlToken.Kind.NUMBER) {
        return i + 1;
      }
      if (token.isSymbol("(")) {
        int close = matchingParen(i);
        return close < 0 ? -1 : close + 1;
      }
      if ((token.isWord("TIMESTAMP") || token.isWord("DATE"))
          && kind(i + 1, SqlToken.Kind.STRING)) {
        return i + 2;
      }
      if (token.isWord("INTERVAL")) {
        int j = i + 1;
        while (kind(j, SqlToken.Kind.STRING)
            || kind(j, SqlToken.Kind.NUMBER)
            || (kind(j, SqlToken.Kind.WORD) && !CLAUSE_WORDS.contains(t.get(j).upper()))) {
          j++;
        }
        return j > i + 1 ? j : -1;
      }
      if (token.kind() == SqlToken.Kind.WORD) {
        if (symbol(i + 1, "(")) {
          int close = matchingParen(i + 1);
          return close < 0 ? -1 : close + 1;
        }
        if (token.upper().startsWith("CURRENT_")) {
          return i + 1;
        }
      }
      return -1;
    }

    /** {@code CLUSTER BY | DISTRIBUTE BY | SORT BY list}: removed, the list kept as a fragment. */
    private int distributeOrSortBy(int i) {
      SqlToken token = t.get(i);
      if (!(token.isWord("CLUSTER") || token.isWord("DISTRIBUTE") || token.isWord("SORT"))
          || !is(i + 1, "BY")) {
        return -1;
      }
      int j = i + 2;
      int depth = 0;
      while (j < t.size()) {
        SqlToken u = t.get(j);
        if (u.isSymbol("(")) {
          depth++;
        } else if (u.isSymbol(")")) {
          if (depth == 0) {
            break;
          }
          depth--;
        } else if (depth == 0
            && (u.isSymbol(";")
                || (u.kind() == SqlToken.Kind.WORD && LIST_END_WORDS.contains(u.upper())))) {
          break;
        }
        j++;
      }
      if (j == i + 2) {
        return -1;
      }
      expressions(t.get(i + 2).start(), t.get(j - 1).end());
      blank(token.start(), t.get(j - 1).end());
      features.add(QueryFeature.DISTRIBUTE_OR_SORT_BY);
      return j;
    }

    /** {@code GROUP BY ALL} becomes {@code GROUP BY ()}, which Calcite accepts. */
    private int groupByAll(int i) {
      if (!t.get(i).isWord("GROUP") || !is(i + 1, "BY") || !is(i + 2, "ALL")) {
        return -1;
      }
      replace(t.get(i + 2).start(), "() ");
      features.add(QueryFeature.GROUP_BY);
      return i + 3;
    }

    /**
     * Hive's {@code GROUP BY a, b WITH ROLLUP} (or {@code WITH CUBE}), which Spark takes as {@code
     * ROLLUP (a, b)}: the two words are blanked, so the grouping keys keep their places, and the
     * construct is told as a feature (not incremental); a CTE named rollup is followed by AS or (.
     */
    private int groupingWith(int i) {
      if (!t.get(i).isWord("WITH")
          || !(is(i + 1, "ROLLUP") || is(i + 1, "CUBE"))
          || is(i + 2, "AS")
          || symbol(i + 2, "(")) {
        return -1;
      }
      blank(t.get(i).start(), t.get(i + 1).end());
      features.add(QueryFeature.GROUPING_SETS);
      return i + 2;
    }

    /**
     * Hive's {@code GROUP BY a, b GROUPING SETS ((a), (b))}, which Spark reads as {@code GROUP BY
     * GROUPING SETS ((a), (b))} over the keys a and b: a comma goes into the blank before GROUPING,
     * so Calcite reads the keys and the sets as one GROUP BY list and the keys are still checked.
     * Without a blank on that line to take it, the keys are blanked.
     */
    private int hiveGroupingSets(int i) {
      if (!t.get(i).isWord("GROUPING")
          || !is(i + 1, "SETS")
          || !endsOperand(i - 1)
          || is(i - 1, "BY")
          || !groupByBefore(i)) {
        return -1;
      }
      int from = t.get(i - 1).end();
      int to = t.get(i).start();
      for (int k = to - 1; k >= from; k--) {
        if (out[k] == ' ' || out[k] == '\t') {
          out[k] = ',';
          return i + 2;
        }
      }
      int by = i - 1;
      while (by >= 0 && !(is(by, "BY") && is(by - 1, "GROUP"))) {
        by--;
      }
      blank(t.get(by + 1).start(), t.get(i - 1).end());
      return i + 2;
    }

    /** Whether a GROUP BY of the same parentheses comes before token {@code i}. */
    private boolean groupByBefore(int i) {
      int depth = 0;
      for (int k = i - 1; k > 0; k--) {
        SqlToken u = t.get(k);
        depth += u.isSymbol(")") ? 1 : u.isSymbol("(") ? -1 : 0;
        if (depth < 0) {
          return false;
        }
        if (depth == 0 && u.isWord("BY") && is(k - 1, "GROUP")) {
          return true;
        }
      }
      return false;
    }

    /** {@code LIMIT ALL}, Spark's "no limit", which Calcite refuses: blanked. */
    private int limitAll(int i) {
      if (!t.get(i).isWord("LIMIT") || !is(i + 1, "ALL")) {
        return -1;
      }
      blank(t.get(i).start(), t.get(i + 1).end());
      return i + 2;
    }

    /**
     * Spark's interval literals of several units ({@code INTERVAL 1 YEAR 2 MONTHS}) and of units
     * Calcite lacks ({@code INTERVAL 5 MILLISECONDS}): the first number and unit stay, as one
     * Calcite reads (a millisecond or microsecond becomes SECOND), and the other units are blanked.
     * The literal's type is read from the text itself where it matters (CertainTypes), not from
     * this.
     */
    private int intervalLiteral(int i) {
      if (!t.get(i).isWord("INTERVAL")) {
        return -1;
      }
      List<Integer> units = new ArrayList<>();
      int j = i + 1;
      while (true) {
        int k = j;
        if (symbol(k, "-") || symbol(k, "+")) {
          k++;
        }
        if (!(kind(k, SqlToken.Kind.NUMBER) || kind(k, SqlToken.Kind.STRING))
            || at(k + 1) == null
            || at(k + 1).kind() != SqlToken.Kind.WORD
            || !CertainTypes.UNITS.containsKey(t.get(k + 1).upper())) {
          break;
        }
        units.add(k + 1);
        j = k + 2;
      }
      if (units.isEmpty() || is(j, "TO")) {
        return -1;
      }
      SqlToken first = t.get(units.get(0));
      boolean finer = first.upper().startsWith("MILLI") || first.upper().startsWith("MICRO");
      if (units.size() == 1 && !finer) {
        return -1;
      }
      if (finer) {
        blank(first.start(), first.end());
        replace(first.start(), "SECOND");
      }
      if (units.size() > 1) {
        blank(first.end(), t.get(j - 1).end());
      }
      return j;
    }

    /**
     * {@code INTERVAL '1 day 2 hours'}: Spark reads the units inside the string, Calcite wants one
     * after it. The string becomes {@code '1' DAY} in its place (the shortest such string, {@code
     * '1 day'}, has that length); its type is read from the text where it matters (CertainTypes).
     */
    private int intervalString(int i) {
      if (!t.get(i).isWord("INTERVAL") || !kind(i + 1, SqlToken.Kind.STRING)) {
        return -1;
      }
      SqlToken literal = t.get(i + 1);
      SqlToken after = at(i + 2);
      boolean unitAfter =
          after != null
              && after.kind() == SqlToken.Kind.WORD
              && CertainTypes.UNITS.containsKey(after.upper());
      String replacement = "'1' DAY";
      if (unitAfter
          || literal.end() - literal.start() < replacement.length()
          || sql.substring(literal.start(), literal.end()).contains("\n")
          || sql.substring(literal.start(), literal.end()).contains("\r")) {
        return -1;
      }
      blank(literal.start(), literal.end());
      replace(literal.start(), replacement);
      return i + 2;
    }

    /**
     * {@code x::INTERVAL MINUTE} (or {@code ::INTERVAL DAY TO SECOND}): Calcite reads no interval
     * type after {@code ::}, so the type becomes INT, as {@link #nestedType} does; CertainTypes
     * reads the type from the text.
     */
    private int intervalCast(int i) {
      if (!t.get(i).isWord("INTERVAL")
          || !symbol(i - 1, "::")
          || at(i + 1) == null
          || !CertainTypes.UNITS.containsKey(t.get(i + 1).upper())) {
        return -1;
      }
      int last = i + 1;
      if (is(i + 2, "TO")
          && at(i + 3) != null
          && CertainTypes.UNITS.containsKey(t.get(i + 3).upper())) {
        last = i + 3;
      }
      blank(t.get(i).start(), t.get(last).end());
      replace(t.get(i).start(), "INT");
      return last + 1;
    }

    /**
     * A FROM item Calcite rejects: a table-valued function call ({@code range(3)}) or a VALUES list
     * without parentheses. Both become the marker; their text is kept as a fragment.
     */
    private int fromItem(int i) {
      boolean[] frame = frames.peek();
      SqlToken prev = at(i - 1);
      if (!frame[1]
          || prev == null
          || !(prev.isWord("FROM") || prev.isWord("JOIN") || prev.isSymbol(","))) {
        return -1;
      }
      SqlToken token = t.get(i);
      if (token.isWord("VALUES")) {
        int end = valuesEnd(i + 1);
        if (end <= i + 1) {
          return -1;
        }
        int last = t.get(end - 1).end();
        fragments.add(
            new Fragment(Fragment.Kind.QUERY, token.start(), "VALUES " + rows(i + 1, end)));
        blank(token.start(), last);
        marker(token.start());
        return end;
      }
      // FROM t, LATERAL explode(t.arr) AS e(x): Spark's lateral table function, read as the
      // function (Calcite reads LATERAL only before a subquery or TABLE(...)).
      if (token.isWord("LATERAL")
          && kind(i + 1, SqlToken.Kind.WORD)
          && !NOT_TABLE_FUNCTIONS.contains(t.get(i + 1).upper())
          && symbol(i + 2, "(")
          && !is(i + 3, "SELECT")
          && !is(i + 3, "WITH")) {
        blank(token.start(), token.end());
        i++;
        token = t.get(i);
      }
      if (token.kind() != SqlToken.Kind.WORD
          || NOT_TABLE_FUNCTIONS.contains(token.upper())
          || !symbol(i + 1, "(")) {
        return -1;
      }
      int close = matchingParen(i + 1);
      if (close < 0) {
        return -1;
      }
      call(i, i + 1, close);
      blank(token.start(), t.get(close).end());
      marker(token.start());
      features.add(QueryFeature.TABLE_FUNCTION);
      return close + 1;
    }

    /**
     * The rows of a bare VALUES list, each wrapped in parentheses when it is not already, so that
     * {@code VALUES 1, 2} parses as two rows.
     */
    private String rows(int from, int end) {
      StringBuilder text = new StringBuilder();
      int i = from;
      while (i < end) {
        int rowEnd = i;
        int depth = 0;
        while (rowEnd < end) {
          SqlToken u = t.get(rowEnd);
          if (depth == 0 && u.isSymbol(",")) {
            break;
          }
          depth += u.isSymbol("(") ? 1 : u.isSymbol(")") ? -1 : 0;
          rowEnd++;
        }
        String row = sql.substring(t.get(i).start(), t.get(rowEnd - 1).end());
        if (text.length() > 0) {
          text.append(", ");
        }
        text.append(
            t.get(i).isSymbol("(") && rowEnd - 1 == matchingParen(i) ? row : "(" + row + ")");
        i = rowEnd + 1;
      }
      return text.toString();
    }

    /** Rows of a bare VALUES list: parenthesised groups, literals or calls, comma separated. */
    private int valuesEnd(int i) {
      int j = i;
      while (true) {
        int itemEnd = valueItemEnd(j);
        if (itemEnd < 0) {
          return j == i ? -1 : j - 1;
        }
        j = itemEnd;
        if (!symbol(j, ",")) {
          return j;
        }
        j++;
      }
    }

    private int valueItemEnd(int i) {
      SqlToken token = at(i);
      if (token == null) {
        return -1;
      }
      if (token.isSymbol("-") || token.isSymbol("+")) {
        return valueItemEnd(i + 1);
      }
      if (token.isSymbol("(")) {
        int close = matchingParen(i);
        return close < 0 ? -1 : close + 1;
      }
      if (token.kind() == SqlToken.Kind.STRING || token.kind() == SqlToken.Kind.NUMBER) {
        return i + 1;
      }
      if (token.isWord("NULL") || token.isWord("TRUE") || token.isWord("FALSE")) {
        return i + 1;
      }
      if (token.kind() == SqlToken.Kind.WORD && symbol(i + 1, "(")) {
        int close = matchingParen(i + 1);
        return close < 0 ? -1 : close + 1;
      }
      return -1;
    }

    /**
     * A field's name in Spark's {@code struct(x AS a, y AS b)}: {@code AS a} is blanked, so Calcite
     * reads the call's arguments (and the column checks see x and y); the name is no column.
     */
    private int structFieldName(int i) {
      if (!t.get(i).isWord("AS")
          || !frames.peek()[2]
          || !(kind(i + 1, SqlToken.Kind.WORD) || kind(i + 1, SqlToken.Kind.QUOTED_IDENTIFIER))
          || !(symbol(i + 2, ",") || symbol(i + 2, ")"))) {
        return -1;
      }
      blank(t.get(i).start(), t.get(i + 1).end());
      return i + 2;
    }

    /** Spark's generator aliases {@code explode(m) AS (k, v)}: the list is removed. */
    private int generatorAliases(int i) {
      if (!t.get(i).isWord("AS") || !symbol(i - 1, ")") || !symbol(i + 1, "(")) {
        return -1;
      }
      int j = i + 2;
      while (kind(j, SqlToken.Kind.WORD) || kind(j, SqlToken.Kind.QUOTED_IDENTIFIER)) {
        if (symbol(j + 1, ")")) {
          blank(t.get(i).start(), t.get(j + 1).end());
          return j + 2;
        }
        if (!symbol(j + 1, ",")) {
          return -1;
        }
        j += 2;
      }
      return -1;
    }

    /** {@code CAST(x AS array<int>)} and {@code x::map<string,int>}: the type becomes INT. */
    private int nestedType(int i) {
      SqlToken token = t.get(i);
      if (!(token.isWord("ARRAY") || token.isWord("MAP") || token.isWord("STRUCT"))
          || !symbol(i + 1, "<")
          || !(is(i - 1, "AS") || symbol(i - 1, "::"))) {
        return -1;
      }
      int depth = 0;
      for (int j = i + 1; j < t.size(); j++) {
        SqlToken u = t.get(j);
        if (u.isSymbol("<")) {
          depth++;
        } else if (u.isSymbol(">")) {
          depth--;
          if (depth == 0) {
            blank(token.start(), u.end());
            replace(token.start(), "INT");
            return j + 1;
          }
        }
      }
      return -1;
    }

    /** {@code 10L}, {@code 1.5BD}: the suffix goes, the number stays. */
    private int numberSuffix(int i) {
      SqlToken token = t.get(i);
      SqlToken next = at(i + 1);
      if (token.kind() != SqlToken.Kind.NUMBER
          || next == null
          || next.kind() != SqlToken.Kind.WORD
          || next.start() != token.end()
          || !NUMBER_SUFFIXES.contains(next.upper())) {
        return -1;
      }
      blank(next.start(), next.end());
      return i + 2;
    }

    /**
     * {@code 'a''b'}: Spark reads two adjacent literals, Calcite with backslash escapes rejects
     * them; turning the seam into an escaped quote keeps one literal of the same length.
     */
    private int adjacentStrings(int i) {
      SqlToken token = t.get(i);
      SqlToken next = at(i + 1);
      if (token.kind() != SqlToken.Kind.STRING
          || next == null
          || next.kind() != SqlToken.Kind.STRING
          || next.text().charAt(0) != token.text().charAt(0)
          || Token.isRawString(next.text())) {
        return -1;
      }
      if (next.start() == token.end()) {
        out[token.end() - 1] = '\\';
        return i + 1;
      }
      // 'a' 'b', blanks or comments between: Spark joins them; the seam's quotes become blanks,
      // so Calcite reads one literal of the same length ('a   b').
      if (!new String(out, token.end(), next.start() - token.end()).isBlank()) {
        return -1;
      }
      out[token.end() - 1] = ' ';
      out[next.start()] = ' ';
      return i + 1;
    }

    /**
     * {@code expr COLLATE name}: Calcite reads COLLATE only after a literal. A collation changes
     * how strings compare, not which columns are read, so it is blanked out.
     */
    private int collate(int i) {
      SqlToken next = at(i + 1);
      if (!t.get(i).isWord("COLLATE")
          || !endsOperand(i - 1)
          || next == null
          || (next.kind() != SqlToken.Kind.WORD && next.kind() != SqlToken.Kind.QUOTED_IDENTIFIER)
          || (at(i + 2) != null && at(i + 2).isSymbol("."))
          || !knownCollation(next)) {
        return -1;
      }
      blank(t.get(i).start(), next.end());
      return i + 2;
    }

    /**
     * Spark's own collations, spelled as Spark 4.1.1 accepts them (any case): UTF8_BINARY and
     * UTF8_LCASE with an optional _RTRIM, and UNICODE with at most one of _CS/_CI, one of _AS/_AI
     * and one _RTRIM, in any order (UNICODE_CS_CI and UNICODE_RTRIM_RTRIM are refused). A locale's
     * collation (en_US_CI) is left to Spark's parser, which knows the locales: checking it here
     * would load Spark.
     */
    private static boolean knownCollation(SqlToken name) {
      String text = name.text();
      if (name.kind() == SqlToken.Kind.QUOTED_IDENTIFIER) {
        text = text.substring(1, text.length() - 1);
      }
      String upper = text.toUpperCase(Locale.ROOT);
      if (upper.matches("UTF8_(BINARY|LCASE)(_RTRIM)?")) {
        return true;
      }
      String[] parts = upper.split("_", -1);
      if (!parts[0].equals("UNICODE")) {
        return false;
      }
      Set<String> groups = new HashSet<>();
      for (int k = 1; k < parts.length; k++) {
        String group =
            switch (parts[k]) {
              case "CS", "CI" -> "case";
              case "AS", "AI" -> "accent";
              case "RTRIM" -> "trim";
              default -> null;
            };
        if (group == null || !groups.add(group)) {
          return false;
        }
      }
      return true;
    }

    /**
     * {@code `a``b`}: Spark escapes a backtick in a quoted name by doubling it, Calcite's BigQuery
     * lexing with a backslash; {@code \`} has the same length.
     */
    private int doubledBacktick(int i) {
      SqlToken token = t.get(i);
      String name = token.text();
      if (token.kind() != SqlToken.Kind.QUOTED_IDENTIFIER
          || name.charAt(0) != '`'
          || !name.substring(1, name.length() - 1).contains("``")) {
        return -1;
      }
      for (int k = 1; k < name.length() - 2; k++) {
        if (name.charAt(k) == '`' && name.charAt(k + 1) == '`') {
          out[token.start() + k] = '\\';
          k++;
        }
      }
      return i + 1;
    }

    /**
     * {@code x [NOT] LIKE|ILIKE ANY|SOME|ALL (p, ...)}: Calcite reads SOME (...) as the aggregate
     * and ALL (...) as a call, and refuses ANY, so the quantifier goes and Calcite reads the
     * patterns as a row.
     */
    private int likeQuantifier(int i) {
      if (!(t.get(i).isWord("LIKE") || t.get(i).isWord("ILIKE"))
          || !(is(i + 1, "ANY") || is(i + 1, "SOME") || is(i + 1, "ALL"))
          || !symbol(i + 2, "(")
          || is(i + 3, "SELECT")
          || is(i + 3, "WITH")) {
        return -1;
      }
      blank(t.get(i + 1).start(), t.get(i + 1).end());
      return i + 2;
    }

    /**
     * Spark 4's variant path {@code v:a.b[0]} (variant_get): the colon becomes a dot before a key
     * and a blank before a bracket, so Calcite reads a field or item access on the column and the
     * checks see {@code v}; a key Calcite reserves ({@code v:date}) is hidden like a column name. A
     * colon after an operator is a parameter marker (SQL_PARAMETER), one in {@code STRUCT<a: INT>}
     * a field's type: neither is a path.
     */
    private int variantPath(int i) {
      if (!t.get(i).isSymbol(":") || !endsOperand(i - 1) || insideStructType(i)) {
        return -1;
      }
      int j = i + 1;
      boolean key = kind(j, SqlToken.Kind.WORD) || kind(j, SqlToken.Kind.QUOTED_IDENTIFIER);
      if (!key && !symbol(j, "[")) {
        return -1;
      }
      List<Integer> keys = new ArrayList<>();
      if (key) {
        keys.add(j++);
      }
      while (true) {
        if (symbol(j, ".")
            && (kind(j + 1, SqlToken.Kind.WORD) || kind(j + 1, SqlToken.Kind.QUOTED_IDENTIFIER))) {
          keys.add(j + 1);
          j += 2;
        } else if (symbol(j, "[")
            && (plainString(j + 1) || kind(j + 1, SqlToken.Kind.NUMBER))
            && symbol(j + 2, "]")) {
          j += 3;
        } else {
          break;
        }
      }
      // A path Spark refuses ('' or "k" in brackets, 'it''s', .* or [*] after it) or may read
      // otherwise stays as written: Calcite refuses it and Spark's own parser has the last word
      // (found by QA: read here, v:["a"] and v:customer.* passed validate and failed apply).
      if (j == i + 1 || symbol(j, ".") || symbol(j, "[")) {
        return -1;
      }
      if (key) {
        out[t.get(i).start()] = '.';
      } else {
        blank(t.get(i).start(), t.get(i).end());
      }
      keys.forEach(this::hideKey);
      return j;
    }

    /** A single-quoted string of one or more characters with no quote or backslash inside. */
    private boolean plainString(int i) {
      if (!kind(i, SqlToken.Kind.STRING)) {
        return false;
      }
      String text = t.get(i).text();
      return text.length() > 2
          && text.charAt(0) == '\''
          && text.indexOf('\'', 1) == text.length() - 1
          && text.indexOf('\\') < 0;
    }

    private void hideKey(int i) {
      SqlToken key = t.get(i);
      if (key.kind() == SqlToken.Kind.WORD && hiddenWord(key.upper())) {
        replace(key.start(), hide(key.text()));
      }
    }

    /**
     * Whether the colon at token {@code i} is inside the angle brackets of a STRUCT type. The scan
     * back is bounded, so a statement of many paths is not read over and over; the colon of a type
     * longer than that reads as a path, and Calcite refuses the text (the fallback parser reads
     * it).
     */
    private boolean insideStructType(int i) {
      int depth = 0;
      for (int j = i - 1; j >= Math.max(0, i - 512); j--) {
        SqlToken u = t.get(j);
        if (u.isSymbol(">")) {
          depth++;
        } else if (u.isSymbol("<")) {
          if (depth == 0) {
            return is(j - 1, "STRUCT");
          }
          depth--;
        } else if (u.isSymbol("(") || u.isSymbol(")") || u.isSymbol(";")) {
          return false;
        }
      }
      return false;
    }

    /**
     * Spark's higher-order {@code exists(array, x -> ...)}, which Calcite reads as EXISTS
     * (subquery): spelt {@code forall}, a built-in of the same length and shape, for the analysis.
     */
    private int existsFunction(int i) {
      if (!t.get(i).isWord("EXISTS")
          || !symbol(i + 1, "(")
          || is(i + 2, "SELECT")
          || is(i + 2, "WITH")
          || is(i + 2, "FROM")
          || is(i + 2, "VALUES")
          || symbol(i + 2, "(")) {
        return -1;
      }
      replace(t.get(i).start(), "forall");
      return i + 1;
    }

    /**
     * Spark's operators Calcite's parser refuses: {@code a DIV b}, {@code a REGEXP b} (Spark's
     * RLIKE), {@code a | b}, {@code a >> b}, {@code a >>> b}, {@code ~a} and {@code !(a)}, each
     * spelt as a Calcite operator of the same length and the same place in the grammar.
     */
    private int operator(int i) {
      SqlToken token = t.get(i);
      // a NOT REGEXP b: NOT is part of the operator.
      boolean binary =
          (endsOperand(i - 1) || is(i - 1, "NOT") && endsOperand(i - 2)) && startsOperand(i + 1);
      if (binary && token.isWord("DIV")) {
        return standIn(i, i, "/", DIV);
      }
      if (binary && token.isWord("REGEXP")) {
        replace(token.start(), "RLIKE ");
        return i + 1;
      }
      if (token.isSymbol("|") && binary) {
        return standIn(i, i, "^", BIT_OR);
      }
      if (token.isSymbol(">") && adjacent(i, i + 1, ">")) {
        boolean unsigned = adjacent(i + 1, i + 2, ">");
        int last = unsigned ? i + 2 : i + 1;
        return endsOperand(i - 1) && startsOperand(last + 1)
            ? standIn(i, last, "<<", unsigned ? SHIFT_RIGHT_UNSIGNED : SHIFT_RIGHT)
            : -1;
      }
      if (token.isSymbol("~") && !endsOperand(i - 1) && startsOperand(i + 1)) {
        return standIn(i, i, "-", BIT_NOT);
      }
      if (token.isSymbol("!") && !endsOperand(i - 1) && symbol(i + 1, "(")) {
        // Spark's ! is NOT, which binds looser than any comparison: !(a) = b is NOT ((a) = b).
        // Calcite's prefix minus is the same tree only when nothing but AND, OR or the end of
        // the condition follows the parentheses.
        int close = matchingParen(i + 1);
        SqlToken after = at(close + 1);
        boolean ends =
            close > 0
                && (after == null
                    || after.isSymbol(")")
                    || after.isSymbol(",")
                    || after.isSymbol(";")
                    || (after.kind() == SqlToken.Kind.WORD
                        && (CLAUSE_WORDS.contains(after.upper())
                            || Set.of("AND", "OR", "WHEN", "THEN", "ELSE", "END")
                                .contains(after.upper()))));
        return ends ? standIn(i, i, "-", SqlStdOperatorTable.NOT) : -1;
      }
      return -1;
    }

    /** Tokens {@code from..to} become {@code text}, padded; {@code op} is restored there. */
    private int standIn(int from, int to, String text, SqlOperator op) {
      blank(t.get(from).start(), t.get(to).end());
      replace(t.get(from).start(), text);
      operators.put(t.get(from).start(), op);
      return to + 1;
    }

    private boolean adjacent(int i, int j, String symbol) {
      return symbol(j, symbol) && t.get(j).start() == t.get(i).end();
    }

    /** Whether token {@code i} can end an operand: a name, a literal, a closing bracket. */
    private boolean endsOperand(int i) {
      SqlToken token = at(i);
      if (token == null) {
        return false;
      }
      return switch (token.kind()) {
        case NUMBER, STRING, QUOTED_IDENTIFIER -> true;
        case SYMBOL -> token.isSymbol(")") || token.isSymbol("]");
        case WORD -> !OPERAND_BEFORE.contains(token.upper());
      };
    }

    /** Whether token {@code i} can start an operand. */
    private boolean startsOperand(int i) {
      SqlToken token = at(i);
      if (token == null) {
        return false;
      }
      return switch (token.kind()) {
        case NUMBER, STRING, QUOTED_IDENTIFIER -> true;
        case SYMBOL ->
            token.isSymbol("(")
                || token.isSymbol("-")
                || token.isSymbol("+")
                || token.isSymbol("~")
                || token.isSymbol("!");
        case WORD -> !CLAUSE_WORDS.contains(token.upper()) && !NAME_ENDERS.contains(token.upper());
      };
    }

    /** {@code FROM (bronze.orders)}: Spark reads the table; Calcite wants a query there. */
    private int parenthesisedTable(int i) {
      if (!t.get(i).isSymbol("(") || !(is(i - 1, "FROM") || is(i - 1, "JOIN"))) {
        return -1;
      }
      int end = qualifiedNameEnd(i + 1);
      if (end == i + 1 || !symbol(end, ")")) {
        return -1;
      }
      blank(t.get(i).start(), t.get(i).end());
      blank(t.get(end).start(), t.get(end).end());
      return i + 1; // the tokens are still visited, so the parenthesis frames stay paired
    }

    /** {@code * EXCEPT (a, b)} and {@code t.* EXCEPT (a)}: a star still, for Calcite. */
    private int starExcept(int i) {
      if (!t.get(i).isSymbol("*")
          || !is(i + 1, "EXCEPT")
          || !symbol(i + 2, "(")
          || !(is(i - 1, "SELECT")
              || is(i - 1, "DISTINCT")
              || is(i - 1, "ALL")
              || symbol(i - 1, ",")
              || symbol(i - 1, "."))) {
        return -1;
      }
      int close = matchingParen(i + 2);
      if (close < 0) {
        return -1;
      }
      blank(t.get(i + 1).start(), t.get(close).end());
      return close + 1;
    }

    /**
     * A word Calcite reserves, standing where Spark reads it as a name: spelt in hidden letters.
     */
    private int keywordAsName(int i) {
      SqlToken token = t.get(i);
      if (token.kind() != SqlToken.Kind.WORD
          || !CALCITE_ONLY_KEYWORDS.contains(token.upper())
          || !standsAsName(i)) {
        return -1;
      }
      replace(token.start(), hide(token.text()));
      return i + 1;
    }

    private boolean standsAsName(int i) {
      SqlToken prev = at(i - 1);
      String word = token(i).upper();
      // DATE'2026-01-01' is a literal; date(ts) a call Calcite reads, uuid() and any(x) calls
      // it does not, which are hidden too (the analysis reads the name back).
      if (kind(i + 1, SqlToken.Kind.STRING)) {
        return false;
      }
      if (CALLS.contains(word)) {
        // A call only: NULLS FIRST, and a column named first, are Calcite's to read.
        return symbol(i + 1, "(") && (prev == null || !prev.isSymbol("."));
      }
      if (symbol(i + 1, "(")) {
        // any(x) the aggregate, not LIKE ANY (...) nor = ANY (...).
        return word.equals("UUID")
            || (word.equals("ANY")
                && prev != null
                && (prev.isSymbol(",")
                    || prev.isSymbol("(")
                    || CALL_BEFORE.contains(prev.upper())));
      }
      if (prev != null && prev.isSymbol(".")) {
        return true;
      }
      if (CLAUSE_NAMES.contains(word)) {
        SqlToken next = at(i + 1);
        return prev != null
            && ((prev.kind() == SqlToken.Kind.SYMBOL && !prev.isSymbol(")"))
                || OPERAND_WORDS.contains(prev.upper()))
            // LIMIT :n and LIMIT ? are parameter markers (SQL_PARAMETER).
            && (next == null
                || (next.kind() == SqlToken.Kind.SYMBOL
                    ? !(next.isSymbol(":") || next.isSymbol("?") || next.isSymbol("("))
                    : next.kind() == SqlToken.Kind.WORD
                        && (NAME_ENDERS.contains(next.upper())
                            || CASE_WORDS.contains(next.upper()))));
      }
      // Types: x::date, STRUCT<a: date>, CAST(x AS date); FETCH NEXT 5 ROWS.
      if (prev != null
          && (prev.isSymbol("::")
              || prev.isSymbol(":")
              || prev.isSymbol("<")
              || prev.isWord("FETCH")
              || (prev.kind() == SqlToken.Kind.NUMBER
                  && (word.equals("ROWS") || word.equals("ROW"))))) {
        return false;
      }
      if (prev != null && prev.isWord("AS") && insideCast(i)) {
        return false;
      }
      if (NAMES_IN_PLACE.contains(word)) {
        return endsName(i + 1, word) && (prev == null || !CLAUSE_BEFORE.contains(prev.upper()));
      }
      return switch (word) {
        case "PARTITION" -> !is(i + 1, "BY");
        case "RANGE", "ROWS" ->
            !((is(i + 1, "BETWEEN")
                    || is(i + 1, "UNBOUNDED")
                    || is(i + 1, "CURRENT")
                    || is(i + 1, "INTERVAL")
                    || kind(i + 1, SqlToken.Kind.NUMBER))
                && insideWindowSpec(i));
        case "CURRENT" -> !is(i + 1, "ROW");
        case "ROW" -> prev == null || !prev.isWord("CURRENT");
        case "GROUPING" -> !is(i + 1, "SETS");
        case "TIME", "TIMESTAMP" -> !is(i + 1, "ZONE") && !is(i + 1, "WITH");
        default -> true;
      };
    }

    /** Whether the token after a word ends it as a name: a comma, FROM, AS, an operator... */
    private boolean endsName(int i, String word) {
      SqlToken next = at(i);
      if (next == null) {
        return true;
      }
      if (next.kind() == SqlToken.Kind.WORD) {
        return NAME_ENDERS.contains(next.upper());
      }
      if (next.kind() != SqlToken.Kind.SYMBOL) {
        return false;
      }
      // INTERVAL -1 DAY is a literal.
      boolean sign = next.isSymbol("-") || next.isSymbol("+");
      return !(sign && word.equals("INTERVAL")) && !next.isSymbol("(");
    }

    /** Whether token {@code i} is inside OVER (...) or a named window's (...). */
    private boolean insideWindowSpec(int i) {
      int open = enclosingParen(i);
      return is(open - 1, "OVER") || is(open - 1, "AS");
    }

    /** Whether token {@code i} is inside the parentheses of a CAST or TRY_CAST call. */
    private boolean insideCast(int i) {
      int open = enclosingParen(i);
      return is(open - 1, "CAST") || is(open - 1, "TRY_CAST");
    }

    /** The unmatched {@code (} before token {@code i}, or -1 at the top level. */
    private int enclosingParen(int i) {
      int depth = 0;
      for (int j = i - 1; j >= 0; j--) {
        if (t.get(j).isSymbol(")")) {
          depth++;
        } else if (t.get(j).isSymbol("(")) {
          if (depth == 0) {
            return j;
          }
          depth--;
        }
      }
      return -1;
    }

    private SqlToken token(int i) {
      return t.get(i);
    }

    private int trailingSemicolon(int i) {
      if (!t.get(i).isSymbol(";")) {
        return -1;
      }
      for (int j = i + 1; j < t.size(); j++) {
        if (!t.get(j).isSymbol(";")) {
          return -1;
        }
      }
      for (int j = i; j < t.size(); j++) {
        blank(t.get(j).start(), t.get(j).end());
      }
      return t.size();
    }

    private boolean isAlias(int i) {
      SqlToken token = at(i);
      return token != null
              && (token.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
                  || (token.kind() == SqlToken.Kind.WORD && !CLAUSE_WORDS.contains(token.upper())))
          || is(i, "AS") && isAlias(i + 1);
    }

    private int qualifiedNameEnd(int i) {
      int j = i;
      while (at(j) != null && at(j).isIdentifier()) {
        j++;
        if (!symbol(j, ".")) {
          return j;
        }
        j++;
      }
      return i;
    }

    private int matchingParen(int open) {
      return SqlToken.closingParen(t, open);
    }

    /**
     * A removed call: its name is recorded directly (generator names such as {@code range} are
     * Calcite keywords), its arguments are kept as a fragment.
     */
    private void call(int name, int open, int close) {
      functions.add(t.get(name).identifierValue().toLowerCase(Locale.ROOT));
      if (close > open + 1) {
        expressions(t.get(open + 1).start(), t.get(close - 1).end());
      }
    }

    private void expressions(int from, int to) {
      fragments.add(new Fragment(Fragment.Kind.EXPRESSIONS, from, sql.substring(from, to)));
    }

    private void marker(int offset) {
      replace(offset, MARKER);
      markers.add(offset);
    }

    private void blank(int from, int to) {
      for (int k = from; k < to; k++) {
        if (out[k] != '\n' && out[k] != '\r') {
          out[k] = ' ';
        }
      }
    }

    private void replace(int offset, String text) {
      text.getChars(0, text.length(), out, offset);
    }

    private SqlToken at(int i) {
      return i >= 0 && i < t.size() ? t.get(i) : null;
    }

    private boolean is(int i, String word) {
      return at(i) != null && at(i).isWord(word);
    }

    private boolean symbol(int i, String symbol) {
      return at(i) != null && at(i).isSymbol(symbol);
    }

    private boolean kind(int i, SqlToken.Kind kind) {
      return at(i) != null && at(i).kind() == kind;
    }

    private boolean previousIs(int i, String word) {
      return is(i - 1, word);
    }
  }
}
