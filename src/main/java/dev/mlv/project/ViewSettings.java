package dev.mlv.project;

import dev.mlv.diag.Position;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * View settings as written in one place ({@code defaults:} or one {@code view_config:} entry);
 * absent fields are empty so that an override merges over the defaults. {@code position} is where
 * the entry is written, or null for the built-in empty settings.
 */
public record ViewSettings(
    Optional<Boolean> enableCdf,
    Optional<Boolean> optimalRefresh,
    Optional<RefreshPolicy> refreshPolicy,
    List<String> tags,
    Position position,
    QualitySettings quality) {

  public static final ViewSettings NONE =
      new ViewSettings(Optional.empty(), Optional.empty(), Optional.empty(), List.of(), null);

  public ViewSettings {
    tags = List.copyOf(tags);
    quality = quality == null ? QualitySettings.NONE : quality;
  }

  public ViewSettings(
      Optional<Boolean> enableCdf,
      Optional<Boolean> optimalRefresh,
      Optional<RefreshPolicy> refreshPolicy,
      List<String> tags,
      Position position) {
    this(enableCdf, optimalRefresh, refreshPolicy, tags, position, QualitySettings.NONE);
  }

  /** These settings with every field {@code override} sets replacing ours; tags add up. */
  public ViewSettings overriddenBy(ViewSettings override) {
    LinkedHashSet<String> allTags = new LinkedHashSet<>(tags);
    allTags.addAll(override.tags);
    return new ViewSettings(
        override.enableCdf.or(() -> enableCdf),
        override.optimalRefresh.or(() -> optimalRefresh),
        override.refreshPolicy.or(() -> refreshPolicy),
        new ArrayList<>(allTags),
        override.position != null ? override.position : position,
        quality.overriddenBy(override.quality));
  }

  /** Fills what is still unset with mlv's built-in defaults. */
  public Effective resolve() {
    return new Effective(
        enableCdf.orElse(true),
        optimalRefresh.orElse(true),
        refreshPolicy.orElse(RefreshPolicy.AUTO),
        tags,
        quality);
  }

  /** The settings a view actually gets, with nothing left open. */
  public record Effective(
      boolean enableCdf,
      boolean optimalRefresh,
      RefreshPolicy refreshPolicy,
      List<String> tags,
      QualitySettings quality) {
    public Effective {
      tags = List.copyOf(tags);
      quality = quality == null ? QualitySettings.NONE : quality;
    }

    public Effective(
        boolean enableCdf, boolean optimalRefresh, RefreshPolicy refreshPolicy, List<String> tags) {
      this(enableCdf, optimalRefresh, refreshPolicy, tags, QualitySettings.NONE);
    }
  }
}
