package dev.mlv.sql;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The MLV front end: splits a {@code %%sql} cell's text into statements and parses the parts that
 * neither Calcite nor Spark know: the {@code CREATE MATERIALIZED LAKE VIEW} header and the MLV
 * management statements. The SELECT body is kept as text for {@link TableExtractor}.
 */
public final class MlvParser {
  static final String RULE = "MLV_SYNTAX";

  private MlvParser() {}

  /** Result of parsing one file: every statement that parsed, and every problem found. */
  public record Result(List<SqlStatement> statements, List<Diagnostic> diagnostics) {}

  public static Result parse(Position start, String written) {
    List<SqlStatement> statements = new ArrayList<>();
    List<Diagnostic> diagnostics = new ArrayList<>();
    String text = withoutBareNuls(start, written, diagnostics);
    List<Token> tokens = Lexer.tokenize(text);
    List<Token> current = new ArrayList<>();
    for (Token t : tokens) {
      if (t.kind() == Token.Kind.UNTERMINATED) {
        diagnostics.add(
            Diagnostic.error(
                RULE,
                start.advance(text, t.offset()),
                "unterminated " + describeUnterminated(t.text()),
                t.text().startsWith("/")
                    ? "close it with */ (Spark nests block comments: each /* needs its own */)"
                    : "close it, or check for a missing quote earlier in the statement"));
        current.clear();
        break;
      }
      if (t.kind() == Token.Kind.WORD && t.text().chars().anyMatch(c -> c > 0x7f)) {
        // Spark's lexer takes only ASCII letters, digits and _ in a name that is not quoted.
        diagnostics.add(
            Diagnostic.error(
                "INVALID_IDENTIFIER",
                start.advance(text, t.offset()),
                "'"
                    + t.text()
                    + "' has characters other than ASCII letters, digits and '_'; Spark reads"
                    + " such a name only between backticks",
                "quote it: `" + t.text() + "`"));
      }
      if (t.isSymbol(";")) {
        parseStatement(start, text, current, statements, diagnostics);
        current = new ArrayList<>();
      } else {
        current.add(t);
      }
    }
    parseStatement(start, text, current, statements, diagnostics);
    return new Result(List.copyOf(statements), List.copyOf(diagnostics));
  }

  /**
   * The text with each NUL outside a literal or comment read as a blank, after one error at the
   * first: Spark's lexer stops at it, and Calcite's message for it ({@code Encountered: <EOF>})
   * names neither the character nor where it is. Usually a bad copy, or a UTF-16 file (a NUL every
   * other byte), so one error says it all.
   */
  private static String withoutBareNuls(Position start, String text, List<Diagnostic> diagnostics) {
    if (text.indexOf('\0') < 0) {
      return text;
    }
    StringBuilder cleaned = new StringBuilder(text);
    boolean reported = false;
    for (Token t : Lexer.tokenize(text)) {
      if (t.isSymbol("\0")) {
        if (!reported) {
          reported = true;
          diagnostics.add(
              Diagnostic.error(
                  RULE,
                  start.advance(text, t.offset()),
                  "a NUL character (U+0000) is not allowed in SQL text",
                  "remove it; it comes from a bad copy, or from a file saved as UTF-16 (save it as"
                      + " UTF-8)"));
        }
        cleaned.setCharAt(t.offset(), ' ');
      }
    }
    return cleaned.toString();
  }

  private static String describeUnterminated(String t) {
    return switch (t.charAt(0)) {
      case '`' -> "backticked identifier";
      case '/' -> "block comment";
      default -> "string literal";
    };
  }

  private static void parseStatement(
      Position start,
      String text,
      List<Token> tokens,
      List<SqlStatement> out,
      List<Diagnostic> diagnostics) {
    List<Token> significant = tokens.stream().filter(t -> !t.isTrivia()).toList();
    if (significant.isEmpty()) {
      return;
    }
    Cursor c = new Cursor(start, text, significant);
    try {
      out.add(c.statement());
    } catch (SyntaxError e) {
      diagnostics.add(e.diagnostic);
    }
  }

