package dev.mlv.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The type of a SELECT item when its text alone fixes it, for the types a Delta table cannot store:
 * a literal ({@code INTERVAL 1 DAY}, {@code TIME'10:00'}, {@code NULL}), an explicit {@code CAST},
 * {@code TRY_CAST} or {@code ::}, a function whose return type does not depend on its arguments
 * ({@code make_interval}, {@code to_time}), and {@code array}, {@code map} and {@code named_struct}
 * over such items. Anything else (a column, an operator, a function of its arguments) has a type
 * only the catalog knows, and is not read: no answer rather than a guess.
 */
public final class CertainTypes {

  /** What Delta cannot store about a type. */
  public enum Kind {
    /** An ANSI interval (INTERVAL DAY, INTERVAL YEAR TO MONTH, ...). */
    INTERVAL,
    /** Spark's older interval of months, days and microseconds, which make_interval returns. */
    CALENDAR_INTERVAL,
    TIME,
    /** NULL without a type. */
    VOID,
    /** A string of a collation other than UTF8_BINARY, which Delta 4.2 here refuses to write. */
    COLLATED
  }

  /**
   * The first part of an item's type that Delta cannot store: its kind, the type as SQL writes it
   * ({@code INTERVAL DAY}), and where it sits, as Delta names it ({@code i}, {@code i.a}, {@code
   * i[]}); {@code nested} when it is inside an array, map or struct.
   */
  public record Unstorable(Kind kind, String type, String path, boolean nested) {}

  /** A type as far as it matters here; {@link Unknown} where the text does not fix it. */
  private sealed interface Type permits Leaf, ArrayOf, MapOf, StructOf, Unknown {}

  /** A type without parts: {@code kind} null for one Delta stores (STRING, DECIMAL(10,2), ...). */
  private record Leaf(String name, Kind kind) implements Type {}

  private record ArrayOf(Type element) implements Type {}

  private record MapOf(Type key, Type value) implements Type {}

  private record Field(String name, Type type) {}

  private record StructOf(List<Field> fields) implements Type {}

  private enum Unknown implements Type {
    TYPE
  }

  private static final Leaf VOID = new Leaf("VOID", Kind.VOID);
  private static final Leaf TIME = new Leaf("TIME", Kind.TIME);
  private static final Leaf STRING = new Leaf("STRING", null);

  /** Functions whose return type is fixed whatever their arguments. */
  private static final Map<String, Leaf> FIXED_RETURN =
      Map.of(
          "make_interval", new Leaf("INTERVAL", Kind.CALENDAR_INTERVAL),
          "try_make_interval", new Leaf("INTERVAL", Kind.CALENDAR_INTERVAL),
          "make_dt_interval", new Leaf("INTERVAL DAY TO SECOND", Kind.INTERVAL),
          "make_ym_interval", new Leaf("INTERVAL YEAR TO MONTH", Kind.INTERVAL),
          "make_time", TIME,
          "to_time", TIME,
          "try_to_time", TIME,
          "current_time", TIME,
          "time_trunc", TIME,
          "time", TIME);

  /** Interval units, each with the field of the interval type it gives. */
  static final Map<String, String> UNITS =
      Map.ofEntries(
          Map.entry("YEAR", "YEAR"),
          Map.entry("YEARS", "YEAR"),
          Map.entry("MONTH", "MONTH"),
          Map.entry("MONTHS", "MONTH"),
          Map.entry("WEEK", "DAY"),
          Map.entry("WEEKS", "DAY"),
          Map.entry("DAY", "DAY"),
          Map.entry("DAYS", "DAY"),
          Map.entry("HOUR", "HOUR"),
          Map.entry("HOURS", "HOUR"),
          Map.entry("MINUTE", "MINUTE"),
          Map.entry("MINUTES", "MINUTE"),
          Map.entry("SECOND", "SECOND"),
          Map.entry("SECONDS", "SECOND"),
          Map.entry("MILLISECOND", "SECOND"),
          Map.entry("MILLISECONDS", "SECOND"),
          Map.entry("MICROSECOND", "SECOND"),
          Map.entry("MICROSECONDS", "SECOND"));

  private static final List<String> FIELDS =
      List.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND");
  private static final Set<String> YEAR_MONTH = Set.of("YEAR", "MONTH");

