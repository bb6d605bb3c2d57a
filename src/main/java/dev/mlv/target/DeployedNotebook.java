package dev.mlv.target;

import dev.mlv.lineage.ObjectId;
import java.util.Map;

/**
 * A notebook item mlv deployed for one source file: its id and name, the file it came from, and the
 * PySpark views its deployed content defines, each with its fingerprint and code as read back.
 */
public record DeployedNotebook(
    String id,
    String displayName,
    String source,
    Map<ObjectId, String> fingerprints,
    Map<ObjectId, String> definitions) {

  public DeployedNotebook {
    fingerprints = Map.copyOf(fingerprints);
    definitions = Map.copyOf(definitions);
  }
}
