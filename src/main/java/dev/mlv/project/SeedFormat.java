package dev.mlv.project;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** File formats {@code mlv seed} can load into a source table. */
public enum SeedFormat {
  CSV,
  PARQUET;

  /** The format implied by a file's extension, if it is one we load. */
  public static Optional<SeedFormat> fromExtension(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".csv")) {
      return Optional.of(CSV);
    }
    if (name.endsWith(".parquet")) {
      return Optional.of(PARQUET);
    }
    return Optional.empty();
  }
}
