package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.Position;
import dev.mlv.project.SparkTarget;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;

/**
 * A core Spark setting is checked only as the SparkContext starts; where it is refused there, the
 * failure is put on mlv.yml instead of being an internal error. Found by QA: {@code
 * spark.memory.fraction: '2'} was "internal error: IllegalArgumentException".
 */
class SparkConfCheckTest {
  private static final Path YML = Path.of("mlv.yml");

  private static SparkTarget target(String... keyValues) {
    Map<String, String> conf = new LinkedHashMap<>();
    Map<String, Position> at = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.put(keyValues[i], keyValues[i + 1]);
      at.put(keyValues[i], new Position(YML, 10 + i, 7));
    }
    return new SparkTarget("local", Path.of("/w"), "local[2]", conf, Map.of(), at);
  }

  private static String shown(Optional<MlvException> e) {
    assertThat(e).isPresent();
    return e.get().diagnostics().get(0).format();
  }

  @Test
  void aFailureNamingASettingIsPutOnThatSetting() {
    SparkTarget t = target("spark.sql.ansi.enabled", "true", "spark.memory.fraction", "2");
    var failure =
        new IllegalArgumentException(
            "spark.memory.fraction should be between 0 and 1 (was '2.0').");

    assertThat(shown(SparkConfCheck.startFailed(t, failure)))
        .startsWith(
            "mlv.yml:12:7: error[CONFIG_VALUE]: targets.local.conf.spark.memory.fraction is"
                + " refused by Spark: spark.memory.fraction should be between 0 and 1");
  }

  @Test
  void aFailureNamingNoSettingIsPutOnTheCoreSettings() {
    SparkTarget t =
        target(
            "spark.sql.ansi.enabled", "true",
            "spark.task.cpus", "5",
            "spark.serializer", "foo.Bar");

    assertThat(shown(SparkConfCheck.startFailed(t, new ClassNotFoundException("foo.Bar"))))
        .startsWith(
            "mlv.yml:12:7: error[CONFIG_VALUE]: Spark could not start with targets.local.conf"
                + " (spark.task.cpus, spark.serializer): ClassNotFoundException: foo.Bar");
    assertThat(shown(SparkConfCheck.startFailed(t, new SparkException("cores per task"))))
        .contains("(spark.task.cpus, spark.serializer): cores per task");
  }

  @Test
  void aKeyIsNamedOnlyAsAWholeName() {
    SparkTarget t = target("spark.memory.fraction", "0.5", "spark.sql.ansi.enabled", "true");
    var other = new IllegalArgumentException("spark.memory.fractionX should be set");

    // Not named, so put on the core settings as a whole, not on spark.memory.fraction.
    assertThat(shown(SparkConfCheck.startFailed(t, other)))
        .contains("Spark could not start with targets.local.conf (spark.memory.fraction)");
  }

  @Test
  void aFailureWithOnlySqlSettingsIsNotAboutMlvYml() {
    SparkTarget t = target("spark.sql.ansi.enabled", "true");

    assertThat(SparkConfCheck.startFailed(t, new IllegalStateException("disk full"))).isEmpty();
    assertThat(SparkConfCheck.startFailed(target(), new IllegalStateException("x"))).isEmpty();
  }
}
