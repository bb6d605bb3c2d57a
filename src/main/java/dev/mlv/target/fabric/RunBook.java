package dev.mlv.target.fabric;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runs of a Fabric target as mlv keeps them: each refresh or apply recorded once, by itself or,
 * on Ctrl-C, as interrupted, and the records read back with the lakehouse's other jobs from Fabric.
 */
final class RunBook {
  private final RunRecords records;
  private final JobClient jobs;
  private final String target;

  /** The refresh or apply in flight, for the Ctrl-C hook to record; null between them. */
  private final java.util.concurrent.atomic.AtomicReference<InFlight> inFlight =
      new java.util.concurrent.atomic.AtomicReference<>();

  RunBook(RunRecords records, JobClient jobs, String target) {
    this.records = records;
    this.jobs = jobs;
    this.target = target;
  }

  /** A refresh or apply starts: the hook records it if Ctrl-C comes before it ends. */
  InFlight start(String runId, Instant started) {
    InFlight now = new InFlight(runId, started);
    inFlight.set(now);
    return now;
  }

  /** The run in flight has ended, recorded by itself or by the hook. */
  void end() {
    inFlight.set(null);
  }

  /** The run in flight, if any. */
  Optional<InFlight> current() {
    return Optional.ofNullable(inFlight.get());
  }

  /**
   * Records a run that ended on its own, unless Ctrl-C recorded it as interrupted first; then fails
   * the command if its first job could not be followed ({@link #failLost}).
   */
  RunReport recordFinished(
      InFlight now,
      RunReport report,
      List<String> jobIds,
      Optional<JobClient.OutcomeUnknown> lost,
      RunListener listener) {
    Optional<String> notKept;
    synchronized (now) {
      if (now.recorded) {
        return report; // stopped with Ctrl-C: the hook recorded it as interrupted
      }
      now.recorded = true;
      notKept = keep(report, jobIds, listener);
    }
    lost.ifPresent(l -> failLost(l, report.id(), notKept));
    return report;
  }

  /**
   * What a refresh or apply has done so far, shared with the Ctrl-C hook: the outcome of apply's
   * own changes, the views in refresh order, the outcome of each finished one, the job instances
   * started and the views of the job in flight. Whichever of the refresh and the hook records the
   * run first sets {@code recorded}, under this object's lock.
   */
  static final class InFlight {
    final String runId;
    final Instant started;
    volatile List<ObjectId> order = List.of();
    volatile List<ObjectId> running = List.of();
    final Map<ObjectId, ViewRun> done = new java.util.concurrent.ConcurrentHashMap<>();
    // In plan order; read under its own lock.
    final Map<ObjectId, ViewRun> applied =
        java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    final List<String> jobIds = new java.util.concurrent.CopyOnWriteArrayList<>();
    boolean recorded;

    InFlight(String runId, Instant started) {
      this.runId = runId;
      this.started = started;
    }
  }

  /**
   * Records the run in flight as interrupted, unless it is on record already; the run so recorded.
   */
  Optional<RunReport> recordInterrupted(InFlight now, Optional<String> runningJob) {
    synchronized (now) {
      if (now.recorded) {
        return Optional.empty();
      }
      now.recorded = true;
      List<String> jobIds = new ArrayList<>(now.jobIds);
      runningJob.filter(j -> !jobIds.contains(j)).ifPresent(jobIds::add);
      List<ViewRun> views = new ArrayList<>();
      // Apply's renames, drops and creates first; a view its job refreshes is told by the job.
      synchronized (now.applied) {
        now.applied.values().stream().filter(v -> !now.order.contains(v.id())).forEach(views::add);
      }
      String why =
          runningJob
              .map(
                  j ->
                      "the run was interrupted while refresh job "
                          + j
                          + " refreshed this view; the job was cancelled")
              .orElse("the run was interrupted before mlv read what its refresh job did");
      for (ObjectId id : now.order) {
        ViewRun run = now.done.get(id);
        if (run == null) {
          run =
              now.running.contains(id)
                  ? ViewRun.failed(id, "INTERRUPTED", why)
                  : ViewRun.skipped(
                      id, "none", "INTERRUPTED: the run was interrupted before it started");
        }
        views.add(run);
      }
      RunReport report =
          new RunReport(
              now.runId, RunStatus.Interrupted, now.started, RunReport.now(), target, views);
      try {
        records.save(report, jobIds, List.of());
      } catch (RuntimeException e) {
        // The process is ending: the job is listed from Fabric, as Cancelled.
      }
      return Optional.of(report);
    }
  }

