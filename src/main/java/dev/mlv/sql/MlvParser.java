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

  /** The shape of a view's header, the hint of its syntax errors. */
  private static final String HEADER =
      "write CREATE [OR REPLACE] MATERIALIZED LAKE VIEW [IF NOT EXISTS] [schema.]name"
          + " [(CONSTRAINT name CHECK (condition) [ON MISMATCH DROP|FAIL], ...)]"
          + " [PARTITIONED BY (column, ...)] [COMMENT 'text'] [TBLPROPERTIES ('key' = 'value', ...)]"
          + " AS SELECT ...";

  /** The shape of one constraint, the hint of the errors inside the constraint list. */
  private static final String CONSTRAINT =
      "write each constraint as CONSTRAINT name CHECK (condition) [ON MISMATCH DROP|FAIL],"
          + " separated by commas";

  private MlvParser() {}

  /** Result of parsing one file: every statement that parsed, and every problem found. */
  /**
   * The statements read, the problems found, and the names of the views whose statement has a
   * syntax error after its name: defined, only broken, so what reads them reads no unknown table.
   */
  public record Result(
      List<SqlStatement> statements, List<Diagnostic> diagnostics, List<Name> unfinishedViews) {}

  public static Result parse(Position start, String written) {
    List<SqlStatement> statements = new ArrayList<>();
    List<Diagnostic> diagnostics = new ArrayList<>();
    List<Name> unfinished = new ArrayList<>();
    String text = withoutBareControls(start, written, diagnostics);
    List<Token> tokens = Lexer.tokenize(text);
    List<Token> current = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      LexicalRules.at(start, text, tokens, i).ifPresent(diagnostics::add);
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
        diagnostics.add(nonAsciiName(start.advance(text, t.offset()), t.text()));
      }
      if (t.isSymbol(";")) {
        parseStatement(start, text, current, statements, diagnostics, unfinished);
        current = new ArrayList<>();
      } else {
        current.add(t);
      }
    }
    parseStatement(start, text, current, statements, diagnostics, unfinished);
    return new Result(List.copyOf(statements), List.copyOf(diagnostics), List.copyOf(unfinished));
  }

  /** A name that is not quoted and has a character other than an ASCII letter, digit or _. */
  static Diagnostic nonAsciiName(Position at, String word) {
    // Spark's lexer takes only ASCII letters, digits and _ in a name that is not quoted.
    return Diagnostic.error(
        "INVALID_IDENTIFIER",
        at,
        "'"
            + word
            + "' has characters other than ASCII letters, digits and '_'; Spark reads such a name"
            + " only between backticks",
        "quote it: `" + word + "`");
  }

  /**
   * The text with each control character outside a literal or comment read as a blank, after one
   * error at the first: Spark's lexer refuses it, and Calcite's message for it ({@code Encountered:
   * <EOF>}, or the character printed raw) names neither the character nor where it is. A NUL is
   * usually a UTF-16 file (a NUL every other byte), a Ctrl-Z an old end-of-file mark; either way
   * one error says it all.
   */
  private static String withoutBareControls(
      Position start, String text, List<Diagnostic> diagnostics) {
    if (text.chars().noneMatch(MlvParser::isControl)) {
      return text;
    }
    StringBuilder cleaned = new StringBuilder(text);
    boolean reported = false;
    for (Token t : Lexer.tokenize(text)) {
      // Java counts U+001C..U+001F as white space, so they may sit in a blank run.
      boolean outside = t.kind() == Token.Kind.SYMBOL || t.kind() == Token.Kind.WHITESPACE;
      for (int k = 0; outside && k < t.text().length(); k++) {
        char c = t.text().charAt(k);
        if (!isControl(c)) {
          continue;
        }
        if (!reported) {
          reported = true;
          diagnostics.add(
              Diagnostic.error(
                  RULE,
                  start.advance(text, t.offset() + k),
                  String.format(
                      "a %s character (U+%04X) is not allowed in SQL text",
                      c == 0 ? "NUL" : c == 0x1A ? "Ctrl-Z (end-of-file mark)" : "control",
                      (int) c),
                  c == 0
                      ? "remove it; it comes from a bad copy, or from a file saved as UTF-16 (save"
                          + " it as UTF-8)"
                      : "remove it; it comes from a bad copy or an old editor, and most editors do"
                          + " not show it"));
        }
        cleaned.setCharAt(t.offset() + k, ' ');
      }
    }
    return cleaned.toString();
  }

  /** A C0 control or DEL that Spark's lexer does not read as white space (tab, CR, LF, FF, VT). */
  private static boolean isControl(int c) {
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x0B) || c == 0x7F;
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
      List<Diagnostic> diagnostics,
      List<Name> unfinished) {
    List<Token> significant = tokens.stream().filter(t -> !t.isTrivia()).toList();
    if (significant.isEmpty()) {
      return;
    }
    Cursor c = new Cursor(start, text, significant);
    try {
      out.add(c.statement());
    } catch (SyntaxError e) {
      diagnostics.add(e.diagnostic);
      if (c.viewName != null) {
        unfinished.add(c.viewName);
      }
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

    /** How the statement being read is written: the hint of an error that has none of its own. */
    String usage;

    /** The name of the view a CREATE MATERIALIZED LAKE VIEW being read creates, once read. */
    Name viewName;

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
      return error(atEnd() ? endPos() : pos(peek()), message, hint);
    }

    SyntaxError error(Position p, String message, String hint) {
      return new SyntaxError(Diagnostic.error(RULE, p, message, hint != null ? hint : usage));
    }

    String found() {
      return atEnd() ? "end of statement" : "'" + peek().text() + "'";
    }

    static boolean startsQuery(Token t) {
      return t.isWord("SELECT") || t.isWord("WITH") || t.isWord("FROM") || t.isSymbol("(");
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
        usage = "write SHOW MATERIALIZED LAKE VIEWS [IN schema]";
        i += 4;
        Name schema = null;
        if (acceptWord("IN") || acceptWord("FROM")) {
          schema = name("schema name");
        }
        expectEnd("SHOW MATERIALIZED LAKE VIEWS");
        return new SqlStatement.ShowViews(schema, p);
      }
      if (peekWords("SHOW", "CREATE", "MATERIALIZED", "LAKE", "VIEW")) {
        usage = "write SHOW CREATE MATERIALIZED LAKE VIEW [schema.]view";
        i += 5;
        Name v = name("view name");
        expectEnd("the view name");
        return new SqlStatement.ShowCreate(v, p);
      }
      if (peekWords("ALTER", "MATERIALIZED", "LAKE", "VIEW")) {
        usage = "write ALTER MATERIALIZED LAKE VIEW [schema.]view RENAME TO [schema.]new_name";
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
        usage = "write DROP MATERIALIZED LAKE VIEW [IF EXISTS] [schema.]view";
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
        usage = "write REFRESH MATERIALIZED LAKE VIEW [schema.]view [FULL]";
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

    /**
     * The first token from {@code from} on, outside parentheses, that starts a statement no query
     * can hold: {@code CREATE [OR REPLACE] MATERIALIZED LAKE VIEW}, {@code CREATE [OR REPLACE]
     * TABLE} or {@code VIEW}, and {@code DROP}, {@code ALTER} or {@code REFRESH MATERIALIZED LAKE
     * VIEW}. A file of two views with the ';' between them forgotten reads as one query, and
     * Spark's parser then stops at the second statement's second word with a message about a
     * missing comma.
     */
    Optional<Token> secondStatement(int from) {
      int depth = 0;
      for (int k = from; k < toks.size(); k++) {
        Token t = toks.get(k);
        if (t.isSymbol("(")) {
          depth++;
        } else if (t.isSymbol(")")) {
          depth = Math.max(0, depth - 1);
        } else if (depth == 0 && k > from && startsStatement(k)) {
          return Optional.of(t);
        }
      }
      return Optional.empty();
    }

    private boolean startsStatement(int k) {
      Token t = toks.get(k);
      int next = k + 1;
      if (t.isWord("CREATE")) {
        if (wordsAt(next, "OR", "REPLACE")) {
          next += 2;
        }
        return wordsAt(next, "MATERIALIZED", "LAKE", "VIEW")
            || wordsAt(next, "TABLE")
            || wordsAt(next, "VIEW");
      }
      return (t.isWord("DROP") || t.isWord("ALTER") || t.isWord("REFRESH"))
          && wordsAt(next, "MATERIALIZED", "LAKE", "VIEW");
    }

    private boolean wordsAt(int k, String... ws) {
      for (int w = 0; w < ws.length; w++) {
        if (k + w >= toks.size() || !toks.get(k + w).isWord(ws[w])) {
          return false;
        }
      }
      return true;
    }

    /**
     * A word right after the view name that continues it: {@code Workspace.lh...}, {@code x AS}.
     */
    private boolean spaceInName(Token t) {
      if (t.kind() != Token.Kind.WORD || i + 1 >= toks.size()) {
        return false;
      }
      Token next = toks.get(i + 1);
      return next.isSymbol(".") || next.isWord("AS");
    }

    ViewDefinition create() {
      usage = HEADER;
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
      if (peekWord("AS") && i + 1 < toks.size() && startsQuery(toks.get(i + 1))) {
        // AS is a valid name to Spark, but AS SELECT here means the name was left out.
        throw error("expected a view name before AS, found 'AS'", null);
      }
      Name name = name("view name");
      viewName = name;
      int afterName = i;
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
          Optional<Token> next = secondStatement(i);
          if (next.isPresent()) {
            throw error(
                pos(next.get()),
                "another statement starts here, at '"
                    + next.get().text()
                    + "', with no ';' ending the view "
                    + name
                    + " before it: its query would run into this statement",
                "end the view's query with ';' before it, or move the statement to a file of"
                    + " its own");
          }
          int from = bodyStart.offset();
          int to = toks.get(toks.size() - 1).end();
          String sql = text.substring(from, to);
          String normalized = Normalizer.normalize(sql);
          body = new ViewBody.Select(sql, pos(bodyStart), normalized, Fingerprint.of(normalized));
          break;
        } else if (i == afterName && spaceInName(t)) {
          // `My Workspace.lh.silver.v`: the name stopped at a space inside one of its parts.
          throw error(
              "unexpected " + found() + " after the view name's part " + toks.get(i - 1).text(),
              "a name part with a space is written in backticks, as in `"
                  + toks.get(i - 1).text()
                  + " "
                  + t.text()
                  + "`");
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
      String outer = usage;
      usage = CONSTRAINT;
      List<Constraint> out = constraintList();
      usage = outer;
      return out;
    }

    private List<Constraint> constraintList() {
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
            throw error(
                pos(open),
                "unbalanced parentheses in CHECK of '" + cname + "'",
                "close every ( of the condition; the CHECK itself is written CHECK (condition)");
          }
          Token t = toks.get(i++);
          if (t.isSymbol("(")) {
            depth++;
          } else if (t.isSymbol(")")) {
            depth--;
          } else if (depth == 1
              && t.isWord("ON")
              && i < toks.size()
              && toks.get(i).isWord("MISMATCH")) {
            // No condition holds ON MISMATCH: the condition's ')' is missing before it, and
            // reading on would report the constraint list's end instead (found by QA).
            throw error(
                pos(t),
                "ON MISMATCH is inside the parentheses of CHECK of '"
                    + cname
                    + "': the ')' that closes the condition is missing before it",
                "write CHECK (condition) ON MISMATCH DROP|FAIL");
          }
        }
        if (i - 1 == exprStart) {
          throw error(
              pos(open),
              "empty CHECK condition in '" + cname + "'",
              "write the condition each kept row meets, e.g. CHECK (amount >= 0)");
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
            throw error(
                pos(nameTok),
                "constraint '" + cname + "' is defined twice",
                "give each constraint a name of its own, or join the two conditions with AND");
          }
        }
        out.add(new Constraint(cname, expr, action, pos(c), pos(toks.get(exprStart))));
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
     * given, receives where each key is written. TBLPROPERTIES follows Spark 4.1.1's grammar,
     * measured with its own parser: a value is a string (adjacent strings are one, as in a key), an
     * unsigned integer or decimal kept as written, or a boolean in lower case; {@code =} or {@code
     * ==} is optional, and the list is not empty. OPTIONS keeps its own, looser rules.
     */
    Map<String, String> keyValues(
        String clause, boolean lowerKeys, Map<String, Position> positions) {
      boolean spark = clause.equals("TBLPROPERTIES");
      expectSymbol("(", "after " + clause);
      Map<String, String> out = new LinkedHashMap<>();
      if (peek() != null && peek().isSymbol(")")) {
        if (spark) {
          throw error(
              pos(peek()),
              "TBLPROPERTIES () is empty, which Spark refuses",
              "give at least one property, or leave TBLPROPERTIES out");
        }
        i++;
        return out;
      }
      do {
        Token kt = peek();
        String key;
        if (kt != null && kt.kind() == Token.Kind.STRING) {
          i++;
          key = spark ? kt.stringValue() + adjacentKeyStrings() : kt.stringValue();
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
        if (!acceptSymbol("=") && spark) {
          acceptSymbol("==");
        }
        Token vt = peek();
        if (vt == null || vt.isSymbol(",") || vt.isSymbol(")")) {
          throw error(
              "expected a value for '" + key + "' in " + clause + ", found " + found(), null);
        }
        i++;
        String value = spark ? sparkPropertyValue(key, vt) : optionValue(clause, vt);
        if (out.containsKey(key)) {
          throw error(
              pos(kt),
              "'" + key + "' given twice in " + clause,
              "keep one of the two; the later one would silently win");
        }
        out.put(key, value);
        if (positions != null) {
          positions.put(key, pos(kt));
        }
      } while (acceptSymbol(","));
      expectSymbol(")", "to close " + clause);
      return out;
    }

    private String optionValue(String clause, Token vt) {
      return switch (vt.kind()) {
        case STRING -> vt.stringValue();
        case WORD, NUMBER, QUOTED_IDENT -> vt.identifier();
        default ->
            throw error(
                pos(vt),
                "unexpected '" + vt.text() + "' as a value in " + clause,
                "quote the value: 'key' = 'value'");
      };
    }

    /**
     * The rest of a key written as adjacent strings. Spark's grammar has a string key and an
     * optional {@code =}, so the run of strings is the key when anything but {@code ,} or {@code )}
     * follows it ({@code 'a' 'b' = 'v'}: key ab), else its first string is the key and the others
     * the value ({@code 'k' 'x' 'y'}: k = xy), as Spark 4.1.1's parser splits them.
     */
    private String adjacentKeyStrings() {
      int j = i;
      while (j < toks.size() && toks.get(j).kind() == Token.Kind.STRING) {
        j++;
      }
      Token after = j < toks.size() ? toks.get(j) : null;
      if (j == i || after == null || after.isSymbol(",") || after.isSymbol(")")) {
        return "";
      }
      return adjacentStrings();
    }

    /** The string literals that follow one, concatenated: Spark reads 'a' 'b' as 'ab'. */
    private String adjacentStrings() {
      StringBuilder more = new StringBuilder();
      while (peek() != null && peek().kind() == Token.Kind.STRING) {
        more.append(toks.get(i++).stringValue());
      }
      return more.toString();
    }

    /**
     * A TBLPROPERTIES value as Spark 4.1.1 reads it; {@code vt} is consumed. Anything else (a word,
     * a backticked name, null, a sign, an exponent, a typed literal such as 10L or x'41') is
     * refused at its place.
     */
    private String sparkPropertyValue(String key, Token vt) {
      if (vt.kind() == Token.Kind.STRING) {
        return vt.stringValue() + adjacentStrings();
      }
      if (vt.isWord("true") || vt.isWord("false")) {
        return vt.lower();
      }
      Token next = peek();
      String written = vt.text();
      if (vt.kind() == Token.Kind.NUMBER) {
        // 10L, 1.5D, 1BD, 1Y: Spark's typed literals, which the lexer splits after the digits.
        boolean glued =
            next != null && next.offset() == vt.end() && next.kind() != Token.Kind.SYMBOL;
        boolean plain = written.matches("\\d+|\\d*\\.\\d+|\\d+\\.");
        if (plain && !glued) {
          return written;
        }
        if (glued) {
          written += next.text();
        }
      } else if ((vt.isSymbol("-") || vt.isSymbol("+")) && next != null) {
        written += next.text();
      } else if (vt.kind() == Token.Kind.WORD && next != null && next.kind() == Token.Kind.STRING) {
        written += next.text(); // x'41'
      }
      String bare = vt.kind() == Token.Kind.QUOTED_IDENT ? vt.identifier() : written;
      String quoted = "'" + bare.replace("\\", "\\\\").replace("'", "\\'") + "'";
      throw error(
          pos(vt),
          "Spark does not read "
              + written
              + " as the value of '"
              + key
              + "' in TBLPROPERTIES: a value is a string, an unsigned integer or decimal, true or"
              + " false",
          "quote the value: '" + key + "' = " + quoted);
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
        throw error(
            pos(first),
            "a "
                + what
                + " has at most 4 parts (workspace.lakehouse.schema.name), found "
                + parts.size(),
            "write it as name, schema.name, lakehouse.schema.name or"
                + " workspace.lakehouse.schema.name; a part with a dot in it goes in backticks");
      }
      String raw = text.substring(first.offset(), toks.get(i - 1).end());
      return new Name(parts, raw, pos(first));
    }
  }
}
