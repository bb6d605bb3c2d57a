package dev.mlv.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.junit.jupiter.api.Test;

class IoReasonTest {

  @Test
  void aPathAloneIsNeverTheReason() {
    // Each of these has the path as its message, which says nothing about why.
    assertThat(IoReason.of(new AccessDeniedException("/p/mlv.yml"))).isEqualTo("permission denied");
    assertThat(IoReason.of(new NoSuchFileException("/proc/version.tmp")))
        .isEqualTo("no such file or folder");
    assertThat(IoReason.of(new NotDirectoryException("/a/file/x"))).isEqualTo("not a folder");
    assertThat(IoReason.of(new FileSystemLoopException("/a/loop"))).isEqualTo("file system loop");
    assertThat(IoReason.of(new FileSystemException("/x", null, "Read-only file system")))
        .isEqualTo("read-only file system");
    assertThat(IoReason.of(new FileSystemException("/x"))).isEqualTo("file system error");
  }

  @Test
  void otherwiseTheMessageOrItsCause() {
    assertThat(IoReason.of(new IOException("Input/output error"))).isEqualTo("Input/output error");
    assertThat(IoReason.of(new IOException(null, new IOException("disk full"))))
        .isEqualTo("disk full");
    assertThat(IoReason.of(new IOException())).isEqualTo("input/output error");
  }
}
