package dev.mlv.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mlv.cli.CliRun;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * Kills {@code mlv refresh} and {@code mlv apply} with SIGKILL at seeded random moments and checks
 * what the kill left: every view readable, at a sound Delta log, holding exactly its content before
 * or after the command; the killed run on record as Interrupted once the next command starts (or as
 * Completed when the kill struck after its history commit and every view is new); the lock of the
 * dead process taken over at once; and the next command completing with the right content. Used by
 * {@link CrashSafetyTest} (5 kills) and by {@code bench/soak.sh} (50).
 */
final class CrashHarness {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the kills showed; {@code failures} is empty when mlv kept every promise. */
  record Report(
      int kills,
      int refreshKills,
      int applyKills,
      int killedWhileRunning,
      int finishedBeforeKill,
      int viewsChecked,
      int viewsBefore,
      int viewsAfter,
      int viewsUnchanged,
      int interruptedRecorded,
      int completedBeforeKill,
      int lockTakenOver,
      long slowestRecoveryMs,
      List<String> failures) {

    String summary() {
      return String.format(
          "kills=%d (refresh %d, apply %d) killedWhileRunning=%d finishedBeforeKill=%d"
              + " viewsChecked=%d before=%d after=%d unchanged=%d interruptedRecorded=%d"
              + " completedBeforeKill=%d lockTakenOver=%d slowestRecoveryMs=%d failures=%d",
          kills,
          refreshKills,
          applyKills,
          killedWhileRunning,
          finishedBeforeKill,
          viewsChecked,
          viewsBefore,
          viewsAfter,
          viewsUnchanged,
          interruptedRecorded,
          completedBeforeKill,
          lockTakenOver,
          slowestRecoveryMs,
          failures.size());
    }
  }

  private final Path project;
  private final long seed;
  private final PrintStream log;

  CrashHarness(Path project, long seed, PrintStream log) {
    this.project = project;
    this.seed = seed;
    this.log = log;
  }

  Report run(int kills) throws InterruptedException {
    Random rnd = new Random(seed);
    ReliabilityProject p = new ReliabilityProject(project, "crash_lh");
    p.create(1000);
    List<String> failures = new ArrayList<>();
    Map<String, String> current = p.actual();
    check(failures, "setup", current, p.expected());
    int refreshKills = 0;
    int applyKills = 0;
    int whileRunning = 0;
    int finishedFirst = 0;
    int checked = 0;
    int before = 0;
    int after = 0;
    int unchanged = 0;
    int interrupted = 0;
    int takenOver = 0;
    long slowest = 0;
    List<String> allMarkers = new ArrayList<>();
    List<String> completedMarkers = new ArrayList<>();
    int completedBeforeKill = 0;
    for (int round = 0; round < kills; round++) {
      boolean apply = round == 1 || (round > 1 && rnd.nextInt(3) == 0);
      String[] args;
      if (apply) {
        applyKills++;
        p.toggleTotals();
        if (round == 1 || rnd.nextBoolean()) {
          p.toggleExtra();
        }
        args = new String[] {"apply", "--auto-approve", "--prune", "-p", project.toString()};
      } else {
        refreshKills++;
        p.appendBronze(150);
        args = new String[] {"refresh", "-p", project.toString()};
      }
      Map<String, String> expected = p.expected();
      String label = "kill " + (round + 1) + " (" + args[0] + ")";

      ChildMlv child = ChildMlv.start("1g", project, args);
      // Half the kills wait for the k-th progress line (views starting and finishing), the
      // others strike at a moment from the start, when Spark is still coming up.
      String when;
      if (rnd.nextInt(4) != 0) {
        int k = 1 + rnd.nextInt(7);
        int delay = rnd.nextInt(1500);
        child.awaitProgress(k, 60_000);
        Thread.sleep(delay);
        when = "progress line " + k + " + " + delay + " ms";
      } else {
        int delay = 500 + rnd.nextInt(9000);
        Thread.sleep(delay);
        when = delay + " ms after start";
      }
      boolean alive = child.isAlive();
      long pid = child.pid();
      child.kill();
      if (!alive) {
        finishedFirst++;
      }
      // Markers of earlier kills can outlive commands that start no Spark; judge each run once.
      List<String> markers = runningMarkers(p);
      markers.removeAll(allMarkers);
      markers.removeAll(completedMarkers);
      if (!markers.isEmpty()) {
        whileRunning++;
      }
      log.printf(
          "%s at %s: %s, %d run marker(s)%n",
          label, when, alive ? "killed" : "had already finished", markers.size());

      // 1. Every view is sound and holds its content before or after the command.
      boolean allAfter = true;
      for (String v : ReliabilityProject.VIEWS) {
        failures.addAll(p.logProblems(v).stream().map(m -> label + ": " + m).toList());
        String got = p.read(v);
        checked++;
        boolean isBefore = got.equals(current.get(v));
        boolean isAfter = got.equals(expected.get(v));
        if (isBefore && isAfter) {
          unchanged++;
        } else if (isBefore) {
          before++;
          allAfter = false;
        } else if (isAfter) {
          after++;
        } else {
          allAfter = false;
          failures.add(
              label + ": " + v + " holds neither its content before nor after:\n" + abbrev(got));
        }
      }

      // 2. The lock of the dead process does not block the next command.
      boolean lockLeft = Files.exists(p.lakehouseMlvDir().resolve("refresh.lock"));

      // 3. Once the next command starts, the killed run is on record as Interrupted. A kill that
      // lands after the run committed its Completed history row leaves a marker too; that run
      // did finish, so Completed is right for it, provided every view holds its new content.
      Map<String, String> statuses = runStatuses(p);
      for (String id : markers) {
        if ("Interrupted".equals(statuses.get(id))) {
          interrupted++;
          allMarkers.add(id);
        } else if ("Completed".equals(statuses.get(id)) && allAfter) {
          completedBeforeKill++;
          completedMarkers.add(id);
        } else {
          failures.add(label + ": run " + id + " is listed as " + statuses.get(id));
        }
      }

      // 4. The next command completes at once, with the right content.
      long t0 = System.nanoTime();
      CliRun next =
          apply
              ? p.mlv("apply", "--auto-approve", "--prune", "--quiet")
              : p.mlv("refresh", "--quiet");
      long ms = (System.nanoTime() - t0) / 1_000_000;
      slowest = Math.max(slowest, ms);
      if (next.exitCode() != 0) {
        failures.add(label + ": the next " + args[0] + " failed: " + next);
      } else if (lockLeft) {
        takenOver++;
      }
      Map<String, String> now = p.actual();
      check(failures, label + ", after the next " + args[0], now, expected);
      if (pid == ProcessHandle.current().pid()) {
        failures.add("the child had this JVM's pid");
      }
      current = now;
    }
    // Once recorded in mlv_history.runs, the killed runs stay Interrupted and the runs that had
    // completed stay Completed.
    Map<String, String> later = runStatuses(p);
    for (String id : allMarkers) {
      if (!"Interrupted".equals(later.get(id))) {
        failures.add("at the end, killed run " + id + " is listed as " + later.get(id));
      }
    }
    for (String id : completedMarkers) {
      if (!"Completed".equals(later.get(id))) {
        failures.add("at the end, completed run " + id + " is listed as " + later.get(id));
      }
    }
    return new Report(
        kills,
        refreshKills,
        applyKills,
        whileRunning,
        finishedFirst,
        checked,
        before,
        after,
        unchanged,
        interrupted,
        completedBeforeKill,
        takenOver,
        slowest,
        failures);
  }

