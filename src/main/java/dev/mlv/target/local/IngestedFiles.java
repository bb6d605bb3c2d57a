package dev.mlv.target.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The files whose rows a file-ingesting view holds, each with the size and modification time it had
 * when it was read. The list travels in the {@code userMetadata} of the very Delta commit that
 * wrote those rows, so it can never name a file whose rows were not committed, and a refresh that
 * fails leaves the previous list in force with the previous data. A commit that is not an ingestion
 * (a rename, enabling change data feed) carries no list: the newest commit that does is the one
 * that counts.
 */
record IngestedFiles(long version, List<SourceFile> files) {
  static final String MARKER = "mlv.ingestedFiles";
  private static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  IngestedFiles {
    files = List.copyOf(files);
  }

  /** What a listing found: path relative to the source folder with '/', size, modified millis. */
  record SourceFile(String path, long size, long modified) {
    boolean sameContentAs(SourceFile other) {
      return size == other.size && modified == other.modified;
    }
  }

  /** The {@code userMetadata} of a commit that leaves the view holding exactly {@code files}. */
  static String userMetadata(Collection<SourceFile> files) {
    ObjectNode root = JSON.createObjectNode();
    root.put(MARKER, FORMAT);
    ArrayNode list = root.putArray("files");
    for (SourceFile f : files) {
      list.addArray().add(f.path()).add(f.size()).add(f.modified());
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always serialises", e);
    }
  }

  /**
   * The list of the newest ingestion commit of the table at {@code table}, or empty when there is
   * no table or no commit file with a list is left (Delta deletes commit files past its log
   * retention): the caller then reads the whole folder again.
   */
  static Optional<IngestedFiles> read(Path table) {
    OptionalLong latest = Warehouse.latestCommit(table);
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    for (long v = latest.getAsLong(); v >= 0; v--) {
      Path file = Warehouse.commitFile(table, v);
      Optional<JsonNode> info;
      try {
        info = commitInfo(file);
      } catch (NoSuchFileException gone) {
        return Optional.empty();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      long version = v;
      Optional<IngestedFiles> found = info.flatMap(i -> parse(version, i.path("userMetadata")));
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** The {@code commitInfo} action of one commit file. */
  static Optional<JsonNode> commitInfo(Path commitFile) throws IOException {
    try (BufferedReader lines = Files.newBufferedReader(commitFile, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.contains("\"commitInfo\"")) {
          JsonNode action = JSON.readTree(line);
          if (action.has("commitInfo")) {
            return Optional.of(action.get("commitInfo"));
          }
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<IngestedFiles> parse(long version, JsonNode userMetadata) {
    if (!userMetadata.isTextual() || !userMetadata.asText().contains(MARKER)) {
      return Optional.empty();
    }
    try {
      JsonNode root = JSON.readTree(userMetadata.asText());
      if (root.path(MARKER).asInt() != FORMAT || !root.path("files").isArray()) {
        return Optional.empty();
      }
      List<SourceFile> files = new ArrayList<>();
      for (JsonNode f : root.get("files")) {
        files.add(new SourceFile(f.get(0).asText(), f.get(1).asLong(), f.get(2).asLong()));
      }
      return Optional.of(new IngestedFiles(version, files));
    } catch (JsonProcessingException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
