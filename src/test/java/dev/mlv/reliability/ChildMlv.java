package dev.mlv.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code mlv} in a JVM of its own ({@code java -cp <test classpath> dev.mlv.cli.Main}), so that it
 * can be killed with SIGKILL ({@link Process#destroyForcibly} on Linux) like a real process, and so
 * that two runs really are two processes competing for the lock.
 */
final class ChildMlv implements AutoCloseable {
  private final Process process;
  private final List<String> errLines = new ArrayList<>();
  private final StringBuilder out = new StringBuilder();
  private final Thread errReader;
  private final Thread outReader;

  private ChildMlv(Process process) {
    this.process = process;
    this.errReader = pump(process.getErrorStream(), errLines, null);
    this.outReader = pump(process.getInputStream(), null, out);
  }

  static ChildMlv start(String heap, Path workDir, String... args) {
    List<String> cmd =
        ChildJava.command(
            List.of("-Xmx" + heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
            "dev.mlv.cli.Main",
            List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    try {
      return new ChildMlv(pb.start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Thread pump(InputStream in, List<String> lines, StringBuilder text) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  if (lines != null) {
                    synchronized (lines) {
                      lines.add(line);
                      lines.notifyAll();
                    }
                  } else {
                    synchronized (text) {
                      text.append(line).append('\n');
                    }
                  }
                }
              } catch (IOException e) {
                // the process was killed
              }
            },
            "child-mlv-pump");
    t.setDaemon(true);
    t.start();
    return t;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits until stderr has {@code n} lines that start with one of the progress words, the process
   * ended, or {@code timeoutMs} passed; true when the lines came.
   */
  boolean awaitProgress(int n, long timeoutMs) throws InterruptedException {
    long end = System.currentTimeMillis() + timeoutMs;
    synchronized (errLines) {
      while (true) {
        long count =
            errLines.stream()
                .map(String::strip)
                .filter(l -> l.startsWith("started") || l.startsWith("completed"))
                .count();
        if (count >= n) {
          return true;
        }
        long left = end - System.currentTimeMillis();
        if (left <= 0 || !process.isAlive()) {
          return false;
        }
        errLines.wait(Math.min(left, 100));
      }
    }
  }

  /** Writes {@code text} to the process's stdin, as a pipe into it would. */
  void send(String text) throws IOException {
    process.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().flush();
  }

  /**
   * Waits until stdout holds {@code n} lines that contain {@code text} (a shell's prompt may come
   * first), the process ended, or {@code timeoutMs} passed; true when the lines came.
   */
  boolean awaitOut(String text, int n, long timeoutMs) throws InterruptedException {
    long end = System.currentTimeMillis() + timeoutMs;
    while (out().lines().filter(l -> l.contains(text)).count() < n) {
      if (System.currentTimeMillis() > end || !process.isAlive()) {
        return false;
      }
      Thread.sleep(100);
    }
    return true;
  }

  /** SIGKILL, then waits for the process to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** Waits for the exit code; kills the process and returns -1 after {@code timeoutMs}. */
  int waitFor(long timeoutMs) throws InterruptedException {
    if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
      kill();
      return -1;
    }
    errReader.join(2000);
    outReader.join(2000);
    return process.exitValue();
  }

  String out() {
    synchronized (out) {
      return out.toString();
    }
  }

  String err() {
    synchronized (errLines) {
      return String.join("\n", errLines);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