  private static void check(
      List<String> failures, String when, Map<String, String> actual, Map<String, String> want) {
    for (var e : want.entrySet()) {
      if (!e.getValue().equals(actual.get(e.getKey()))) {
        failures.add(
            when
                + ": "
                + e.getKey()
                + " holds\n"
                + abbrev(actual.get(e.getKey()))
                + "\nexpected\n"
                + abbrev(e.getValue()));
      }
    }
  }

  private static String abbrev(String s) {
    return s == null || s.length() < 300 ? s : s.substring(0, 300) + "...";
  }

  private static List<String> runningMarkers(ReliabilityProject p) {
    List<String> ids = new ArrayList<>();
    Path dir = p.lakehouseMlvDir().resolve("runs/running");
    if (!Files.isDirectory(dir)) {
      return ids;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
      for (Path f : ds) {
        String n = f.getFileName().toString();
        ids.add(n.substring(0, n.length() - ".json".length()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ArrayList<>(new TreeSet<>(ids));
  }

  /** Run id to status, as {@code mlv runs --format json} lists them. */
  static Map<String, String> runStatuses(ReliabilityProject p) {
    CliRun r = p.mlv("runs", "--limit", "1000", "--format", "json");
    Map<String, String> out = new HashMap<>();
    if (r.exitCode() != 0) {
      return out;
    }
    try {
      for (JsonNode run : JSON.readTree(r.out()).path("runs")) {
        out.put(run.path("run").path("id").asText(), run.path("run").path("status").asText());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The soak: {@code CrashHarness KILLS SEED DIR}; prints the report and exits 1 on failures. */
  public static void main(String[] args) throws Exception {
    int kills = Integer.parseInt(args[0]);
    long seed = Long.parseLong(args[1]);
    Path dir = Files.createDirectories(Path.of(args[2]));
    Report r = new CrashHarness(dir, seed, System.out).run(kills);
    r.failures().forEach(f -> System.out.println("FAILURE " + f));
    System.out.println("RESULT " + r.summary());
    System.exit(r.failures().isEmpty() ? 0 : 1);
  }
}
