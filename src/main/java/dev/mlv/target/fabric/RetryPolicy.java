package dev.mlv.target.fabric;

import java.time.Duration;

/**
 * How long and how often calls to Fabric are retried and polled. Defaults suit the real service;
 * tests shrink every interval to milliseconds.
 *
 * @param initialBackoff first wait after a transient failure, doubled on each further failure
 * @param maxBackoff longest wait between two attempts
 * @param retryBudget total time one call may spend retrying before it gives up
 * @param requestTimeout time limit of one HTTP exchange
 * @param pollInitial first wait when polling a session, statement, job or operation
 * @param pollMax longest wait between two polls (the interval grows by half each time)
 * @param statementTimeout longest a Livy statement may run before it is cancelled, and a
 *     long-running operation before mlv stops waiting for it
 * @param sessionStartTimeout longest a new Livy session may take to become idle
 */
public record RetryPolicy(
    Duration initialBackoff,
    Duration maxBackoff,
    Duration retryBudget,
    Duration requestTimeout,
    Duration pollInitial,
    Duration pollMax,
    Duration statementTimeout,
    Duration sessionStartTimeout) {

  public static RetryPolicy defaults() {
    return new RetryPolicy(
        Duration.ofSeconds(1),
        Duration.ofSeconds(60),
        Duration.ofMinutes(10),
        Duration.ofSeconds(120),
        Duration.ofSeconds(2),
        Duration.ofSeconds(30),
        Duration.ofHours(1),
        Duration.ofMinutes(10));
  }

  /** The built-in limits with those the target sets in mlv.yml. */
  public static RetryPolicy of(dev.mlv.project.FabricTarget target) {
    RetryPolicy d = defaults();
    return new RetryPolicy(
        d.initialBackoff,
        d.maxBackoff,
        target.retryBudget().orElse(d.retryBudget),
        d.requestTimeout,
        d.pollInitial,
        d.pollMax,
        target.statementTimeout().orElse(d.statementTimeout),
        d.sessionStartTimeout);
  }

  /** A limit as mlv.yml writes it: {@code 90s}, {@code 10m}, {@code 1h}. */
  static String describe(Duration d) {
    long s = d.toSeconds();
    if (s > 0 && s % 3600 == 0) {
      return s / 3600 + "h";
    }
    if (s > 0 && s % 60 == 0) {
      return s / 60 + "m";
    }
    return s > 0 ? s + "s" : d.toMillis() + "ms";
  }

  /** The wait before retry number {@code attempt} (0-based): exponential with full jitter. */
  Duration backoff(int attempt, java.util.random.RandomGenerator random) {
    long base = initialBackoff.toMillis() << Math.min(attempt, 20);
    long capped = Math.min(Math.max(base, 1), maxBackoff.toMillis());
    // Half fixed, half random: spreads clients that failed together without waiting near zero.
    return Duration.ofMillis(capped / 2 + (long) (random.nextDouble() * (capped / 2.0 + 1)));
  }

  Duration nextPoll(Duration previous) {
    long next = Math.max(previous.toMillis() + previous.toMillis() / 2, pollInitial.toMillis());
    return Duration.ofMillis(Math.min(next, pollMax.toMillis()));
  }
}
