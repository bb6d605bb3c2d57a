package dev.mlv.target.local;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The versions a refresh reads its sources at. A full refresh records the source versions it
 * consumed, and the next incremental refresh reads the changes after them; had Spark read a newer
 * commit than the one recorded (a writer appending while the view refreshes), those rows would be
 * read twice. So while a refresh runs, {@link LakehouseCatalog} resolves each pinned table at its
 * pinned version, as {@code VERSION AS OF} would.
 *
 * <p>Per thread: Spark analyses a query on the thread that submits it, and views of one run refresh
 * on separate threads.
 */
final class ReadPins {
  private static final ThreadLocal<Map<Path, Long>> PINS = ThreadLocal.withInitial(Map::of);

  private ReadPins() {}

  /** Runs {@code work} with the tables in {@code pins} (folder to version) read at that version. */
  static <T> T with(Map<Path, Long> pins, Supplier<T> work) {
    Map<Path, Long> outer = PINS.get();
    Map<Path, Long> normalized = new java.util.HashMap<>();
    pins.forEach((dir, v) -> normalized.put(dir.toAbsolutePath().normalize(), v));
    PINS.set(Map.copyOf(normalized));
    try {
      return work.get();
    } finally {
      PINS.set(outer);
    }
  }

  /** The version the table in {@code dir} is pinned at on this thread, if any. */
  static Optional<Long> of(Path dir) {
    return Optional.ofNullable(PINS.get().get(dir.toAbsolutePath().normalize()));
  }
}
