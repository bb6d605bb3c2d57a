package dev.mlv.target.fabric;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.diag.MlvException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Starting an on-demand Fabric job and following it to its end, the same for every item that has
 * jobs (the lakehouse's refresh job, a notebook's run).
 */
final class JobRuns {
  private final FabricHttp http;

  JobRuns(FabricHttp http) {
    this.http = http;
  }

  /**
   * POSTs the job and returns its instance URL. A submission whose answer was lost is recognised
   * among the instances that did not exist before, so the job is never started twice.
   *
   * @param instances lists the item's job instances
   * @param instanceUrl the URL of one instance, by its id
   */
  URI start(
      URI post,
      ObjectNode body,
      String what,
      Supplier<List<JobClient.JobInstance>> instances,
      Function<String, URI> instanceUrl) {
    Set<String> before = new HashSet<>();
    instances.get().forEach(j -> before.add(j.id()));
    FabricHttp.Response r =
        http.send(
            "POST",
            post,
            body,
            what,
            false,
            () ->
                instances.get().stream()
                    .filter(j -> !before.contains(j.id()))
                    .findFirst()
                    .map(
                        j ->
                            new FabricHttp.Response(
                                202,
                                null,
                                Optional.of(instanceUrl.apply(j.id()).toString()),
                                Optional.empty(),
                                Optional.empty())));
    String location =
        r.location()
            .orElseThrow(
                () ->
                    new MlvException(
                        "FABRIC_API",
                        "the job scheduler accepted the job (" + what + ") but gave no Location"));
    return location.startsWith("http") ? URI.create(location) : http.url(location);
  }

  /**
   * Polls the instance until it ends, with growing intervals (or the service's Retry-After). Past
   * the timeout the instance is cancelled and {@code timedOut} says what to throw.
   */
  JobClient.JobInstance await(
      URI instance,
      Duration timeout,
      String what,
      Consumer<JobClient.JobInstance> seen,
      Function<JobClient.JobInstance, MlvException> timedOut) {
    Instant deadline = Instant.now().plus(timeout);
    Duration wait = http.policy().pollInitial();
    while (true) {
      FabricHttp.Response r = http.send("GET", instance, null, "reading " + what, true, null);
      JobClient.JobInstance j = JobClient.instance(r.body(), "reading " + what);
      seen.accept(j);
      if (j.finished()) {
        return j;
      }
      if (Instant.now().isAfter(deadline)) {
        cancel(instance, what);
        throw timedOut.apply(j);
      }
      // A Retry-After past the deadline is cut to it: the timeout must cancel the job on time.
      Duration pause = r.retryAfter().filter(d -> d.compareTo(Duration.ZERO) > 0).orElse(wait);
      Duration left = Duration.between(Instant.now(), deadline);
      FabricHttp.sleep(
          pause.compareTo(left) > 0 ? left.plusMillis(1) : pause, "waiting for " + what);
      wait = http.policy().nextPoll(wait);
    }
  }

  void cancel(URI instance, String what) {
    http.send("POST", URI.create(instance + "/cancel"), null, "cancelling " + what, true, null);
  }
}
