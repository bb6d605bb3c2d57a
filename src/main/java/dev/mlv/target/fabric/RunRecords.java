package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mlv.diag.IoReason;
import dev.mlv.diag.MlvException;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunRenderer;
import dev.mlv.refresh.RunReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The runs this machine made against a Fabric target, with what each view did, kept under the
 * project's {@code .mlv/fabric/<target>/runs}: the job API reports a run but not its views. Each
 * record names the Fabric job instance it ran (and those throttled before it), so {@code mlv runs}
 * lists every other job (started by a schedule or in the Fabric UI) once, from Fabric.
 */
final class RunRecords {
  private static final DateTimeFormatter ID =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path folder;

  RunRecords(Path folder) {
    this.folder = folder;
  }

  static String newId() {
    return ID.format(Instant.now()) + "-" + Integer.toHexString(0x1000 + RANDOM.nextInt(0xF000));
  }

  /**
   * Saves the run with the job instances it ran and the instances Fabric throttled before them,
   * which were attempts of the same run; an {@link MlvException} saying so if it cannot.
   */
  void save(RunReport run, List<String> jobIds, List<String> throttled) {
    if (Files.exists(folder) && !Files.isDirectory(folder)) {
      throw notSaved(run, "it is a file, not a folder");
    }
    try {
      Files.createDirectories(folder);
      com.fasterxml.jackson.databind.node.ObjectNode node = RunRenderer.node(run);
      if (!jobIds.isEmpty()) {
        node.put("fabricJobInstanceId", jobIds.get(0));
      }
      // A run whose views need two refresh modes runs one job per mode change.
      if (jobIds.size() > 1) {
        var ids = node.putArray("fabricMoreJobInstanceIds");
        jobIds.subList(1, jobIds.size()).forEach(ids::add);
      }
      if (!throttled.isEmpty()) {
        var ids = node.putArray("fabricThrottledJobInstanceIds");
        throttled.forEach(ids::add);
      }
      Path file = folder.resolve(run.id() + ".json");
      Path tmp = folder.resolve(run.id() + ".json.tmp");
      Files.writeString(tmp, node.toPrettyString(), StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw notSaved(run, IoReason.of(e));
    }
  }

  private MlvException notSaved(RunReport run, String why) {
    return new MlvException(
        "RUN_NOT_RECORDED",
        "run "
            + run.id()
            + " could not be recorded in "
            + folder
            + " ("
            + why
            + "), so 'mlv runs' will not show what each view did");
  }

  /** A record read back: the run, and every job instance it names (throttled attempts too). */
  record Stored(RunReport run, List<String> jobIds) {}

  /**
   * Every record that can be read, oldest file name first; one that cannot (damaged, or written by
   * something else) is skipped with a warning to {@code listener}, so its job is listed from Fabric
   * instead.
   */
  List<Stored> all(RunListener listener) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    List<Path> files;
    try (Stream<Path> listed = Files.list(folder)) {
      files = listed.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    } catch (IOException | UncheckedIOException e) {
      listener.message(
          "warning: the run records in "
              + folder
              + " cannot be read ("
              + IoReason.of(e instanceof UncheckedIOException u ? u.getCause() : (IOException) e)
              + "), so 'mlv runs' will not show what each view did");
      return List.of();
    }
    List<Stored> out = new ArrayList<>();
    for (Path f : files) {
      try {
        JsonNode n = FabricHttp.JSON.readTree(Files.readString(f, StandardCharsets.UTF_8));
        out.add(new Stored(RunRenderer.read(n), jobIds(n)));
      } catch (IOException | RuntimeException e) {
        listener.message(RunRenderer.unreadable(f, e));
      }
    }
    return out;
  }

  private static List<String> jobIds(JsonNode n) {
    List<String> out = new ArrayList<>();
    String ran = n.path("fabricJobInstanceId").asText("");
    if (!ran.isEmpty()) {
      out.add(ran);
    }
    n.path("fabricMoreJobInstanceIds").forEach(t -> out.add(t.asText()));
    n.path("fabricThrottledJobInstanceIds").forEach(t -> out.add(t.asText()));
    return out;
  }

  /** The run with this id, or the one that ran (or retried) the job instance of this id. */
  Optional<RunReport> find(String id, RunListener listener) {
    if (!id.matches("[A-Za-z0-9-]{1,64}")) {
      return Optional.empty();
    }
    return all(listener).stream()
        .filter(r -> r.run().id().equals(id) || r.jobIds().contains(id))
        .findFirst()
        .map(Stored::run);
  }
}
