package dev.mlv.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code mlv --version}: the tool and the engine versions it embeds. */
public final class VersionProvider implements IVersionProvider {

  public static String version() {
    String v = VersionProvider.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "mlv " + version(),
      "local engine: Apache Spark 4.1.1, Delta Lake 4.2.0 (as in Fabric Runtime 2.0)",
      "Java " + System.getProperty("java.version")
    };
  }
}
