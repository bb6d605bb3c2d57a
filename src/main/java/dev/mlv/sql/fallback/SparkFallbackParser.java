package dev.mlv.sql.fallback;

import dev.mlv.diag.EngineMessage;
import dev.mlv.diag.Position;
import dev.mlv.logging.QuietLogging;
import dev.mlv.sql.Name;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.QueryFeature;
import dev.mlv.sql.TableExtractor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.QueryContext;
import org.apache.spark.QueryContextType;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.catalyst.analysis.RelationTimeTravel;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.analysis.UnresolvedGenerator;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.expressions.UnresolvedWindowExpression;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Except;
import org.apache.spark.sql.catalyst.plans.logical.Generate;
import org.apache.spark.sql.catalyst.plans.logical.GlobalLimit;
import org.apache.spark.sql.catalyst.plans.logical.Intersect;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LocalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Offset;
import org.apache.spark.sql.catalyst.plans.logical.RepartitionByExpression;
import org.apache.spark.sql.catalyst.plans.logical.Sample;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedWith;
import org.apache.spark.sql.catalyst.trees.Origin;
import org.apache.spark.sql.execution.SparkSqlParser;
import scala.Tuple3;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The one place outside the local target that touches Spark: reads a SELECT with Spark's own parser
 * when Calcite cannot, and reports what it found in mlv's terms. {@code SparkSqlParser} rather than
 * {@code CatalystSqlParser}, since only the former accepts {@code DISTRIBUTE BY}. Loading this
 * class loads Spark's parser (2-4 s, ~100 MB of jars), so callers reach it lazily.
 */
public final class SparkFallbackParser {
  static {
    // Before any Spark class logs: keeps validate's output free of Spark's log banner.
    QuietLogging.apply(QuietLogging.debugRequested());
  }

  private final SparkSqlParser parser = new SparkSqlParser();

  /** The facts of {@code sql}, or empty when Spark's parser rejects it too. */
  public Optional<QueryFacts> parse(String sql, Position start) {
    return read(sql, start).facts();
  }

  /**
   * What Spark's parser made of {@code sql}: its facts, or why it refused it, for the caller that
   * has no better account of the refusal (Calcite gave up without a position).
   */
  public Outcome read(String sql, Position start) {
    LogicalPlan plan;
    try {
      plan = parser.parsePlan(sql);
    } catch (Exception e) {
      // Scala declares no checked exceptions; a syntax error surfaces as ParseException, a text
      // the parser's AST builder refuses as any other exception of Spark's (a checked
      // SparkException for an unknown collation name, COLLATION_INVALID_NAME).
      Refusal refusal =
          e instanceof ParseException refused
              ? refusal(sql, start, refused)
              : builderRefusal(sql, start, e);
      return new Outcome(Optional.empty(), Optional.of(refusal), Set.of());
    }
    Walk walk = new Walk(sql, start);
    walk.plan(plan, Set.of());
    return new Outcome(Optional.of(walk.facts()), Optional.empty(), Set.copyOf(walk.aliasEnds));
  }

  /**
   * Spark's parser's verdict: the facts when it reads the text, else its refusal. {@code aliasEnds}
   * are the offsets just past each alias Spark gave a table, subquery or CTE, for the caller to
   * tell a clause word read as an alias ({@code FROM t WHERE}).
   */
  public record Outcome(
      Optional<QueryFacts> facts, Optional<Refusal> refusal, Set<Integer> aliasEnds) {}

  /**
   * Why Spark's parser refused a text. {@code tooComplex} is Spark's FAILED_TO_PARSE_TOO_COMPLEX:
   * its parser ran out of stack, so the text is not wrong, only beyond it. {@code near} is the
   * token a syntax error is at, when Spark names one. {@code message} is Spark's own message, as
   * one paragraph, when it refused the text for something other than its syntax.
   */
  public record Refusal(
      boolean tooComplex, Position at, Optional<String> near, Optional<String> message) {}

  /** Offset of a line and column of Spark's ANTLR lexer, which ends a line at a line feed only. */
  private static int antlrOffset(String sql, int line, int column) {
    int offset = 0;
    for (int l = 1; l < line && offset < sql.length(); offset++) {
      if (sql.charAt(offset) == '\n') {
        l++;
      }
    }
    return Position.afterCodePoints(sql, offset, column - 1); // ANTLR counts code points
  }

  private static Refusal refusal(String sql, Position start, ParseException e) {
    Position at = start;
    if (e.line().isDefined() && e.startPosition().isDefined()) {
      int line = (Integer) e.line().get();
      int column = (Integer) e.startPosition().get() + 1; // Spark counts from 0
      at = start.advance(sql, antlrOffset(sql, line, column));
    }
    String near = e.getMessageParameters().get("error");
    return new Refusal(
        "FAILED_TO_PARSE_TOO_COMPLEX".equals(e.getErrorClass()),
        at,
        Optional.ofNullable(near).filter(n -> !n.isBlank()),
        Optional.empty());
  }

