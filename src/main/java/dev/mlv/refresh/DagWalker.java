package dev.mlv.refresh;

import dev.mlv.diag.EngineMessage;
import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.ObjectId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * Walks the selected views in dependency order: a view starts once every selected view it reads
 * (directly or through unselected views) has finished, independent views run side by side up to
 * {@code parallelism}, and the descendants of a failed view are skipped with the reason.
 */
public final class DagWalker {
  private DagWalker() {}

  public static List<ViewRun> walk(
      LineageGraph graph,
      SortedSet<ObjectId> selected,
      int parallelism,
      Instant deadline,
      Function<ObjectId, ViewRun> task,
      RunListener listener) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, parallelism),
            r -> {
              Thread t = new Thread(r, "mlv-refresh");
              t.setDaemon(true);
              return t;
            });
    try {
      Map<ObjectId, CompletableFuture<ViewRun>> futures = new HashMap<>();
      List<ObjectId> order = new ArrayList<>();
      for (SortedSet<ObjectId> layer : graph.layers()) {
        for (ObjectId id : layer) {
          if (selected.contains(id)) {
            order.add(id);
          }
        }
      }
      for (ObjectId id : order) {
        List<ObjectId> preds = graph.ancestors(id).stream().filter(selected::contains).toList();
        CompletableFuture<?>[] deps =
            preds.stream().map(futures::get).toArray(CompletableFuture[]::new);
        CompletableFuture<ViewRun> f =
            CompletableFuture.allOf(deps)
                .thenApplyAsync(
                    ignored -> {
                      // Every selected ancestor is done: the rule reads their outcomes.
                      Optional<UpstreamBlock> blocked =
                          UpstreamBlock.of(
                              graph,
                              id,
                              selected::contains,
                              p ->
                                  preds.contains(p)
                                      && futures.get(p).join().status() == ViewStatus.Failed,
                              p -> preds.contains(p) && futures.get(p).join().skippedForUpstream());
                      if (blocked.isPresent()) {
                        return ViewRun.skippedForUpstream(
                            id, "none", blocked.get(), ObjectId::shortName);
                      }
                      if (Instant.now().isAfter(deadline)) {
                        return new ViewRun(
                            id,
                            ViewStatus.Failed,
                            "none",
                            "RUN_TIMEOUT",
                            0,
                            0,
                            Map.of(),
                            0,
                            Optional.of(
                                "the run exceeded its time limit before this view started"));
                      }
                      return refreshOne(task, id, listener);
                    },
                    pool);
        futures.put(id, f);
      }
      List<ViewRun> out = new ArrayList<>();
      for (ObjectId id : order) {
        out.add(futures.get(id).join());
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One view's refresh. A target reports a view's failure as a failed ViewRun; an exception it did
   * not expect fails that view alone, so the run goes on and its report and history are written.
   */
  private static ViewRun refreshOne(
      Function<ObjectId, ViewRun> task, ObjectId id, RunListener listener) {
    try {
      return task.apply(id);
    } catch (Exception e) { // checked exceptions too: Spark throws them undeclared
      listener.viewFailed(id, e);
      String m = e.getMessage() == null ? "" : EngineMessage.explanation(e.getMessage());
      return new ViewRun(
          id,
          ViewStatus.Failed,
          "none",
          "INTERNAL_ERROR",
          0,
          0,
          Map.of(),
          0,
          Optional.of(
              "refresh failed unexpectedly ("
                  + e.getClass().getSimpleName()
                  + (m.isEmpty() ? "" : ": " + m)
                  + "); the view's table is at its last committed version"));
    }
  }
}
