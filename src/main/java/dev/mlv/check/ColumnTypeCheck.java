package dev.mlv.check;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.sql.CertainTypes;
import dev.mlv.sql.OutputNames;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.QueryFeature;
import dev.mlv.sql.ViewDefinition;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * COLUMN_TYPE: a column of a type the view's Delta table cannot hold (an interval, TIME, a NULL
 * without a type), found where the SELECT item's text alone fixes its type. Without it the view
 * passed validate and apply failed (DELTA_UNSUPPORTED_DATA_TYPES, UNSUPPORTED_TIME_TYPE), or, for
 * {@code NULL AS x}, created a table whose column x no query can read. A collated string ({@code x
 * COLLATE UTF8_LCASE}) Delta 4.2 refuses to write in this setup.
 */
final class ColumnTypeCheck {
  /** A set operation's column has the type of all its branches, which the first does not fix. */
  private static final Set<QueryFeature> SET_OPERATIONS =
      Set.of(QueryFeature.UNION_ALL, QueryFeature.UNION_DISTINCT, QueryFeature.INTERSECT_EXCEPT);

  private ColumnTypeCheck() {}

  static void check(ViewDefinition d, QueryFacts facts, List<Diagnostic> out) {
    if (facts.columns().isEmpty() || facts.features().stream().anyMatch(SET_OPERATIONS::contains)) {
      return;
    }
    for (OutputNames.OutputName c : facts.columns().get().names()) {
      Optional<CertainTypes.Unstorable> found = CertainTypes.of(c.text(), c.name());
      found.ifPresent(u -> out.add(diagnostic(d, c, u)));
    }
  }

  private static Diagnostic diagnostic(
      ViewDefinition d, OutputNames.OutputName c, CertainTypes.Unstorable u) {
    Position at = c.position();
    String column = c.name() != null ? "column " + c.name() : "the column of " + c.text().strip();
    String is =
        u.nested()
            ? column + " holds " + u.type() + " (at " + u.path() + ")"
            : column + " is of type " + u.type();
    String refused = "Spark would refuse " + d.name().text() + " when apply or refresh runs it";
    return switch (u.kind()) {
      case INTERVAL ->
          Diagnostic.error(
              "COLUMN_TYPE",
              at,
              is
                  + ", which a Delta table cannot store: "
                  + refused
                  + " ([DELTA_UNSUPPORTED_DATA_TYPES])",
              u.type().startsWith("INTERVAL YEAR") || u.type().startsWith("INTERVAL MONTH")
                  ? "store a number, the months (months_between(end, start)), or the text:"
                      + " CAST(... AS STRING)"
                  : "store a number, the seconds (unix_timestamp(end) - unix_timestamp(start)) or"
                      + " days (datediff(end, start)), or the text: CAST(... AS STRING)");
      case CALENDAR_INTERVAL ->
          Diagnostic.error(
              "COLUMN_TYPE",
              at,
              is
                  + " (months, days and microseconds), which a Delta table cannot store: "
                  + refused
                  + " (Cannot use \"INTERVAL\" type in the table schema)",
              "store the parts as numbers, or the text: CAST(... AS STRING)");
      case COLLATED ->
          Diagnostic.error(
              "COLUMN_TYPE",
              at,
              is
                  + ", a collated string, which Delta 4.2 does not write here: "
                  + refused
                  + " ([DELTA_UNSUPPORTED_DATA_TYPES])",
              "store the plain string and collate where it is compared (WHERE x COLLATE"
                  + " UTF8_LCASE = 'a'), or store a normalised copy: lower(x)");
      case TIME ->
          Diagnostic.error(
              "COLUMN_TYPE",
              at,
              is + ", which Spark 4.1 does not support: " + refused + " ([UNSUPPORTED_TIME_TYPE])",
              "store the time of day as a STRING (date_format(ts, 'HH:mm:ss')) or as a number of"
                  + " seconds since midnight");
      case VOID ->
          u.nested()
              ? Diagnostic.error(
                  "COLUMN_TYPE",
                  at,
                  column
                      + " holds NULL without a type (VOID, at "
                      + u.path()
                      + "), which Delta cannot store inside an array, map or struct: "
                      + refused,
                  "give it a type: CAST(NULL AS STRING), CAST(array() AS ARRAY<STRING>)")
              : Diagnostic.error(
                  "COLUMN_TYPE",
                  at,
                  column
                      + " is NULL without a type (VOID): Delta creates the table, but every query"
                      + " that reads "
                      + (c.name() != null ? c.name() : "it")
                      + ", a * over the view included, fails"
                      + " ([INTERNAL_ERROR_ATTRIBUTE_NOT_FOUND])",
                  "give it the type it should have: CAST(NULL AS STRING)"
                      + (c.name() != null ? " AS " + c.name() : ""));
    };
  }
}
