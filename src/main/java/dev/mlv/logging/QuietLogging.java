package dev.mlv.logging;

import java.net.URISyntaxException;
import java.net.URL;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * Configures log4j2 before Spark does, for every path that loads Spark (the engine and the fallback
 * SQL parser): Spark only installs its INFO defaults, and prints "Using Spark's default log4j
 * profile", when log4j2 still runs on its built-in default configuration.
 */
public final class QuietLogging {
  private static final String CONFIG = "/dev/mlv/logging/log4j2-quiet.properties";

  /** Set by the CLI for {@code --debug}, so code far from the command line can honour it. */
  public static final String DEBUG_PROPERTY = "mlv.debug";

  private QuietLogging() {}

  // log4j's context selector holds contexts weakly, and after a second setConfigLocation nothing
  // else held this one: a garbage collection then dropped it, the next lookup made a fresh context
  // on log4j's default configuration, and Spark took that for unconfigured and printed "Using
  // Spark's default log4j profile" (found by QA on `mlv sql -t <fabric>`, whose target and syntax
  // check each apply this). Guarded by QuietLogging.class.
  private static LoggerContext configured;

  public static boolean debugRequested() {
    return Boolean.getBoolean(DEBUG_PROPERTY);
  }

  public static synchronized void apply(boolean debug) {
    URL config = QuietLogging.class.getResource(CONFIG);
    if (config == null) {
      throw new IllegalStateException("missing resource " + CONFIG);
    }
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    try {
      context.setConfigLocation(config.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    configured = context;
    if (debug) {
      Configurator.setRootLevel(Level.INFO);
      Configurator.setLevel("org.apache.spark", Level.INFO);
      Configurator.setLevel("io.delta", Level.INFO);
      Configurator.setLevel("org.apache.hadoop", Level.WARN);
      Configurator.setLevel("com.azure", Level.INFO);
      Configurator.setLevel("com.microsoft.aad", Level.INFO);
    }
  }
}
