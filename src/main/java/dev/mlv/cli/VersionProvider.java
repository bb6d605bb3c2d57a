package dev.mlv.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code mlv --version}: the tool and the engine versions it embeds. */
public final class VersionProvider implements IVersionProvider {

  @Override
  public String[] getVersion() {
    return new String[] {
      "mlv " + dev.mlv.Version.current(),
      "local engine: Apache Spark 4.1.1, Delta Lake 4.2.0 (as in Fabric Runtime 2.0)",
      "Java " + System.getProperty("java.version")
    };
  }
}
