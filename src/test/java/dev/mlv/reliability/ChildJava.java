package dev.mlv.reliability;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a JVM of a test's own: this JVM's java, its test class path, and the
 * --add-opens and -D flags Spark needs, as surefire gave them to this JVM. For what only a fresh
 * process shows: startup output, signals, a stdout that is a device.
 */
public final class ChildJava {
  private ChildJava() {}

  /** {@code java [jvmOptions] <Spark's flags> -cp <test class path> main args}. */
  public static List<String> command(List<String> jvmOptions, String main, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("-Djdk.reflect") || a.startsWith("-Dio.")) {
        cmd.add(a);
      }
    }
    cmd.add("-cp");
    cmd.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
            .replace(File.pathSeparator + File.pathSeparator, File.pathSeparator));
    cmd.add(main);
    cmd.addAll(args);
    return cmd;
  }
}
