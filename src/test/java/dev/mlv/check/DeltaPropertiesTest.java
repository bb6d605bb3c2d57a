package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;
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
      live.put(c.key(), kindOf(c));
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

  /**
   * Modes Delta's help message for delta.columnMapping.mode does not list; like the words of every
   * help message, they are only candidates, kept when Delta's own validator takes them.
   */
  private static final Set<String> CANDIDATE_WORDS = Set.of("none", "name", "id");

  /**
   * The kind of value Delta takes for a property: its help message says so for booleans and
   * intervals; for the rest, Delta's own parser and validator ({@code DeltaConfig.apply}) are asked
   * about whole numbers and about the words of the help message.
   */
  private static String kindOf(DeltaConfig<?> c) {
    String help = String.valueOf(c.helpMessage());
    String lower = help.toLowerCase(Locale.ROOT);
    if (lower.contains("needs to be a boolean") || lower.contains("one of: true,false")) {
      return "boolean";
    }
    if (lower.contains("calendar interval")) {
      return "interval";
    }
    if (takes(c, "x") || takes(c, "")) {
      return "other";
    }
    if (takes(c, "true") && takes(c, "FALSE")) {
      return "boolean";
    }
    List<Long> small = LongStream.rangeClosed(-5, 10).boxed().toList();
    List<Long> taken = small.stream().filter(n -> takes(c, Long.toString(n))).toList();
    if (!taken.isEmpty() && !takes(c, "1.5")) {
      long lo = taken.get(0);
      long hi = taken.get(taken.size() - 1);
      boolean contiguous = taken.size() == hi - lo + 1;
      boolean upward = hi == 10 && takes(c, "2147483647");
      if (contiguous && (upward || hi < 10)) {
        String min = lo == -5 ? "*" : Long.toString(lo);
        String max = !upward ? Long.toString(hi) : takes(c, "2147483648") ? "*" : "2147483647";
        return "integer " + min + " " + max;
      }
      return "other";
    }
    Set<String> words = new TreeSet<>(CANDIDATE_WORDS);
    words.addAll(Arrays.asList(help.split("[^A-Za-z0-9_]+")));
    List<String> chosen = words.stream().filter(w -> !w.isEmpty() && takes(c, w)).toList();
    if (chosen.isEmpty() || (chosen.size() > 1 && takes(c, chosen.get(0) + "," + chosen.get(1)))) {
      // A list of values (delta.universalFormat.enabledFormats), or nothing found to take.
      return "other";
    }
    boolean anyCase =
        chosen.stream()
            .allMatch(
                w -> takes(c, w.toUpperCase(Locale.ROOT)) && takes(c, w.toLowerCase(Locale.ROOT)));
    return (anyCase ? "choice-any-case " : "choice ") + String.join(",", chosen);
  }

  private static boolean takes(DeltaConfig<?> c, String value) {
    try {
      c.apply(value);
      return true;
    } catch (Exception e) { // Scala throws checked ones too (Jackson's, for a JSON property)
      return false;
    }
  }

  @Test
  void valuesAreCheckedAsDeltaChecksThem() {
    var interval = DeltaProperties.property("delta.checkpointInterval").orElseThrow();
    assertThat(interval.takes("10")).isTrue();
    assertThat(interval.takes("+3")).isTrue();
    assertThat(interval.takes("0")).isFalse();
    assertThat(interval.takes("ten")).isFalse();
    assertThat(interval.takes(" 5")).isFalse();
    assertThat(interval.takes("5.0")).isFalse();
    assertThat(interval.takes("99999999999")).isFalse();
    var cdf = DeltaProperties.property("delta.enableChangeDataFeed").orElseThrow();
    assertThat(cdf.takes("TRUE")).isTrue();
    assertThat(cdf.takes(" true")).isFalse();
    var reader = DeltaProperties.property("delta.minReaderVersion").orElseThrow();
    assertThat(reader.takes("3")).isTrue();
    assertThat(reader.takes("4")).isFalse();
    assertThat(reader.expected()).isEqualTo("a whole number from 1 to 3");
    var indexed = DeltaProperties.property("delta.dataSkippingNumIndexedCols").orElseThrow();
    assertThat(indexed.takes("-1")).isTrue();
    assertThat(indexed.takes("-2")).isFalse();
    var mode = DeltaProperties.property("delta.columnMapping.mode").orElseThrow();
    assertThat(mode.takes("Name")).isTrue();
    assertThat(mode.takes("names")).isFalse();
    assertThat(mode.takes(" name")).isFalse();
    var policy = DeltaProperties.property("delta.checkpointPolicy").orElseThrow();
    assertThat(policy.takes("v2")).isTrue();
    assertThat(policy.takes("V2")).isFalse();
    assertThat(DeltaProperties.property("delta.isolationLevel").orElseThrow().takes("serializable"))
        .isTrue();
    // A list of formats, and a long: left to Delta, or taken whole.
    assertThat(
            DeltaProperties.property("delta.universalFormat.enabledFormats")
                .orElseThrow()
                .takes("hudi,iceberg"))
        .isTrue();
    assertThat(
            DeltaProperties.property("delta.inCommitTimestampEnablementTimestamp")
                .orElseThrow()
                .takes("1700000000000"))
        .isTrue();
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
    // Months that add up to none are taken (found by QA, measured on Delta 4.2.0).
    assertThat(DeltaProperties.mayBeInterval("interval 30 days 0 months")).isTrue();
    assertThat(DeltaProperties.mayBeInterval("0 years 30 days")).isTrue();
    assertThat(DeltaProperties.mayBeInterval("1 month -1 month 30 days")).isTrue();
    assertThat(DeltaProperties.mayBeInterval("interval 30 days 1 month")).isFalse();
    assertThat(DeltaProperties.mayBeInterval("INTERVAL 2 YEARS")).isFalse();
  }
}
