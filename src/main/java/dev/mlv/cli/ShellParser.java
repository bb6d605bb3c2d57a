package dev.mlv.cli;

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
    String first = firstWord(line);
    return first.isEmpty() || commands.contains(first.toLowerCase(Locale.ROOT));
  }

  @Override
  public ParsedLine parse(String line, int cursor, ParseContext context) {
    if (answering) {
      return super.parse(line, cursor, ParseContext.COMPLETE);
    }
    if (context == ParseContext.ACCEPT_LINE && !isCommand(line) && !endsStatement(line)) {
      throw new EOFError(-1, cursor, "SQL ends with ';'", "sql");
    }
    if (!isCommand(line)) {
      // SQL quotes and backslashes are SQL's business; words only serve completion here.
      return super.parse(line, cursor, ParseContext.COMPLETE);
    }
    return super.parse(line, cursor, context);
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
        int close = closing(sql, i + 1, c);
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

  private static int closing(String s, int from, char quote) {
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && quote != '`') {
        i++;
      } else if (c == quote) {
        return i;
      }
    }
    return -1;
  }
}