  /**
   * A refusal that is not a syntax error, raised while Spark builds the plan from the parse tree:
   * placed at its query context when it has one, else at the first word of the text that is one of
   * its message's parameters (the unknown collation name), else at the start.
   */
  private static Refusal builderRefusal(String sql, Position start, Exception e) {
    Position at = start;
    String message = e.getMessage();
    if (e instanceof SparkThrowable spark) {
      Optional<Integer> offset = queryContext(sql, spark).or(() -> parameterWord(sql, spark));
      at = offset.map(o -> start.advance(sql, o)).orElse(start);
    }
    String text =
        message == null || message.isBlank()
            ? e.getClass().getSimpleName()
            : EngineMessage.explanation(message);
    return new Refusal(false, at, Optional.empty(), Optional.of(placeless(text)));
  }

  /**
   * Spark 4.1.1 raises a syntax error in a variant path's bracketed key (v:["k"], v:[''],
   * v:['it''s']) with an empty template, so its text is an internal error about the template: said
   * here as the syntax error it is. Any other message is returned as it is.
   */
  public static String placeless(String message) {
    if (message != null
        && message.contains("Undefined error message parameter")
        && message.contains("PARSE_SYNTAX_ERROR")) {
      return "[PARSE_SYNTAX_ERROR] Spark's parser refuses the statement without saying where; a"
          + " variant path's bracketed key must be a non-empty single-quoted string with no quote"
          + " in it (v:['a b']) or a number";
    }
    return message;
  }

  private static Optional<Integer> queryContext(String sql, SparkThrowable e) {
    for (QueryContext c : e.getQueryContext()) {
      if (c.contextType() == QueryContextType.SQL
          && c.startIndex() >= 0
          && c.startIndex() < sql.codePointCount(0, sql.length())) {
        return Optional.of(Position.afterCodePoints(sql, 0, c.startIndex()));
      }
    }
    return Optional.empty();
  }

  private static Optional<Integer> parameterWord(String sql, SparkThrowable e) {
    int best = -1;
    for (String value : e.getMessageParameters().values()) {
      if (value == null || !value.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        continue;
      }
      Matcher m =
          Pattern.compile(
                  "(?<![A-Za-z0-9_])" + Pattern.quote(value) + "(?![A-Za-z0-9_])",
                  Pattern.CASE_INSENSITIVE)
              .matcher(sql);
      if (m.find() && (best < 0 || m.start() < best)) {
        best = m.start();
      }
    }
    return best < 0 ? Optional.empty() : Optional.of(best);
  }

  /** One walk over one plan; CTE names are scoped as Spark scopes them. */
  private static final class Walk {
    private final String sql;
    private final Position start;
    private final List<Ref> refs = new ArrayList<>();
    private final Set<String> functions = new TreeSet<>();
    private final Set<QueryFeature> features = EnumSet.noneOf(QueryFeature.class);
    private final Set<LogicalPlan> distinctUnions =
        Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Integer> aliasEnds = new HashSet<>();

    Walk(String sql, Position start) {
      this.sql = sql;
      this.start = start;
    }

    private record Ref(int offset, Name name) {}

    QueryFacts facts() {
      Map<List<String>, Name> distinct = new LinkedHashMap<>();
      refs.stream()
          .sorted(Comparator.comparingInt(Ref::offset))
          .forEach(ref -> distinct.putIfAbsent(ref.name().parts(), ref.name()));
      return new QueryFacts(List.copyOf(distinct.values()), functions, features, true, List.of());
    }

    void plan(LogicalPlan plan, Set<String> ctes) {
      if (plan instanceof UnresolvedWith with) {
        Set<String> scope = new HashSet<>(ctes);
        for (Tuple3<String, ?, ?> cte : CollectionConverters.asJava(with.cteRelations())) {
          String name = cte._1().toLowerCase(Locale.ROOT);
          if (with.allowRecursion()) {
            scope.add(name);
          }
          plan((LogicalPlan) cte._2(), Set.copyOf(scope));
          scope.add(name);
        }
        plan(with.child(), Set.copyOf(scope));
        return;
      }
      if (plan instanceof UnresolvedRelation relation) {
        relation(relation, ctes);
      }
      if (plan instanceof SubqueryAlias alias) {
        // Its origin runs from the relation to the last character of the alias.
        int stop = intOf(alias.origin().stopIndex());
        if (stop >= 0) {
          aliasEnds.add(stop + 1);
        }
      }
      if (plan instanceof RelationTimeTravel travel) {
        // A leaf whose relation is a field, not a child.
        plan(travel.relation(), ctes);
      }
      feature(plan);
      for (Expression expression : CollectionConverters.asJava(plan.expressions())) {
        expression(expression, ctes);
      }
      for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
        plan(child, ctes);
      }
    }

