package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.delta.DeltaConfig;
import org.apache.spark.sql.delta.DeltaConfigs$;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/** Keeps the checked-in list of Delta's table properties equal to the Delta we ship. */
class DeltaPropertiesTest {
  private static final Path FILE =
      Path.of("src/main/resources/dev/mlv/check/" + DeltaProperties.RESOURCE);

  @Test
  void checkedInListMatchesDeltaConfigs() throws IOException {
    Map<String, String> live = new TreeMap<>();
    for (DeltaConfig<?> c :
        CollectionConverters.asJava(DeltaConfigs$.MODULE$.getAllConfigs().values())) {
      String help = String.valueOf(c.helpMessage()).toLowerCase(Locale.ROOT);
      // Delta's own help message says what a value must be.
      String kind =
          help.contains("needs to be a boolean") || help.contains("one of: true,false")
              ? "boolean"
              : help.contains("calendar interval") ? "interval" : "other";
      live.put(c.key(), kind);
    }
    StringBuilder text = new StringBuilder();
    live.forEach((k, v) -> text.append(k).append(' ').append(v).append('\n'));
    if (Boolean.getBoolean("mlv.regenerate")) {
      Files.writeString(FILE, text.toString(), StandardCharsets.UTF_8);
      Assumptions.abort("regenerated " + FILE + "; rebuild and run the tests again");
    }
    assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
        .as(
            "%s differs from Delta's DeltaConfigs; regenerate it with: mvn -o test"
                + " -Dtest=DeltaPropertiesTest -Dmlv.regenerate=true",
            FILE)
        .isEqualTo(text.toString());
    assertThat(DeltaProperties.keys())
        .filteredOn(k -> !DeltaProperties.fabricOnly(k))
        .containsExactlyElementsOf(live.keySet());
    // Fabric's own properties are left off the local table only while this Delta refuses them.
    assertThat(DeltaProperties.keys())
        .filteredOn(DeltaProperties::fabricOnly)
        .containsExactly("delta.parquet.vorder.enabled")
        .allSatisfy(k -> assertThat(live).doesNotContainKey(k));
  }

  @Test
  void intervalsAreReadLeniently() {
    assertThat(DeltaProperties.mayBeInterval("interval 30 days")).isTrue();
    assertThat(DeltaProperties.mayBeInterval("30 days")).isTrue();
    assertThat(DeltaProperties.mayBeInterval("INTERVAL 1 WEEK 2 days")).isTrue();
    assertThat(DeltaProperties.mayBeInterval("1 day 2:00:00")).isTrue();
    assertThat(DeltaProperties.mayBeInterval("forever")).isFalse();
    assertThat(DeltaProperties.mayBeInterval("interval 1 fortnight")).isFalse();
    assertThat(DeltaProperties.mayBeInterval("interval 1 year")).isFalse();
  }
}
