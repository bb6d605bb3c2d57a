package dev.mlv.refresh;

import dev.mlv.lineage.ObjectId;
import java.util.Map;
import java.util.Optional;

/**
 * What happened to one view in a run, with the quality counts of its constraints; {@code files} is
 * present for a file-ingesting view that read its folder. {@code dropsNotMeasured} says why the
 * counts of rows dropped and violations are unknown (a Fabric refresh whose drops no API reports);
 * then {@code rowsDropped} and {@code violations} are 0 and empty and must not be shown as counts.
 */
public record ViewRun(
    ObjectId id,
    ViewStatus status,
    String strategy,
    String reason,
    long rowsWritten,
    long rowsDropped,
    Map<String, Long> violations,
    long durationMs,
    Optional<String> error,
    Optional<FileCounts> files,
    Optional<String> dropsNotMeasured) {

  public ViewRun {
    violations = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(violations));
  }

  public ViewRun(
      ObjectId id,
      ViewStatus status,
      String strategy,
      String reason,
      long rowsWritten,
      long rowsDropped,
      Map<String, Long> violations,
      long durationMs,
      Optional<String> error,
      Optional<FileCounts> files) {
    this(
        id,
        status,
        strategy,
        reason,
        rowsWritten,
        rowsDropped,
        violations,
        durationMs,
        error,
        files,
        Optional.empty());
  }

  public ViewRun(
      ObjectId id,
      ViewStatus status,
      String strategy,
      String reason,
      long rowsWritten,
      long rowsDropped,
      Map<String, Long> violations,
      long durationMs,
      Optional<String> error) {
    this(
        id,
        status,
        strategy,
        reason,
        rowsWritten,
        rowsDropped,
        violations,
        durationMs,
        error,
        Optional.empty());
  }

  /** This outcome under the view's new name, after a rename. */
  public ViewRun withId(ObjectId newId) {
    return new ViewRun(
        newId,
        status,
        strategy,
        reason,
        rowsWritten,
        rowsDropped,
        violations,
        durationMs,
        error,
        files,
        dropsNotMeasured);
  }

  /** This outcome with {@code error} as its error, everything else kept. */
  public ViewRun withError(String error) {
    return new ViewRun(
        id,
        status,
        strategy,
        reason,
        rowsWritten,
        rowsDropped,
        violations,
        durationMs,
        Optional.of(error),
        files,
        dropsNotMeasured);
  }

  /** Whether {@code rowsDropped} and {@code violations} are counts, not unknowns shown as 0. */
  public boolean dropsMeasured() {
    return dropsNotMeasured.isEmpty();
  }

  /** This outcome with its drops unknown for the reason {@code why}. */
  public ViewRun withDropsNotMeasured(String why) {
    return new ViewRun(
        id,
        status,
        strategy,
        reason,
        rowsWritten,
        0,
        Map.of(),
        durationMs,
        error,
        files,
        Optional.of(why));
  }

  /** This outcome with the drops counted after the fact: {@code dropped} rows, by rule. */
  public ViewRun withDrops(long dropped, Map<String, Long> byRule) {
    return new ViewRun(
        id,
        status,
        strategy,
        reason,
        rowsWritten,
        dropped,
        byRule,
        durationMs,
        error,
        files,
        Optional.empty());
  }

  /**
   * Whether this view's refresh failed because a row broke its {@code ON MISMATCH FAIL} constraint
   * {@code rule}: the engine names the rule in the error. Its violations cannot tell: the local
   * engine records them for a failed refresh too (the rows that broke each FAIL rule), Fabric none.
   */
  public boolean failedBy(String rule) {
    return status == ViewStatus.Failed
        && error.map(e -> e.contains("constraint " + rule + " CHECK (")).orElse(false);
  }

  /** A change that failed before any refresh: nothing was written. */
  public static ViewRun failed(ObjectId id, String reason, String error) {
    return new ViewRun(
        id, ViewStatus.Failed, "none", reason, 0, 0, Map.of(), 0, Optional.of(error));
  }

  /**
   * A view not refreshed because a view it reads directly failed, or was itself skipped because of
   * a failure ({@link UpstreamBlock}): a stable code first, as every reason has, and the failed
   * view at the root of the chain. {@code display} gives the names.
   */
  public static ViewRun skippedForUpstream(
      ObjectId id,
      String strategy,
      UpstreamBlock block,
      java.util.function.Function<ObjectId, String> display) {
    return skipped(
        id,
        strategy,
        block.upstreamFailed()
            ? UPSTREAM_FAILED + ": upstream " + display.apply(block.upstream()) + " failed"
            : UPSTREAM_SKIPPED
                + ": upstream "
                + display.apply(block.upstream())
                + " was skipped because "
                + display.apply(block.root())
                + " failed");
  }

  /** What a dry run says of a view: the strategy and reason it plans, nothing done yet. */
  public static ViewRun planned(ObjectId id, String strategy, String reason) {
    return new ViewRun(
        id, ViewStatus.Planned, strategy, reason, 0, 0, Map.of(), 0, Optional.empty());
  }

  /**
   * What a dry run says of a view that reads a view which will fail, or will be skipped because of
   * a failure: the same rule and codes as the run ({@link UpstreamBlock}); {@code cause} is the
   * root's reason to fail.
   */
  public static ViewRun plannedSkipForUpstream(
      ObjectId id,
      UpstreamBlock block,
      java.util.function.Function<ObjectId, String> display,
      String cause) {
    String up = display.apply(block.upstream());
    return planned(
        id,
        "none",
        block.upstreamFailed()
            ? UPSTREAM_FAILED
                + ": upstream "
                + up
                + " will fail ("
                + cause
                + ")"
                + ", so this view will be skipped"
            : UPSTREAM_SKIPPED
                + ": upstream "
                + up
                + " will be skipped because "
                + display.apply(block.root())
                + " will fail ("
                + cause
                + "), so this view will be skipped");
  }

  public static final String UPSTREAM_FAILED = "UPSTREAM_FAILED";
  public static final String UPSTREAM_SKIPPED = "UPSTREAM_SKIPPED";

  /** Whether this view was skipped because an upstream view failed or was skipped. */
  public boolean skippedForUpstream() {
    return status == ViewStatus.Skipped
        && (reason.startsWith(UPSTREAM_FAILED + ":") || reason.startsWith(UPSTREAM_SKIPPED + ":"));
  }

  /**
   * Whether a dry run already knows this view's refresh would fail: it is not deployed, or reads a
   * source that does not exist.
   */
  public boolean wouldFail() {
    return status == ViewStatus.Planned
        && (reason.startsWith("NOT_DEPLOYED")
            || reason.startsWith("SOURCE_MISSING")
            || reason.startsWith(SOURCE_COLUMNS));
  }

  /** A dry run's reason for a view that reads a column its source does not have (any more). */
  public static final String SOURCE_COLUMNS = "SOURCE_COLUMNS";

  /**
   * Whether a dry run knows this view would be skipped, because a view it reads would fail or be
   * skipped.
   */
  public boolean wouldBeSkipped() {
    return status == ViewStatus.Planned
        && (reason.startsWith(UPSTREAM_FAILED + ":") || reason.startsWith(UPSTREAM_SKIPPED + ":"));
  }

  /** The reason code of a PySpark view on the local target, which never runs it. */
  public static final String PYSPARK_NOT_RUN_LOCALLY = "PYSPARK_NOT_RUN_LOCALLY";

  /**
   * Whether a dry run plans this view as one the target never runs (a PySpark view on the local
   * target): the run will skip it, but not because anything fails, so the exit code stays 0.
   */
  public boolean plannedNotRun() {
    return status == ViewStatus.Planned && reason.startsWith(PYSPARK_NOT_RUN_LOCALLY + ":");
  }

  public static ViewRun skipped(ObjectId id, String strategy, String reason) {
    return new ViewRun(
        id, ViewStatus.Skipped, strategy, reason, 0, 0, Map.of(), 0, Optional.empty());
  }
}