  /** Ends parsing of one statement; the next statement is still parsed. */
  private static final class SyntaxError extends RuntimeException {
    final transient Diagnostic diagnostic;

    SyntaxError(Diagnostic diagnostic) {
      super(diagnostic.message(), null, false, false);
      this.diagnostic = diagnostic;
    }
  }

  /** A recursive-descent reader over the significant tokens of one statement. */
  private static final class Cursor {
    final Position base;
    final String text;
    final List<Token> toks;
    int i;

    Cursor(Position base, String text, List<Token> toks) {
      this.base = base;
      this.text = text;
      this.toks = toks;
    }

    Position pos(Token t) {
      return base.advance(text, t.offset());
    }

    Position endPos() {
      return base.advance(text, toks.get(toks.size() - 1).end());
    }

    boolean atEnd() {
      return i >= toks.size();
    }

    Token peek() {
      return atEnd() ? null : toks.get(i);
    }

    boolean peekWord(String w) {
      return !atEnd() && toks.get(i).isWord(w);
    }

    boolean peekWords(String... ws) {
      for (int k = 0; k < ws.length; k++) {
        if (i + k >= toks.size() || !toks.get(i + k).isWord(ws[k])) {
          return false;
        }
      }
      return true;
    }

    boolean acceptWord(String w) {
      if (peekWord(w)) {
        i++;
        return true;
      }
      return false;
    }

    boolean acceptSymbol(String s) {
      if (!atEnd() && toks.get(i).isSymbol(s)) {
        i++;
        return true;
      }
      return false;
    }

    SyntaxError error(String message, String hint) {
      Position p = atEnd() ? endPos() : pos(peek());
      return new SyntaxError(Diagnostic.error(RULE, p, message, hint));
    }

    String found() {
      return atEnd() ? "end of statement" : "'" + peek().text() + "'";
    }

    void expectWord(String w, String context) {
      if (!acceptWord(w)) {
        throw error("expected " + w + " " + context + ", found " + found(), null);
      }
    }

    void expectSymbol(String s, String context) {
      if (!acceptSymbol(s)) {
        throw error("expected '" + s + "' " + context + ", found " + found(), null);
      }
    }

    void expectEnd(String after) {
      if (!atEnd()) {
        throw error(
            "unexpected " + found() + " after " + after,
            "remove it, or end the statement with ';'");
      }
    }

    SqlStatement statement() {
      Token first = peek();
      Position p = pos(first);
      if (peekWord("CREATE") && isMlvCreate()) {
        return new SqlStatement.CreateView(create());
      }
      if (peekWords("SHOW", "MATERIALIZED", "LAKE", "VIEWS")) {
        i += 4;
        Name schema = null;
        if (acceptWord("IN") || acceptWord("FROM")) {
          schema = name("schema name");
        }
        expectEnd("SHOW MATERIALIZED LAKE VIEWS");
        return new SqlStatement.ShowViews(schema, p);
      }
      if (peekWords("SHOW", "CREATE", "MATERIALIZED", "LAKE", "VIEW")) {
        i += 5;
        Name v = name("view name");
        expectEnd("the view name");
        return new SqlStatement.ShowCreate(v, p);
      }
      if (peekWords("ALTER", "MATERIALIZED", "LAKE", "VIEW")) {
        i += 4;
        Name from = name("view name");
        if (!peekWords("RENAME", "TO")) {
          throw error(
              "ALTER MATERIALIZED LAKE VIEW supports only RENAME TO, found " + found(),
              "to change the definition, use CREATE OR REPLACE MATERIALIZED LAKE VIEW");
        }
        i += 2;
        Name to = name("new view name");
        expectEnd("the new view name");
        return new SqlStatement.Rename(from, to, p);
      }
      if (peekWords("DROP", "MATERIALIZED", "LAKE", "VIEW")) {
        i += 4;
        boolean ifExists = false;
        if (peekWords("IF", "EXISTS")) {
          i += 2;
          ifExists = true;
        }
        Name v = name("view name");
        expectEnd("the view name");
        return new SqlStatement.Drop(v, ifExists, p);
      }
      if (peekWords("REFRESH", "MATERIALIZED", "LAKE", "VIEW")) {
        i += 4;
        Name v = name("view name");
        boolean full = acceptWord("FULL");
        expectEnd(full ? "FULL" : "the view name");
        return new SqlStatement.Refresh(v, full, p);
      }
      int from = first.offset();
      int to = toks.get(toks.size() - 1).end();
      return new SqlStatement.Other(text.substring(from, to), p);
    }

