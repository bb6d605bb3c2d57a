package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands that must start in well under a second load no Spark class at all: each runs the
 * whole CLI in a fresh class loader that records every class it is asked for, so classes other
 * tests already loaded cannot hide a load.
 */
class StartupClassLoadingTest {
  private static final class RecordingLoader extends URLClassLoader {
    final Set<String> requested = ConcurrentHashMap.newKeySet();

    RecordingLoader(URL[] urls) {
      super(urls, ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      requested.add(name);
      return super.loadClass(name, resolve);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"--version", "validate", "lineage --dot", "plan"})
  void noSparkClassLoads(String command) throws Exception {
    String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
    URL[] urls = new URL[entries.length];
    for (int i = 0; i < entries.length; i++) {
      urls[i] = Path.of(entries[i]).toUri().toURL();
    }
    String example = Path.of("examples/medallion").toAbsolutePath().toString();
    String[] args =
        command.equals("--version")
            ? new String[] {"--version"}
            : (command + " -p " + example).split(" ");
    try (RecordingLoader loader = new RecordingLoader(urls)) {
      Class<?> main = loader.loadClass(Main.class.getName());
      Method run = main.getMethod("run", PrintWriter.class, PrintWriter.class, String[].class);
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      // As in a real launch, the context class loader is the one that loaded mlv: Hadoop (under
      // Delta Kernel) loads its classes through it and fails when it is another.
      Thread self = Thread.currentThread();
      ClassLoader before = self.getContextClassLoader();
      Object code;
      self.setContextClassLoader(loader);
      try {
        code = run.invoke(null, new PrintWriter(out), new PrintWriter(err), args);
      } finally {
        self.setContextClassLoader(before);
      }
      assertThat(code).as(out + "\n" + err).isIn(ExitCodes.OK, ExitCodes.CHANGES);
      assertThat(loader.requested).contains(Main.class.getName());
      assertThat(loader.requested)
          .as("Spark classes loaded by 'mlv %s'", command)
          .noneMatch(name -> name.startsWith("org.apache.spark") || name.startsWith("scala."));
    }
  }
}
