package dev.mlv.cli;

import dev.mlv.target.Target;
import dev.mlv.target.UpstreamLakehouse;
import java.util.List;

/**
 * {@code refresh --extended-lineage / --upstream-lakehouse}: hands the upstream lakehouses to the
 * target, which refuses when its refresh cannot reach them (the local target).
 */
final class ExtendedLineage {
  private ExtendedLineage() {}

  static void request(Target target, boolean flag, List<UpstreamLakehouse> lakehouses) {
    List<UpstreamLakehouse> named = lakehouses == null ? List.of() : List.copyOf(lakehouses);
    if (flag || !named.isEmpty()) {
      target.extendedLineage(named);
    }
  }
}
