package dev.mlv.target.local;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import org.apache.hadoop.conf.Configuration;

/**
 * The one Delta Kernel engine of the process, for every reader of local Delta logs. Created on
 * first use: it loads Hadoop's configuration, which a command that reads no log should not pay.
 */
final class KernelEngine {
  private KernelEngine() {}

  private static final class Holder {
    static final Engine ENGINE = DefaultEngine.create(new Configuration());
  }

  static Engine get() {
    return Holder.ENGINE;
  }
}