    /** CREATE [OR REPLACE] MATERIALIZED LAKE VIEW, looking past OR REPLACE. */
    boolean isMlvCreate() {
      int k = i + 1;
      if (k + 1 < toks.size() && toks.get(k).isWord("OR") && toks.get(k + 1).isWord("REPLACE")) {
        k += 2;
      }
      return k + 2 < toks.size()
          && toks.get(k).isWord("MATERIALIZED")
          && toks.get(k + 1).isWord("LAKE")
          && toks.get(k + 2).isWord("VIEW");
    }

    ViewDefinition create() {
      Token first = peek();
      Position p = pos(first);
      i++; // CREATE
      boolean orReplace = false;
      if (acceptWord("OR")) {
        expectWord("REPLACE", "after CREATE OR");
        orReplace = true;
      }
      i += 3; // MATERIALIZED LAKE VIEW, checked by isMlvCreate
      boolean ifNotExists = false;
      if (peekWords("IF", "NOT", "EXISTS")) {
        i += 3;
        ifNotExists = true;
      }
      Name name = name("view name");
      List<Constraint> constraints = new ArrayList<>();
      if (!atEnd() && peek().isSymbol("(")) {
        constraints = constraints();
      }
      List<String> partitionedBy = List.of();
      Optional<String> comment = Optional.empty();
      Map<String, String> properties = new LinkedHashMap<>();
      Map<String, String> options = null;
      Map<String, Position> optionPositions = new LinkedHashMap<>();
      Position optionsPos = null;
      boolean sawPartition = false;
      boolean sawComment = false;
      boolean sawProps = false;
      ViewBody body = null;
      while (true) {
        if (atEnd() && options != null) {
          break;
        }
        if (atEnd()) {
          throw error(
              "expected AS select_statement or USING OneLake_Files after the view header, found end"
                  + " of statement",
              "a materialized lake view needs a body: AS SELECT ... or USING OneLake_Files"
                  + " OPTIONS (...)");
        }
        Token t = peek();
        if (peekWords("PARTITIONED", "BY")) {
          if (sawPartition) {
            throw error("PARTITIONED BY given twice", null);
          }
          i += 2;
          sawPartition = true;
          partitionedBy = identifierList("PARTITIONED BY");
        } else if (t.isWord("COMMENT")) {
          if (sawComment) {
            throw error("COMMENT given twice", null);
          }
          i++;
          sawComment = true;
          Token s = peek();
          if (s == null || s.kind() != Token.Kind.STRING) {
            throw error("expected a string after COMMENT, found " + found(), null);
          }
          i++;
          // Adjacent literals concatenate, as in Spark: COMMENT 'a' 'b' is "ab".
          StringBuilder text = new StringBuilder(s.stringValue());
          while (!atEnd() && peek().kind() == Token.Kind.STRING) {
            text.append(peek().stringValue());
            i++;
          }
          comment = Optional.of(text.toString());
        } else if (t.isWord("TBLPROPERTIES")) {
          if (sawProps) {
            throw error("TBLPROPERTIES given twice", null);
          }
          i++;
          sawProps = true;
          properties.putAll(keyValues("TBLPROPERTIES", false, null));
        } else if (t.isWord("USING")) {
          if (options != null) {
            throw error("USING given twice", null);
          }
          i++;
          Token src = peek();
          if (src == null || !src.isWord("OneLake_Files")) {
            throw error(
                "expected OneLake_Files after USING, found " + found(),
                "file-ingesting views read a OneLake folder: USING OneLake_Files OPTIONS (...)");
          }
          i++;
          optionsPos = pos(src);
          expectWord("OPTIONS", "after USING OneLake_Files");
          options = keyValues("OPTIONS", true, optionPositions);
        } else if (t.isWord("AS")) {
          if (options != null) {
            throw error(
                "a file-ingesting view (USING OneLake_Files) has no AS select_statement",
                "create a downstream view that selects from this one");
          }
          i++;
          if (atEnd()) {
            throw error("expected a SELECT after AS, found end of statement", null);
          }
          Token bodyStart = peek();
          int from = bodyStart.offset();
          int to = toks.get(toks.size() - 1).end();
          String sql = text.substring(from, to);
          String normalized = Normalizer.normalize(sql);
          body = new ViewBody.Select(sql, pos(bodyStart), normalized, Fingerprint.of(normalized));
          break;
        } else {
          throw error(
              "unexpected " + found() + " in the view header",
              "the header takes (CONSTRAINT ...), PARTITIONED BY (...), COMMENT \"...\","
                  + " TBLPROPERTIES (...), then AS SELECT ... or USING OneLake_Files");
        }
      }
      if (body == null) {
        body = new ViewBody.Files(options, optionsPos, optionPositions);
      }
      return new ViewDefinition(
          name,
          orReplace,
          ifNotExists,
          constraints,
          partitionedBy,
          comment,
          properties,
          body,
          p,
          statementText(first));
    }

