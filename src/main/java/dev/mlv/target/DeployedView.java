package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A view as the target has it: the CREATE statement it was made from, that definition's
 * fingerprint, whether mlv created it (only those are ever dropped), the table version, the source
 * versions its last refresh consumed and the Delta table ids of those sources it recorded (none for
 * state written before ids were kept, or by a target that does not record them), and the ids of the
 * commits at those versions ({@code txnId}) it recorded.
 */
public record DeployedView(
    ObjectId id,
    String definition,
    String fingerprint,
    boolean managed,
    long version,
    Instant lastModified,
    Map<ObjectId, Long> sourceVersions,
    Map<ObjectId, String> sourceTableIds,
    Map<ObjectId, String> sourceCommits,
    Optional<Instant> lastRefresh) {

  public DeployedView {
    sourceVersions = Map.copyOf(sourceVersions);
    sourceTableIds = Map.copyOf(sourceTableIds);
    sourceCommits = Map.copyOf(sourceCommits);
  }

  /** A view whose sources' table ids are not known. */
  public DeployedView(
      ObjectId id,
      String definition,
      String fingerprint,
      boolean managed,
      long version,
      Instant lastModified,
      Map<ObjectId, Long> sourceVersions,
      Optional<Instant> lastRefresh) {
    this(
        id,
        definition,
        fingerprint,
        managed,
        version,
        lastModified,
        sourceVersions,
        Map.of(),
        Map.of(),
        lastRefresh);
  }
}
