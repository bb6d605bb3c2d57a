package dev.mlv.diag;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * Why an I/O operation failed, in words for an error message. Java's file exceptions often carry
 * only the path as their message ("cannot save the plan: /proc/version.tmp"), which says where but
 * not why; the kind of exception is the why.
 */
public final class IoReason {
  private IoReason() {}

  /** "permission denied", "no such file or folder", "read-only file system", and so on. */
  public static String of(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or folder";
    } else if (e instanceof AccessDeniedException) {
      return "permission denied";
    } else if (e instanceof NotDirectoryException) {
      return "not a folder";
    } else if (e instanceof FileAlreadyExistsException) {
      return "it already exists";
    } else if (e instanceof DirectoryNotEmptyException) {
      return "the folder is not empty";
    } else if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    } else if (e instanceof FileSystemException f && f.getReason() != null) {
      // The operating system's own words ("Read-only file system"), read mid-sentence.
      return lowerFirst(f.getReason());
    }
    String message = e.getMessage();
    if (message != null && !message.isBlank() && !(e instanceof FileSystemException)) {
      return message;
    }
    if (e.getCause() != null && e.getCause().getMessage() != null) {
      return e.getCause().getMessage();
    }
    return words(e.getClass().getSimpleName());
  }

  /** FileSystemLoopException: "file system loop". */
  private static String words(String className) {
    return switch (className) {
      case "IOException", "" -> "input/output error";
      case "FileSystemException" -> "file system error";
      default ->
          className
              .replaceFirst("Exception$", "")
              .replaceAll("(?<=[a-z])(?=[A-Z])", " ")
              .toLowerCase(Locale.ROOT);
    };
  }

  private static String lowerFirst(String s) {
    return s.length() > 1
            && Character.isUpperCase(s.charAt(0))
            && Character.isLowerCase(s.charAt(1))
        ? Character.toLowerCase(s.charAt(0)) + s.substring(1)
        : s;
  }
}
