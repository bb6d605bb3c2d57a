package dev.mlv.sql;

/**
 * A construct a SELECT uses that matters for deciding how a view can be refreshed: joins,
 * aggregation, set operations, non-deterministic or stateful reads. Each constant is set only when
 * the query text contains the construct, never inferred.
 */
public enum QueryFeature {
  /** {@code VERSION AS OF}, {@code TIMESTAMP AS OF}, {@code FOR SYSTEM_TIME AS OF}. */
  TIME_TRAVEL,
  /** A function call with an {@code OVER} clause. */
  WINDOW_FUNCTION,
  /** {@code SELECT DISTINCT} or an aggregate over {@code DISTINCT} arguments. */
  DISTINCT,
  /**
   * {@code JOIN}, {@code INNER JOIN}, {@code NATURAL JOIN} and a comma between FROM items (Spark
   * reads all of them as an inner join, with a condition or without).
   */
  INNER_JOIN,
  LEFT_OUTER_JOIN,
  RIGHT_OUTER_JOIN,
  FULL_OUTER_JOIN,
  LEFT_SEMI_JOIN,
  LEFT_ANTI_JOIN,
  /** An explicit {@code CROSS JOIN}. */
  CROSS_JOIN,
  UNION_ALL,
  /** {@code UNION} and {@code UNION DISTINCT}. */
  UNION_DISTINCT,
  /** {@code INTERSECT}, {@code EXCEPT} and {@code MINUS}, with or without {@code ALL}. */
  INTERSECT_EXCEPT,
  /** An explicit {@code GROUP BY} (including {@code GROUP BY ALL}, ROLLUP, CUBE, SETS). */
  GROUP_BY,
  /**
   * Hive's {@code GROUP BY ... WITH ROLLUP} or {@code WITH CUBE}, which the rewriter blanks; {@code
   * ROLLUP (..)}, {@code CUBE (..)} and {@code GROUPING SETS} stay in Calcite's tree instead.
   */
  GROUPING_SETS,
  /** {@code EXISTS (SELECT ..)}, {@code IN (SELECT ..)} or a scalar subquery. */
  SUBQUERY_EXPRESSION,
  /** {@code LATERAL VIEW [OUTER] generator(..)}. */
  LATERAL_VIEW,
  /** A table read by path ({@code delta.`/path`}); such a read is not a table dependency. */
  PATH_TABLE,
  /** {@code ORDER BY} of a query (not inside a window specification). */
  ORDER_BY,
  /** {@code LIMIT}, {@code OFFSET} or {@code FETCH}. */
  LIMIT,
  /** {@code TABLESAMPLE}: the result depends on sampling, not only on the input. */
  TABLE_SAMPLE,
  /** Spark's {@code CLUSTER BY}, {@code DISTRIBUTE BY} or {@code SORT BY}. */
  DISTRIBUTE_OR_SORT_BY,
  /** A table-valued function in FROM ({@code range(3)}, {@code explode(..)}, ...). */
  TABLE_FUNCTION
}