  private CertainTypes() {}

  /**
   * What Delta cannot store in the column of the SELECT item {@code text} (as written, with its
   * alias) named {@code name}; empty when it can, or when the text does not fix the type.
   */
  public static Optional<Unstorable> of(String text, String name) {
    return unstorable(read(text, name), name == null ? "" : name, false);
  }

  /**
   * ARRAY, MAP or STRUCT when the SELECT item {@code text} named {@code name} is certainly of such
   * a type ({@code array(x)}, {@code named_struct('a', x)}, {@code map(k, v)}, {@code CAST(x AS
   * ARRAY<INT>)}, {@code x::STRUCT<a: INT>}), whatever its parts' types; empty when it is not or
   * the text does not tell.
   */
  public static Optional<String> complex(String text, String name) {
    if (variantPath(text, name)) {
      return Optional.of("VARIANT"); // found by QA: PARTITIONED BY (k) over v:k failed at apply
    }
    Type type = read(text, name);
    if (type instanceof ArrayOf) {
      return Optional.of("ARRAY");
    } else if (type instanceof MapOf) {
      return Optional.of("MAP");
    } else if (type instanceof StructOf) {
      return Optional.of("STRUCT");
    }
    return Optional.empty();
  }

  /**
   * Whether the item {@code text} (its alias {@code name} left out) is an uncast variant path,
   * whose value is a VARIANT: a base, a colon outside parentheses, then only path parts.
   */
  private static boolean variantPath(String text, String name) {
    return VariantPaths.pathColon(withoutAlias(text, name)) > 0;
  }

  /** The type of the item {@code text}, its alias {@code name} left out. */
  private static Type read(String text, String name) {
    List<SqlToken> tokens = withoutAlias(text, name);
    return tokens.isEmpty() ? Unknown.TYPE : new Reader(tokens).whole();
  }

  /** The tokens of an item, its alias {@code name} ({@code AS name}, or {@code name}) left out. */
  private static List<SqlToken> withoutAlias(String text, String name) {
    List<SqlToken> tokens = new ArrayList<>(SqlToken.tokenize(text));
    if (name != null && tokens.size() > 1) {
      SqlToken last = tokens.get(tokens.size() - 1);
      SqlToken before = tokens.get(tokens.size() - 2);
      // Not a field or a variant path's key named like the column: s.f, v:f.
      boolean alias =
          last.isIdentifier()
              && last.identifierValue().equalsIgnoreCase(name)
              && !before.isSymbol(".")
              && !before.isSymbol(":");
      if (alias) {
        tokens.remove(tokens.size() - 1);
        if (tokens.size() > 1 && tokens.get(tokens.size() - 1).isWord("AS")) {
          tokens.remove(tokens.size() - 1);
        }
      }
    }
    return tokens;
  }

