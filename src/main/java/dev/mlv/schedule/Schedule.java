package dev.mlv.schedule;

import dev.mlv.diag.Position;
import java.time.LocalDateTime;
import java.util.List;

/**
 * A refresh schedule declared in mlv.yml: when Fabric's job scheduler runs the lakehouse's {@code
 * RefreshMaterializedLakeViews} job, over which views ({@code views} are selectors; empty means
 * all), and in which refresh mode. {@code targets} names the Fabric targets that get it (empty: all
 * of them); {@code at} is where it is declared and {@code viewsAt} where each of {@code views} is
 * written (same order), for messages.
 */
public record Schedule(
    String name,
    List<String> views,
    List<Position> viewsAt,
    Recurrence recurrence,
    LocalDateTime start,
    LocalDateTime end,
    String timeZone,
    RefreshMode refreshMode,
    boolean enabled,
    List<String> targets,
    Position at) {

  public Schedule {
    views = List.copyOf(views);
    viewsAt = List.copyOf(viewsAt);
    if (viewsAt.size() != views.size()) {
      throw new IllegalArgumentException("one position per selector of views");
    }
    targets = List.copyOf(targets);
  }

  /** Optimal lets Fabric pick incremental, full or skip per view; Full recomputes every view. */
  public enum RefreshMode {
    OPTIMAL("Optimal"),
    FULL("Full");

    private final String fabric;

    RefreshMode(String fabric) {
      this.fabric = fabric;
    }

    /** The value of {@code settings.refreshMode} in an MLV execution definition. */
    public String fabric() {
      return fabric;
    }
  }

  public boolean allViews() {
    return views.isEmpty();
  }

  public boolean appliesTo(String target) {
    return targets.isEmpty() || targets.contains(target);
  }
}
