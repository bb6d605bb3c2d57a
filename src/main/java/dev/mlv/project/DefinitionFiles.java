package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.IoReason;
import dev.mlv.diag.Position;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Finds the files that define views: SQL scripts, PySpark files and notebooks. */
public final class DefinitionFiles {
  private static final List<String> EXTENSIONS = List.of(".sql", ".py", ".ipynb");

  private DefinitionFiles() {}

  /**
   * The definition files found, and the problems that kept a file from being read. A file that is
   * not read is reported rather than skipped: its views would otherwise look deleted to {@code plan
   * --prune}.
   */
  public record Found(List<Path> files, List<Diagnostic> problems) {
    public Found {
      files = List.copyOf(files);
      problems = List.copyOf(problems);
    }
  }

  /**
   * Every definition file under the view folders, recursively, as absolute paths sorted by their
   * path relative to the project root (with '/' separators, so the order is the same on every OS).
   * Hidden folders and the local warehouses are skipped. A symbolic link that leads outside the
   * project is an error, not a definition: git would keep only the link, so the project would not
   * be self-contained. A view folder missing here was already reported by the loader (or was
   * removed since), so it contributes nothing.
   */
  public static Found discover(ProjectConfig config) {
    Path root = config.root();
    Set<Path> warehouses =
        config.targets().values().stream()
            .filter(SparkTarget.class::isInstance)
            .map(t -> ((SparkTarget) t).warehouse())
            .collect(Collectors.toSet());
    // Keyed by relative path: sorts portably and drops duplicates from nested view folders.
    TreeMap<String, Path> found = new TreeMap<>();
    List<Diagnostic> problems = new ArrayList<>();
    for (Path folder : config.viewFolders()) {
      if (!Files.isDirectory(folder)) {
        continue;
      }
      try {
        Path walked = folder;
        if (Files.isSymbolicLink(folder)) {
          // A view folder listed in mlv.yml that is a link (found by QA: its views were missing
          // without a word) is read where it leads; the loader refused one leading outside.
          walked = root.resolve(root.toRealPath().relativize(folder.toRealPath()).toString());
        }
        Files.walkFileTree(
            walked, new Collector(root, walked, warehouses, config.viewFolders(), found, problems));
      } catch (IOException e) {
        problems.add(unreadable(root, folder, e));
      }
    }
    return new Found(new ArrayList<>(found.values()), problems);
  }

  /**
   * A folder or file the walk could not open, reported where it is so the rest of the project is
   * still read; its views are missing, so this is an error that keeps plan from dropping them.
   */
  private static Diagnostic unreadable(Path root, Path path, IOException e) {
    boolean folder = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
    return Diagnostic.error(
        "VIEWS_READ",
        Position.start(root.relativize(path)),
        "cannot read the " + (folder ? "folder" : "file") + ": " + IoReason.of(e),
        "make it readable by the user running mlv; until then the views in it count as missing");
  }

  // Package-private so a test can feed it the failures a root user never sees.
  static final class Collector extends SimpleFileVisitor<Path> {
    private final Path root;
    private final Path start;
    private final Set<Path> warehouses;
    private final List<Path> viewFolders;
    private final TreeMap<String, Path> found;
    private final List<Diagnostic> problems;

    Collector(
        Path root,
        Path start,
        Set<Path> warehouses,
        List<Path> viewFolders,
        TreeMap<String, Path> found,
        List<Diagnostic> problems) {
      this.root = root;
      this.viewFolders = viewFolders;
      this.start = start;
      this.warehouses = warehouses;
      this.found = found;
      this.problems = problems;
    }

    /** The project folder with its links resolved, read once for every link met on the walk. */
    private Path realRoot() throws IOException {
      if (realRoot == null) {
        realRoot = root.toRealPath();
      }
      return realRoot;
    }

    private Path realRoot;

