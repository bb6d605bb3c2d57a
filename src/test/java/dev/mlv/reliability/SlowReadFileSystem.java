package dev.mlv.reliability;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The local file system, except that opening a file whose name contains {@code slow} takes {@link
 * #DELAY_MS} milliseconds, or until the thread is interrupted (as Spark interrupts a task it
 * cancels): a file read by a Spark task that takes a known time on any machine. A project selects
 * it with {@code fs.file.impl} (and {@code fs.file.impl.disable.cache}, since Hadoop caches the
 * file system of a scheme per JVM) in its local target's {@code conf}.
 */
public final class SlowReadFileSystem extends LocalFileSystem {
  static final long DELAY_MS = 120_000;

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (f.getName().contains("slow")) {
      try {
        Thread.sleep(DELAY_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while opening " + f);
      }
    }
    return super.open(f, bufferSize);
  }
}
