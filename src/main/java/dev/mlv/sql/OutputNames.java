package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The columns a view's SELECT names, as its table will name them: an alias, a column's own name,
 * or, for an expression without an alias, none (Spark then names the column after the expression's
 * text, {@code sum(amt)}). Read from the first SELECT of a set operation, as Spark does; {@code *}
 * names nothing that can be checked here.
 */
public final class OutputNames {

  /** One output column: its name, null when Spark names it after the expression's {@code text}. */
  public record OutputName(String name, String text, Position position) {}

  /**
   * The columns the SELECT list shows; {@code complete} when they are all of them: no {@code *},
   * whose columns only the tables know.
   */
  public record Columns(List<OutputName> names, boolean complete) {}

  /**
   * Spark's generators: functions whose columns Spark names itself (explode's {@code col}, stack's
   * {@code col0}), and which only a SELECT list may call.
   */
  static final Set<String> GENERATORS =
      Set.of(
          "explode",
          "explode_outer",
          "posexplode",
          "posexplode_outer",
          "inline",
          "inline_outer",
          "stack",
          "json_tuple");

  private OutputNames() {}

  /**
   * The columns of {@code sql}, whose Calcite tree is {@code root} (of the whole text: a caller
   * with text Calcite did not see passes nothing here); empty when they cannot be told.
   */
  static Optional<Columns> of(String sql, Position start, SqlNode root) {
    SqlSelect select = firstSelect(root);
    if (select == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(columns(sql, start, select));
    } catch (RuntimeException e) { // a node shape not foreseen: claim nothing rather than fail
      return Optional.empty();
    }
  }

  private static Columns columns(String sql, Position start, SqlSelect select) {
    List<OutputName> out = new ArrayList<>();
    boolean complete = true;
    // Items come in order: each position is counted on from the one before, not from the start,
    // so a SELECT of 50,000 items is not read 50,000 times.
    int counted = 0;
    Position reached = start;
    for (SqlNode item : select.getSelectList()) {
      int offset = offset(sql, item);
      if (offset < counted) {
        counted = 0;
        reached = start;
      }
      Position at = reached.advance(sql.subSequence(counted, offset), offset - counted);
      counted = offset;
      reached = at;
      if (item instanceof SqlCall call && call.getKind() == SqlKind.AS) {
        SqlNode alias = call.operand(1);
        if (alias instanceof SqlIdentifier id) {
          out.add(new OutputName(id.getSimple(), text(sql, item), at));
        }
      } else if (item instanceof SqlIdentifier id) {
        if (id.isStar()) {
          complete = false;
        } else {
          out.add(new OutputName(id.names.get(id.names.size() - 1), text(sql, item), at));
        }
      } else if (item instanceof SqlCall call
          && GENERATORS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT))) {
        complete = false; // Spark names a generator's columns itself: col, pos, col0, ...
      } else if (item instanceof SqlCall call) {
        if (call.getKind() == SqlKind.CAST
            && call.operand(0) instanceof SqlIdentifier id
            && id.names.size() > 1) {
          // CAST(t.x AS ...) is named x, but CAST(s.f AS ...) of a struct's field is named after
          // its text: which one s is, only the catalog knows.
          complete = false;
        }
        out.add(new OutputName(derivedName(call), text(sql, item), at));
      } else if (item instanceof org.apache.calcite.sql.SqlCharStringLiteral literal) {
        // Spark names a string's column after its value: 'a b' is a column named a b. Calcite
        // leaves backslash escapes as written, which Spark reads ('x\\y' is x\y).
        String value = literal.getValueAs(String.class);
        complete &= value.indexOf('\\') < 0;
        out.add(new OutputName(value, text(sql, item), at));
      } else {
        complete = false; // another literal: Spark names it after its value, not checked here
      }
    }
    return new Columns(out, complete);
  }

  /**
   * The name Spark gives an expression without an alias when it is a plain name: {@code CAST(x AS
   * STRING)} is {@code x}, {@code s.f} is {@code f}, {@code a[0]} and {@code -1} are themselves;
   * null for the rest, which Spark names after their text ({@code sum(amt)}, {@code (a + 1)}).
   */
  private static String derivedName(SqlCall call) {
    SqlKind kind = call.getKind();
    if (kind == SqlKind.CAST && call.operand(0) instanceof SqlIdentifier id && !id.isStar()) {
      return id.names.get(id.names.size() - 1);
    }
    if (kind == SqlKind.ITEM || kind == SqlKind.DOT) {
      return call.toString();
    }
    if (kind == SqlKind.MINUS_PREFIX && call.operand(0) instanceof SqlLiteral literal) {
      return "-" + literal.toValue();
    }
    return null;
  }

  private static SqlSelect firstSelect(SqlNode node) {
    while (true) {
      if (node instanceof SqlSelect s) {
        return s;
      } else if (node instanceof SqlOrderBy o) {
        node = o.query;
      } else if (node instanceof SqlWith w) {
        node = w.body;
      } else if (node instanceof SqlCall c && c.getKind().belongsTo(SqlKind.SET_QUERY)) {
        node = c.operand(0);
      } else {
        return null;
      }
    }
  }

  private static int offset(String sql, SqlNode node) {
    SqlParserPos pos = node.getParserPosition();
    return pos == null || pos.getLineNum() < 1
        ? 0
        : TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
  }

  private static String text(String sql, SqlNode node) {
    SqlParserPos pos = node.getParserPosition();
    if (pos == null || pos.getLineNum() < 1 || pos.getEndLineNum() < 1) {
      return node.toString();
    }
    int from = TableExtractor.offsetOf(sql, pos.getLineNum(), pos.getColumnNum());
    int to = TableExtractor.offsetOf(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
    return from < to && to <= sql.length() ? sql.substring(from, to) : node.toString();
  }
}
