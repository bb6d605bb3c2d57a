package dev.mlv.project;

import dev.mlv.lineage.ObjectId;
import java.util.Locale;

/**
 * The table names mlv keeps for its own bookkeeping in a lakehouse: the run history's schema and
 * each view's quarantine table. Neither a view nor a source may take one (a seeded source would
 * replace the table mlv reads back), which validate says before any target refuses it.
 */
public final class ReservedNames {
  private ReservedNames() {}

  /** The schema of the run history ({@code mlv_history.runs}). */
  public static final String HISTORY_SCHEMA = "mlv_history";

  /** The suffix of a view's quarantine table ({@code silver.orders__quarantine}). */
  public static final String QUARANTINE_SUFFIX = "__quarantine";

  public static boolean isQuarantine(ObjectId table) {
    return table.name().toLowerCase(Locale.ROOT).endsWith(QUARANTINE_SUFFIX);
  }

  public static boolean isReserved(ObjectId table) {
    return table.schema().equals(HISTORY_SCHEMA) || isQuarantine(table);
  }

  /** What is reserved, for the RESERVED_NAME message of a view and of a source alike. */
  public static String described() {
    return "the schema " + HISTORY_SCHEMA + " and names ending in " + QUARANTINE_SUFFIX;
  }
}
