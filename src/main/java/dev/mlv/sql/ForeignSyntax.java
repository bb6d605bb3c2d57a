package dev.mlv.sql;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * SQL that Calcite's Babel parser accepts from other dialects but Spark 4.1 (Fabric Runtime 2.0)
 * rejects: syntax it cannot parse, type names it does not have, and calls of Calcite's own
 * operators (ROW, JSON_VALUE) that Spark parses as functions it does not have. Calcite is mlv's
 * first parser, so without this check such a view passes {@code mlv validate} and fails only when
 * {@code apply} runs it. Found on tokens, so strings, quoted names and comments never match.
 */
final class ForeignSyntax {

  /**
   * One construct Spark refuses: where it starts, what it is, why Spark refuses it (the end of "...
   * is not Spark SQL: Spark 4.1 (Fabric Runtime 2.0) ...") and the Spark spelling.
   */
  record Finding(int offset, String construct, String refusal, String hint) {

    /**
     * Whether Spark's parser reads it (as a call of a function Spark does not have), so it fails
     * only when the view runs, and a SELECT Spark's parser read may still hold it.
     */
    boolean sparkParses() {
      return refusal.startsWith(NO_FUNCTION);
    }
  }

  private static final String CANNOT_PARSE = "cannot parse it";

  private static final String NO_FUNCTION = "has no function ";

  private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");

