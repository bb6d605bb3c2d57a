package dev.mlv.target.local;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.engine.Engine;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The column names of local Delta tables, read from their logs with Delta Kernel (no Spark), for
 * completion in the shell. Cached per table folder and version.
 */
final class TableColumns {
  private record Key(Path table, long version) {}

  private final Map<Key, List<String>> cache = new ConcurrentHashMap<>();

  List<String> of(TableState table) {
    return cache.computeIfAbsent(
        new Key(table.path(), table.version()),
        k -> {
          Engine e = KernelEngine.get();
          Snapshot s =
              Table.forPath(e, k.table().toString()).getSnapshotAsOfVersion(e, k.version());
          return List.copyOf(s.getSchema().fieldNames());
        });
  }
}
