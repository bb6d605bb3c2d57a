package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Calcite-only extraction must not load a single Spark class (seconds of start-up and hundreds of
 * MB). Each check runs in a fresh class loader over the test class path that records every class it
 * is asked for, so classes already loaded by other tests cannot hide a load.
 */
class LazySparkLoadingTest {

  /** A child-first loader, so that everything the extraction needs is loaded (and seen) here. */
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

    boolean loadedSpark() {
      return requested.stream().anyMatch(name -> name.startsWith("org.apache.spark"));
    }
  }

  private static RecordingLoader run(String sql) throws Exception {
    String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
    URL[] urls = new URL[entries.length];
    for (int i = 0; i < entries.length; i++) {
      urls[i] = Path.of(entries[i]).toUri().toURL();
    }
    RecordingLoader loader = new RecordingLoader(urls);
    Class<?> extractor = loader.loadClass(TableExtractor.class.getName());
    Object instance = extractor.getConstructor().newInstance();
    Class<?> position = loader.loadClass(Position.class.getName());
    Object start = position.getMethod("start", Path.class).invoke(null, (Path) null);
    Method extract = extractor.getMethod("extract", String.class, position);
    Object facts = extract.invoke(instance, sql, start);
    Object tables = facts.getClass().getMethod("tables").invoke(facts);
    assertThat((List<?>) tables).isNotEmpty();
    return loader;
  }

  @Test
  void calciteExtractionLoadsNoSparkClass() throws Exception {
    RecordingLoader loader =
        run(
            "SELECT o.id, explode_outer(o.items) FROM orders o LEFT ANTI JOIN returns r"
                + " ON o.id = r.id LATERAL VIEW explode(tags) t AS tag DISTRIBUTE BY o.id");
    assertThat(loader.requested).contains(TableExtractor.class.getName());
    assertThat(loader.loadedSpark()).isFalse();
  }

  @Test
  void theFallbackDoesLoadSparkSoTheCheckAboveCanFail() throws Exception {
    RecordingLoader loader = run("SELECT id FROM orders WHERE name = 'a' \"b\"");
    assertThat(loader.loadedSpark()).isTrue();
  }
}
