package dev.mlv.cli;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.impl.DefaultParser;

/**
 * Splits shell input into words like a command line does, and keeps reading while SQL has not ended
 * with {@code ;}: a line that starts with an mlv command or a shell word runs as it is.
 */
final class ShellParser extends DefaultParser {
  private final Set<String> commands;
  private volatile boolean answering;

  /**
   * @param commands first words that make a line a command rather than SQL
   */
  ShellParser(Set<String> commands) {
    this.commands = Set.copyOf(commands);
  }

  /** While a command asks a question (apply's confirmation), any line is an answer. */
  void answering(boolean on) {
    answering = on;
  }

  boolean isCommand(String line) {
    String first = firstWord(line).toLowerCase(Locale.ROOT);
    if (first.isEmpty()) {
      return true;
    }
    if (!commands.contains(first)) {
      return mistypedCommand(first);
    }
    // REFRESH and EXPLAIN are SQL statements too: the word after them tells which is meant.
    String second = firstWord(line.stripLeading().substring(first.length()));
    return !SQL_AFTER
        .getOrDefault(first, Set.of())
        .contains(second.toLowerCase(Locale.ROOT).replace(";", ""));
  }

  /** Words a Spark SQL statement starts with: never taken for a mistyped command. */
  private static final Set<String> SQL_STARTS =
      Set.of(
          "select",
          "with",
          "insert",
          "create",
          "drop",
          "alter",
          "show",
          "describe",
          "desc",
          "explain",
          "set",
          "reset",
          "use",
          "refresh",
          "merge",
          "update",
          "delete",
          "values",
          "from",
          "table",
          "map",
          "reduce",
          "cache",
          "uncache",
          "clear",
          "add",
          "list",
          "analyze",
          "msck",
          "truncate",
          "load",
          "repair",
          "comment",
          "declare",
          "execute",
          "call",
          "optimize",
          "vacuum",
          "restore",
          "convert",
          "generate",
          "fsck",
          "copy",
          "begin",
          "replace",
          "grant",
          "revoke",
          "(");

  /**
   * A first word that starts no SQL but is a command misspelt ({@code refrsh}) or holds a hyphen
   * ({@code bogus-command}), which no SQL statement starts with: run as a command, so that it is
   * refused at once as unknown, with the nearest command. Read as SQL it swallowed every line up to
   * the next ';', commands and all (found by QA).
   */
  private boolean mistypedCommand(String first) {
    if (SQL_STARTS.contains(first) || !first.matches("[a-z][a-z0-9_-]*")) {
      return false;
    }
    return first.contains("-") || dev.mlv.diag.Suggestions.nearest(first, commands).isPresent();
  }

  private static final java.util.Map<String, Set<String>> SQL_AFTER =
      java.util.Map.of(
          "refresh", Set.of("materialized", "table", "function"),
          "explain",
              Set.of(
                  "select",
                  "with",
                  "extended",
                  "formatted",
                  "codegen",
                  "cost",
                  "from",
                  "values",
                  "insert",
                  "create",
                  "table"));

  @Override
  public ParsedLine parse(String line, int cursor, ParseContext context) {
    if (answering) {
      return super.parse(line, cursor, ParseContext.COMPLETE);
    }
    if (context == ParseContext.ACCEPT_LINE
        && !isCommand(line)
        && !endsStatement(line)
        && !leavesStatement(line)) {
      throw new EOFError(-1, cursor, "SQL ends with ';'", "sql");
    }
    if (!isCommand(line)) {
      // SQL quotes and backslashes are SQL's business; words only serve completion here.
      return super.parse(line, cursor, ParseContext.COMPLETE);
    }
    return super.parse(line, cursor, context);
  }

  /**
   * A space between backticks does not end a word: {@code silver.`clean orders`} is one selector,
   * backticks kept, as selectors read them. JLine keeps "..." and '...' together itself.
   */
  @Override
  public boolean isDelimiterChar(CharSequence buffer, int pos) {
    return super.isDelimiterChar(buffer, pos) && !insideBackticks(buffer, pos);
  }

  /** Whether an odd number of backticks outside '...' and "..." come before {@code pos}. */
  private static boolean insideBackticks(CharSequence buffer, int pos) {
    boolean inside = false;
    char quote = 0;
    for (int i = 0; i < pos; i++) {
      char c = buffer.charAt(i);
      if (c == '\\' && quote != 0) {
        i++;
      } else if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '`') {
        inside = !inside;
      } else if (!inside && (c == '\'' || c == '"')) {
        quote = c;
      }
    }
    return inside;
  }

  /** {@code exit} or {@code quit} alone on the last line of unfinished SQL: leave, not run it. */
  static boolean leavesStatement(String text) {
    List<String> lines = text.strip().lines().toList();
    if (lines.size() < 2) {
      return false;
    }
    String last = lines.get(lines.size() - 1).strip().toLowerCase(Locale.ROOT);
    return last.equals("exit") || last.equals("quit");
  }

  static String firstWord(String line) {
    String s = line.stripLeading();
    int end = 0;
    while (end < s.length() && !Character.isWhitespace(s.charAt(end))) {
      end++;
    }
    return s.substring(0, end);
  }

  /**
   * Whether the last thing in {@code sql} outside strings, quoted identifiers and comments is a
   * {@code ;}. An unclosed string or block comment never ends a statement.
   */
  static boolean endsStatement(String sql) {
    boolean ended = false;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        // r'...' is Spark's raw string, where a backslash is only a backslash.
        boolean raw =
            c != '`'
                && i > 0
                && (sql.charAt(i - 1) == 'r' || sql.charAt(i - 1) == 'R')
                && (i == 1 || !isWordPart(sql.charAt(i - 2)));
        int close = closing(sql, i + 1, c, raw);
        if (close < 0) {
          return false;
        }
        i = close + 1;
        ended = false;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int nl = sql.indexOf('\n', i);
        i = nl < 0 ? n : nl + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int close = sql.indexOf("*/", i + 2);
        if (close < 0) {
          return false;
        }
        i = close + 2;
      } else {
        if (!Character.isWhitespace(c)) {
          ended = c == ';';
        }
        i++;
      }
    }
    return ended;
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private static int closing(String s, int from, char quote, boolean raw) {
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && quote != '`' && !raw) {
        i++;
      } else if (c == quote) {
        return i;
      }
    }
    return -1;
  }
}
