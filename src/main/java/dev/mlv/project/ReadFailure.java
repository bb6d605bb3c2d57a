package dev.mlv.project;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a project file or folder could not be read, in words: the JDK's messages are the path again
 * or an exception class name, which tell the user nothing the position does not.
 */
final class ReadFailure {
  private ReadFailure() {}

  static String reason(java.io.IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "it no longer exists";
    }
    if (e instanceof NotDirectoryException) {
      return "it is not a folder";
    }
    if (e instanceof FileSystemLoopException) {
      return "its symbolic links lead back into themselves";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage() == null ? "an input/output error" : e.getMessage();
  }
}
