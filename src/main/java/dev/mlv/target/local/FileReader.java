package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.IoReason;
import dev.mlv.diag.MlvException;
import dev.mlv.target.local.IngestedFiles.SourceFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Lists a source folder and reads files into rows with a {@code __filepath__} column. Files are
 * grouped by the schema they declare (a CSV header or column count, a Parquet footer) without
 * reading their data, so each group is read in one Spark scan with the right column names, and a
 * schema difference can be reported by file.
 */
final class FileReader {
  static final String PATH_COLUMN = "__filepath__";
  private static final String URI_COLUMN = "__mlv_file_uri__";
  private static final String INVALID_IN_DELTA_NAMES = " ,;{}()\n\t=";

  private final SparkSession spark;
  private final FileSource source;
  private final Path folder;

  FileReader(SparkSession spark, FileSource source, Path folder) {
    this.spark = spark;
    this.source = source;
    this.folder = folder;
  }

  /** Files that share one declared schema (without {@code __filepath__}). */
  record Group(StructType schema, List<SourceFile> files) {}

  /**
   * Every file under {@code folder}, recursively, sorted by path; names starting with '.' or '_'
   * are skipped as Spark skips them ({@code _SUCCESS}, {@code .crc}, staging folders). A file of 0
   * bytes is left out too: it holds no rows, and were it recorded as ingested, APPEND_ONLY would
   * never read the rows written to it later (a file just created, not yet written).
   */
  static List<SourceFile> list(Path folder) {
    List<SourceFile> out = new ArrayList<>();
    try {
      Files.walkFileTree(
          folder,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return !dir.equals(folder) && hidden(dir)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile() && attrs.size() > 0 && !hidden(file)) {
                String rel = folder.relativize(file).toString().replace('\\', '/');
                out.add(new SourceFile(rel, attrs.size(), attrs.lastModifiedTime().toMillis()));
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(java.util.Comparator.comparing(SourceFile::path));
    return out;
  }

  private static boolean hidden(Path p) {
    String name = p.getFileName().toString();
    return name.startsWith(".") || name.startsWith("_");
  }

  /** Groups by declared schema, in order of first appearance; empty files have none. */
  List<Group> groups(List<SourceFile> files) {
    Map<String, List<SourceFile>> byKey = new LinkedHashMap<>();
    Map<String, StructType> schemas = new LinkedHashMap<>();
    for (SourceFile f : files) {
      Path p = folder.resolve(f.path());
      String key;
      if (source.format() == FileSource.Format.CSV) {
        List<String> columns = csvColumns(p, f.path());
        if (columns.isEmpty()) {
          continue;
        }
        key = String.join("\u0000", columns);
        schemas.computeIfAbsent(key, k -> stringSchema(columns));
      } else {
        key = parquetSchema(p, f.path());
      }
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
    }
    List<Group> out = new ArrayList<>();
    for (var e : byKey.entrySet()) {
      StructType schema = schemas.get(e.getKey());
      if (schema == null) {
        schema = withoutPathColumn(sparkParquetSchema(e.getValue().get(0)));
        invalidParquetNames(schema, e.getValue().get(0).path());
      }
      out.add(new Group(schema, e.getValue()));
    }
    return out;
  }

  /**
   * The rows of one group, columns as the group declares them plus {@code __filepath__}: the
   * definition's path joined with the file's path below the folder, so the value is the same
   * wherever the folder is mapped.
   */
  Dataset<Row> read(Group group, String pathPrefix) {
    String[] paths =
        group.files().stream().map(f -> literal(folder.resolve(f.path()))).toArray(String[]::new);
    Dataset<Row> data;
    if (source.format() == FileSource.Format.CSV) {
      data =
          spark
              .read()
              .schema(group.schema())
              .option("header", String.valueOf(source.header()))
              .option("sep", String.valueOf(source.delimiter()))
              .option("mode", "PERMISSIVE")
              // As the header is read (firstRecord): a quoted field may hold line breaks, and a
              // doubled quote inside one is a quote (RFC 4180), not Spark's backslash escape.
              .option("multiLine", "true")
              .option("escape", "\"")
              .csv(paths);
    } else {
      data = spark.read().schema(group.schema()).parquet(paths);
    }
    List<Row> names = new ArrayList<>();
    for (SourceFile f : group.files()) {
      names.add(RowFactory.create(sparkUri(folder.resolve(f.path())), pathPrefix + f.path()));
    }
    Dataset<Row> lookup =
        spark.createDataFrame(
            names,
            new StructType()
                .add(URI_COLUMN, DataTypes.StringType, false)
                .add(PATH_COLUMN, DataTypes.StringType, false));
    Dataset<Row> withUri = data.withColumn(URI_COLUMN, functions.col("_metadata.file_path"));
    return withUri
        .join(functions.broadcast(lookup), URI_COLUMN, "left_outer")
        .drop(URI_COLUMN)
        .select(columnsWithPath(group.schema()));
  }

  /** How Spark spells a local file in {@code _metadata.file_path}: a URL-encoded file URI. */
  static String sparkUri(Path file) {
    return new org.apache.hadoop.fs.Path("file", null, file.toAbsolutePath().toString())
        .toUri()
        .toString();
  }

  private static org.apache.spark.sql.Column[] columnsOf(StructType schema) {
    return java.util.Arrays.stream(schema.fieldNames())
        .map(n -> functions.col(SparkRuntime.quote(n)))
        .toArray(org.apache.spark.sql.Column[]::new);
  }

  private static org.apache.spark.sql.Column[] columnsWithPath(StructType schema) {
    List<org.apache.spark.sql.Column> cols = new ArrayList<>(List.of(columnsOf(schema)));
    cols.add(functions.col(PATH_COLUMN));
    return cols.toArray(org.apache.spark.sql.Column[]::new);
  }

  /** A file's own column named {@code __filepath__} gives way to the one mlv adds. */
  private static StructType withoutPathColumn(StructType schema) {
    StructType out = new StructType();
    for (var f : schema.fields()) {
      if (!f.name().equalsIgnoreCase(PATH_COLUMN)) {
        out = out.add(f);
      }
    }
    return out;
  }

  /**
   * A Parquet file's column whose name Delta refuses without column mapping: said with the file and
   * the column, before anything is read or written (found by QA: Delta's own error named neither,
   * and pointed at column mapping, which a view with change data feed cannot have). A CSV header's
   * names are cleaned instead, since the header is only text; a Parquet file's names are its
   * schema, so they are not renamed behind its back.
   */
  private static void invalidParquetNames(StructType schema, String file) {
    for (String name : schema.fieldNames()) {
      if (name.chars().anyMatch(c -> INVALID_IN_DELTA_NAMES.indexOf(c) >= 0)) {
        throw new MlvException(
            Diagnostic.error(
                FileSource.RULE,
                null,
                "column '"
                    + name.replace("\n", "\\n").replace("\t", "\\t")
                    + "' of Parquet file '"
                    + file
                    + "' has a character a Delta column name cannot hold (a blank or one of"
                    + " ,;{}()=), so the view cannot store it",
                "write the file with a column name without them (a CSV header's names are"
                    + " cleaned; a Parquet file's are its schema, and mlv does not rename them)"));
      }
    }
  }

  private StructType stringSchema(List<String> columns) {
    StructType s = new StructType();
    for (String c : columns) {
      s = s.add(c, DataTypes.StringType, true);
    }
    return s;
  }

  /**
   * The column names of a CSV file: its header's names (made valid Delta names, blanks named {@code
   * _c<i>}, repeats numbered as Spark numbers them, then suffixed where that collides), or {@code
   * _c0..} by the first line's field count. Only the first record is read.
   */
  List<String> csvColumns(Path file, String shown) {
    List<String> fields;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      fields = firstRecord(in, source.delimiter());
      // Spark replaces bytes that are not UTF-8 with U+FFFD without a word: the whole file is
      // decoded here first, so such a file fails wherever the byte is.
      char[] rest = new char[8192];
      while (in.read(rest) >= 0) {
        // only decoding
      }
    } catch (java.nio.charset.CharacterCodingException e) {
      // The decoder's own text is only "Input length = 1".
      throw new MlvException(
          Diagnostic.error(
              FileSource.RULE,
              null,
              "file '" + shown + "' is not UTF-8 text, so not a valid CSV file",
              "save it as UTF-8, or move it out of the folder if it is not CSV (a binary file in"
                  + " the folder of a 'format' = 'csv' view?)"),
          e);
    } catch (IOException e) {
      throw new MlvException(
          Diagnostic.error(
              FileSource.RULE, null, "cannot read file '" + shown + "': " + IoReason.of(e), null),
          e);
    }
    if (fields == null) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      String name = source.header() ? clean(fields.get(i)) : "";
      names.add(name.isEmpty() ? "_c" + i : name);
    }
    Set<String> seen = new HashSet<>();
    Set<String> repeated = new HashSet<>();
    for (String n : names) {
      if (!seen.add(n.toLowerCase(Locale.ROOT)) || n.equalsIgnoreCase(PATH_COLUMN)) {
        repeated.add(n.toLowerCase(Locale.ROOT));
      }
    }
    // Spark's numbering alone can collide (a,a,a1 gives a1 twice, which Delta refuses): a
    // numbered name that another column holds gets _2, _3, ... until it is free.
    Set<String> taken = new HashSet<>();
    for (String n : names) {
      if (!repeated.contains(n.toLowerCase(Locale.ROOT))) {
        taken.add(n.toLowerCase(Locale.ROOT));
      }
    }
    for (int i = 0; i < names.size(); i++) {
      if (repeated.contains(names.get(i).toLowerCase(Locale.ROOT))) {
        String numbered = names.get(i) + i;
        String unique = numbered;
        for (int k = 2; taken.contains(unique.toLowerCase(Locale.ROOT)); k++) {
          unique = numbered + "_" + k;
        }
        taken.add(unique.toLowerCase(Locale.ROOT));
        names.set(i, unique);
      }
    }
    return names;
  }

