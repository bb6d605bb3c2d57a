package dev.mlv.lineage;

import java.util.Locale;

/** What a lineage node stands for. */
public enum NodeKind {
  /** A materialized lake view defined in the project. */
  VIEW,
  /** A materialized lake view defined in PySpark, with {@code @fmlv.materialized_lake_view}. */
  PYSPARK_VIEW,
  /** A table the project reads but does not define (a declared source, or an unknown one). */
  TABLE,
  /** A OneLake folder ingested by a file view. */
  FILES;

  public String label() {
    return switch (this) {
      case PYSPARK_VIEW -> "pyspark";
      default -> name().toLowerCase(Locale.ROOT);
    };
  }
}
