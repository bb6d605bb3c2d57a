package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A view as the target has it: the CREATE statement it was made from, that definition's
 * fingerprint, whether mlv created it (only those are ever dropped), the table version and the
 * source versions its last refresh consumed.
 */
public record DeployedView(
    ObjectId id,
    String definition,
    String fingerprint,
    boolean managed,
    long version,
    Instant lastModified,
    Map<ObjectId, Long> sourceVersions,
    Optional<Instant> lastRefresh) {

  public DeployedView {
    sourceVersions = Map.copyOf(sourceVersions);
  }
}
