package dev.mlv.target.local;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.FolderName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The folder layout of a local warehouse, mirroring OneLake: {@code
 * <root>/<lakehouse>.Lakehouse/Tables/<schema>/<table>}, with mlv's own files in {@code
 * <lakehouse>.Lakehouse/.mlv} and Spark's scratch space in {@code <root>/.mlv/tmp}.
 *
 * <p>It loads no Spark class, so Kernel-only readers can share it.
 */
public record Warehouse(Path root) {

  static final String LAKEHOUSE_SUFFIX = ".Lakehouse";
  private static final Pattern COMMIT_FILE = Pattern.compile("(\\d{20})\\.json");

  public Warehouse {
    root = root.toAbsolutePath().normalize();
  }

  /** Folder names are lower case because MLV names are case-insensitive. */
  static String fold(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  public Path lakehouseDir(String lakehouse) {
    return inside(root, segment("lakehouse", lakehouse) + LAKEHOUSE_SUFFIX);
  }

  public Path tablesDir(String lakehouse) {
    return lakehouseDir(lakehouse).resolve("Tables");
  }

  public Path schemaDir(String lakehouse, String schema) {
    return inside(tablesDir(lakehouse), segment("schema", schema));
  }

  /** The workspace is not part of the path: a warehouse holds each lakehouse name once. */
  public Path tableDir(ObjectId id) {
    refusePath(id.schema(), id.name());
    return inside(schemaDir(id.lakehouse(), id.schema()), segment("table", id.name()));
  }

  /**
   * A name as one folder name, folded to lower case. Backticks let SQL spell any name, so a name
   * {@link FolderName} refuses is refused here too, where every path of a table is built, and mlv
   * never writes outside its warehouse.
   */
  static String segment(String kind, String name) {
    Optional<String> problem = FolderName.problem(name);
    if (problem.isPresent()) {
      throw new MlvException(
          "UNSAFE_NAME",
          "the "
              + kind
              + " name '"
              + String.valueOf(name).replaceAll("\\p{Cntrl}", "?")
              + "' "
              + problem.get()
              + ", so it cannot be a folder of the local warehouse; rename it");
    }
    return fold(name);
  }

  /**
   * Refuses {@code delta.`/path`}, a table read by its path, in words (found by QA: it was refused
   * as a table name to rename, shown in lower case): the lakehouse reads its tables by name.
   */
  static void refusePath(String schema, String name) {
    if (schema.equalsIgnoreCase("delta") && (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0)) {
      throw new MlvException(
          "UNSAFE_NAME",
          "delta.`<path>` reads a table by its path, which the local lakehouse does not: its"
              + " tables are read by name (schema.table), as in Fabric's materialized lake views;"
              + " name the table instead");
    }
  }

  /** {@code parent/child}, checked to stay directly inside {@code parent}. */
  private static Path inside(Path parent, String child) {
    Path p = parent.resolve(child).normalize();
    if (!parent.equals(p.getParent())) {
      throw new MlvException("UNSAFE_NAME", "'" + child + "' would leave " + parent);
    }
    return p;
  }

  /** Per-lakehouse state of mlv itself (locks, run records). */
  public Path mlvDir(String lakehouse) {
    return lakehouseDir(lakehouse).resolve(".mlv");
  }

  /** The lakehouse name of a {@code <name>.Lakehouse} folder, or null for any other folder. */
  static String lakehouseOf(Path dir) {
    String f = dir.getFileName().toString();
    return f.endsWith(LAKEHOUSE_SUFFIX) && f.length() > LAKEHOUSE_SUFFIX.length()
        ? f.substring(0, f.length() - LAKEHOUSE_SUFFIX.length())
        : null;
  }

  /**
   * The newest commit version in {@code <table>/_delta_log}, if any. A folder holding only {@code
   * _staged_commits} (what a failed CTAS leaves) is not a table.
   */
  public static OptionalLong latestCommit(Path table) {
    Path log = table.resolve("_delta_log");
    if (!Files.isDirectory(log)) {
      return OptionalLong.empty();
    }
    long latest = -1;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(log, "*.json")) {
      for (Path f : files) {
        Matcher m = COMMIT_FILE.matcher(f.getFileName().toString());
        if (m.matches()) {
          latest = Math.max(latest, Long.parseLong(m.group(1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return latest < 0 ? OptionalLong.empty() : OptionalLong.of(latest);
  }

  public static boolean isTable(Path table) {
    return latestCommit(table).isPresent();
  }

  static Path commitFile(Path table, long version) {
    return table.resolve("_delta_log").resolve(String.format(Locale.ROOT, "%020d.json", version));
  }

  /**
   * Deletes a table so that a crash at any moment leaves it either whole or gone: the folder is
   * first renamed (atomically) to a hidden sibling, which every listing skips, and deleted from
   * there. Deleting in place would remove the newest commits first and, cut short, leave an older
   * version or a log without its data files. Leftovers of a killed drop are removed by the next.
   */
  static void deleteTable(Path table) {
    if (!Files.exists(table)) {
      return;
    }
    Path trash =
        table.resolveSibling(".dropped-" + table.getFileName() + "-" + java.util.UUID.randomUUID());
    try {
      Files.move(table, trash, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (DirectoryStream<Path> old = Files.newDirectoryStream(table.getParent(), ".dropped-*")) {
      for (Path p : old) {
        deleteTree(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes a folder tree; a missing folder is not an error. */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sub-folders of {@code dir}, sorted, skipping hidden ones such as {@code .mlv}. */
  static java.util.List<Path> subfolders(Path dir) {
    java.util.List<Path> result = new java.util.ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return result;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, Files::isDirectory)) {
      for (Path p : entries) {
        if (!p.getFileName().toString().startsWith(".")) {
          result.add(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    result.sort(null);
    return result;
  }
}