  /** Words that start a join; Spark takes none of them after a LATERAL VIEW clause. */
  private static final Set<String> JOIN_WORDS =
      Set.of("JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "SEMI", "ANTI");

  /**
   * Calcite's own JSON operators, which it parses as syntax (so the UDF rule never sees a call),
   * and the Spark functions that do their work. Spark has no function of these names.
   */
  private static final Map<String, String> JSON_OPERATORS =
      Map.of(
          "JSON_VALUE",
              "write get_json_object(json, path), or from_json(json, schema) for typed values",
          "JSON_QUERY",
              "write get_json_object(json, path): it returns objects and arrays as JSON text",
          "JSON_EXISTS", "write get_json_object(json, path) IS NOT NULL",
          "JSON_OBJECT", "write to_json(named_struct('key', value, ...))",
          "JSON_ARRAY", "write to_json(array(...))",
          "JSON_OBJECTAGG", "write to_json(map_from_entries(collect_list(struct(key, value))))",
          "JSON_ARRAYAGG", "write to_json(collect_list(value))");

  /**
   * Type names of other dialects that Calcite takes as a user-defined type and Spark refuses as
   * UNSUPPORTED_DATATYPE (each measured), with the Spark type to write.
   */
  private static final Map<String, String> FOREIGN_TYPES =
      Map.ofEntries(
          Map.entry("TEXT", "STRING"),
          Map.entry("TINYTEXT", "STRING"),
          Map.entry("CLOB", "STRING"),
          Map.entry("NVARCHAR", "STRING"),
          Map.entry("NCHAR", "STRING"),
          Map.entry("VARCHAR2", "STRING"),
          Map.entry("UUID", "STRING"),
          Map.entry("JSON", "STRING"),
          Map.entry("INT4", "INT"),
          Map.entry("INT8", "BIGINT"),
          Map.entry("FLOAT8", "DOUBLE"),
          Map.entry("BOOL", "BOOLEAN"),
          Map.entry("BYTEA", "BINARY"),
          Map.entry("BLOB", "BINARY"),
          Map.entry("VARBINARY", "BINARY"),
          Map.entry("MONEY", "DECIMAL(p, s)"),
          Map.entry("NUMBER", "DECIMAL(p, s)"),
          Map.entry("DATETIME", "TIMESTAMP"));

  /**
   * Spark 4.1.1's type names that take no parameters (its grammar's trivialPrimitiveType): Spark
   * refuses any of them with {@code (n)} after it as UNSUPPORTED_DATATYPE (measured: INT(5),
   * TIMESTAMP_NTZ(3)).
   */
  private static final List<String> PLAIN_TYPES =
      List.of(
          "BOOLEAN",
          "TINYINT",
          "BYTE",
          "SMALLINT",
          "SHORT",
          "INT",
          "INTEGER",
          "BIGINT",
          "LONG",
          "FLOAT",
          "REAL",
          "DOUBLE",
          "DATE",
          "TIMESTAMP_LTZ",
          "TIMESTAMP_NTZ",
          "BINARY",
          "VOID",
          "VARIANT");

  /**
   * The other type names of Spark 4.1.1's grammar: those with parameters or words after them, and
   * the nested types. Any other name Spark refuses as UNSUPPORTED_DATATYPE.
   */
  private static final Set<String> OTHER_TYPES =
      Set.of(
          "STRING",
          "CHAR",
          "CHARACTER",
          "VARCHAR",
          "DECIMAL",
          "DEC",
          "NUMERIC",
          "INTERVAL",
          "TIMESTAMP",
          "TIME",
          "GEOGRAPHY",
          "GEOMETRY",
          "ARRAY",
          "MAP",
          "STRUCT");

  /** Spark's largest DECIMAL precision. */
  private static final int MAX_PRECISION = 38;

  private ForeignSyntax() {}

  /** The first construct of a SELECT, given as its tokens, that Spark would refuse. */
  static Optional<Finding> find(List<SqlToken> t) {
    return first(t, f -> true);
  }

  /** The first construct Spark's parser reads as a call but Spark cannot run: ROW(a, b). */
  static Optional<Finding> findCall(List<SqlToken> t) {
    return first(t, Finding::sparkParses);
  }

  private static Optional<Finding> first(List<SqlToken> t, Predicate<Finding> which) {
    for (int i = 0; i < t.size(); i++) {
      Optional<Finding> f = at(t, i).filter(which);
      if (f.isPresent()) {
        return f;
      }
    }
    return Optional.empty();
  }

  private static Optional<Finding> at(List<SqlToken> t, int i) {
    SqlToken token = t.get(i);
    int at = token.start();
    if (token.isWord("QUALIFY") && clauseKeyword(t, i)) {
      return found(
          at,
          "QUALIFY",
          "filter on the window function's result in an outer SELECT (or a CTE) instead");
    }
    if (token.kind() == SqlToken.Kind.STRING
        && token.text().startsWith("\"")
        && (symbol(t, i + 1, ".")
            || symbol(t, i - 1, ".")
            || word(t, i - 1, "FROM")
            || word(t, i - 1, "JOIN"))) {
      return found(
          at,
          "a double-quoted name (" + token.text() + ")",
          "Spark reads \"...\" as a string: quote names with backticks, `like this`");
    }
    if (token.isWord("FETCH") && (word(t, i + 1, "FIRST") || word(t, i + 1, "NEXT"))) {
      return found(at, "FETCH FIRST ... ROWS ONLY", "write LIMIT n");
    }
    if (token.isWord("OFFSET")
        && kind(t, i + 1, SqlToken.Kind.NUMBER)
        && (word(t, i + 2, "ROWS") || word(t, i + 2, "ROW"))) {
      return found(at, "OFFSET n ROWS", "write OFFSET n, without ROWS");
    }
    if (token.isWord("LIMIT")
        && kind(t, i + 1, SqlToken.Kind.NUMBER)
        && symbol(t, i + 2, ",")
        && kind(t, i + 3, SqlToken.Kind.NUMBER)) {
      return found(at, "LIMIT offset, count", "write LIMIT count OFFSET offset");
    }
    if (token.isWord("ARRAY") && symbol(t, i + 1, "[")) {
      return found(at, "ARRAY[...]", "write array(...)");
    }
    if (token.isWord("SIMILAR") && word(t, i + 1, "TO")) {
      return found(at, "SIMILAR TO", "write RLIKE with a regular expression");
    }
    if ((token.isWord("CROSS") || token.isWord("OUTER")) && word(t, i + 1, "APPLY")) {
      return found(
          at, token.upper() + " APPLY", "write a LATERAL subquery or LATERAL VIEW explode(...)");
    }
    if (token.isWord("UNNEST") && symbol(t, i + 1, "(")) {
      return found(at, "UNNEST(...)", "write LATERAL VIEW explode(...) or explode(...) in FROM");
    }
    if (token.kind() == SqlToken.Kind.SYMBOL
        && COMPARISONS.contains(token.text())
        && (word(t, i + 1, "ANY") || word(t, i + 1, "SOME") || word(t, i + 1, "ALL"))
        && symbol(t, i + 2, "(")
        && (word(t, i + 3, "SELECT") || word(t, i + 3, "WITH"))) {
      return found(
          at,
          token.text() + " " + t.get(i + 1).upper() + " (subquery)",
          "write IN (subquery), or compare with MIN/MAX of the subquery");
    }
    if (token.isWord("TOP")
        && (word(t, i - 1, "SELECT") || word(t, i - 1, "DISTINCT"))
        && (kind(t, i + 1, SqlToken.Kind.NUMBER) || symbol(t, i + 1, "("))) {
      return found(at, "SELECT TOP n", "write LIMIT n at the end of the SELECT");
    }
    if (token.isSymbol("@")
        && i > 0
        && t.get(i - 1).isIdentifier()
        && i + 1 < t.size()
        && t.get(i + 1).text().matches("(?i)v\\d+|\\d{8,}")) {
      return found(
          at,
          "Delta's table@" + t.get(i + 1).text() + " time travel",
          "a materialized lake view reads its sources as they are: remove @" + t.get(i + 1).text());
    }
    if (token.isWord("TABLESAMPLE") && (word(t, i + 1, "SYSTEM") || word(t, i + 1, "BERNOULLI"))) {
      return found(at, "TABLESAMPLE " + t.get(i + 1).upper(), "write TABLESAMPLE (n PERCENT)");
    }
    // A map column called map is subscripted map['k']; the constructor always has a pair.
    if (token.isWord("MAP") && symbol(t, i + 1, "[") && commaInside(t, i + 1)) {
      return found(at, "MAP[...]", "write map(key, value, ...)");
    }
    if (token.isWord("MULTISET") && symbol(t, i + 1, "[")) {
      return found(at, "MULTISET[...]", "write array(...)");
    }
    // "x BETWEEN symmetric AND 5" compares with a column called symmetric.
    if (token.isWord("BETWEEN")
        && (word(t, i + 1, "SYMMETRIC") || word(t, i + 1, "ASYMMETRIC"))
        && !word(t, i + 2, "AND")) {
      return t.get(i + 1).isWord("SYMMETRIC")
          ? found(at, "BETWEEN SYMMETRIC", "write x BETWEEN least(a, b) AND greatest(a, b)")
          : found(at, "BETWEEN ASYMMETRIC", "leave out ASYMMETRIC: Spark's BETWEEN is asymmetric");
    }
    if ((token.isWord("CAST") || token.isWord("TRY_CAST")) && symbol(t, i + 1, "(")) {
      int as = topLevelWord(t, i + 1, "AS");
      if (as > 0) {
        return type(t, as + 1);
      }
    }
    if (token.isSymbol("::")) {
      return type(t, i + 1);
    }
    if ((token.isWord("CEIL") || token.isWord("CEILING") || token.isWord("FLOOR"))
        && symbol(t, i + 1, "(")
        && topLevelWord(t, i + 1, "TO") > 0
        && topLevelWord(t, i + 1, "INTERVAL") < 0) {
      int to = topLevelWord(t, i + 1, "TO");
      String unit = kind(t, to + 1, SqlToken.Kind.WORD) ? t.get(to + 1).upper() : "MONTH";
      String trunc = "date_trunc('" + unit + "', x)";
      return found(
          at,
          token.upper() + "(x TO " + unit + ")",
          token.isWord("FLOOR")
              ? "write " + trunc
              : "write "
                  + trunc
                  + ", plus one "
                  + unit.toLowerCase(Locale.ROOT)
                  + " where x is past it");
    }
    if (token.isWord("UNIQUE")
        && symbol(t, i + 1, "(")
        && (word(t, i + 2, "SELECT") || word(t, i + 2, "WITH"))) {
      return found(
          at,
          "UNIQUE (subquery)",
          "write NOT EXISTS (SELECT ... GROUP BY the columns HAVING count(*) > 1)");
    }
    if (token.isWord("IN")
        && symbol(t, i + 1, "(")
        && word(t, i + 2, "VALUES")
        && symbol(t, i + 3, "(")) {
      return call(
          at,
          "IN (VALUES ...)",
          "values: it reads VALUES (...) there as a call",
          "write IN ('a', 'b'), or IN (SELECT * FROM VALUES ('a'), ('b'))");
    }
    if (token.isSymbol("*")
        && word(t, i + 1, "EXCLUDE")
        && symbol(t, i + 2, "(")
        && (word(t, i - 1, "SELECT")
            || word(t, i - 1, "DISTINCT")
            || word(t, i - 1, "ALL")
            || symbol(t, i - 1, ",")
            || symbol(t, i - 1, "."))) {
      return found(at, "* EXCLUDE (...)", "write * EXCEPT (...), or list the columns");
    }
    if (token.isWord("ROW") && symbol(t, i + 1, "(") && !symbol(t, i - 1, ".")) {
      return call(
          at,
          "ROW(...)",
          "row",
          "write struct(a, b), or named_struct('a', a, 'b', b) to name the fields");
    }
    if (token.kind() == SqlToken.Kind.WORD
        && JSON_OPERATORS.containsKey(token.upper())
        && symbol(t, i + 1, "(")
        && !symbol(t, i - 1, ".")) {
      return call(
          at,
          token.upper() + "(...)",
          token.text().toLowerCase(Locale.ROOT),
          JSON_OPERATORS.get(token.upper()));
    }
    if (token.isWord("IS")
        && (word(t, i + 1, "JSON") || (word(t, i + 1, "NOT") && word(t, i + 2, "JSON")))) {
      return found(
          at,
          "IS " + (word(t, i + 1, "NOT") ? "NOT " : "") + "JSON",
          "write get_json_object(x, '$') IS NOT NULL");
    }
    return joinAfterLateralView(t, i);
  }

  /**
   * A type name at {@code i} (after {@code CAST(x AS} or {@code ::}) that Calcite takes and Spark
   * refuses. A column called text elsewhere is never at such a place.
   */
  private static Optional<Finding> type(List<SqlToken> t, int i) {
    if (i < t.size() && t.get(i).isIdentifier() && !kind(t, i, SqlToken.Kind.WORD)) {
      // Spark reads a quoted name as a type it does not have (measured: CAST(x AS `int`)).
      return unsupported(
          t.get(i).start(), "the quoted type " + t.get(i).text(), "write it unquoted");
    }
    if (!kind(t, i, SqlToken.Kind.WORD)) {
      return Optional.empty();
    }
    SqlToken type = t.get(i);
    String name = type.upper();
    int at = type.start();
    if ((name.equals("ARRAY") || name.equals("MAP") || name.equals("STRUCT"))
        && symbol(t, i + 1, "<")) {
      return elementTypes(t, i + 1, name.equals("STRUCT"));
    }
    boolean character = name.equals("VARCHAR") || name.equals("CHAR") || name.equals("CHARACTER");
    if (character && word(t, i + 1, "VARYING")) {
      return found(at, name + " VARYING", "write VARCHAR(n), or STRING");
    }
    if (character && !symbol(t, i + 1, "(")) {
      return Optional.of(
          new Finding(
              at,
              name + " without a length",
              "refuses it (DATATYPE_MISSING_SIZE)",
              "write STRING, or " + (name.equals("VARCHAR") ? "VARCHAR" : "CHAR") + "(n)"));
    }
    if (name.equals("DOUBLE") && word(t, i + 1, "PRECISION")) {
      return found(at, "DOUBLE PRECISION", "write DOUBLE");
    }
    if (name.equals("TIMESTAMP") && symbol(t, i + 1, "(")) {
      return found(at, "TIMESTAMP(p)", "write TIMESTAMP: Spark's timestamps keep microseconds");
    }
    if (name.equals("TIMESTAMP") && word(t, i + 1, "WITH")) {
      return found(
          at,
          "TIMESTAMP WITH ... TIME ZONE",
          "write TIMESTAMP (in the session time zone), or TIMESTAMP_NTZ");
    }
    if ((name.equals("BINARY") || name.equals("FLOAT")) && symbol(t, i + 1, "(")) {
      return Optional.of(
          new Finding(
              at,
              name + "(n)",
              "refuses it (UNSUPPORTED_DATATYPE)",
              name.equals("BINARY") ? "write BINARY" : "write FLOAT or DOUBLE"));
    }
    int end = symbol(t, i + 1, "(") ? SqlToken.closingParen(t, i + 1) + 1 : i + 1;
    if (end > 0 && (word(t, end, "ARRAY") || word(t, end, "MULTISET"))) {
      return found(
          t.get(end).start(),
          "the type suffix " + t.get(end).upper(),
          "write ARRAY<"
              + t.subList(i, end).stream().map(SqlToken::text).collect(Collectors.joining())
              + ">");
    }
    if (FOREIGN_TYPES.containsKey(name)) {
      return Optional.of(
          new Finding(
              at,
              "the type " + name,
              "refuses it (UNSUPPORTED_DATATYPE)",
              "write " + FOREIGN_TYPES.get(name)));
    }
    if (PLAIN_TYPES.contains(name) && symbol(t, i + 1, "(")) {
      return unsupported(at, name + "(...)", "write " + name + ": it takes no parameters");
    }
    if (!PLAIN_TYPES.contains(name) && !OTHER_TYPES.contains(name)) {
      List<String> names = new java.util.ArrayList<>(PLAIN_TYPES);
      names.addAll(List.of("STRING", "DECIMAL", "VARCHAR", "TIMESTAMP"));
      return unsupported(
          at,
          "the type " + type.text(),
          dev.mlv.diag.Suggestions.nearest(name, names)
                  .map(n -> "did you mean " + n + "? ")
                  .orElse("")
              + "Spark's types are BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE,"
              + " DECIMAL(p, s), STRING, VARCHAR(n), CHAR(n), BINARY, DATE, TIMESTAMP,"
              + " TIMESTAMP_NTZ, INTERVAL ..., VARIANT, ARRAY<...>, MAP<...> and STRUCT<...>");
    }
    if (name.equals("TIME")) {
      // In the grammar, but off in Spark 4.1.1 (measured: CAST('10:00' AS TIME) and TIME(3)).
      return Optional.of(
          new Finding(
              at,
              "the type TIME",
              "refuses it ([UNSUPPORTED_TIME_TYPE]: TIME is off in Spark 4.1.1)",
              "keep the time of day as a STRING ('10:00:00') or in a TIMESTAMP"));
    }
    if ((name.equals("GEOGRAPHY") || name.equals("GEOMETRY")) && !symbol(t, i + 1, "(")) {
      return unsupported(
          at, name + " without its SRID", "write " + name + "(srid) or " + name + "(ANY)");
    }
    boolean decimal = name.equals("DECIMAL") || name.equals("DEC") || name.equals("NUMERIC");
    if (decimal
        && symbol(t, i + 1, "(")
        && (symbol(t, i + 2, "-") || (symbol(t, i + 3, ",") && symbol(t, i + 4, "-")))) {
      // Spark's grammar takes unsigned sizes only (measured: DECIMAL(10,-2) is PARSE_SYNTAX_ERROR
      // at '-'), where Calcite reads a negative scale.
      return Optional.of(
          new Finding(
              t.get(i).start(),
              t.get(i).upper() + " with a negative size",
              "refuses it ([PARSE_SYNTAX_ERROR] at '-': a precision and a scale are numbers of"
                  + " digits, 0 or more)",
              "round the value instead (round(x, -2)) and store it as DECIMAL(p, 0)"));
    }
    if (decimal && symbol(t, i + 1, "(") && kind(t, i + 2, SqlToken.Kind.NUMBER)) {
      return decimalSize(t, i);
    }
    return Optional.empty();
  }

  /**
   * DECIMAL(p) or DECIMAL(p, s) with more than 38 digits, or more after the point than in all
   * (measured: DECIMAL(39), NUMERIC(40), DECIMAL(5, 10) and DECIMAL(38, 39) are refused; the last
   * with a message of no error class).
   */
  private static Optional<Finding> decimalSize(List<SqlToken> t, int i) {
    boolean scaled = symbol(t, i + 3, ",") && kind(t, i + 4, SqlToken.Kind.NUMBER);
    int close = scaled ? i + 5 : i + 3;
    if (!symbol(t, close, ")")
        || !t.get(i + 2).text().matches("[0-9]{1,9}")
        || (scaled && !t.get(i + 4).text().matches("[0-9]{1,9}"))) {
      return Optional.empty();
    }
    int precision = Integer.parseInt(t.get(i + 2).text());
    int scale = scaled ? Integer.parseInt(t.get(i + 4).text()) : 0;
    String written = t.get(i).upper() + "(" + precision + (scaled ? ", " + scale : "") + ")";
    if (precision > MAX_PRECISION) {
      return Optional.of(
          new Finding(
              t.get(i).start(),
              written,
              "refuses it ([DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION]: a decimal holds at most "
                  + MAX_PRECISION
                  + " digits)",
              "write DECIMAL(38"
                  + (scaled ? ", " + Math.min(scale, MAX_PRECISION) : "")
                  + ") or less, or DOUBLE for a value of more digits than that"));
    }
    if (scale > precision) {
      return Optional.of(
          new Finding(
              t.get(i).start(),
              written,
              "refuses it (\"Decimal scale ("
                  + scale
                  + ") cannot be greater than precision ("
                  + precision
                  + ")\")",
              "write the number of all digits first, then those after the point: DECIMAL("
                  + Math.max(precision, scale)
                  + ", "
                  + scale
                  + ")"));
    }
    return Optional.empty();
  }

  private static Optional<Finding> unsupported(int offset, String construct, String hint) {
    return Optional.of(new Finding(offset, construct, "refuses it ([UNSUPPORTED_DATATYPE])", hint));
  }

  /**
   * The first element type inside the {@code <} at {@code open} of ARRAY, MAP or STRUCT (a field's
   * type after its name and optional colon) that Spark's parser refuses, as at the top of a cast:
   * CAST(x AS ARRAY<VARCHAR>) fails as CAST(x AS VARCHAR) does. Text it does not follow to the
   * closing {@code >} gets no finding.
   */
  private static Optional<Finding> elementTypes(List<SqlToken> t, int open, boolean struct) {
    int j = open + 1;
    while (j < t.size()) {
      if (struct) {
        j += symbol(t, j + 1, ":") ? 2 : 1;
      }
      Optional<Finding> inner = type(t, j);
      if (inner.isPresent()) {
        return inner;
      }
      // The element ends at the next comma or > of this level (after NOT NULL, COMMENT '...').
      int depth = 0;
      while (j < t.size() && (depth > 0 || !t.get(j).isSymbol(",") && !t.get(j).isSymbol(">"))) {
        if (t.get(j).isSymbol("<") || t.get(j).isSymbol("(")) {
          depth++;
        } else if (t.get(j).isSymbol(">") || t.get(j).isSymbol(")")) {
          if (--depth < 0) {
            return Optional.empty();
          }
        }
        j++;
      }
      if (!symbol(t, j, ",")) {
        return Optional.empty();
      }
      j++;
    }
    return Optional.empty();
  }

  /**
   * A join after {@code LATERAL VIEW gen(...) alias AS col, ...}: Spark's FROM takes its joins
   * first and its lateral views after them, so it stops at the JOIN.
   */
  private static Optional<Finding> joinAfterLateralView(List<SqlToken> t, int i) {
    if (!word(t, i, "LATERAL") || !word(t, i + 1, "VIEW")) {
      return Optional.empty();
    }
    int j = word(t, i + 2, "OUTER") ? i + 3 : i + 2;
    while (j < t.size() && (t.get(j).isIdentifier() || t.get(j).isSymbol("."))) {
      j++;
    }
    int close = symbol(t, j, "(") ? SqlToken.closingParen(t, j) : -1;
    if (close < 0) {
      return Optional.empty();
    }
    int k = close + 1;
    while (k < t.size()
        && (t.get(k).isWord("AS")
            || t.get(k).isSymbol(",")
            || t.get(k).isIdentifier()
                && !SparkSyntaxRewriter.CLAUSE_WORDS.contains(t.get(k).upper()))) {
      k++;
    }
    if (kind(t, k, SqlToken.Kind.WORD) && JOIN_WORDS.contains(t.get(k).upper())) {
      return found(
          t.get(k).start(),
          "a JOIN after LATERAL VIEW",
          "put the JOIN before LATERAL VIEW: Spark applies the lateral views after all the joins");
    }
    return Optional.empty();
  }

  /** The first {@code word} directly inside the parentheses opened at {@code open}, or -1. */
  private static int topLevelWord(List<SqlToken> t, int open, String word) {
    int depth = 0;
    for (int j = open; j < t.size(); j++) {
      SqlToken u = t.get(j);
      if (u.isSymbol("(")) {
        depth++;
      } else if (u.isSymbol(")") && --depth == 0) {
        return -1;
      } else if (depth == 1 && u.isWord(word)) {
        return j;
      }
    }
    return -1;
  }

  /** Whether the brackets opened at {@code open} hold a comma of their own. */
  private static boolean commaInside(List<SqlToken> t, int open) {
    int depth = 0;
    for (int j = open; j < t.size(); j++) {
      SqlToken u = t.get(j);
      if (u.isSymbol("[") || u.isSymbol("(")) {
        depth++;
      } else if (u.isSymbol("]") || u.isSymbol(")")) {
        if (--depth == 0) {
          return false;
        }
      } else if (depth == 1 && u.isSymbol(",")) {
        return true;
      }
    }
    return false;
  }

  /**
   * QUALIFY is not a reserved word in Spark: it is the clause only after a FROM item or WHERE /
   * GROUP BY / HAVING / WINDOW text and before an expression, never as a column name.
   */
  private static boolean clauseKeyword(List<SqlToken> t, int i) {
    SqlToken before = i > 0 ? t.get(i - 1) : null;
    SqlToken after = i + 1 < t.size() ? t.get(i + 1) : null;
    if (before == null || after == null) {
      return false;
    }
    boolean afterName =
        before.isIdentifier() && !before.isWord("SELECT") && !before.isWord("DISTINCT")
            || before.isSymbol(")")
            || before.kind() == SqlToken.Kind.NUMBER
            || before.kind() == SqlToken.Kind.STRING;
    boolean beforeExpression =
        !(after.kind() == SqlToken.Kind.WORD
                && SparkSyntaxRewriter.CLAUSE_WORDS.contains(after.upper())
            || after.isSymbol(",")
            || after.isSymbol(")")
            || after.isSymbol(".")
            || after.isWord("FROM")
            || after.isWord("AS"));
    return afterName && beforeExpression;
  }

  private static Optional<Finding> found(int offset, String construct, String hint) {
    return Optional.of(new Finding(offset, construct, CANNOT_PARSE, hint));
  }

  /** Spark parses it as a call of {@code function}, which it does not have. */
  private static Optional<Finding> call(
      int offset, String construct, String function, String hint) {
    return Optional.of(new Finding(offset, construct, NO_FUNCTION + function, hint));
  }

  private static boolean word(List<SqlToken> t, int i, String word) {
    return i >= 0 && i < t.size() && t.get(i).isWord(word);
  }

  private static boolean symbol(List<SqlToken> t, int i, String symbol) {
    return i >= 0 && i < t.size() && t.get(i).isSymbol(symbol);
  }

  private static boolean kind(List<SqlToken> t, int i, SqlToken.Kind kind) {
    return i >= 0 && i < t.size() && t.get(i).kind() == kind;
  }
}