  private static String clean(String header) {
    StringBuilder sb = new StringBuilder();
    for (char c : header.strip().toCharArray()) {
      sb.append(INVALID_IN_DELTA_NAMES.indexOf(c) >= 0 ? '_' : c);
    }
    return sb.toString();
  }

  /** The fields of the first record, honouring double quotes; null for an empty file. */
  static List<String> firstRecord(BufferedReader in, char delimiter) throws IOException {
    String line = in.readLine();
    if (line == null) {
      return null;
    }
    if (line.startsWith("\uFEFF")) {
      line = line.substring(1);
    }
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    int i = 0;
    while (true) {
      if (i == line.length()) {
        if (!quoted) {
          break;
        }
        String next = in.readLine();
        if (next == null) {
          break;
        }
        field.append('\n');
        line = next;
        i = 0;
        continue;
      }
      char c = line.charAt(i++);
      if (quoted) {
        if (c == '"' && i < line.length() && line.charAt(i) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == delimiter) {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    fields.add(field.toString());
    return fields;
  }

  /** The footer schema of a Parquet file, as text, to group files without reading data. */
  private static String parquetSchema(Path file, String name) {
    // Checked here because Parquet's own refusal names the reader object, not the file.
    if (!hasParquetMagic(file, name)) {
      throw new MlvException(
          Diagnostic.error(
              FileSource.RULE,
              null,
              "file '"
                  + name
                  + "' is not a Parquet file (a Parquet file starts and ends with the bytes"
                  + " PAR1), so the view cannot read it",
              "move it out of the folder of this 'format' = 'parquet' view, or start its name"
                  + " with '_' or '.' so it is skipped; the folder should hold Parquet files"
                  + " only"));
    }
    try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
      return r.getFooter().getFileMetaData().getSchema().toString();
    } catch (IOException | RuntimeException e) {
      String why =
          String.valueOf(SparkMessages.explanation(e))
              .replaceAll("\\S*LocalInputFile@\\p{XDigit}+", "the file");
      throw new MlvException(
          Diagnostic.error(
              FileSource.RULE,
              null,
              "cannot read the Parquet footer of file '" + name + "': " + why,
              "the file may be cut short or damaged: write it again, or move it out of the"
                  + " folder"),
          e);
    }
  }

  /** Whether the file starts and ends with Parquet's magic bytes ("PAR1"), as every one does. */
  private static boolean hasParquetMagic(Path file, String name) {
    byte[] magic = "PAR1".getBytes(StandardCharsets.US_ASCII);
    try (var ch = java.nio.channels.FileChannel.open(file)) {
      long size = ch.size();
      // magic, footer length (4 bytes), magic: nothing shorter can be Parquet.
      if (size < 12) {
        return false;
      }
      java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate(4);
      java.nio.ByteBuffer tail = java.nio.ByteBuffer.allocate(4);
      while (head.hasRemaining() && ch.read(head, head.position()) >= 0) {
        // read until full
      }
      while (tail.hasRemaining() && ch.read(tail, size - 4 + tail.position()) >= 0) {
        // read until full
      }
      return java.util.Arrays.equals(head.array(), magic)
          && java.util.Arrays.equals(tail.array(), magic);
    } catch (IOException e) {
      throw new MlvException(
          Diagnostic.error(
              FileSource.RULE, null, "cannot read file '" + name + "': " + IoReason.of(e), null),
          e);
    }
  }

  private StructType sparkParquetSchema(SourceFile f) {
    return spark.read().parquet(literal(folder.resolve(f.path()))).schema();
  }

  /**
   * A listed file's path as Spark must be given it: Spark expands a path with any of {@code
   * []{}*?\} as a glob, so {@code [x].csv} would read {@code x.csv} instead and {@code c{1,2}.csv}
   * two files that may not exist; escaped, each character is itself.
   */
  static String literal(Path file) {
    String path = file.toAbsolutePath().toString();
    StringBuilder out = new StringBuilder(path.length());
    for (char c : path.toCharArray()) {
      if ("[]{}*?\\".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }
}
