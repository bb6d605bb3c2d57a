package dev.mlv.project;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A view's data-quality settings as written in {@code defaults:} or one {@code view_config:} entry:
 * whether dropped rows are kept in a quarantine table, and the quality gates that fail {@code mlv
 * refresh} when a view drops too many rows. Absent fields are empty so an override merges over the
 * defaults; an unset gate is no gate.
 */
public record QualitySettings(
    Optional<Boolean> quarantine, OptionalLong maxDroppedRows, OptionalDouble maxDroppedRatio) {

  public static final QualitySettings NONE =
      new QualitySettings(Optional.empty(), OptionalLong.empty(), OptionalDouble.empty());

  /** These settings with every field {@code override} sets replacing ours. */
  public QualitySettings overriddenBy(QualitySettings override) {
    return new QualitySettings(
        override.quarantine.or(() -> quarantine),
        override.maxDroppedRows.isPresent() ? override.maxDroppedRows : maxDroppedRows,
        override.maxDroppedRatio.isPresent() ? override.maxDroppedRatio : maxDroppedRatio);
  }

  /** Quarantine is off unless asked for. */
  public boolean quarantineOn() {
    return quarantine.orElse(false);
  }
}
