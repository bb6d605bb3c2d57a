package dev.mlv.project;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SparkTargetTest {

  /** A reason names what turned ANSI mode off (found by QA: it blamed the conf for the JVM's). */
  @Test
  void ansiModeOffSaysWhatTurnedItOff() {
    SparkTarget byConf =
        new SparkTarget(
            "local", Path.of("wh"), "local[1]", Map.of(" spark.sql.ansi.enabled", "FALSE "));
    assertThat(byConf.ansiOffBy()).contains("spark.sql.ansi.enabled in target local's conf");
    SparkTarget on = new SparkTarget("dev", Path.of("wh"), "local[1]", Map.of());
    String before = System.getProperty("spark.sql.ansi.enabled");
    try {
      System.setProperty("spark.sql.ansi.enabled", "false");
      assertThat(on.ansiOffBy()).contains("the JVM option -Dspark.sql.ansi.enabled");
      System.setProperty("spark.sql.ansi.enabled", "true");
      assertThat(on.ansiOff()).isFalse();
      // The target's conf wins over the JVM's option.
      assertThat(byConf.ansiOff()).isTrue();
    } finally {
      if (before == null) {
        System.clearProperty("spark.sql.ansi.enabled");
      } else {
        System.setProperty("spark.sql.ansi.enabled", before);
      }
    }
  }
}
