package dev.mlv.target.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One refresh at a time per lakehouse, across processes on this machine: a lock file {@code
 * <lakehouse>.Lakehouse/.mlv/refresh.lock} naming the run, its process, host, start and a heartbeat
 * that a daemon thread keeps fresh. A lock whose process is dead (same host) or whose heartbeat is
 * older than the staleness threshold is taken over, so a killed run never blocks the next one for
 * long.
 *
 * <p>Reading, judging and replacing the lock file happen under an OS lock on a sibling guard file
 * (held for milliseconds), so two runs cannot both judge a stale lock and both take it over.
 */
public final class RefreshLock implements AutoCloseable {

  /** Who holds a lakehouse's refresh lock. */
  public record Holder(String runId, long pid, String host, Instant started, Instant heartbeat) {}

  public static final Duration DEFAULT_STALE_AFTER = Duration.ofMinutes(2);

  private static final ObjectMapper JSON = new ObjectMapper();
  // FileChannel locks are per process: threads of this JVM are serialised here first.
  private static final Object JVM_GUARD = new Object();

  private final Path file;
  private final Clock clock;
  private final ScheduledExecutorService heartbeat;
  private volatile Holder holder;
  private volatile boolean held = true;

  private RefreshLock(Path file, Holder holder, Duration staleAfter, Clock clock) {
    this.file = file;
    this.holder = holder;
    this.clock = clock;
    this.heartbeat =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "mlv-refresh-lock-heartbeat");
              t.setDaemon(true);
              return t;
            });
    long every = Math.max(10, staleAfter.toMillis() / 4);
    heartbeat.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
  }

  /** The lock file of a lakehouse. */
  public static Path lockFile(Path warehouse, String lakehouse) {
    return new Warehouse(warehouse).mlvDir(lakehouse).resolve("refresh.lock");
  }

  /** Takes the lock with the default staleness threshold; empty when a live run holds it. */
  public static Optional<RefreshLock> tryAcquire(Path warehouse, String lakehouse, String runId) {
    return tryAcquire(warehouse, lakehouse, runId, DEFAULT_STALE_AFTER, Clock.systemUTC());
  }

  public static Optional<RefreshLock> tryAcquire(
      Path warehouse, String lakehouse, String runId, Duration staleAfter, Clock clock) {
    Path file = lockFile(warehouse, lakehouse);
    return guarded(
        file,
        current -> {
          if (current.isPresent() && isLive(current.get(), staleAfter, clock)) {
            return Optional.empty();
          }
          Instant now = clock.instant();
          Holder mine = new Holder(runId, ProcessHandle.current().pid(), host(), now, now);
          write(file, mine);
          return Optional.of(new RefreshLock(file, mine, staleAfter, clock));
        });
  }

  /** Who holds the lock now, live or stale; for the message when {@link #tryAcquire} failed. */
  public static Optional<Holder> holder(Path warehouse, String lakehouse) {
    return read(lockFile(warehouse, lakehouse));
  }

  public Holder holder() {
    return holder;
  }

  /** False once released, or when another run took the lock over after judging it stale. */
  public boolean isHeld() {
    return held;
  }

  public Path file() {
    return file;
  }

  private void beat() {
    if (!held) {
      return;
    }
    guarded(
        file,
        current -> {
          if (current.isEmpty() || !current.get().runId().equals(holder.runId())) {
            held = false;
            heartbeat.shutdown();
          } else {
            Holder refreshed =
                new Holder(
                    holder.runId(), holder.pid(), holder.host(), holder.started(), clock.instant());
            write(file, refreshed);
            holder = refreshed;
          }
          return null;
        });
  }

  /** Releases the lock, unless another run has taken it over meanwhile. */
  @Override
  public void close() {
    heartbeat.shutdownNow();
    if (!held) {
      return;
    }
    held = false;
    guarded(
        file,
        current -> {
          if (current.isPresent() && current.get().runId().equals(holder.runId())) {
            try {
              Files.deleteIfExists(file);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
          return null;
        });
  }

  static boolean isLive(Holder h, Duration staleAfter, Clock clock) {
    if (h.heartbeat().isBefore(clock.instant().minus(staleAfter))) {
      return false;
    }
    if (h.host().equals(host())) {
      return ProcessHandle.of(h.pid()).map(ProcessHandle::isAlive).orElse(false);
    }
    return true; // another machine's process: only its heartbeat can tell
  }

  private static <T> T guarded(Path file, Function<Optional<Holder>, T> action) {
    Path guard = file.resolveSibling(file.getFileName() + ".guard");
    synchronized (JVM_GUARD) {
      try {
        Files.createDirectories(file.getParent());
        try (FileChannel channel =
                FileChannel.open(guard, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock ignored = channel.lock()) {
          return action.apply(read(file));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The holder, or empty when there is no lock file; an unreadable file counts as no lock. */
  private static Optional<Holder> read(Path file) {
    try {
      JsonNode n = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
      return Optional.of(
          new Holder(
              n.get("runId").asText(),
              n.get("pid").asLong(),
              n.get("host").asText(),
              Instant.parse(n.get("started").asText()),
              Instant.parse(n.get("heartbeat").asText())));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      // Written by rename, a lock file is never half-written: an unreadable one is no one's lock.
      return Optional.empty();
    }
  }

  /** Writes a temporary file and renames it over the lock, so readers never see a partial one. */
  static void write(Path file, Holder h) {
    ObjectNode n = JSON.createObjectNode();
    n.put("runId", h.runId());
    n.put("pid", h.pid());
    n.put("host", h.host());
    n.put("started", h.started().toString());
    n.put("heartbeat", h.heartbeat().toString());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(tmp, n.toPrettyString() + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String host() {
    return HostName.NAME;
  }

  // Resolving the host name can be slow; once per process is enough.
  private static final class HostName {
    static final String NAME = resolve();

    private static String resolve() {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
      }
    }
  }
}