    /** Whether a definition file lies anywhere under {@code folder}: a link to none loses none. */
    private static boolean holdsDefinitions(Path folder) throws IOException {
      try (var files = Files.walk(folder)) {
        return files.anyMatch(
            f -> {
              String lower = f.getFileName().toString().toLowerCase(Locale.ROOT);
              return !lower.startsWith(".")
                  && EXTENSIONS.stream().anyMatch(lower::endsWith)
                  && Files.isRegularFile(f);
            });
      }
    }

    /** Whether {@code target} (a real path) lies in a view folder, whose walk reads it. */
    private boolean inViewFolder(Path target) throws IOException {
      for (Path folder : viewFolders) {
        if (Files.isDirectory(folder) && target.startsWith(folder.toRealPath())) {
          return true;
        }
      }
      return false;
    }

    private void badLink(Path file, String message, String hint) {
      problems.add(
          Diagnostic.error("VIEWS_LINK", Position.start(root.relativize(file)), message, hint));
    }

    private String relative(Path file) {
      return root.relativize(file).toString().replace('\\', '/');
    }

    @Override
    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
      if (dir.equals(start)) {
        return FileVisitResult.CONTINUE;
      }
      boolean hidden = dir.getFileName().toString().startsWith(".");
      return hidden || warehouses.contains(dir)
          ? FileVisitResult.SKIP_SUBTREE
          : FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
      String name = file.getFileName().toString();
      String lower = name.toLowerCase(Locale.ROOT);
      if (!name.startsWith(".") && attrs.isSymbolicLink() && Files.isDirectory(file)) {
        // The walk does not follow a linked folder; one that leads outside the project is said
        // to, as a linked file is, since its definitions would be missing from other clones.
        Path target = file.toRealPath();
        if (!target.startsWith(realRoot())) {
          badLink(
              file,
              "the folder is a symbolic link to "
                  + target
                  + ", outside the project folder; mlv does not read the files in it",
              "move the folder into the project: git keeps only the link, so the views in it"
                  + " would be missing from every other clone");
        } else if (!inViewFolder(target) && holdsDefinitions(target)) {
          // Found by QA: its views were missing without a word, and --prune would drop them.
          String to = realRoot().relativize(target).toString().replace('\\', '/');
          // A link to the project folder itself has no relative path (found by QA: "to ,").
          badLink(
              file,
              "the folder is a symbolic link to "
                  + (to.isEmpty() ? "the project folder itself" : to)
                  + ", which is no view folder; mlv does not follow linked folders, so the files"
                  + " in it are not read",
              to.isEmpty()
                  ? "remove the link, and list the folders that hold views under views: in mlv.yml"
                  : "list " + to + " under views: in mlv.yml, or put the folder itself here");
        }
        return FileVisitResult.CONTINUE;
      }
      if (name.startsWith(".") || EXTENSIONS.stream().noneMatch(lower::endsWith)) {
        return FileVisitResult.CONTINUE;
      }
      if (attrs.isSymbolicLink()) {
        Path target;
        try {
          target = file.toRealPath();
        } catch (IOException e) {
          // Reported, not skipped: a link that dangles in this clone (made on another machine,
          // say) would otherwise make its views look deleted.
          badLink(
              file,
              "the file is a symbolic link to "
                  + Files.readSymbolicLink(file)
                  + ", which does not exist; mlv cannot read it",
              "point the link at a file of the project, or replace it with the file itself");
          return FileVisitResult.CONTINUE;
        }
        if (!target.startsWith(realRoot())) {
          badLink(
              file,
              "the file is a symbolic link to "
                  + target
                  + ", outside the project folder; mlv does not read it",
              "copy the file into the project: git keeps only the link, so the views it"
                  + " defines would be missing from every other clone");
          return FileVisitResult.CONTINUE;
        }
        if (!Files.isRegularFile(target)) {
          return FileVisitResult.CONTINUE;
        }
      } else if (!attrs.isRegularFile()) {
        return FileVisitResult.CONTINUE;
      }
      found.put(relative(file), file);
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException e) {
      problems.add(unreadable(root, file, e));
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult postVisitDirectory(Path dir, IOException e) {
      if (e != null) {
        problems.add(unreadable(root, dir, e));
      }
      return FileVisitResult.CONTINUE;
    }
  }
}
