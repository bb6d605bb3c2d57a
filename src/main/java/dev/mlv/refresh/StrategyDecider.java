package dev.mlv.refresh;

import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides how a view is refreshed, before it runs, from what the target knows without running
 * anything: the versions of its sources now, and the versions its last refresh consumed.
 */
public final class StrategyDecider {
  private StrategyDecider() {}

  /** What the decision is made from. {@code consumed} is empty for a view never refreshed. */
  public record Input(
      ObjectId view,
      boolean fullRequested,
      Optional<String> forcedReason,
      boolean optimalRefresh,
      Optional<Map<ObjectId, Long>> consumed,
      Map<ObjectId, Long> current) {}

  public static Strategy decide(Input in, NameResolver names) {
    if (in.forcedReason().isPresent()) {
      String code = in.forcedReason().get();
      return new Strategy.Full(
          code,
          code.equals("NEW_VIEW")
              ? "the view was just created"
              : "the definition changed, so the whole view is recomputed");
    }
    if (in.fullRequested()) {
      return new Strategy.Full("FULL_REQUESTED", "a full refresh was requested");
    }
    if (!in.optimalRefresh()) {
      return new Strategy.Full(
          "OPTIMAL_REFRESH_OFF", "optimal refresh is off, so every run rebuilds the view");
    }
    if (in.consumed().isEmpty()) {
      return new Strategy.Full("NEVER_REFRESHED", "no record of a previous refresh");
    }
    Map<ObjectId, Long> consumed = in.consumed().get();
    List<String> changed = new ArrayList<>();
    for (var e : in.current().entrySet()) {
      Long before = consumed.get(e.getKey());
      if (before == null) {
        changed.add(names.display(e.getKey()) + " (new source)");
      } else if (!before.equals(e.getValue())) {
        changed.add(names.display(e.getKey()) + " v" + before + "→v" + e.getValue());
      }
    }
    if (changed.isEmpty()) {
      return new Strategy.Skip("NO_NEW_COMMITS", "no source has a commit since the last refresh");
    }
    return new Strategy.Full("SOURCES_CHANGED", "new commits on " + String.join(", ", changed));
  }
}
