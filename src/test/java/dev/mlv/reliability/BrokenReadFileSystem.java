package dev.mlv.reliability;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The local file system, except that a Spark task opening a file whose name contains {@code broken}
 * fails with an I/O error after {@link #DELAY_MS} milliseconds (the disk or the network failing
 * mid-read), while the driver opens it as usual: a file view's ingestion that fails in its write,
 * once the tasks of the other files have written theirs. A project selects it with {@code
 * fs.file.impl} (and {@code fs.file.impl.disable.cache}) in its local target's {@code conf}.
 */
public final class BrokenReadFileSystem extends LocalFileSystem {
  static final long DELAY_MS = 3_000;

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (f.getName().contains("broken") && Thread.currentThread().getName().contains("Executor")) {
      try {
        Thread.sleep(DELAY_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while opening " + f);
      }
      throw new IOException("read error on " + f);
    }
    return super.open(f, bufferSize);
  }
}
