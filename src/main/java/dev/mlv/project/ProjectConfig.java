package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A validated mlv.yml. Paths are absolute and inside {@code root}; {@code targets} always holds
 * {@code defaultTarget} and a {@code local} target; {@code lakehouses} and {@code viewConfig} are
 * keyed by lower-case name, since MLV names are case-insensitive. Maps keep file order. {@code
 * schedules} are the refresh schedules declared for Fabric targets. {@code unsetEnv} holds, per
 * target, the {@code ${env:}} values whose variables were not set: such a target is read (its value
 * left out) and refused only when a command uses it.
 */
public record ProjectConfig(
    Path root,
    Path file,
    String name,
    String workspace,
    String lakehouse,
    String schema,
    List<Path> viewFolders,
    Map<String, String> vars,
    String defaultTarget,
    Map<String, TargetConfig> targets,
    Map<String, LakehouseRef> lakehouses,
    List<SourceConfig> sources,
    ProjectDefaults defaults,
    Map<String, ViewSettings> viewConfig,
    List<dev.mlv.schedule.Schedule> schedules,
    Map<String, List<Diagnostic>> unsetEnv) {

  public static final String FILE_NAME = "mlv.yml";

  public ProjectConfig {
    viewFolders = List.copyOf(viewFolders);
    vars = ordered(vars);
    targets = ordered(targets);
    lakehouses = ordered(lakehouses);
    sources = List.copyOf(sources);
    viewConfig = ordered(viewConfig);
    schedules = List.copyOf(schedules);
    unsetEnv = ordered(unsetEnv);
  }

  private static <V> Map<String, V> ordered(Map<String, V> map) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  public Optional<TargetConfig> target(String targetName) {
    return Optional.ofNullable(targets.get(targetName));
  }

  /**
   * The declared target {@code targetName} for a command that uses it, or every CONFIG_ENV error of
   * its values when an environment variable they need is not set.
   */
  public TargetConfig usableTarget(String targetName) {
    List<Diagnostic> unset = unsetEnv.getOrDefault(targetName, List.of());
    if (!unset.isEmpty()) {
      throw new MlvException(unset);
    }
    return target(targetName).orElseThrow();
  }

  /**
   * The settings for the view configured under {@code key} (as written in view_config, any case)
   * merged over the project defaults; the defaults alone when there is no such entry.
   */
  public ViewSettings.Effective settingsFor(String key) {
    ViewSettings override =
        viewConfig.getOrDefault(key.toLowerCase(Locale.ROOT), ViewSettings.NONE);
    return defaults.views().overriddenBy(override).resolve();
  }
}
