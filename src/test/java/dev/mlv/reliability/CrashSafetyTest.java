package dev.mlv.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety: {@code mlv refresh} and {@code mlv apply} in a child JVM, killed with SIGKILL at
 * seeded random moments (5 in CI; {@code bench/soak.sh} runs 50 with {@code -Dmlv.kills=50}).
 */
class CrashSafetyTest {
  @TempDir Path tmp;

  @Test
  void killedRunsLeaveEveryViewWholeAndTheNextRunRepairsAll() throws Exception {
    int kills = Integer.getInteger("mlv.kills", 5);
    long seed = Long.getLong("mlv.seed", 20261129L);
    CrashHarness.Report r = new CrashHarness(tmp.resolve("project"), seed, System.out).run(kills);
    String summary = "seed=" + seed + " " + r.summary();
    System.out.println("RESULT " + summary);
    Path out = Path.of("target", "reliability");
    Files.createDirectories(out);
    Files.writeString(out.resolve("crash.txt"), summary + "\n" + String.join("\n", r.failures()));
    assertThat(r.failures()).as(summary).isEmpty();
    assertThat(r.kills()).isEqualTo(kills);
    assertThat(r.applyKills()).isPositive();
    assertThat(r.viewsChecked()).isEqualTo(kills * ReliabilityProject.VIEWS.size());
  }
}
