package dev.mlv.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks in {@code bench/} run in Java's source-file mode against the built classes, so
 * nothing else compiles them: a change to an API they call would only show when someone reruns a
 * figure of docs/benchmarks.md. This compiles each of them against the test class path.
 */
class BenchSourcesCompileTest {

  @Test
  void everyBenchmarkCompilesAgainstTheCurrentClasses(@TempDir Path out) throws Exception {
    List<Path> sources;
    try (Stream<Path> files = Files.list(Path.of("bench"))) {
      sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    assertThat(sources).as("bench/*.java").isNotEmpty();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (Path source : sources) {
      List<String> args = new ArrayList<>();
      args.addAll(List.of("-proc:none", "-nowarn", "-cp", classPath, "-d", out.toString()));
      args.add(source.toString());
      ByteArrayOutputStream errors = new ByteArrayOutputStream();
      int rc = javac.run(null, errors, errors, args.toArray(String[]::new));
      assertThat(rc).as(source + " compiles:\n" + errors.toString(StandardCharsets.UTF_8)).isZero();
    }
  }
}
