package dev.mlv.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * A correlated scalar subquery in a SELECT item of a grouped SELECT (GROUP BY, or an aggregate with
 * none), outside an aggregate function: Spark refuses it whatever column it reads of the outer
 * query, grouped or not ([SCALAR_SUBQUERY_IS_IN_GROUP_BY_OR_AGGREGATE_FUNCTION]). Only what is
 * certain without a catalog counts: a subquery that names a column with the qualifier of a table of
 * the outer FROM that no FROM inside the subquery has; an unqualified name may be the subquery's
 * own. A GROUP BY with a subquery, an ordinal or ALL in it may hold this one, and is left out.
 */
final class GroupedSubqueries {

  /** The subquery, and the first column of the outer query it reads. */
  record Found(SqlSelect subquery, SqlIdentifier outer) {}

  /** Calls whose subquery is no scalar one (its errors are others). */
  private static final Set<SqlKind> NOT_SCALAR =
      Set.of(
          SqlKind.IN,
          SqlKind.NOT_IN,
          SqlKind.EXISTS,
          SqlKind.SOME,
          SqlKind.ALL,
          SqlKind.UNIQUE,
          SqlKind.ARRAY_QUERY_CONSTRUCTOR,
          SqlKind.MAP_QUERY_CONSTRUCTOR,
          SqlKind.MULTISET_QUERY_CONSTRUCTOR,
          SqlKind.LAMBDA,
          SqlKind.OVER);

  private GroupedSubqueries() {}

  static List<Found> of(SqlSelect select) {
    List<Found> found = new ArrayList<>();
    if (!grouped(select)) {
      return found;
    }
    Set<String> outer = new HashSet<>();
    qualifiers(select.getFrom(), outer);
    if (outer.isEmpty()) {
      return found;
    }
    // GROUP BY nm, where nm is the subquery's alias, groups by the subquery itself (found by QA:
    // Spark 4.1.1 runs it).
    Set<String> groupNames = new HashSet<>();
    if (select.getGroup() != null) {
      select
          .getGroup()
          .accept(
              new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlIdentifier id) {
                  if (id.isSimple()) {
                    groupNames.add(id.getSimple().toLowerCase(java.util.Locale.ROOT));
                  }
                  return null;
                }
              });
    }
    for (SqlNode item : select.getSelectList()) {
      boolean aliased = item instanceof SqlCall as && as.getKind() == SqlKind.AS;
      if (aliased
          && ((SqlCall) item).operand(1) instanceof SqlIdentifier alias
          && groupNames.contains(alias.getSimple().toLowerCase(java.util.Locale.ROOT))) {
        continue;
      }
      SqlNode expr = aliased ? ((SqlCall) item).operand(0) : item;
      scalarSubqueries(expr, outer, found);
    }
    return found;
  }

  private static boolean grouped(SqlSelect select) {
    SqlNodeList group = select.getGroup();
    if (group == null) {
      return select.getSelectList().stream()
          .anyMatch(item -> MisplacedCalls.aggregate(item).isPresent());
    }
    for (SqlNode item : group) {
      if ((item instanceof SqlNodeList list && list.isEmpty())
          || (item instanceof SqlCall call && call.operandCount() == 0)
          || holdsQueryOrOrdinal(item)) {
        return false; // GROUP BY ALL (the rewriter's "()"), a subquery, an ordinal
      }
    }
    return true;
  }

  private static boolean holdsQueryOrOrdinal(SqlNode node) {
    if (node == null) {
      return false;
    }
    if (TableExtractor.isQuery(node)) {
      return true;
    }
    if (node instanceof SqlLiteral literal) {
      return literal.getTypeName().getFamily() == SqlTypeFamily.NUMERIC;
    }
    if (node instanceof SqlCall call) {
      return call.getOperandList().stream().anyMatch(GroupedSubqueries::holdsQueryOrOrdinal);
    }
    return false;
  }

  /** The scalar subqueries of {@code node} outside aggregates that read {@code outer}'s columns. */
  private static void scalarSubqueries(SqlNode node, Set<String> outer, List<Found> found) {
    SqlNode query = node instanceof SqlOrderBy orderBy ? orderBy.query : node;
    if (query instanceof SqlSelect sub) {
      outerColumn(sub, outer).ifPresent(id -> found.add(new Found(sub, id)));
      return;
    }
    if (!(node instanceof SqlCall call)
        || TableExtractor.isQuery(call)
        || NOT_SCALAR.contains(call.getKind())
        || MisplacedCalls.aggregate(call).filter(a -> a == call).isPresent()) {
      return;
    }
    for (SqlNode operand : call.getOperandList()) {
      scalarSubqueries(operand, outer, found);
    }
  }

  /** The first qualified column of {@code sub} whose qualifier only the outer FROM has. */
  private static Optional<SqlIdentifier> outerColumn(SqlSelect sub, Set<String> outer) {
    Set<String> inner = new HashSet<>();
    List<SqlIdentifier> qualified = new ArrayList<>();
    sub.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (call instanceof SqlSelect s) {
              qualifiers(s.getFrom(), inner);
            }
            // max(t.x) of the outer t is the outer query's aggregate, and t.x + u.y inside one
            // another error: neither is read here.
            if (MisplacedCalls.aggregate(call).filter(a -> a == call).isPresent()) {
              return null;
            }
            return super.visit(call);
          }

          @Override
          public Void visit(SqlIdentifier id) {
            if (id.names.size() == 2 && !id.isStar()) {
              qualified.add(id);
            }
            return null;
          }
        });
    return qualified.stream()
        .filter(
            id -> {
              String q = id.names.get(0).toLowerCase(Locale.ROOT);
              return outer.contains(q) && !inner.contains(q);
            })
        .findFirst();
  }

  /** The names a FROM gives its tables' columns: an alias, else a table's last name part. */
  private static void qualifiers(SqlNode from, Set<String> out) {
    if (from instanceof SqlIdentifier id && !id.isStar()) {
      out.add(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT));
    } else if (from instanceof SqlJoin join) {
      qualifiers(join.getLeft(), out);
      qualifiers(join.getRight(), out);
    } else if (from instanceof SqlBasicCall call
        && call.getKind() == SqlKind.AS
        && call.operand(1) instanceof SqlIdentifier alias) {
      out.add(alias.getSimple().toLowerCase(Locale.ROOT));
    }
  }
}
