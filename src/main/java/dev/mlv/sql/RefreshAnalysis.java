package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.List;
import java.util.Optional;

/**
 * What the SQL of one view allows for incremental refresh, construct by construct, decided from the
 * text alone. Conditions that depend on the data ({@link Support#CONDITIONAL}) are settled at
 * refresh time from the sources' Delta logs. {@code refs} are every table reference in the SELECT
 * as written, so the local engine can substitute each one with its change rows.
 */
public record RefreshAnalysis(
    Shape shape,
    List<Construct> constructs,
    List<TableRef> refs,
    List<OutputColumn> columns,
    List<ColumnCheck> columnChecks) {

  public RefreshAnalysis {
    constructs = List.copyOf(constructs);
    refs = List.copyOf(refs);
    columns = List.copyOf(columns);
    columnChecks = List.copyOf(columnChecks);
  }

  public RefreshAnalysis(
      Shape shape, List<Construct> constructs, List<TableRef> refs, List<OutputColumn> columns) {
    this(shape, constructs, refs, columns, List.of());
  }

  /**
   * A name Spark reads as a column when the FROM it is written in has a column so named, and as
   * something else when not: {@code GROUP BY g} as the SELECT alias g, a bare {@code user} or
   * {@code current_date} (backticked or not) as the function. Which one is settled from the
   * sources' columns when the view is refreshed. {@code construct} is the CONDITIONAL construct it
   * belongs to; {@code columnAllowsIncremental} says which reading allows incremental refresh;
   * {@code from} is what gives columns where the name is written.
   */
  public record ColumnCheck(
      Construct construct, String name, boolean columnAllowsIncremental, List<FromColumn> from) {
    public ColumnCheck {
      from = List.copyOf(from);
    }
  }

  /** What gives a FROM its columns, as far as the SELECT's text tells. */
  public sealed interface FromColumn {
    /** Every column of a table the FROM reads, known only from the table itself. */
    record OfTable(Name table) implements FromColumn {}

    /** A column named in the text: a subquery's or CTE's SELECT item, or an alias list. */
    record Named(String name) implements FromColumn {}

    /** Columns the text does not name: an unnamed expression, {@code t.*}, a table function. */
    record Unknown(String what) implements FromColumn {}
  }

  /** The checks that settle {@code c}; empty for a construct that is not settled by columns. */
  public List<ColumnCheck> columnChecks(Construct c) {
    return columnChecks.stream().filter(k -> k.construct().equals(c)).toList();
  }

  /** How new rows reach the view when the refresh is incremental. */
  public enum Shape {
    /** Projections, filters, inner joins, UNION ALL: the new result rows are appended. */
    APPEND,
    /** GROUP BY with SUM, COUNT, MIN and MAX only: partial aggregates merged into the groups. */
    MERGE_AGGREGATE,
    /** Other aggregates grouped by the sources' partition column: touched groups recomputed. */
    PARTITION_AGGREGATE,
    /** Something in the SQL always needs a full refresh. */
    NONE
  }

  /** Whether a construct allows incremental refresh. */
  public enum Support {
    INCREMENTAL,
    /** Allowed while a condition on the sources holds; {@link Construct#code()} names it. */
    CONDITIONAL,
    FULL
  }

  /**
   * One construct of the SELECT with its verdict. {@code code} is the reason code a refresh reports
   * when the construct forces a full refresh ({@code WINDOW_FUNCTION}, {@code
   * AGG_NEEDS_PARTITIONED_SOURCE fn=AVG}, ...), empty for a construct that is always fine.
   */
  public record Construct(
      String construct, Position position, Support support, String code, String note) {

    /**
     * {@code construct: why} for a reason's sentence, or {@code why} alone where the construct is
     * the reason's code already ("HAVING: ...; HAVING: a group can cross the condition" said it
     * twice).
     */
    public String because(String why) {
      return construct.equals(code) ? why : construct + ": " + why;
    }
  }

  /** Where a table reference sits, which decides when its changes allow incremental refresh. */
  public enum RefContext {
    FROM,
    /** The right side of a LEFT OUTER, LEFT SEMI or LEFT ANTI join. */
    LEFT_JOIN_RIGHT,
    /** Inside a subquery used as an expression (IN, EXISTS, scalar). */
    SUBQUERY_EXPRESSION
  }

  /**
   * One reference to a table in the SELECT text: {@code [from, to)} is its span in the SELECT,
   * {@code aliased} whether an alias follows it (else the local engine adds one).
   */
  public record TableRef(
      Name name,
      int from,
      int to,
      boolean aliased,
      RefContext context,
      List<UnionBranch> branches) {
    public TableRef {
      branches = List.copyOf(branches);
    }

    /**
     * Whether this reference and {@code other} sit in different branches of one UNION ALL: their
     * rows never meet, so a change of one must be combined with nothing from the other.
     */
    public boolean apartFrom(TableRef other) {
      for (int i = 0; i < Math.min(branches.size(), other.branches.size()); i++) {
        UnionBranch a = branches.get(i);
        UnionBranch b = other.branches.get(i);
        if (a.union() != b.union()) {
          return false;
        }
        if (a.branch() != b.branch()) {
          return true;
        }
      }
      return false;
    }
  }

  /** One operand of one UNION ALL node in the SELECT. */
  public record UnionBranch(int union, int branch) {}

  /** What an aggregate view's output column is, by position. */
  public enum Role {
    KEY,
    SUM,
    COUNT,
    MIN,
    MAX,
    OTHER
  }

  /**
   * One output column of an aggregate view. {@code sourceColumn} is the column's name when it is a
   * GROUP BY key written as a plain column, else null.
   */
  public record OutputColumn(int position, Role role, String sourceColumn) {}

  /** The plain columns the view groups by, lower case. */
  public List<String> groupColumns() {
    return columns.stream()
        .filter(c -> c.role() == Role.KEY && c.sourceColumn() != null)
        .map(OutputColumn::sourceColumn)
        .toList();
  }

  /** The first construct that always forces a full refresh. */
  public Optional<Construct> blocker() {
    return constructs.stream().filter(c -> c.support() == Support.FULL).findFirst();
  }

  public List<Construct> conditions() {
    return constructs.stream().filter(c -> c.support() == Support.CONDITIONAL).toList();
  }

  public boolean incrementalPossible() {
    return shape != Shape.NONE && blocker().isEmpty();
  }
}
