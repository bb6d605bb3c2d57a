package dev.mlv.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.analysis.RelationTimeTravel;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedWith;
import org.apache.spark.sql.execution.SparkSqlParser;
import scala.Tuple3;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The oracle the corpus tests compare against: Spark's own parser, read independently of mlv's
 * fallback code, the way EXPECTED.tsv was made (unresolved relations minus every CTE name of the
 * statement, dotted and lower-cased; file-format path reads left out; the relation under a
 * time-travel node counted, which Spark keeps as a field, not a child).
 */
final class SparkLineage {
  private static final SparkSqlParser PARSER = new SparkSqlParser();

  private SparkLineage() {}

  static Set<String> tables(String sql) {
    List<List<String>> relations = new ArrayList<>();
    Set<String> ctes = new HashSet<>();
    walk(PARSER.parsePlan(sql), relations, ctes);
    Set<String> tables = new TreeSet<>();
    for (List<String> parts : relations) {
      if (parts.size() == 1 && ctes.contains(parts.get(0))) {
        continue;
      }
      if (TableExtractor.isPathTable(parts)) {
        continue;
      }
      tables.add(String.join(".", parts));
    }
    return tables;
  }

  private static void walk(LogicalPlan plan, List<List<String>> relations, Set<String> ctes) {
    if (plan instanceof UnresolvedRelation relation) {
      relations.add(
          CollectionConverters.asJava(relation.multipartIdentifier()).stream()
              .map(p -> p.toLowerCase(Locale.ROOT))
              .toList());
    }
    if (plan instanceof RelationTimeTravel travel) {
      // A leaf whose relation is a field, not a child.
      walk(travel.relation(), relations, ctes);
    }
    if (plan instanceof UnresolvedWith with) {
      for (Tuple3<String, ?, ?> cte : CollectionConverters.asJava(with.cteRelations())) {
        ctes.add(cte._1().toLowerCase(Locale.ROOT));
        walk((LogicalPlan) cte._2(), relations, ctes);
      }
    }
    for (Expression e : CollectionConverters.asJava(plan.expressions())) {
      walkExpression(e, relations, ctes);
    }
    for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
      walk(child, relations, ctes);
    }
  }

  private static void walkExpression(
      Expression expression, List<List<String>> relations, Set<String> ctes) {
    if (expression instanceof SubqueryExpression subquery) {
      walk(subquery.plan(), relations, ctes);
    }
    for (Expression child : CollectionConverters.asJava(expression.children())) {
      walkExpression(child, relations, ctes);
    }
  }
}
