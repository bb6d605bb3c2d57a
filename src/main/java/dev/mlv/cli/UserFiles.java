package dev.mlv.cli;

import dev.mlv.diag.IoReason;
import dev.mlv.diag.MlvException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Files the user names on the command line: read with one clear error for each way it fails, and
 * written whole or not at all.
 */
final class UserFiles {
  private UserFiles() {}

  /**
   * The file's text. {@code what} names it in errors ("plan file", "SQL file"), {@code rule} is the
   * error's id.
   */
  static String read(Path file, String rule, String what) {
    if (Files.isDirectory(file)) {
      throw new MlvException(rule, what + " " + file + " is a folder; give a file");
    }
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      // Some Windows editors start UTF-8 files with a byte order mark; it is not text.
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (NoSuchFileException e) {
      throw new MlvException(rule, what + " " + file + " does not exist");
    } catch (AccessDeniedException e) {
      throw new MlvException(rule, "cannot read " + what + " " + file + ": permission denied");
    } catch (CharacterCodingException e) {
      throw new MlvException(rule, what + " " + file + " is not UTF-8 text");
    } catch (IOException e) {
      throw new MlvException(rule, "cannot read " + what + " " + file + ": " + IoReason.of(e));
    }
  }

  /**
   * {@code -o -}: standard output rather than a file named "-" (a file so named is {@code ./-}).
   */
  static boolean isStdout(Path out) {
    return out.toString().equals("-");
  }

  /**
   * Refuses, before any work, an output path that is a folder or whose folder does not exist;
   * {@code what} names the output ("the plan"), {@code example} a file name for it.
   */
  static void checkOutput(Path out, String rule, String what, String example) {
    if (out.toString().isBlank()) {
      throw new dev.mlv.diag.UsageException(rule, "-o is empty; give " + what + " a file name");
    }
    if (isStdout(out)) {
      return;
    }
    if (Files.isDirectory(out)) {
      throw new MlvException(
          rule, "-o " + out + " is a folder; give " + what + " a file name, e.g. " + example);
    }
    Path folder = out.toAbsolutePath().getParent();
    if (folder != null && !Files.isDirectory(folder)) {
      throw new MlvException(
          rule, "cannot save " + what + " to " + out + ": folder " + folder + " does not exist");
    }
  }

  /**
   * Writes {@code text} to the file {@code out} names. A regular file (or a new one) is written
   * whole or not at all: a sibling temporary file moved over it. A symbolic link is followed, so
   * the link stays and its target is what gets replaced. Anything else that exists (a device, a
   * named pipe, {@code /dev/stdout}) is written in place: moving a file over it would replace the
   * device or pipe itself, and its reader would get nothing.
   */
  static void write(Path out, String text, String rule, String what) {
    checkOutput(out, rule, what, out.getFileName().toString());
    Path abs = out.toAbsolutePath();
    Path file;
    try {
      file = linkTarget(abs);
    } catch (IOException e) {
      throw cannotSave(rule, what, out, IoReason.of(e), e);
    }
    if (file == null || (Files.exists(abs) && !Files.isRegularFile(abs))) {
      writeInPlace(abs, text, out, rule, what);
    } else {
      writeWhole(file, text, out, rule, what);
    }
  }

  /**
   * The path a chain of symbolic links from {@code abs} ends at ({@code abs} itself when it is no
   * link), or null for a link in /proc ({@code /dev/stdout}, {@code /dev/fd/1}): it names an open
   * file of this process, which may be a pipe ("pipe:[123]" is no path), so only opening the link
   * itself reaches it.
   */
  private static Path linkTarget(Path abs) throws IOException {
    Path p = abs;
    // Linux's own bound on a chain of links (ELOOP); a loop is an error, not a link to replace.
    for (int hops = 0; Files.isSymbolicLink(p); hops++) {
      Path folder = p.getParent().toRealPath();
      if (hops == 40) {
        throw new java.nio.file.FileSystemException(
            abs.toString(), null, "Too many levels of symbolic links");
      }
      if (folder.startsWith("/proc")) {
        return null;
      }
      p = folder.resolve(Files.readSymbolicLink(p));
    }
    return p;
  }

  /** Opens the existing {@code abs} for writing and writes to it, as a shell's {@code >>} does. */
  private static void writeInPlace(Path abs, String text, Path out, String rule, String what) {
    try (var stream =
        Files.newOutputStream(abs, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      stream.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw cannotSave(rule, what, out, IoReason.of(e), e);
    }
  }

  /** Writes a sibling temporary file and moves it over {@code file}: never half a file. */
  private static void writeWhole(Path file, String text, Path out, String rule, String what) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // The write failed already; that is the error to report.
      }
      // The temporary file is what failed, often: name it, or the user looks at the wrong one.
      String where =
          e instanceof java.nio.file.FileSystemException f
                  && f.getFile() != null
                  && Path.of(f.getFile()).equals(tmp)
              ? " (writing " + tmp + " beside it)"
              : "";
      throw cannotSave(rule, what, out, IoReason.of(e) + where, e);
    }
  }

  /** error[RULE]: cannot save ..., with the exception behind it for --debug. */
  private static MlvException cannotSave(
      String rule, String what, Path out, String why, IOException cause) {
    return new MlvException(
        dev.mlv.diag.Diagnostic.error(
            rule, null, "cannot save " + what + " to " + out + ": " + why, null),
        cause);
  }
}