    String statementText(Token first) {
      return text.substring(first.offset(), toks.get(toks.size() - 1).end());
    }

    List<Constraint> constraints() {
      expectSymbol("(", "before constraints");
      List<Constraint> out = new ArrayList<>();
      do {
        Token c = peek();
        if (c == null || !c.isWord("CONSTRAINT")) {
          throw error(
              "expected CONSTRAINT, found " + found(),
              "constraints are written CONSTRAINT name CHECK (condition) [ON MISMATCH DROP|FAIL]");
        }
        i++;
        Token nameTok = peek();
        if (nameTok == null
            || (nameTok.kind() != Token.Kind.WORD && nameTok.kind() != Token.Kind.QUOTED_IDENT)) {
          throw error("expected a constraint name after CONSTRAINT, found " + found(), null);
        }
        i++;
        String cname = nameTok.identifier().toLowerCase(Locale.ROOT);
        expectWord("CHECK", "after the constraint name '" + cname + "'");
        Token open = peek();
        expectSymbol("(", "after CHECK");
        int depth = 1;
        int exprStart = i;
        while (depth > 0) {
          if (atEnd()) {
            throw new SyntaxError(
                Diagnostic.error(
                    RULE, pos(open), "unbalanced parentheses in CHECK of '" + cname + "'", null));
          }
          Token t = toks.get(i++);
          if (t.isSymbol("(")) {
            depth++;
          } else if (t.isSymbol(")")) {
            depth--;
          }
        }
        if (i - 1 == exprStart) {
          throw new SyntaxError(
              Diagnostic.error(RULE, pos(open), "empty CHECK condition in '" + cname + "'", null));
        }
        String expr = text.substring(toks.get(exprStart).offset(), toks.get(i - 2).end()).strip();
        OnMismatch action = OnMismatch.FAIL;
        if (acceptWord("ON")) {
          expectWord("MISMATCH", "after ON");
          if (acceptWord("DROP")) {
            action = OnMismatch.DROP;
          } else if (acceptWord("FAIL")) {
            action = OnMismatch.FAIL;
          } else {
            throw error("expected DROP or FAIL after ON MISMATCH, found " + found(), null);
          }
        }
        for (Constraint existing : out) {
          if (existing.name().equals(cname)) {
            throw new SyntaxError(
                Diagnostic.error(
                    RULE, pos(nameTok), "constraint '" + cname + "' is defined twice", null));
          }
        }
        out.add(new Constraint(cname, expr, action, pos(c)));
      } while (acceptSymbol(","));
      expectSymbol(")", "after the constraints");
      return out;
    }

