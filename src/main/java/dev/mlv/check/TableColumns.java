package dev.mlv.check;

import dev.mlv.lineage.ObjectId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The columns of tables that a target holds and the project does not define (its sources), as the
 * target read them, so that the column rules reach a view's reads of them: {@code target} names the
 * target in messages. A table missing here has columns that are not known. {@code structs}: the
 * field names of a table's struct columns (and arrays of structs), by column, and of the structs
 * within them, by path ({@link #structKey}); a column missing there is no struct, or its fields are
 * not known.
 */
public record TableColumns(
    String target,
    Map<ObjectId, List<String>> tables,
    Map<ObjectId, Map<String, List<String>>> structs) {
  public static final TableColumns NONE = new TableColumns("", Map.of(), Map.of());

  public TableColumns {
    tables = Map.copyOf(tables);
    structs = Map.copyOf(structs);
  }

  public TableColumns(String target, Map<ObjectId, List<String>> tables) {
    this(target, tables, Map.of());
  }

  /**
   * The columns (and struct fields) a target read, of the tables the project reads and does not
   * define: what the column rules may check the project's views against.
   */
  public static TableColumns sources(
      dev.mlv.project.Project project,
      String target,
      Map<ObjectId, List<String>> columns,
      Map<ObjectId, Map<String, List<String>>> structs) {
    Map<ObjectId, List<String>> read = new java.util.HashMap<>();
    columns.forEach(
        (id, names) -> {
          dev.mlv.lineage.Node n = project.lineage().node(id);
          if (n != null
              && n.kind() == dev.mlv.lineage.NodeKind.TABLE
              && !project.views().containsKey(id)) {
            read.put(id, names);
          }
        });
    Map<ObjectId, Map<String, List<String>>> fields = new java.util.HashMap<>();
    structs.forEach(
        (id, f) -> {
          if (read.containsKey(id)) {
            fields.put(id, f);
          }
        });
    return new TableColumns(target, read, fields);
  }

  /**
   * The key of the struct at {@code path} (a column, then fields) among a table's structs: the
   * names joined by U+001F, a control character no column name holds, so a name with a dot stays
   * one. Here, where the column rules read it; targets write it.
   */
  public static String structKey(List<String> path) {
    return String.join("\u001f", path);
  }

  /** The path a {@link #structKey} was made of. */
  static List<String> structPath(String key) {
    return List.of(key.split("\u001f", -1));
  }

  Optional<List<String>> of(ObjectId id) {
    return Optional.ofNullable(tables.get(id));
  }

  /**
   * The fields of the struct at {@code path} of table {@code id}: a column, then the fields that
   * lead to a struct inside it (matched without case, as Spark matches them).
   */
  Optional<List<String>> fields(ObjectId id, List<String> path) {
    Map<String, List<String>> columns = structs.getOrDefault(id, Map.of());
    for (Map.Entry<String, List<String>> e : columns.entrySet()) {
      List<String> at = structPath(e.getKey());
      if (at.size() == path.size()
          && java.util.stream.IntStream.range(0, at.size())
              .allMatch(i -> at.get(i).equalsIgnoreCase(path.get(i)))) {
        return Optional.of(e.getValue());
      }
    }
    return Optional.empty();
  }
}
