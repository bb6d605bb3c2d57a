package dev.mlv.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.Optional;

/**
 * The process's standard output, remembering the first write that failed. PrintStream and
 * PrintWriter swallow write errors, so without this {@code mlv lineage --dot > lineage.dot} on a
 * full disk would leave half a file and exit 0.
 */
final class StandardOutput extends FilterOutputStream {
  private volatile IOException failure;

  private StandardOutput(OutputStream out) {
    super(out);
  }

  /**
   * Puts a watched stream under {@code System.out}, buffered and flushed as the JVM's own is, so
   * everything printed on stdout (the commands' writer, the shell's terminal) goes through it.
   */
  static StandardOutput install() {
    StandardOutput watched = new StandardOutput(new FileOutputStream(FileDescriptor.out));
    // The charset the JVM gave System.out (only the shell's terminal prints characters on it;
    // the commands' writer encodes UTF-8 itself).
    String encoding = System.getProperty("sun.stdout.encoding");
    Charset charset =
        encoding != null && Charset.isSupported(encoding)
            ? Charset.forName(encoding)
            : Charset.defaultCharset();
    System.setOut(new PrintStream(new BufferedOutputStream(watched, 8192), true, charset));
    return watched;
  }

  /**
   * The first failed write worth reporting. A reader that closed the pipe early ({@code mlv lineage
   * | head -1}) is no failure: that is how a pipeline says it has read enough.
   */
  Optional<IOException> failure() {
    IOException e = failure;
    return e == null || brokenPipe(e) ? Optional.empty() : Optional.of(e);
  }

  /** EPIPE, as the JDK reports it on Linux and macOS. */
  private static boolean brokenPipe(IOException e) {
    return e.getMessage() != null && e.getMessage().startsWith("Broken pipe");
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw remember(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw remember(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw remember(e);
    }
  }

  private IOException remember(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }
}
