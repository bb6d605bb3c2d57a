package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.target.Target;
import dev.mlv.target.fabric.FabricWorkspaceTarget;
import java.util.List;
import java.util.UUID;

/**
 * {@code refresh --extended-lineage / --upstream-lakehouse}: hands the upstream lakehouses to a
 * Fabric target. The local target refuses it: it would refresh only the project's views, and a
 * silent narrower refresh is worse than an error.
 */
final class ExtendedLineage {
  private ExtendedLineage() {}

  static void request(Target target, boolean flag, List<UUID> lakehouses) {
    List<UUID> named = lakehouses == null ? List.of() : List.copyOf(lakehouses);
    if (!flag && named.isEmpty()) {
      return;
    }
    if (target instanceof FabricWorkspaceTarget fabric) {
      fabric.extendedLineage(named);
      return;
    }
    throw new MlvException(
        "EXTENDED_LINEAGE_LOCAL",
        "--extended-lineage and --upstream-lakehouse work only on a Fabric target: target '"
            + target.name()
            + "' is local and refreshes just the project's own views; run without them, or with"
            + " -t <fabric target>");
  }
}
