package dev.mlv.lineage;

import dev.mlv.sql.Name;
import java.util.Map;

/**
 * Turns 1-4 part names into fully qualified ids with the project's defaults, the same way Fabric
 * resolves them in a notebook attached to the default lakehouse: {@code t} is in the default
 * schema, {@code s.t} in the default lakehouse, {@code lh.s.t} in the workspace that lakehouse
 * belongs to (declared under {@code lakehouses:}, else the default workspace).
 */
public record NameResolver(
    String workspace, String lakehouse, String schema, Map<String, String> lakehouseWorkspaces) {

  public NameResolver {
    lakehouseWorkspaces = Map.copyOf(lakehouseWorkspaces);
  }

  public ObjectId resolve(Name name) {
    var p = name.parts();
    return switch (p.size()) {
      case 1 -> new ObjectId(workspace, lakehouse, schema, p.get(0));
      case 2 -> new ObjectId(workspace, lakehouse, p.get(0), p.get(1));
      case 3 -> new ObjectId(workspaceOf(p.get(0)), p.get(0), p.get(1), p.get(2));
      case 4 -> new ObjectId(p.get(0), p.get(1), p.get(2), p.get(3));
      default -> throw new IllegalArgumentException("a name has 1 to 4 parts: " + name.text());
    };
  }

  public String workspaceOf(String lh) {
    return lakehouseWorkspaces.getOrDefault(lh, workspace);
  }

  /** The shortest name that resolves back to {@code id}, for messages and output. */
  public String display(ObjectId id) {
    if (!id.workspace().equals(workspaceOf(id.lakehouse()))) {
      return id.toString();
    }
    if (!id.lakehouse().equals(lakehouse)) {
      return id.lakehouse() + "." + id.schema() + "." + id.name();
    }
    return id.schema() + "." + id.name();
  }
}