  private static Optional<Unstorable> unstorable(Type type, String path, boolean nested) {
    if (type instanceof Leaf leaf) {
      return leaf.kind() == null
          ? Optional.empty()
          : Optional.of(new Unstorable(leaf.kind(), leaf.name(), path, nested));
    } else if (type instanceof ArrayOf a) {
      return unstorable(a.element(), path + "[]", true);
    } else if (type instanceof MapOf m) {
      Optional<Unstorable> key = unstorable(m.key(), path + ".key", true);
      return key.isPresent() ? key : unstorable(m.value(), path + ".value", true);
    } else if (type instanceof StructOf s) {
      for (Field f : s.fields()) {
        Optional<Unstorable> found = unstorable(f.type(), path + "." + f.name(), true);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  /** A reader of tokens {@code [at, end)}, each method reading one construct or giving up. */
  private static final class Reader {
    private final List<SqlToken> tokens;
    private int at;
    private int end;

    Reader(List<SqlToken> tokens) {
      this.tokens = tokens;
      this.end = tokens.size();
    }

    private Reader(List<SqlToken> tokens, int from, int to) {
      this.tokens = tokens;
      this.at = from;
      this.end = to;
    }

    /** The type of all the tokens as one expression, Unknown unless it reads them all. */
    Type whole() {
      Type t = expression();
      return at == end ? t : Unknown.TYPE;
    }

    private boolean word(String w) {
      return at < end && tokens.get(at).isWord(w);
    }

    private boolean symbol(String s) {
      return at < end && tokens.get(at).isSymbol(s);
    }

    /** A primary and what may follow it without changing which expression it is. */
    private Type expression() {
      if (symbol("-") || symbol("+")) {
        at++;
        // -(INTERVAL 1 DAY) keeps the type; negating anything else is not read.
        Type t = expression();
        return t instanceof Leaf l && l.kind() == Kind.INTERVAL ? t : Unknown.TYPE;
      }
      Type t = primary();
      while (at < end) {
        if (word("COLLATE")) {
          at++;
          t = collated(STRING);
        } else if (symbol("::")) {
          at++;
          t = type();
        } else if (symbol("[")) {
          int close = closing(at, "[", "]");
          if (close < 0) {
            return Unknown.TYPE;
          }
          at = close + 1;
          t = Unknown.TYPE;
        } else if (symbol(".") && at + 1 < end && tokens.get(at + 1).isIdentifier()) {
          at += 2;
          t = Unknown.TYPE;
        } else {
          break; // an operator, a keyword: the caller sees it is not at the end
        }
      }
      return t;
    }

    private Type primary() {
      if (at >= end) {
        return Unknown.TYPE;
      }
      SqlToken t = tokens.get(at);
      if (t.isSymbol("(")) {
        int close = closing(at, "(", ")");
        if (close < 0) {
          return Unknown.TYPE;
        }
        Type inner = new Reader(tokens, at + 1, close).whole();
        at = close + 1;
        return inner;
      }
      if (t.kind() == SqlToken.Kind.STRING) {
        at++;
        return STRING;
      }
      if (t.kind() != SqlToken.Kind.WORD) {
        at++;
        return Unknown.TYPE;
      }
      String word = t.text().toLowerCase(Locale.ROOT);
      boolean call = at + 1 < end && tokens.get(at + 1).isSymbol("(");
      if (!call) {
        if (word.equals("null")) {
          at++;
          return VOID;
        }
        if (word.equals("interval")) {
          return intervalLiteral();
        }
        if (word.equals("case")) {
          return caseExpression();
        }
        if (word.equals("time")
            && at + 1 < end
            && tokens.get(at + 1).kind() == SqlToken.Kind.STRING) {
          at += 2;
          return TIME;
        }
        at++;
        return Unknown.TYPE;
      }
      int open = at + 1;
      int close = closing(open, "(", ")");
      if (close < 0) {
        return Unknown.TYPE;
      }
      at = close + 1;
      List<Reader> args = arguments(open + 1, close);
      return switch (word) {
        case "cast", "try_cast" -> cast(open + 1, close);
        case "array" -> array(args);
        // map(k, v, ...): a map whatever its keys and values; Spark refuses an odd count.
        case "map" ->
            args.isEmpty()
                ? new MapOf(VOID, VOID)
                : args.size() % 2 == 0 ? new MapOf(Unknown.TYPE, Unknown.TYPE) : Unknown.TYPE;
        case "named_struct" -> namedStruct(args);
        // collate(x, 'UNICODE'): the name is a string, read as COLLATE reads its word.
        case "collate" -> collateCall(args);
        // The value is one of the arguments (after the condition), of their common type.
        case "coalesce", "nvl", "ifnull", "greatest", "least" -> common(args, 0);
        case "if", "iff", "nvl2" -> args.size() == 3 ? common(args, 1) : Unknown.TYPE;
        default -> FIXED_RETURN.containsKey(word) ? FIXED_RETURN.get(word) : Unknown.TYPE;
      };
    }

    /**
     * CASE ... WHEN c THEN v ... [ELSE e] END: the common type of its values, a missing ELSE being
     * NULL. The CASE word is at {@code at}.
     */
    private Type caseExpression() {
      int depth = 0;
      int close = -1;
      for (int i = at; i < end && close < 0; i++) {
        SqlToken t = tokens.get(i);
        if (t.isWord("CASE")) {
          depth++;
        } else if (t.isWord("END") && --depth == 0) {
          close = i;
        }
      }
      if (close < 0) {
        return Unknown.TYPE;
      }
      List<Reader> values = new ArrayList<>();
      boolean hasElse = false;
      int start = -1;
      depth = 0;
      for (int i = at + 1; i <= close; i++) {
        SqlToken t = tokens.get(i);
        boolean top = depth == 0;
        if (t.isSymbol("(") || t.isWord("CASE")) {
          depth++;
        } else if (t.isSymbol(")") || (t.isWord("END") && i < close)) {
          depth--;
        } else if (top && (t.isWord("WHEN") || t.isWord("ELSE") || i == close)) {
          if (start >= 0) {
            values.add(new Reader(tokens, start, i));
          }
          start = t.isWord("ELSE") ? i + 1 : -1;
          hasElse |= t.isWord("ELSE");
        } else if (top && t.isWord("THEN")) {
          start = i + 1;
        }
      }
      at = close + 1;
      if (values.isEmpty()) {
        return Unknown.TYPE;
      }
      Type t = common(values, 0);
      return hasElse || t == Unknown.TYPE ? t : common(t, VOID);
    }

    /**
     * The type of arguments {@code from}.. taken together: the one type every one of them has, NULL
     * aside; Unknown when they differ, since then only Spark's coercion tells.
     */
    private static Type common(List<Reader> args, int from) {
      if (args.size() <= from) {
        return Unknown.TYPE;
      }
      Type t = null;
      for (int i = from; i < args.size(); i++) {
        Type next = args.get(i).whole();
        t = t == null ? next : common(t, next);
      }
      return t;
    }

    private static Type common(Type a, Type b) {
      if (a == Unknown.TYPE || b == Unknown.TYPE) {
        return Unknown.TYPE;
      }
      return a.equals(b) || b == VOID ? a : a == VOID ? b : Unknown.TYPE;
    }

    /** CAST(x AS type): the type after the last AS outside parentheses. */
    private Type cast(int from, int to) {
      int as = -1;
      int depth = 0;
      for (int i = from; i < to; i++) {
        SqlToken t = tokens.get(i);
        if (t.isSymbol("(")) {
          depth++;
        } else if (t.isSymbol(")")) {
          depth--;
        } else if (depth == 0 && t.isWord("AS")) {
          as = i;
        }
      }
      if (as < 0) {
        return Unknown.TYPE;
      }
      Reader r = new Reader(tokens, as + 1, to);
      Type t = r.type();
      return r.at == to ? t : Unknown.TYPE;
    }

    /**
     * The type {@code string} takes from the collation name at {@code at} ({@code UTF8_LCASE},
     * {@code SYSTEM.BUILTIN.UNICODE_CI}): itself for UTF8_BINARY, a string Delta stores.
     */
    private Type collated(Leaf string) {
      String name = null;
      while (at < end && tokens.get(at).isIdentifier()) {
        name = tokens.get(at).identifierValue();
        at++;
        if (!(symbol(".") && at + 1 < end && tokens.get(at + 1).isIdentifier())) {
          break;
        }
        at++;
      }
      return name == null ? Unknown.TYPE : collation(string, name);
    }

    private Type collateCall(List<Reader> args) {
      if (args.size() != 2) {
        return Unknown.TYPE;
      }
      Reader name = args.get(1);
      if (name.end - name.at != 1 || tokens.get(name.at).kind() != SqlToken.Kind.STRING) {
        return Unknown.TYPE;
      }
      String quoted = tokens.get(name.at).text();
      return collation(STRING, quoted.substring(1, quoted.length() - 1));
    }

    private static Type collation(Leaf string, String name) {
      return name.equalsIgnoreCase("UTF8_BINARY")
          ? string
          : new Leaf(string.name() + " COLLATE " + name, Kind.COLLATED);
    }

    /**
     * array(a, b): an array, of the element type every element has when the text fixes it (else one
     * only Spark tells: the elements' common type).
     */
    private Type array(List<Reader> args) {
      if (args.isEmpty()) {
        return new ArrayOf(VOID); // Spark 4: array() is ARRAY<VOID>
      }
      Type first = null;
      for (Reader arg : args) {
        Type t = arg.whole();
        if (t == Unknown.TYPE || (first != null && !first.equals(t))) {
          return new ArrayOf(Unknown.TYPE);
        }
        first = t;
      }
      return new ArrayOf(first);
    }

    /** named_struct('a', x, ...): each field has its value's type. */
    private Type namedStruct(List<Reader> args) {
      if (args.isEmpty() || args.size() % 2 != 0) {
        return Unknown.TYPE;
      }
      List<Field> fields = new ArrayList<>();
      for (int i = 0; i < args.size(); i += 2) {
        Reader name = args.get(i);
        if (name.end - name.at != 1 || tokens.get(name.at).kind() != SqlToken.Kind.STRING) {
          return Unknown.TYPE;
        }
        String quoted = tokens.get(name.at).text();
        fields.add(new Field(quoted.substring(1, quoted.length() - 1), args.get(i + 1).whole()));
      }
      return new StructOf(fields);
    }

    /**
     * INTERVAL 1 DAY, INTERVAL '1-2' YEAR TO MONTH, INTERVAL 1 DAY 2 HOURS: Spark's ANSI interval
     * types. A literal that mixes year-month and day-time units Spark refuses on its own.
     */
    private Type intervalLiteral() {
      at++;
      List<String> fields = new ArrayList<>();
      while (at < end) {
        int start = at;
        if (symbol("-") || symbol("+")) {
          at++;
        }
        if (at < end
            && (tokens.get(at).kind() == SqlToken.Kind.NUMBER
                || tokens.get(at).kind() == SqlToken.Kind.STRING)
            && at + 1 < end
            && UNITS.containsKey(tokens.get(at + 1).upper())) {
          fields.add(UNITS.get(tokens.get(at + 1).upper()));
          at += 2;
        } else {
          at = start;
          break;
        }
      }
      if (fields.isEmpty() && at < end && tokens.get(at).kind() == SqlToken.Kind.STRING) {
        // INTERVAL '1 day 2 hours': the units are in the text (typeof, Spark 4.1.1: interval day
        // to hour); text of any other shape ('1:30', '1-2') is left unknown.
        String text = tokens.get(at).text();
        List<String> inText = unitsIn(text.substring(1, text.length() - 1));
        if (!inText.isEmpty()) {
          at++;
          return interval(inText);
        }
      }
      if (fields.isEmpty()) {
        return Unknown.TYPE; // INTERVAL 'text': which fields, only the text tells
      }
      if (fields.size() == 1 && word("TO")) {
        at++;
        if (at >= end || !UNITS.containsKey(tokens.get(at).upper())) {
          return Unknown.TYPE;
        }
        fields.add(UNITS.get(tokens.get(at).upper()));
        at++;
      }
      return interval(fields);
    }

    /** The fields of {@code '1 day 2 hours'}, in order; none unless the text is only such pairs. */
    private static List<String> unitsIn(String text) {
      List<String> fields = new ArrayList<>();
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)\\s+([A-Za-z]+)\\s*")
              .matcher(text);
      int from = 0;
      while (from < text.length() && m.find(from) && m.start() == from) {
        String unit = UNITS.get(m.group(3).toUpperCase(Locale.ROOT));
        if (unit == null) {
          return List.of();
        }
        fields.add(unit);
        from = m.end();
      }
      return from == text.length() ? fields : List.of();
    }

    /** The interval type from its first field to its last, Unknown when they cannot be one. */
    private static Type interval(List<String> fields) {
      boolean yearMonth = YEAR_MONTH.contains(fields.get(0));
      int first = FIELDS.size();
      int last = -1;
      for (String f : fields) {
        if (YEAR_MONTH.contains(f) != yearMonth) {
          return Unknown.TYPE;
        }
        first = Math.min(first, FIELDS.indexOf(f));
        last = Math.max(last, FIELDS.indexOf(f));
      }
      String name =
          "INTERVAL " + FIELDS.get(first) + (last > first ? " TO " + FIELDS.get(last) : "");
      return new Leaf(name, Kind.INTERVAL);
    }

    /** A data type as CAST and :: take it; Unknown for one not read here. */
    private Type type() {
      if (at >= end || !tokens.get(at).isIdentifier()) {
        return Unknown.TYPE;
      }
      String word = tokens.get(at).upper();
      at++;
      switch (word) {
        case "ARRAY" -> {
          if (!angle()) {
            return Unknown.TYPE;
          }
          Type element = type();
          return closeAngle() ? new ArrayOf(element) : Unknown.TYPE;
        }
        case "MAP" -> {
          if (!angle()) {
            return Unknown.TYPE;
          }
          Type key = type();
          if (!symbol(",")) {
            return Unknown.TYPE;
          }
          at++;
          Type value = type();
          return closeAngle() ? new MapOf(key, value) : Unknown.TYPE;
        }
        case "STRUCT" -> {
          return struct();
        }
        case "INTERVAL" -> {
          List<String> fields = new ArrayList<>();
          if (at < end && FIELDS.contains(tokens.get(at).upper())) {
            fields.add(tokens.get(at).upper());
            at++;
            if (word("TO")) {
              at++;
              if (at >= end || !FIELDS.contains(tokens.get(at).upper())) {
                return Unknown.TYPE;
              }
              fields.add(tokens.get(at).upper());
              at++;
            }
          }
          return fields.isEmpty() ? new Leaf("INTERVAL", Kind.CALENDAR_INTERVAL) : interval(fields);
        }
        case "TIME" -> {
          skipParameters();
          return TIME;
        }
        case "VOID" -> {
          return VOID;
        }
        default -> {
          skipParameters();
          if (word("COLLATE") && Set.of("STRING", "CHAR", "VARCHAR").contains(word)) {
            at++;
            return collated(new Leaf(word, null));
          }
          // A word that another word continues (TIMESTAMP WITH ...) is not read.
          return at < end && tokens.get(at).kind() == SqlToken.Kind.WORD
              ? Unknown.TYPE
              : new Leaf(word, null);
        }
      }
    }

    /** STRUCT<a: T, b T NOT NULL COMMENT 'x'>. */
    private Type struct() {
      if (!angle()) {
        return Unknown.TYPE;
      }
      List<Field> fields = new ArrayList<>();
      while (at < end && !symbol(">")) {
        if (!fields.isEmpty()) {
          if (!symbol(",")) {
            return Unknown.TYPE;
          }
          at++;
        }
        if (at >= end || !tokens.get(at).isIdentifier()) {
          return Unknown.TYPE;
        }
        String name = tokens.get(at).identifierValue();
        at++;
        if (symbol(":")) {
          at++;
        }
        Type t = type();
        if (word("NOT") && at + 1 < end && tokens.get(at + 1).isWord("NULL")) {
          at += 2;
        }
        if (word("COMMENT") && at + 1 < end && tokens.get(at + 1).kind() == SqlToken.Kind.STRING) {
          at += 2;
        }
        fields.add(new Field(name, t));
      }
      return closeAngle() ? new StructOf(fields) : Unknown.TYPE;
    }

    private boolean angle() {
      if (!symbol("<")) {
        return false;
      }
      at++;
      return true;
    }

    private boolean closeAngle() {
      if (!symbol(">")) {
        return false;
      }
      at++;
      return true;
    }

    /** (10, 2) of DECIMAL, (3) of VARCHAR or TIME. */
    private void skipParameters() {
      if (symbol("(")) {
        int close = closing(at, "(", ")");
        at = close < 0 ? end : close + 1;
      }
    }

    /** The index of the bracket that closes the one at {@code open}, within this reader, or -1. */
    private int closing(int open, String opening, String closing) {
      int depth = 0;
      for (int i = open; i < end; i++) {
        if (tokens.get(i).isSymbol(opening)) {
          depth++;
        } else if (tokens.get(i).isSymbol(closing) && --depth == 0) {
          return i;
        }
      }
      return -1;
    }

    /** Readers of the comma-separated arguments in {@code [from, to)}. */
    private List<Reader> arguments(int from, int to) {
      List<Reader> args = new ArrayList<>();
      if (from == to) {
        return args;
      }
      int depth = 0;
      int start = from;
      for (int i = from; i < to; i++) {
        SqlToken t = tokens.get(i);
        if (t.isSymbol("(") || t.isSymbol("[")) {
          depth++;
        } else if (t.isSymbol(")") || t.isSymbol("]")) {
          depth--;
        } else if (depth == 0 && t.isSymbol(",")) {
          args.add(new Reader(tokens, start, i));
          start = i + 1;
        }
      }
      args.add(new Reader(tokens, start, to));
      return args;
    }
  }
}
