package dev.mlv.refresh;

import dev.mlv.lineage.LineageGraph;
import dev.mlv.lineage.ObjectId;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Why a view is not refreshed because of a view it reads: one rule for the run, its dry run and
 * both targets. Only the views it reads directly (or through views outside the run) decide: one
 * that failed gives {@code UPSTREAM_FAILED} naming it; else one skipped because of a failure gives
 * {@code UPSTREAM_SKIPPED} naming it, with the failed view at the {@code root} of the chain. Among
 * several, a failed one comes first, then the first by name.
 *
 * <p>Found by QA: a grandparent that failed was named as "upstream", and the dry run said an
 * upstream view that the run skips "will fail".
 */
public record UpstreamBlock(ObjectId upstream, boolean upstreamFailed, ObjectId root) {

  /**
   * For a dry run: the planned skip of view {@code id} when a view it reads will fail or be
   * skipped, which then joins {@code skipped}; empty when it will run. {@code failing}: the views
   * that will fail, each with its cause.
   */
  public static Optional<ViewRun> plannedSkip(
      LineageGraph graph,
      ObjectId id,
      Predicate<ObjectId> inRun,
      java.util.Map<ObjectId, String> failing,
      java.util.Set<ObjectId> skipped,
      java.util.function.Function<ObjectId, String> display) {
    Optional<UpstreamBlock> blocked = of(graph, id, inRun, failing::containsKey, skipped::contains);
    blocked.ifPresent(b -> skipped.add(id));
    return blocked.map(b -> ViewRun.plannedSkipForUpstream(id, b, display, failing.get(b.root())));
  }

  /**
   * @param inRun the views of the run; one outside it is looked through to the views it reads
   * @param failed the views of the run that failed (or will fail) themselves
   * @param skipped the views of the run skipped (or to be skipped) because of a failure upstream
   */
  public static Optional<UpstreamBlock> of(
      LineageGraph graph,
      ObjectId id,
      Predicate<ObjectId> inRun,
      Predicate<ObjectId> failed,
      Predicate<ObjectId> skipped) {
    SortedSet<ObjectId> nearest = nearest(graph, id, inRun);
    Optional<ObjectId> f = nearest.stream().filter(failed).findFirst();
    if (f.isPresent()) {
      return Optional.of(new UpstreamBlock(f.get(), true, f.get()));
    }
    Optional<ObjectId> s = nearest.stream().filter(skipped).findFirst();
    return s.map(
        up ->
            new UpstreamBlock(
                up,
                false,
                of(graph, up, inRun, failed, skipped).map(UpstreamBlock::root).orElse(up)));
  }

  /** The views of the run that {@code id} reads directly, or through views outside the run. */
  static SortedSet<ObjectId> nearest(LineageGraph graph, ObjectId id, Predicate<ObjectId> inRun) {
    SortedSet<ObjectId> out = new TreeSet<>();
    Set<ObjectId> seen = new HashSet<>();
    Deque<ObjectId> todo = new ArrayDeque<>(graph.upstream(id));
    while (!todo.isEmpty()) {
      ObjectId u = todo.pop();
      if (!seen.add(u)) {
        continue;
      }
      if (inRun.test(u)) {
        out.add(u);
      } else {
        todo.addAll(graph.upstream(u));
      }
    }
    return out;
  }
}