  /**
   * The command's first job was accepted but not followed: nothing mlv knows of the run says it
   * went well, so the command fails, naming the job that may still run and the run on record.
   */
  private static void failLost(
      JobClient.OutcomeUnknown lost, String runId, Optional<String> notKept) {
    throw new MlvException(
        lost.diagnostics().get(0).ruleId(),
        lost.getMessage()
            + "; "
            + notKept.orElse(
                "run " + runId + " is recorded with its views failed (JOB_OUTCOME_UNKNOWN)"),
        lost.getCause());
  }

  /**
   * Records the run; why it could not, if it could not. The views are refreshed by now, so a record
   * that cannot be written is a warning, as on the local target, not a failed run.
   */
  private Optional<String> keep(RunReport report, List<String> jobIds, RunListener listener) {
    try {
      records.save(
          report, jobIds, jobIds.stream().flatMap(j -> jobs.throttledBefore(j).stream()).toList());
      return Optional.empty();
    } catch (MlvException e) {
      String why = e.diagnostics().get(0).message();
      listener.message("warning: " + why);
      return Optional.of(why);
    }
  }

  /** The runs on record here and every other job of the lakehouse, newest first. */
  List<RunReport> runs(int limit, RunListener listener) {
    List<RunRecords.Stored> local = records.all(listener);
    Set<String> known = new HashSet<>();
    List<RunReport> out = new ArrayList<>();
    for (RunRecords.Stored r : local) {
      out.add(r.run());
      known.addAll(r.jobIds());
    }
    for (JobClient.JobInstance j : jobs.instances()) {
      if (!known.contains(j.id())) {
        out.add(fromJob(j));
      }
    }
    out.sort((a, b) -> b.startedAt().compareTo(a.startedAt()));
    return out.subList(0, Math.min(limit, out.size()));
  }

  /** The run of this id or job instance id: on record here, else from Fabric. */
  Optional<RunReport> run(String id, RunListener listener) {
    Optional<RunReport> local = records.find(id, listener);
    if (local.isPresent()) {
      return local.map(this::withJobsEnded);
    }
    return jobs.instance(id).map(this::fromJob);
  }

  private static final Pattern UNFOLLOWED_JOB =
      Pattern.compile("refresh job ([0-9a-fA-F-]{36}) was started and may still be running");

  /**
   * The run, with how Fabric says each job mlv could not follow ended (or that it still runs) added
   * to the error of its views ({@code JOB_OUTCOME_UNKNOWN}): the error promised that {@code mlv
   * runs <job id>} shows it.
   */
  private RunReport withJobsEnded(RunReport run) {
    Map<String, String> said = new HashMap<>();
    List<ViewRun> views = new ArrayList<>();
    for (ViewRun v : run.views()) {
      Matcher m =
          v.reason().equals("JOB_OUTCOME_UNKNOWN") && v.error().isPresent()
              ? UNFOLLOWED_JOB.matcher(v.error().get())
              : null;
      if (m == null || !m.find()) {
        views.add(v);
        continue;
      }
      String job = m.group(1);
      String now = said.computeIfAbsent(job, this::jobEnded);
      views.add(v.withError(v.error().get() + now));
    }
    return new RunReport(
        run.id(), run.status(), run.startedAt(), run.endedAt(), run.target(), views);
  }

  /** How Fabric says the job ended, as a clause; none when Fabric cannot be asked now. */
  private String jobEnded(String job) {
    try {
      return jobs.instance(job)
          .map(
              i ->
                  i.finished()
                      ? "; Fabric reports that refresh job "
                          + job
                          + " ended "
                          + i.status()
                          + i.failure().map(f -> " (" + f + ")").orElse("")
                      : "; Fabric reports that refresh job " + job + " is " + i.status())
          .orElse("");
    } catch (MlvException e) {
      return ""; // the record is still worth showing as it was kept
    }
  }

  /**
   * A job started elsewhere (a schedule, the Fabric UI), or one whose mlv process ended before it
   * did: Fabric tells no per-view outcome. A cancelled job was stopped, not failed by a view, as a
   * local run stopped by Ctrl-C is.
   */
  private RunReport fromJob(JobClient.JobInstance j) {
    RunStatus status =
        switch (j.status()) {
          case "Completed" -> RunStatus.Completed;
          case "Failed" -> RunStatus.Failed;
          case "Cancelled" -> RunStatus.Interrupted;
          case "Deduped" -> RunStatus.Skipped;
          default -> RunStatus.Running;
        };
    Instant start = j.start().orElse(Instant.EPOCH);
    return new RunReport(j.id(), status, start, j.end().orElse(null), target, List.of());
  }
}
