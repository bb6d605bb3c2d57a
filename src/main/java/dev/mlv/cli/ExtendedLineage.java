package dev.mlv.cli;

import dev.mlv.target.Target;
import java.util.List;
import java.util.UUID;

/**
 * {@code refresh --extended-lineage / --upstream-lakehouse}: hands the upstream lakehouses to the
 * target, which refuses when its refresh cannot reach them (the local target).
 */
final class ExtendedLineage {
  private ExtendedLineage() {}

  static void request(Target target, boolean flag, List<UUID> lakehouses) {
    List<UUID> named = lakehouses == null ? List.of() : List.copyOf(lakehouses);
    if (flag || !named.isEmpty()) {
      target.extendedLineage(named);
    }
  }
}
