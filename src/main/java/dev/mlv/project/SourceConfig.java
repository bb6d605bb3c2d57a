package dev.mlv.project;

import dev.mlv.diag.Position;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A table the views read that no view of the project defines. {@code name} has 1-4 dotted parts as
 * written; {@code seed} is absolute and inside the project; {@code format} is present exactly when
 * {@code seed} is.
 */
public record SourceConfig(
    String name,
    Optional<Path> seed,
    Optional<SeedFormat> format,
    Optional<String> description,
    Position position) {}