    private void relation(UnresolvedRelation relation, Set<String> ctes) {
      List<String> written = CollectionConverters.asJava(relation.multipartIdentifier());
      List<String> parts = written.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
      if (parts.size() == 1 && ctes.contains(parts.get(0))) {
        return;
      }
      if (TableExtractor.isPathTable(parts)) {
        features.add(QueryFeature.PATH_TABLE);
        return;
      }
      Origin origin = relation.origin();
      // ANTLR's indexes count code points; the text's offsets count UTF-16 units.
      int first = intOf(origin.startIndex());
      int last = intOf(origin.stopIndex());
      boolean located = first >= 0 && last >= first && last < sql.codePointCount(0, sql.length());
      int offset = located ? Position.afterCodePoints(sql, 0, first) : -1;
      int stop = located ? Position.afterCodePoints(sql, offset, last - first + 1) - 1 : -1;
      String text = located ? sql.substring(offset, stop + 1) : String.join(".", written);
      Position position = located ? start.advance(sql, offset) : start;
      refs.add(new Ref(located ? offset : Integer.MAX_VALUE, new Name(parts, text, position)));
    }

    private void feature(LogicalPlan plan) {
      if (plan instanceof Join join) {
        String type = join.joinType().sql().replaceFirst("^(NATURAL|USING) ", "");
        switch (type) {
          case "INNER" -> features.add(QueryFeature.INNER_JOIN);
          case "LEFT OUTER" -> features.add(QueryFeature.LEFT_OUTER_JOIN);
          case "RIGHT OUTER" -> features.add(QueryFeature.RIGHT_OUTER_JOIN);
          case "FULL OUTER" -> features.add(QueryFeature.FULL_OUTER_JOIN);
          case "LEFT SEMI" -> features.add(QueryFeature.LEFT_SEMI_JOIN);
          case "LEFT ANTI" -> features.add(QueryFeature.LEFT_ANTI_JOIN);
          case "CROSS" -> features.add(QueryFeature.CROSS_JOIN);
          default -> {
            // Other join types (existence joins, as-of) do not come out of the parser.
          }
        }
      } else if (plan instanceof Distinct distinct) {
        // UNION is parsed as Distinct(Union(..)): that distinct belongs to the set operation.
        if (distinct.child() instanceof Union union) {
          features.add(QueryFeature.UNION_DISTINCT);
          distinctUnions.add(union);
        } else {
          features.add(QueryFeature.DISTINCT);
        }
      } else if (plan instanceof Union union) {
        if (!distinctUnions.contains(union)) {
          features.add(QueryFeature.UNION_ALL);
        }
      } else if (plan instanceof Intersect || plan instanceof Except) {
        features.add(QueryFeature.INTERSECT_EXCEPT);
      } else if (plan instanceof Aggregate aggregate
          && !aggregate.groupingExpressions().isEmpty()) {
        features.add(QueryFeature.GROUP_BY);
      } else if (plan instanceof Sort sort) {
        features.add(sort.global() ? QueryFeature.ORDER_BY : QueryFeature.DISTRIBUTE_OR_SORT_BY);
      } else if (plan instanceof RepartitionByExpression) {
        features.add(QueryFeature.DISTRIBUTE_OR_SORT_BY);
      } else if (plan instanceof GlobalLimit
          || plan instanceof LocalLimit
          || plan instanceof Offset) {
        features.add(QueryFeature.LIMIT);
      } else if (plan instanceof Sample) {
        features.add(QueryFeature.TABLE_SAMPLE);
      } else if (plan instanceof Generate) {
        features.add(QueryFeature.LATERAL_VIEW);
      } else if (plan instanceof RelationTimeTravel) {
        features.add(QueryFeature.TIME_TRAVEL);
      } else if (plan instanceof UnresolvedTableValuedFunction function) {
        features.add(QueryFeature.TABLE_FUNCTION);
        functions.add(lastPart(CollectionConverters.asJava(function.name())));
      }
    }

    private void expression(Expression expression, Set<String> ctes) {
      if (expression instanceof SubqueryExpression subquery) {
        features.add(QueryFeature.SUBQUERY_EXPRESSION);
        plan(subquery.plan(), ctes);
      } else if (expression instanceof UnresolvedFunction function) {
        functions.add(lastPart(CollectionConverters.asJava(function.nameParts())));
        if (function.isDistinct()) {
          features.add(QueryFeature.DISTINCT);
        }
      } else if (expression instanceof UnresolvedGenerator generator) {
        functions.add(generator.name().funcName().toLowerCase(Locale.ROOT));
      } else if (expression instanceof WindowExpression
          || expression instanceof UnresolvedWindowExpression) {
        features.add(QueryFeature.WINDOW_FUNCTION);
      }
      for (Expression child : CollectionConverters.asJava(expression.children())) {
        expression(child, ctes);
      }
    }

    private static String lastPart(List<String> parts) {
      return parts.get(parts.size() - 1).toLowerCase(Locale.ROOT);
    }

    private static int intOf(scala.Option<Object> value) {
      return value.isDefined() ? (Integer) value.get() : -1;
    }
  }
}
