package dev.mlv.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A core Spark setting in mlv.yml that the SparkContext refuses as it starts. Only a JVM of its own
 * starts a SparkContext: in the test JVM one is already up and core settings are not read again.
 * Found by QA: {@code spark.memory.fraction: '2'} was "internal error: IllegalArgumentException".
 */
class SparkStartTest {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void aCoreSettingSparkRefusesAtStartIsAnErrorAtItsPlaceInMlvYml() throws Exception {
    Path p = tmp.resolve("conf");
    Files.createDirectories(p.resolve("views"));
    Files.writeString(
        p.resolve("mlv.yml"),
        "name: conf\nworkspace: ws\nlakehouse: lh\nschema: dbo\nviews: [views]\n"
            + "targets:\n  local:\n    type: spark\n    master: local[1]\n"
            + "    conf:\n      spark.sql.ansi.enabled: 'true'\n"
            + "      spark.memory.fraction: '2'\n");

    try (ChildMlv child = ChildMlv.start("512m", p, "sql", "SELECT 1 AS one")) {
      int code = child.waitFor(150_000);
      String err = child.err();

      assertThat(code).as(err).isEqualTo(ExitCodes.ERROR);
      assertThat(err)
          .startsWith(
              "mlv.yml:12:30: error[CONFIG_VALUE]: targets.local.conf.spark.memory.fraction is"
                  + " refused by Spark: spark.memory.fraction should be between 0 and 1")
          .doesNotContain("internal error")
          .doesNotContain("\tat ");
    }
  }
}
