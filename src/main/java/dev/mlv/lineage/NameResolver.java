package dev.mlv.lineage;

import dev.mlv.sql.Name;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns 1-4 part names into fully qualified ids with the project's defaults, the same way Fabric
 * resolves them in a notebook attached to the default lakehouse: {@code t} is in the default
 * schema, {@code s.t} in the default lakehouse, {@code lh.s.t} in the workspace that lakehouse
 * belongs to (declared under {@code lakehouses:}, else the default workspace). Its parts are kept
 * lower case, like the ids it makes.
 */
public record NameResolver(
    String workspace, String lakehouse, String schema, Map<String, String> lakehouseWorkspaces) {

  public NameResolver {
    // Ids are lower case (names are case-insensitive), so the defaults they are compared with
    // must be too: 'Contoso' written in mlv.yml is the workspace of contoso.lh.s.t.
    workspace = workspace.toLowerCase(Locale.ROOT);
    lakehouse = lakehouse.toLowerCase(Locale.ROOT);
    schema = schema.toLowerCase(Locale.ROOT);
    Map<String, String> lower = new HashMap<>();
    lakehouseWorkspaces.forEach(
        (lh, ws) -> lower.put(lh.toLowerCase(Locale.ROOT), ws.toLowerCase(Locale.ROOT)));
    lakehouseWorkspaces = Map.copyOf(lower);
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
    return lakehouseWorkspaces.getOrDefault(lh.toLowerCase(Locale.ROOT), workspace);
  }

  /**
   * The shortest name that resolves back to {@code id}, for messages and output, with each part
   * quoted only when a selector would misread it: {@code silver.`clean orders`}. Every name mlv
   * shows can so be pasted back as a selector or into SQL (found by QA: plan, run reports and "did
   * you mean" printed {@code gold.my view} where lineage printed {@code gold.`my view`}).
   */
  public String display(ObjectId id) {
    return shortest(id).stream().map(Name::quote).collect(Collectors.joining("."));
  }

  private List<String> shortest(ObjectId id) {
    List<String> parts = id.parts();
    if (!id.workspace().equals(workspaceOf(id.lakehouse()))) {
      return parts;
    }
    return parts.subList(id.lakehouse().equals(lakehouse) ? 2 : 1, 4);
  }
}