    List<String> identifierList(String clause) {
      expectSymbol("(", "after " + clause);
      List<String> out = new ArrayList<>();
      do {
        Token t = peek();
        if (t == null || (t.kind() != Token.Kind.WORD && t.kind() != Token.Kind.QUOTED_IDENT)) {
          throw error("expected a column name in " + clause + ", found " + found(), null);
        }
        i++;
        out.add(t.identifier().toLowerCase(Locale.ROOT));
      } while (acceptSymbol(","));
      expectSymbol(")", "to close " + clause);
      return out;
    }

    /**
     * ('k'='v', k.sub = v, ...) as TBLPROPERTIES and OPTIONS take them; {@code positions}, when
     * given, receives where each key is written.
     */
    Map<String, String> keyValues(
        String clause, boolean lowerKeys, Map<String, Position> positions) {
      expectSymbol("(", "after " + clause);
      Map<String, String> out = new LinkedHashMap<>();
      if (acceptSymbol(")")) {
        return out;
      }
      do {
        Token kt = peek();
        String key;
        if (kt != null && kt.kind() == Token.Kind.STRING) {
          i++;
          key = kt.stringValue();
        } else {
          StringBuilder k = new StringBuilder();
          do {
            Token part = peek();
            if (part == null
                || (part.kind() != Token.Kind.WORD && part.kind() != Token.Kind.QUOTED_IDENT)) {
              throw error("expected a property key in " + clause + ", found " + found(), null);
            }
            i++;
            if (!k.isEmpty()) {
              k.append('.');
            }
            k.append(part.identifier());
          } while (acceptSymbol("."));
          key = k.toString();
        }
        if (lowerKeys) {
          key = key.toLowerCase(Locale.ROOT);
        }
        acceptSymbol("=");
        Token vt = peek();
        if (vt == null || vt.isSymbol(",") || vt.isSymbol(")")) {
          throw error(
              "expected a value for '" + key + "' in " + clause + ", found " + found(), null);
        }
        i++;
        String value =
            switch (vt.kind()) {
              case STRING -> vt.stringValue();
              case WORD, NUMBER, QUOTED_IDENT -> vt.identifier();
              default ->
                  throw new SyntaxError(
                      Diagnostic.error(
                          RULE,
                          pos(vt),
                          "unexpected '" + vt.text() + "' as a value in " + clause,
                          null));
            };
        if (out.containsKey(key)) {
          throw new SyntaxError(
              Diagnostic.error(RULE, pos(kt), "'" + key + "' given twice in " + clause, null));
        }
        out.put(key, value);
        if (positions != null) {
          positions.put(key, pos(kt));
        }
      } while (acceptSymbol(","));
      expectSymbol(")", "to close " + clause);
      return out;
    }

    /** A 1-4 part name; parts folded to lower case. */
    Name name(String what) {
      Token first = peek();
      List<String> parts = new ArrayList<>();
      do {
        Token t = peek();
        if (t == null || (t.kind() != Token.Kind.WORD && t.kind() != Token.Kind.QUOTED_IDENT)) {
          throw error("expected a " + what + ", found " + found(), null);
        }
        i++;
        parts.add(t.identifier().toLowerCase(Locale.ROOT));
      } while (acceptSymbol("."));
      if (parts.size() > 4) {
        throw new SyntaxError(
            Diagnostic.error(
                RULE,
                pos(first),
                "a "
                    + what
                    + " has at most 4 parts (workspace.lakehouse.schema.name), found "
                    + parts.size(),
                null));
      }
      String raw = text.substring(first.offset(), toks.get(i - 1).end());
      return new Name(parts, raw, pos(first));
    }
  }
}
