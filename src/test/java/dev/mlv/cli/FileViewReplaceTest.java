package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-fed medallion through the CLI: a changed definition of its APPEND_ONLY bronze view
 * rebuilds it from the folder, and what that drops is said before apply runs and counted after.
 */
class FileViewReplaceTest {
  private static final String WARNING =
      "the rebuild reads the folder again and drops the rows of 1 file ingested before that is no"
          + " longer in the folder or was replaced since (APPEND_ONLY keeps them only until the"
          + " view is rebuilt): 2026-09-01/trials_us.csv";

  @TempDir Path tmp;

  /**
   * Found by QA: trials_us.csv (3 rows) was deleted and only the view's COMMENT changed; the plan
   * said "definition changed: comment", apply dropped the 3 rows and reported "removed 0".
   */
  @Test
  void aChangedCommentOfTheBronzeViewWarnsInThePlanAndTheRunCountsTheDroppedFile()
      throws IOException {
    Path p = copyExample();
    Path landing = p.resolve("landing/trials");
    copyTree(p.resolve("drops/2026-09-01"), landing.resolve("2026-09-01"));
    run(p, "seed");
    run(p, "apply", "--auto-approve", "--quiet");

    Files.delete(landing.resolve("2026-09-01/trials_us.csv"));
    copyTree(p.resolve("drops/2026-09-08"), landing.resolve("2026-09-08"));
    Path view = p.resolve("views/bronze/preference_trials.sql");
    Files.writeString(
        view,
        Files.readString(view)
            .replace(
                "VIEW bronze.preference_trials\n", "VIEW bronze.preference_trials\nCOMMENT 'x'\n"));

    CliRun plan = run(p, "plan", "--no-diff", "-o", tmp.resolve("plan.json").toString());
    assertThat(plan.out())
        .contains(
            "  ~ replace  bronze.preference_trials                 definition changed: comment\n"
                + "      warning: "
                + WARNING
                + "\n");
    JsonNode json = new ObjectMapper().readTree(run(p, "plan", "--format", "json").out());
    assertThat(json.path("changes").get(0).path("warnings").get(0).asText()).isEqualTo(WARNING);

    CliRun apply = run(p, "apply", tmp.resolve("plan.json").toString(), "--quiet");
    assertThat(apply.err()).contains("warning: bronze.preference_trials: " + WARNING + "\n");
    assertThat(apply.out()).contains("            files ingested 2, removed 1\n");
    CliRun runs = run(p, "runs", "--format", "json", "--limit", "1");
    assertThat(runs.out()).contains("\"removed\" : 1");
  }

  private static CliRun run(Path project, String... args) {
    CliRun r = CliRun.inProject(project, args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  private Path copyExample() throws IOException {
    Path dst = tmp.resolve("medallion-files");
    copyTree(Path.of("examples/medallion-files"), dst);
    Files.createDirectories(dst.resolve("landing/trials"));
    return dst;
  }

  private static void copyTree(Path src, Path dst) throws IOException {
    try (Stream<Path> files = Files.walk(src)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.toString().contains(".mlv") || f.toString().contains("landing")) {
          continue;
        }
        Path t = dst.resolve(src.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(t);
        } else {
          Files.copy(f, t);
        }
      }
    }
  }
}
