package dev.mlv.pyspark;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits Python source into tokens, just far enough to read decorators, function definitions and
 * literal calls: strings (every prefix and triple quote), names, numbers, operators, comments and
 * logical lines. Lines inside brackets or after a backslash continue the logical line, as in
 * Python.
 */
final class PyLexer {

  /** The tokens (comments apart) and, when the text does not lex, where and why. */
  record Result(List<PyToken> tokens, List<PyToken> comments, Optional<Failure> failure) {}

  record Failure(int line, int column, String message) {}

  private final String src;
  private int pos;
  private int line = 1;
  private int lineOffset;
  private int depth;
  private final java.util.ArrayDeque<Failure> open = new java.util.ArrayDeque<>();
  private boolean atLineStart = true;
  private int indent;
  private final List<PyToken> tokens = new ArrayList<>();
  private final List<PyToken> comments = new ArrayList<>();

  private PyLexer(String src) {
    this.src = src;
  }

  static Result lex(String src) {
    PyLexer lx = new PyLexer(src);
    Optional<Failure> failure = lx.run();
    return new Result(List.copyOf(lx.tokens), List.copyOf(lx.comments), failure);
  }

  private Optional<Failure> run() {
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (atLineStart && depth == 0) {
        int col = 0;
        int p = pos;
        while (p < src.length() && (src.charAt(p) == ' ' || src.charAt(p) == '\t')) {
          col = src.charAt(p) == '\t' ? (col / 8 + 1) * 8 : col + 1;
          p++;
        }
        pos = p;
        indent = col;
        if (pos >= src.length()) {
          break;
        }
        c = src.charAt(pos);
        // Blank and comment-only lines do not start a logical line.
        if (c == '\n') {
          newline();
          continue;
        }
        if (c == '\r') {
          pos++;
          continue;
        }
        if (c == '#') {
          comment();
          continue;
        }
      }
      if (c == '\n') {
        newline();
        continue;
      }
      if (c == '\r' || c == ' ' || c == '\t' || c == '\f') {
        pos++;
        continue;
      }
      if (c == '\\' && pos + 1 < src.length() && isLineBreak(src.charAt(pos + 1))) {
        pos++;
        if (src.charAt(pos) == '\r' && pos + 1 < src.length() && src.charAt(pos + 1) == '\n') {
          pos++;
        }
        pos++;
        line++;
        lineOffset = pos;
        continue;
      }
      if (c == '#') {
        comment();
        continue;
      }
      int start = pos;
      int startCol = pos - lineOffset + 1;
      int startLine = line;
      int prefixEnd = stringPrefixEnd(pos);
      if (prefixEnd >= 0) {
        Optional<Failure> f = string(start, prefixEnd, startLine, startCol);
        if (f.isPresent()) {
          return f;
        }
        continue;
      }
      if (Character.isLetter(c) || c == '_') {
        while (pos < src.length()
            && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
          pos++;
        }
        add(PyToken.Kind.NAME, start, null, startLine, startCol);
        continue;
      }
      if (Character.isDigit(c)
          || (c == '.' && pos + 1 < src.length() && Character.isDigit(src.charAt(pos + 1)))) {
        while (pos < src.length()
            && (Character.isLetterOrDigit(src.charAt(pos))
                || src.charAt(pos) == '.'
                || src.charAt(pos) == '_')) {
          pos++;
        }
        add(PyToken.Kind.NUMBER, start, null, startLine, startCol);
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        depth++;
        open.push(new Failure(startLine, startCol, "'" + c + "' is never closed"));
      } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
        depth--;
        open.pop();
      }
      pos++;
      add(PyToken.Kind.OP, start, null, startLine, startCol);
    }
    if (!open.isEmpty()) {
      // As Python says: the outermost bracket still open at the end, not what follows it.
      return Optional.of(open.peekLast());
    }
    if (!tokens.isEmpty() && tokens.get(tokens.size() - 1).kind() != PyToken.Kind.NEWLINE) {
      tokens.add(token(PyToken.Kind.NEWLINE, "", null, pos, line, pos - lineOffset + 1));
    }
    tokens.add(token(PyToken.Kind.END, "", null, pos, line, pos - lineOffset + 1));
    return indentation(tokens);
  }

  /**
   * Python's indentation rules over the logical lines: a line is indented deeper only after one
   * that ends with ':', such a line must be followed by a deeper one, and a line that dedents must
   * return to a level an enclosing line started at. What Python would refuse before running any of
   * the cell, with its words.
   */
  static Optional<Failure> indentation(List<PyToken> tokens) {
    java.util.ArrayDeque<Integer> levels = new java.util.ArrayDeque<>();
    levels.push(0);
    PyToken opener = null; // the first token of a line that ended with ':'
    PyToken last = null;
    PyToken lineFirst = null;
    for (PyToken t : tokens) {
      if (t.kind() == PyToken.Kind.NEWLINE || t.kind() == PyToken.Kind.END) {
        if (last != null && last.is(":")) {
          opener = lineFirst;
        }
        if (t.kind() == PyToken.Kind.END && opener != null) {
          return Optional.of(expectedBlock(opener, t));
        }
        last = null;
        continue;
      }
      if (t.lineStart()) {
        lineFirst = t;
        int indent = t.indent();
        if (opener != null) {
          if (indent <= levels.peek()) {
            return Optional.of(expectedBlock(opener, t));
          }
          levels.push(indent);
          opener = null;
        } else if (indent > levels.peek()) {
          return Optional.of(new Failure(t.line(), t.column(), "unexpected indent"));
        } else {
          while (indent < levels.peek()) {
            levels.pop();
          }
          if (indent != levels.peek()) {
            return Optional.of(
                new Failure(
                    t.line(), t.column(), "unindent does not match any outer indentation level"));
          }
        }
      }
      last = t;
    }
    return Optional.empty();
  }

  private static Failure expectedBlock(PyToken opener, PyToken at) {
    return new Failure(
        at.line(),
        at.column(),
        "expected an indented block after the '" + opener.text() + "' on line " + opener.line());
  }

  private static boolean isLineBreak(char c) {
    return c == '\n' || c == '\r';
  }

  private void newline() {
    if (depth == 0 && !atLineStart) {
      tokens.add(token(PyToken.Kind.NEWLINE, "\n", null, pos, line, pos - lineOffset + 1));
      atLineStart = true;
    }
    pos++;
    line++;
    lineOffset = pos;
  }

  private void comment() {
    int start = pos;
    while (pos < src.length() && !isLineBreak(src.charAt(pos))) {
      pos++;
    }
    comments.add(
        new PyToken(
            PyToken.Kind.COMMENT,
            src.substring(start, pos),
            null,
            start,
            line,
            start - lineOffset + 1,
            false,
            0));
  }

  /** The index after a string prefix and at the opening quote, or -1 when no string starts. */
  private int stringPrefixEnd(int p) {
    int q = p;
    while (q < src.length() && q - p < 2 && "rRbBuUfF".indexOf(src.charAt(q)) >= 0) {
      q++;
    }
    if (q < src.length() && (src.charAt(q) == '\'' || src.charAt(q) == '"')) {
      return q;
    }
    return -1;
  }

  private Optional<Failure> string(int start, int quoteAt, int startLine, int startCol) {
    String prefix = src.substring(start, quoteAt).toLowerCase(java.util.Locale.ROOT);
    boolean raw = prefix.contains("r");
    boolean fstring = prefix.contains("f");
    char q = src.charAt(quoteAt);
    boolean triple = src.startsWith(String.valueOf(q).repeat(3), quoteAt);
    pos = quoteAt + (triple ? 3 : 1);
    StringBuilder value = new StringBuilder();
    while (true) {
      if (pos >= src.length()) {
        return Optional.of(
            new Failure(startLine, startCol, "string literal is not closed before the end"));
      }
      char c = src.charAt(pos);
      if (c == q && (!triple || src.startsWith(String.valueOf(q).repeat(3), pos))) {
        pos += triple ? 3 : 1;
        break;
      }
      if (isLineBreak(c)) {
        if (!triple) {
          return Optional.of(
              new Failure(startLine, startCol, "string literal is not closed on its line"));
        }
        value.append(c);
        pos++;
        if (c == '\n' || (c == '\r' && (pos >= src.length() || src.charAt(pos) != '\n'))) {
          line++;
          lineOffset = pos;
        }
        continue;
      }
      if (c == '\\' && pos + 1 < src.length()) {
        char n = src.charAt(pos + 1);
        if (raw) {
          value.append(c).append(n);
          pos += 2;
          if (n == '\n') {
            line++;
            lineOffset = pos;
          }
          continue;
        }
        pos += 2;
        switch (n) {
          case 'n' -> value.append('\n');
          case 't' -> value.append('\t');
          case 'r' -> value.append('\r');
          case '0' -> value.append('\0');
          case '\\', '\'', '"' -> value.append(n);
          case '\n' -> {
            line++;
            lineOffset = pos;
          }
          case 'x' -> value.append(hex(2));
          case 'u' -> value.append(hex(4));
          case 'U' -> value.append(hex(8));
          default -> value.append('\\').append(n);
        }
        continue;
      }
      value.append(c);
      pos++;
    }
    add(
        fstring ? PyToken.Kind.FSTRING : PyToken.Kind.STRING,
        start,
        fstring ? null : value.toString(),
        startLine,
        startCol);
    return Optional.empty();
  }

  private String hex(int digits) {
    int end = Math.min(src.length(), pos + digits);
    try {
      int cp = Integer.parseInt(src.substring(pos, end), 16);
      pos = end;
      return new String(Character.toChars(cp));
    } catch (IllegalArgumentException e) {
      return "\\";
    }
  }

  private void add(PyToken.Kind kind, int start, String value, int tokLine, int col) {
    tokens.add(token(kind, src.substring(start, pos), value, start, tokLine, col));
  }

  private PyToken token(PyToken.Kind kind, String text, String value, int off, int l, int col) {
    boolean first = atLineStart && kind != PyToken.Kind.NEWLINE && kind != PyToken.Kind.END;
    if (first) {
      atLineStart = false;
    }
    return new PyToken(kind, text, value, off, l, col, first, first ? indent : -1);
  }
}
