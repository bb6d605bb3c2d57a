package dev.mlv.project;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * What a name must be to become a folder of a lakehouse: a table and its schema are each a folder
 * named after them, locally and in OneLake. The local warehouse refuses the rest when it builds a
 * path ({@code UNSAFE_NAME}); validate checks the same names here, at their position, so that a
 * project it passes does not fail at refresh or apply.
 */
public final class FolderName {
  private FolderName() {}

  /**
   * The usual limit on one file name: 255 bytes on ext4, XFS and APFS (NTFS counts 255 UTF-16
   * units, which 255 bytes of UTF-8 never exceed). We found no limit Fabric documents for table or
   * schema names, so this is the local lakehouse's.
   */
  static final int FILE_NAME_BYTES = 255;

  /** A schema is the folder {@code Tables/<schema>}, and nothing is named after it. */
  public static final int SCHEMA_BYTES = FILE_NAME_BYTES;

  /**
   * A table is the folder {@code Tables/<schema>/<table>}, and the longest name the local warehouse
   * gives a sibling is a dropped quarantine table's, renamed before it is deleted: {@code
   * .dropped-<table>__quarantine-<uuid>} (Warehouse.deleteTable, ReservedNames). 197 bytes.
   */
  public static final int TABLE_BYTES =
      FILE_NAME_BYTES
          - ".dropped-".length()
          - ReservedNames.QUARANTINE_SUFFIX.length()
          - "-".length()
          - "00000000-0000-0000-0000-000000000000".length();

  /**
   * Why {@code name} cannot be one folder name, or empty: it would leave its parent folder ({@code
   * ..}, {@code a/b}), hide itself ({@code .x}, where mlv keeps its own files) or hold a character
   * no file name can.
   */
  public static Optional<String> problem(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.of("is empty");
    }
    if (name.startsWith(".")) {
      return Optional.of("starts with '.'");
    }
    return characterProblem(name);
  }

  /** A path separator or a control character (NUL included) in {@code name}, or empty. */
  public static Optional<String> characterProblem(String name) {
    if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
      return Optional.of("contains a path separator");
    }
    if (name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      return Optional.of("contains a control character");
    }
    return Optional.empty();
  }

  /** Why a view's (a table's) name is too long for the folders named after it, or empty. */
  public static Optional<String> tableTooLong(String name) {
    return tooLong(name, TABLE_BYTES)
        .map(
            n ->
                n
                    + "; a view's name can be at most "
                    + TABLE_BYTES
                    + " bytes, so that every folder the local lakehouse names after it (the"
                    + " longest: .dropped-<view>__quarantine-<uuid>) fits the "
                    + FILE_NAME_BYTES
                    + "-byte limit on a file name");
  }

  /** Why a schema's name is too long for its folder, or empty. */
  public static Optional<String> schemaTooLong(String name) {
    return tooLong(name, SCHEMA_BYTES)
        .map(
            n ->
                n
                    + "; a schema's name can be at most "
                    + SCHEMA_BYTES
                    + " bytes, the limit on a file name, as the local lakehouse keeps each schema"
                    + " in a folder");
  }

  /** Counted as the folder is named: in lower case, in UTF-8, where 'é' takes 2 bytes. */
  private static Optional<String> tooLong(String name, int limit) {
    int bytes = name.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8).length;
    return bytes <= limit ? Optional.empty() : Optional.of("is " + bytes + " bytes long in UTF-8");
  }

  /** A long name cut for a message: its first 20 characters and the count of the rest. */
  public static String shortened(String name) {
    int cut = name.offsetByCodePoints(0, Math.min(20, name.codePointCount(0, name.length())));
    return cut == name.length()
        ? name
        : name.substring(0, cut) + "… (" + name.codePointCount(0, name.length()) + " characters)";
  }
}
