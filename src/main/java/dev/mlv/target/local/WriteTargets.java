package dev.mlv.target.local;

import dev.mlv.diag.Position;
import dev.mlv.sql.Name;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.catalyst.analysis.UnresolvedIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTable;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableOrView;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.AlterTableCommand;
import org.apache.spark.sql.catalyst.plans.logical.DeleteFromTable;
import org.apache.spark.sql.catalyst.plans.logical.DropTable;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.RenameTable;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceTable;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceTableAsSelect;
import org.apache.spark.sql.catalyst.plans.logical.RestoreTableStatement;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.TruncatePartition;
import org.apache.spark.sql.catalyst.plans.logical.TruncateTable;
import org.apache.spark.sql.catalyst.plans.logical.UpdateTable;
import org.apache.spark.sql.catalyst.plans.logical.V2PartitionCommand;
import org.apache.spark.sql.catalyst.trees.Origin;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The tables a statement writes, found in the plan Spark's own parser builds, so that every
 * spelling of a write is seen: {@code WITH ... INSERT}, {@code FROM t INSERT INTO ...} with one or
 * more inserts, {@code INSERT OVERWRITE}, UPDATE, DELETE, MERGE, {@code CREATE OR REPLACE TABLE},
 * TRUNCATE and Delta's RESTORE. A text pattern on the statement's first words missed the first two.
 */
final class WriteTargets {
  private WriteTargets() {}

  /** How a statement changes a table. */
  enum Kind {
    /** Its rows: INSERT, UPDATE, DELETE, MERGE, TRUNCATE, REPLACE, RESTORE. */
    DATA,
    /** Its columns, properties, comment, constraints, partitions or location: ALTER TABLE. */
    SHAPE,
    /** DROP TABLE, which would leave mlv's bookkeeping (quarantine) behind. */
    DROP,
    /** ALTER TABLE ... RENAME TO, which would leave the quarantine under the old name. */
    RENAME
  }

  /** A table a statement changes, and how. */
  record Write(Name table, Kind kind) {
    /** Why a materialized lake view cannot be changed this way, and what to do instead. */
    String refusal(String view) {
      return switch (kind) {
        case DATA ->
            "INSERT, UPDATE, DELETE, MERGE, TRUNCATE, REPLACE and RESTORE cannot write to the"
                + " materialized lake view "
                + view
                + "; its data comes only from its SELECT";
        case SHAPE ->
            "ALTER TABLE cannot change the materialized lake view "
                + view
                + "; its columns and properties come from its definition: change the .sql file"
                + " and apply it";
        case DROP -> "use DROP MATERIALIZED LAKE VIEW " + view + ", not DROP TABLE";
        case RENAME ->
            "use ALTER MATERIALIZED LAKE VIEW " + view + " RENAME TO ..., not ALTER TABLE";
      };
    }
  }

  /**
   * The tables {@code sql} writes, each positioned in the file it came from ({@code start} is where
   * {@code sql} begins); empty when Spark cannot parse it (running it reports the syntax error).
   */
  static List<Write> of(ParserInterface parser, String sql, Position start) {
    LogicalPlan plan;
    try {
      plan = parser.parsePlan(sql);
    } catch (Exception e) { // ParseException: Spark reports it when the statement runs
      return List.of();
    }
    List<Write> out = new ArrayList<>();
    collect(plan, sql, start, out);
    return out;
  }

  private static void collect(LogicalPlan plan, String sql, Position start, List<Write> out) {
    LogicalPlan written = null;
    Kind kind = Kind.DATA;
    if (plan instanceof InsertIntoStatement i) {
      written = i.table();
      collect(i.query(), sql, start, out);
    } else if (plan instanceof UpdateTable u) {
      written = u.table();
    } else if (plan instanceof DeleteFromTable d) {
      written = d.table();
    } else if (plan instanceof MergeIntoTable m) {
      written = m.targetTable();
    } else if (plan instanceof ReplaceTableAsSelect r) {
      written = r.name();
    } else if (plan instanceof ReplaceTable r) {
      written = r.name();
    } else if (plan instanceof TruncateTable t) {
      written = t.table();
    } else if (plan instanceof TruncatePartition t) {
      written = t.table();
    } else if (plan instanceof RestoreTableStatement r) {
      written = r.table().relation(); // Delta's RESTORE TABLE t TO VERSION AS OF n
    } else if (plan instanceof AlterTableCommand a) {
      written = a.table(); // ADD/DROP/RENAME COLUMN, SET/UNSET TBLPROPERTIES, COMMENT ON, ...
      kind = Kind.SHAPE;
    } else if (plan instanceof V2PartitionCommand p) {
      written = p.table();
      kind = Kind.SHAPE;
    } else if (plan instanceof DropTable d) {
      written = d.child();
      kind = Kind.DROP;
    } else if (plan instanceof RenameTable r) {
      written = r.child();
      kind = Kind.RENAME;
    }
    if (written != null) {
      Kind k = kind;
      name(written, sql, start).ifPresent(n -> out.add(new Write(n, k)));
      if (kind != Kind.DATA) {
        return; // a command's child is the table it names, not a query that reads others
      }
    }
    for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
      collect(child, sql, start, out);
    }
  }

  private static java.util.Optional<Name> name(LogicalPlan p, String sql, Position start) {
    while (p instanceof SubqueryAlias a) {
      p = a.child();
    }
    scala.collection.immutable.Seq<String> parts;
    if (p instanceof UnresolvedRelation r) {
      parts = r.multipartIdentifier();
    } else if (p instanceof UnresolvedTable t) {
      parts = t.multipartIdentifier();
    } else if (p instanceof UnresolvedIdentifier i) {
      parts = i.nameParts();
    } else if (p instanceof UnresolvedTableOrView t) {
      parts = t.multipartIdentifier(); // ALTER TABLE ... RENAME TO
    } else {
      return java.util.Optional.empty();
    }
    List<String> written = CollectionConverters.asJava(parts);
    if (written.isEmpty() || written.size() > 4) {
      return java.util.Optional.empty();
    }
    List<String> folded = written.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
    return java.util.Optional.of(
        new Name(folded, String.join(".", written), place(p.origin(), sql, start)));
  }

  /**
   * Spark's origin gives a character offset into the text it parsed or, failing that, a line
   * counted from 1 and a position from 0.
   */
  private static Position place(Origin origin, String sql, Position start) {
    // Spark's parser counts its indexes and positions in code points, Java's strings in UTF-16.
    if (origin.startIndex().isDefined()) {
      return start.advance(
          sql, Position.afterCodePoints(sql, 0, (Integer) origin.startIndex().get()));
    }
    if (origin.line().isEmpty() || origin.startPosition().isEmpty()) {
      return start;
    }
    int line = (Integer) origin.line().get();
    int pos = (Integer) origin.startPosition().get();
    int offset = 0;
    for (int l = 1; l < line; l++) {
      int nl = sql.indexOf('\n', offset);
      if (nl < 0) {
        return start;
      }
      offset = nl + 1;
    }
    return start.advance(sql, Position.afterCodePoints(sql, offset, pos));
  }
}
