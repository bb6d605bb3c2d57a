package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The settings of a file-ingesting view, checked: the OPTIONS of {@code USING OneLake_Files} and
 * the {@code schema_mode} and {@code refresh_mode} table properties with their defaults. The same
 * rules as {@code mlv validate}, because refresh runs the stored definition, which validate may
 * never have seen.
 */
record FileSource(
    String path,
    Format format,
    boolean header,
    char delimiter,
    SchemaMode schemaMode,
    RefreshMode refreshMode) {

  static final String RULE = "FILE_OPTION";
  static final Set<String> OPTIONS = Set.of("format", "path", "header", "delimiter");

  enum Format {
    CSV,
    PARQUET
  }

  /** DYNAMIC adds columns as files bring them; FIXED keeps the columns of the creation. */
  enum SchemaMode {
    DYNAMIC,
    FIXED
  }

  /** What a refresh does with files added, replaced or deleted since the last one. */
  enum RefreshMode {
    APPEND_ONLY,
    FULL,
    MIRROR
  }

  static FileSource of(ViewDefinition def) {
    if (!(def.body() instanceof ViewBody.Files f)) {
      throw new IllegalArgumentException(def.name().text() + " is not a file-ingesting view");
    }
    List<Diagnostic> problems = new ArrayList<>();
    for (String key : f.options().keySet()) {
      if (!OPTIONS.contains(key)) {
        problems.add(
            Diagnostic.error(
                RULE,
                f.positionOf(key),
                "unsupported option '" + key + "' for USING OneLake_Files",
                "supported options are format, path, header and delimiter"));
      }
    }
    Format format = null;
    try {
      format = Format.valueOf(f.format().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      problems.add(
          Diagnostic.error(
              RULE,
              f.positionOf("format"),
              f.format().isEmpty()
                  ? "missing option 'format'"
                  : "unsupported format '" + f.format() + "'",
              "use 'format' = 'csv' or 'parquet'"));
    }
    String path = f.path().strip();
    if (path.isEmpty()) {
      problems.add(Diagnostic.error(RULE, f.positionOf("path"), "missing option 'path'", null));
    } else if (path.contains(" ") || path.toLowerCase(Locale.ROOT).contains("%20")) {
      problems.add(
          Diagnostic.error(
              "FILE_PATH_SPACE",
              f.positionOf("path"),
              "source path '"
                  + path
                  + "' contains a raw space or %20; Fabric does not currently accept such source"
                  + " paths",
              "rename the folder, or use a OneLake folder shortcut without spaces"));
    }
    String header = f.options().getOrDefault("header", "false");
    if (!header.equalsIgnoreCase("true") && !header.equalsIgnoreCase("false")) {
      problems.add(
          Diagnostic.error(
              RULE,
              f.positionOf("header"),
              "header must be 'true' or 'false', found '" + header + "'",
              null));
    }
    String delimiter = f.options().getOrDefault("delimiter", ",");
    if (delimiter.length() != 1) {
      problems.add(
          Diagnostic.error(
              RULE, f.positionOf("delimiter"), "delimiter must be one character", null));
    }
    SchemaMode schemaMode = property(def, "schema_mode", SchemaMode.class, SchemaMode.DYNAMIC);
    RefreshMode refreshMode =
        property(def, "refresh_mode", RefreshMode.class, RefreshMode.APPEND_ONLY);
    if (schemaMode == null || refreshMode == null) {
      problems.add(
          Diagnostic.error(
              RULE,
              def.position(),
              "schema_mode must be DYNAMIC or FIXED and refresh_mode APPEND_ONLY, FULL or MIRROR",
              null));
    }
    if (!problems.isEmpty()) {
      throw new MlvException(problems);
    }
    return new FileSource(
        path,
        format,
        header.equalsIgnoreCase("true"),
        delimiter.charAt(0),
        schemaMode,
        refreshMode);
  }

  /** A table property, matched without regard to case as Fabric reads these two. */
  private static <E extends Enum<E>> E property(
      ViewDefinition def, String key, Class<E> type, E fallback) {
    for (Map.Entry<String, String> e : def.properties().entrySet()) {
      if (e.getKey().equalsIgnoreCase(key)) {
        try {
          return Enum.valueOf(type, e.getValue().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException bad) {
          return null;
        }
      }
    }
    return fallback;
  }
}
