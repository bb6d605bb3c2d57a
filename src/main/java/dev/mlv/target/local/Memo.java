package dev.mlv.target.local;

import java.util.function.Supplier;

/**
 * Computes a value on first use and remembers it. Thread-safe: views of one run are decided and
 * refreshed on several threads, and a decision and its refresh share one analysis.
 */
final class Memo<T> implements Supplier<T> {
  private final Supplier<T> compute;
  private T value;

  private Memo(Supplier<T> compute) {
    this.compute = compute;
  }

  static <T> Memo<T> of(Supplier<T> compute) {
    return new Memo<>(compute);
  }

  @Override
  public synchronized T get() {
    if (value == null) {
      value = compute.get();
    }
    return value;
  }
}
