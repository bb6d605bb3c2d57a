package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.analysis.TableFunctionRegistry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/** Keeps the checked-in list of Spark's built-in functions equal to the Spark we ship. */
class SparkFunctionsTest {
  private static final Path FILE =
      Path.of("src/main/resources/dev/mlv/check/" + SparkFunctions.RESOURCE);

  @Test
  void checkedInListMatchesSparksRegistries() throws IOException {
    Set<String> live = new TreeSet<>();
    for (FunctionIdentifier id :
        CollectionConverters.asJava(FunctionRegistry.builtin().listFunction())) {
      live.add(id.funcName().toLowerCase(Locale.ROOT));
    }
    for (FunctionIdentifier id :
        CollectionConverters.asJava(TableFunctionRegistry.builtin().listFunction())) {
      live.add(id.funcName().toLowerCase(Locale.ROOT));
    }
    String text = String.join("\n", live) + "\n";
    if (Boolean.getBoolean("mlv.regenerate")) {
      Files.writeString(FILE, text, StandardCharsets.UTF_8);
      // The copy on the test classpath is the old one until the next build.
      Assumptions.abort("regenerated " + FILE + "; rebuild and run the tests again");
    }
    assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
        .as(
            "%s differs from Spark's FunctionRegistry.builtin + TableFunctionRegistry.builtin;"
                + " regenerate it with: mvn -o test -Dtest=SparkFunctionsTest -Dmlv.regenerate=true",
            FILE)
        .isEqualTo(text);
    assertThat(SparkFunctions.all()).isEqualTo(live);
  }

  @Test
  void answersCaseInsensitively() {
    assertThat(SparkFunctions.isBuiltin("EXPLODE")).isTrue();
    assertThat(SparkFunctions.isBuiltin("range")).isTrue();
    assertThat(SparkFunctions.isBuiltin("transform")).isTrue();
    assertThat(SparkFunctions.isBuiltin("my_udf")).isFalse();
  }
}
