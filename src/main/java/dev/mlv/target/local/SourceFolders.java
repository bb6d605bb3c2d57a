package dev.mlv.target.local;

import dev.mlv.diag.MlvException;
import dev.mlv.project.OneLakeFolder;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * Where the local target finds the folder a file-ingesting view names. A OneLake URL goes through
 * the local target's {@code files:} mapping in mlv.yml (the longest mapped folder that contains it
 * wins); an unmapped one falls back to the warehouse's own copy of OneLake, {@code
 * <warehouse>/<lakehouse>.Lakehouse/Files/<folder>}. Any other path is a folder relative to the
 * project.
 */
final class SourceFolders {
  private final Map<String, Path> mapped;
  private final Warehouse warehouse;
  private final Path projectRoot;

  SourceFolders(Map<String, Path> mapped, Warehouse warehouse, Path projectRoot) {
    this.mapped = Map.copyOf(mapped);
    this.warehouse = warehouse;
    this.projectRoot = projectRoot;
  }

  /** The local folder, and how it was found (for error messages). */
  record Resolved(Path folder, String how) {}

  /**
   * {@code rest} below {@code base}, refused when it resolves outside it: validate reports a {@code
   * ..} segment, but refresh runs the stored definition, which validate may never have seen.
   */
  private static Path inside(Path base, String rest, String path) {
    Path root = base.toAbsolutePath().normalize();
    Path folder;
    try {
      folder = rest.isEmpty() ? root : root.resolve(rest).normalize();
    } catch (InvalidPathException e) {
      throw new MlvException(
          FileSource.RULE, "source path '" + path + "' is not a valid path: " + e.getReason());
    }
    if (!folder.startsWith(root)) {
      throw new MlvException(
          "FILE_PATH_DOTS",
          "source path '"
              + path
              + "' resolves to "
              + folder
              + ", outside "
              + root
              + "; the local target reads only folders under it");
    }
    return folder;
  }

  Resolved resolve(String path) {
    Optional<OneLakeFolder> url = OneLakeFolder.parse(path);
    if (url.isPresent()) {
      OneLakeFolder wanted = url.get();
      record Match(String key, Path local, String rest) {}
      Optional<Match> best =
          mapped.entrySet().stream()
              .flatMap(
                  e ->
                      OneLakeFolder.parse(e.getKey())
                          .flatMap(k -> k.relativize(wanted))
                          .map(rest -> new Match(e.getKey(), e.getValue(), rest))
                          .stream())
              .min(Comparator.comparingInt(m -> m.rest().length()));
      if (best.isPresent()) {
        Match m = best.get();
        return new Resolved(
            inside(m.local(), m.rest(), path), "mapped from '" + m.key() + "' in mlv.yml");
      }
      Path files = warehouse.lakehouseDir(wanted.lakehouse()).resolve("Files");
      return new Resolved(
          inside(files, wanted.folder(), path),
          "not mapped under the local target's files: in mlv.yml, so read from the warehouse");
    }
    if (path.regionMatches(true, 0, "abfss:", 0, 6)) {
      throw new MlvException(
          FileSource.RULE,
          "source path '" + path + "' is not a folder under a lakehouse's Files area");
    }
    try {
      Path p = Path.of(path);
      return new Resolved(
          projectRoot.resolve(p).normalize(),
          p.isAbsolute() ? "an absolute local path" : "relative to the project folder");
    } catch (InvalidPathException e) {
      throw new MlvException(
          FileSource.RULE, "source path '" + path + "' is not a valid path: " + e.getReason());
    }
  }
}
