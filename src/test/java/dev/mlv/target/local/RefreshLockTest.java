package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RefreshLockTest {

  @TempDir Path warehouse;

  @Test
  void aSecondRunIsRefusedWhileTheFirstHoldsTheLock() {
    try (RefreshLock first = RefreshLock.tryAcquire(warehouse, "LH_Sales", "run-1").orElseThrow()) {
      assertThat(first.file())
          .isEqualTo(warehouse.resolve("lh_sales.Lakehouse/.mlv/refresh.lock"))
          .isRegularFile();
      assertThat(RefreshLock.tryAcquire(warehouse, "lh_sales", "run-2")).isEmpty();
      assertThat(RefreshLock.holder(warehouse, "lh_sales"))
          .hasValueSatisfying(
              h -> {
                assertThat(h.runId()).isEqualTo("run-1");
                assertThat(h.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(h.host()).isEqualTo(RefreshLock.host());
              });
      // Another lakehouse has its own lock.
      try (RefreshLock other = RefreshLock.tryAcquire(warehouse, "lh_hr", "run-3").orElseThrow()) {
        assertThat(other.isHeld()).isTrue();
      }
    }
    assertThat(RefreshLock.holder(warehouse, "lh_sales")).isEmpty();
    try (RefreshLock again = RefreshLock.tryAcquire(warehouse, "lh_sales", "run-2").orElseThrow()) {
      assertThat(again.holder().runId()).isEqualTo("run-2");
    }
  }

  @Test
  void theHeartbeatKeepsALongRunLive() throws InterruptedException {
    Duration staleAfter = Duration.ofMillis(400);
    try (RefreshLock lock =
        RefreshLock.tryAcquire(warehouse, "lh", "long-run", staleAfter, Clock.systemUTC())
            .orElseThrow()) {
      Thread.sleep(1_000); // 2.5 times the threshold: only the heartbeat keeps it live
      assertThat(RefreshLock.holder(warehouse, "lh").orElseThrow().heartbeat())
          .isAfter(Instant.now().minus(staleAfter));
      assertThat(RefreshLock.tryAcquire(warehouse, "lh", "next", staleAfter, Clock.systemUTC()))
          .isEmpty();
      assertThat(lock.isHeld()).isTrue();
    }
  }

  @Test
  void aLockWithAnOldHeartbeatIsTakenOver() {
    Path file = RefreshLock.lockFile(warehouse, "lh");
    Instant old = Instant.now().minus(Duration.ofMinutes(3));
    // Our own live pid: only the heartbeat's age makes it stale.
    RefreshLock.write(
        file,
        new RefreshLock.Holder(
            "hung-run", ProcessHandle.current().pid(), RefreshLock.host(), old, old));

    Optional<RefreshLock> taken = RefreshLock.tryAcquire(warehouse, "lh", "new-run");
    assertThat(taken).isPresent();
    taken.get().close();
  }

  @Test
  void aLockOfADeadProcessOnThisHostIsTakenOverAndTheLoserNotices() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path file = RefreshLock.lockFile(warehouse, "lh");
    Instant now = Instant.now();
    RefreshLock.write(
        file, new RefreshLock.Holder("killed-run", gone.pid(), RefreshLock.host(), now, now));
    // The same lock on another host with a fresh heartbeat is live: its pid means nothing here.
    RefreshLock.write(
        file, new RefreshLock.Holder("remote-run", gone.pid(), "elsewhere.invalid", now, now));
    assertThat(RefreshLock.tryAcquire(warehouse, "lh", "new-run")).isEmpty();
    RefreshLock.write(
        file, new RefreshLock.Holder("killed-run", gone.pid(), RefreshLock.host(), now, now));

    Duration staleAfter = Duration.ofMillis(200);
    RefreshLock winner =
        RefreshLock.tryAcquire(warehouse, "lh", "new-run", staleAfter, Clock.systemUTC())
            .orElseThrow();
    // A run judged stale by someone else (here: its heartbeat is overwritten) stops its heartbeat.
    Instant old = Instant.now().minus(Duration.ofMinutes(5));
    RefreshLock.write(
        file,
        new RefreshLock.Holder(
            "thief", ProcessHandle.current().pid(), RefreshLock.host(), old, Instant.now()));
    Thread.sleep(300);
    assertThat(winner.isHeld()).isFalse();
    winner.close();
    assertThat(RefreshLock.holder(warehouse, "lh").orElseThrow().runId()).isEqualTo("thief");
  }
}
