package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MemoTest {
  @Test
  void computesOnceAcrossThreads() throws InterruptedException {
    AtomicInteger calls = new AtomicInteger();
    Memo<String> memo =
        Memo.of(
            () -> {
              calls.incrementAndGet();
              return "analysis";
            });
    assertThat(calls).hasValue(0);
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 8; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                seen.add(memo.get());
              });
      t.start();
      threads.add(t);
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertThat(memo.get()).isEqualTo("analysis");
    assertThat(seen).hasSize(8).containsOnly("analysis");
    assertThat(calls).hasValue(1);
  }
}
