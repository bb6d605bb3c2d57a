package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * SQL in a view's body that runs something other than the query: a script transform ({@code SELECT
 * TRANSFORM (...) USING 'cmd'}, Hive's MAP and REDUCE), which has Spark start an operating system
 * command at every refresh, and {@code EXECUTE IMMEDIATE}, a statement that runs SQL built from a
 * string. Spark's parser reads both, so the fallback parser took them for a query.
 */
public final class ExternalCode {
  public static final String SCRIPT_RULE = "SCRIPT_TRANSFORM";

  private static final Set<String> SCRIPT_KINDS = Set.of("TRANSFORM", "MAP", "REDUCE");

  private ExternalCode() {}

  /** The findings in {@code sql}, a view's SELECT whose first character is at {@code start}. */
  public static List<Diagnostic> check(String sql, Position start) {
    List<SqlToken> t = SqlToken.tokenize(sql);
    List<Diagnostic> out = new ArrayList<>();
    if (t.size() >= 2 && t.get(0).isWord("EXECUTE") && t.get(1).isWord("IMMEDIATE")) {
      out.add(
          Diagnostic.error(
              TableExtractor.PARSE_RULE,
              start.advance(sql, t.get(0).start()),
              "EXECUTE IMMEDIATE is a statement, not a query: a materialized lake view is defined"
                  + " by a SELECT, and Spark refuses this one ([PARSE_SYNTAX_ERROR])",
              "write the SELECT that the string holds as the view's query"));
      return out;
    }
    for (int i = 1; i < t.size(); i++) {
      if (!t.get(i - 1).isWord("SELECT")
          || t.get(i).kind() != SqlToken.Kind.WORD
          || !SCRIPT_KINDS.contains(t.get(i).upper())) {
        continue;
      }
      // SELECT TRANSFORM (...) [ROW FORMAT ...] USING 'cmd': a USING before the FROM, outside
      // parentheses. transform(arr, x -> ...) and map(k, v) as calls are followed by AS, a comma
      // or FROM instead.
      int depth = 0;
      for (int j = i + 1; j < t.size(); j++) {
        SqlToken u = t.get(j);
        if (u.isSymbol("(")) {
          depth++;
        } else if (u.isSymbol(")")) {
          depth--;
        } else if (depth == 0 && (u.isWord("FROM") || u.isSymbol(";") || u.isSymbol(","))) {
          break;
        } else if (depth == 0 && (u.isWord("USING") || u.isWord("RECORDWRITER"))) {
          out.add(
              Diagnostic.error(
                  SCRIPT_RULE,
                  start.advance(sql, t.get(i).start()),
                  "SELECT "
                      + t.get(i).upper()
                      + " (...) USING runs an operating system command on the cluster at every"
                      + " refresh; mlv refuses a view that runs a script",
                  "compute the columns with built-in functions, or define the view in PySpark"));
          break;
        }
      }
    }
    return out;
  }
}
