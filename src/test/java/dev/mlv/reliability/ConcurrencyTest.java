package dev.mlv.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.cli.CliRun;
import dev.mlv.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code mlv refresh} processes on one project at once: exactly one runs, the other is skipped
 * with exit code 3 and no row is doubled; {@code apply} and {@code refresh} started while a refresh
 * holds the lakehouse are refused the same way; a third process on another project runs side by
 * side with them.
 */
class ConcurrencyTest {
  @TempDir Path tmp;

  @Test
  void oneRefreshPerLakehouseAndIndependentProjectsSideBySide() throws Exception {
    ReliabilityProject a = new ReliabilityProject(tmp.resolve("a"), "conc_a_lh");
    ReliabilityProject b = new ReliabilityProject(tmp.resolve("b"), "conc_b_lh");
    a.create(500);
    b.create(300);
    a.appendBronze(200);
    b.appendBronze(200);
    Map<String, String> wantA = a.expected();
    Map<String, String> wantB = b.expected();

    List<ChildMlv> children = new ArrayList<>();
    try {
      ChildMlv a1 = ChildMlv.start("1g", tmp, "refresh", "-p", a.root().toString());
      ChildMlv a2 = ChildMlv.start("1g", tmp, "refresh", "-p", a.root().toString());
      ChildMlv b1 = ChildMlv.start("1g", tmp, "refresh", "-p", b.root().toString());
      children.addAll(List.of(a1, a2, b1));

      // While one of them holds project a's lakehouse, apply and refresh here are refused.
      Path lock = a.lakehouseMlvDir().resolve("refresh.lock");
      long end = System.currentTimeMillis() + 120_000;
      while (!Files.exists(lock) && System.currentTimeMillis() < end) {
        Thread.sleep(50);
      }
      assertThat(lock).as("a refresh of project a took the lock").exists();
      a.toggleTotals();
      CliRun apply = a.mlv("apply", "--auto-approve");
      a.toggleTotals();
      CliRun refresh = a.mlv("refresh");

      int c1 = a1.waitFor(900_000);
      int c2 = a2.waitFor(900_000);
      int c3 = b1.waitFor(900_000);
      String all = "a1 " + c1 + " " + a1.err() + "\na2 " + c2 + " " + a2.err() + "\nb1 " + c3;
      assertThat(List.of(c1, c2))
          .as(all)
          .containsExactlyInAnyOrder(0, ExitCodes.SKIPPED_CONCURRENT);
      ChildMlv skipped = c1 == ExitCodes.SKIPPED_CONCURRENT ? a1 : a2;
      assertThat(skipped.err()).contains("another refresh").contains("skipped, not queued");
      assertThat(skipped.out()).contains("Skipped");
      assertThat(c3).as(b1.err()).isZero();

      assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
      assertThat(apply.out() + apply.err()).contains("another refresh");
      assertThat(refresh.exitCode()).as(refresh.toString()).isEqualTo(ExitCodes.SKIPPED_CONCURRENT);
      // No doubled rows, and the refused apply replaced nothing: gold.totals has its old shape.
      assertThat(a.actual()).isEqualTo(wantA);
      assertThat(b.actual()).isEqualTo(wantB);
      assertThat(lock).doesNotExist();
    } finally {
      for (ChildMlv c : children) {
        c.close();
      }
    }
  }
}
