package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mlv.diag.MlvException;
import dev.mlv.target.SqlResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

/** Reads a Delta table's JSON commit files the way DESCRIBE HISTORY and SHOW TBLPROPERTIES do. */
final class DeltaLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private DeltaLog() {}

  private static List<Path> commits(Path table) {
    Path log = table.resolve("_delta_log");
    if (!Files.isDirectory(log)) {
      throw new MlvException(
          "TABLE_OR_VIEW_NOT_FOUND",
          "[TABLE_OR_VIEW_NOT_FOUND] The table or view "
              + table.getFileName()
              + " cannot be found.");
    }
    try (Stream<Path> s = Files.list(log)) {
      return s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static SqlResult history(Path table) {
    List<Path> commits = commits(table);
    Path last = commits.get(commits.size() - 1);
    long version = Long.parseLong(last.getFileName().toString().substring(0, 20));
    JsonNode info = JSON.createObjectNode();
    for (String line : lines(last)) {
      JsonNode n = read(line);
      if (n.has("commitInfo")) {
        info = n.get("commitInfo");
      }
    }
    String time =
        Instant.ofEpochMilli(info.path("timestamp").asLong())
            .atOffset(ZoneOffset.UTC)
            .toLocalDateTime()
            .toString()
            .replace('T', ' ');
    return new SqlResult(
        List.of("version", "timestamp", "operation", "operationMetrics"),
        List.of(
            List.of(
                String.valueOf(version),
                time,
                info.path("operation").asText(""),
                info.path("operationMetrics").toString())),
        null);
  }

  static SqlResult property(Path table, String key) {
    String value = "Table does not have property: " + key;
    for (Path c : commits(table)) {
      for (String line : lines(c)) {
        JsonNode n = read(line);
        if (n.has("metaData")) {
          JsonNode conf = n.get("metaData").path("configuration");
          value = conf.has(key) ? conf.get(key).asText() : "Table does not have property: " + key;
        }
      }
    }
    return new SqlResult(List.of("key", "value"), List.of(List.of(key, value)), null);
  }

  private static List<String> lines(Path p) {
    try {
      return Files.readAllLines(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode read(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
