package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.MlvException;
import dev.mlv.project.Project;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Fabric target under injected transient faults, and the faults it must not retry. */
class FabricFaultTest {
  @TempDir Path dir;
  SimulatedFabric fabric;

  @BeforeEach
  void start() {
    fabric = new SimulatedFabric(dir);
  }

  @AfterEach
  void stop() {
    fabric.close();
  }

  @Test
  void underThirtyPercentTransientFaultsApplyAndRefreshCompleteAndNothingRunsTwice() {
    Project p = fabric.withOrders();
    fabric.simulator.faults = EnumSet.allOf(FabricSimulator.Fault.class);
    fabric.simulator.faultRate = 0.3;
    fabric.simulator.slowPolls = 3;

    RunReport applied = fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
    assertThat(applied.status()).as(applied.toString()).isEqualTo(RunStatus.Completed);
    fabric.sql("INSERT INTO " + SimulatedFabric.LAKEHOUSE + ".bronze.orders SELECT 2");
    RunReport refreshed =
        fabric.target.refresh(p, SimulatedFabric.request(p, false), RunListener.NONE);
    assertThat(refreshed.status()).as(refreshed.toString()).isEqualTo(RunStatus.Completed);

    assertThat(fabric.simulator.injected.get()).isGreaterThan(10);
    assertThat(fabric.simulator.jobsSubmitted.get()).isEqualTo(1);
    assertThat(fabric.simulator.definitionsCreated.get()).isEqualTo(1);
    assertThat(fabric.simulator.timesRun("CREATE OR REPLACE MATERIALIZED LAKE VIEW silver"))
        .isEqualTo(1);
    assertThat(fabric.simulator.timesRun("CREATE OR REPLACE MATERIALIZED LAKE VIEW gold"))
        .isEqualTo(1);
    assertThat(fabric.simulator.timesRun("INSERT INTO")).isEqualTo(1);
    fabric.simulator.faultRate = 0;
    assertThat(fabric.plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void aStatementWhoseSessionDiedWhileItRanIsRunAgainOnlyWhenThatIsHarmless() {
    fabric.withOrders();
    // An INSERT the dead session had accepted may have run: sending it again could add its rows
    // twice, so the command says the outcome is unknown.
    fabric.simulator.killSessionAfterAccepting = "INSERT INTO";
    assertThatThrownBy(() -> fabric.sql("INSERT INTO lh_fabric.bronze.orders VALUES (2)"))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("FABRIC_SESSION_LOST")
        .hasMessageContaining("whether it took effect is unknown");
    assertThat(fabric.simulator.timesRun("INSERT INTO")).isEqualTo(1);
    // A read is sent again in a new session.
    fabric.simulator.killSessionAfterAccepting = "SHOW MATERIALIZED";
    fabric.sql("SHOW MATERIALIZED LAKE VIEWS IN silver");
    assertThat(fabric.simulator.timesRun("SHOW MATERIALIZED")).isEqualTo(2);
    assertThat(LivyClient.readOnly("-- note\n  /* x */ show tables")).isTrue();
    assertThat(LivyClient.readOnly("WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a")).isFalse();
  }

  @Test
  void everyLostAnswerToASubmissionIsFoundInsteadOfSubmittingItAgain() {
    Project p = fabric.withOrders();
    int sessionsBefore = fabric.simulator.sessionsCreated.get();
    fabric.target.close();
    fabric.target = fabric.open(FabricTargetContractTest.fast());
    fabric.simulator.killSessions();
    fabric.simulator.faults = Set.of(FabricSimulator.Fault.DROP_AFTER);
    fabric.simulator.faultRate = 1.0;

    RunReport applied = fabric.target.apply(p, fabric.plan(p, false), RunListener.NONE);
    assertThat(applied.status()).as(applied.toString()).isEqualTo(RunStatus.Completed);
    assertThat(fabric.simulator.injected.get()).isGreaterThan(3);
    assertThat(fabric.simulator.sessionsCreated.get()).isEqualTo(sessionsBefore + 1);
    assertThat(fabric.simulator.timesRun("CREATE OR REPLACE MATERIALIZED LAKE VIEW silver"))
        .isEqualTo(1);
  }

  @Test
  void aSecondMlvStartsItsOwnSessionEvenWhereSessionsCannotBeListed() throws Exception {
    fabric.withOrders();
    // Another mlv (its own session file) while the first one's session is alive, on a service
    // that answers no listing of sessions (Fabric does not document one).
    java.nio.file.Files.delete(dir.resolve(".mlv/fabric/prod/livy-session"));
    fabric.simulator.listSessions = false;
    int sessionsBefore = fabric.simulator.sessionsCreated.get();
    FabricWorkspaceTarget second = fabric.open(FabricTargetContractTest.fast());
    try {
      second.sql(
          fabric.project(),
          dev.mlv.sql.MlvParser.parse(
                  dev.mlv.diag.Position.start(null), "SHOW MATERIALIZED LAKE VIEWS IN silver")
              .statements()
              .get(0));
    } finally {
      second.close();
    }
    assertThat(fabric.simulator.sessionsCreated.get()).isEqualTo(sessionsBefore + 1);
  }

  @Test
  void throttlingBeyondTheRetryBudgetStopsWithTheLastError() {
    fabric.simulator.faults = Set.of(FabricSimulator.Fault.THROTTLE);
    fabric.simulator.faultRate = 1.0;
    RetryPolicy shortBudget =
        new RetryPolicy(
            Duration.ofMillis(1),
            Duration.ofMillis(5),
            Duration.ofMillis(300),
            Duration.ofSeconds(5),
            Duration.ofMillis(1),
            Duration.ofMillis(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5));
    FabricWorkspaceTarget t = fabric.open(shortBudget);
    assertThatThrownBy(() -> t.state(fabric.project()))
        .isInstanceOf(MlvException.class)
        .hasMessageContaining("FABRIC_UNAVAILABLE")
        .hasMessageContaining("RequestBlocked")
        .hasMessageContaining("HTTP 429")
        .hasMessageContaining("retry budget of 300ms (retry_budget on the target in mlv.yml)");
  }

  @Test
  void aNonRetriableErrorStopsAtOnceWithItsCodeAndRequestId() {
    FabricHttp http =
        new FabricHttp(
            fabric.simulator.endpoint(),
            true,
            TokenSource.of(
                new dev.mlv.project.AuthConfig.TokenFromEnv("T"),
                Map.of("T", fabric.simulator.token)),
            FabricTargetContractTest.fast());
    int before = fabric.simulator.requests.get();
    assertThatThrownBy(
            () ->
                http.get(
                    "/workspaces/"
                        + fabric.workspaceId
                        + "/lakehouses/"
                        + java.util.UUID.randomUUID()
                        + "/mlvexecutiondefinitions",
                    "listing"))
        .isInstanceOf(FabricApiException.class)
        .hasMessageMatching("(?s).*ItemNotFound.*HTTP 404, request id [0-9a-f-]{36}.*");
    assertThat(fabric.simulator.requests.get()).isEqualTo(before + 1);
  }

  @Test
  void anExpiredTokenIsFetchedAgainOnce() {
    java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();
    TokenSource tokens =
        new TokenSource(
            "token",
            () ->
                new TokenSource.Issued(
                    reads.incrementAndGet() == 1 ? "stale" : fabric.simulator.token,
                    java.time.Instant.MAX),
            java.time.Clock.systemUTC());
    FabricHttp http =
        new FabricHttp(fabric.simulator.endpoint(), true, tokens, FabricTargetContractTest.fast());
    http.get(
        "/workspaces/" + fabric.workspaceId + "/items/" + fabric.lakehouseId + "/jobs/instances",
        "listing");
    assertThat(reads.get()).isEqualTo(2);
  }

  @Test
  void aTokenIsRenewedBeforeItExpires() {
    java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();
    java.time.Instant now = java.time.Instant.parse("2026-01-01T00:00:00Z");
    java.util.concurrent.atomic.AtomicReference<java.time.Instant> clock =
        new java.util.concurrent.atomic.AtomicReference<>(now);
    TokenSource tokens =
        new TokenSource(
            "spn",
            () ->
                new TokenSource.Issued(
                    "t" + reads.incrementAndGet(), now.plus(Duration.ofHours(1))),
            new java.time.Clock() {
              @Override
              public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
              }

              @Override
              public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
              }

              @Override
              public java.time.Instant instant() {
                return clock.get();
              }
            });
    assertThat(tokens.token()).isEqualTo("t1");
    clock.set(now.plus(Duration.ofMinutes(50)));
    assertThat(tokens.token()).isEqualTo("t1");
    clock.set(now.plus(Duration.ofMinutes(56)));
    assertThat(tokens.token()).isEqualTo("t2");
    assertThat(tokens.toString()).doesNotContain("t2");
  }

  @Test
  void tokensGoOnlyToFabricHostsOrAnAllowedLoopbackEndpoint() {
    Endpoints.checkBase(URI.create("https://api.fabric.microsoft.com/v1"), false);
    Endpoints.checkBase(URI.create("https://x.pbidedicated.windows.net/v1"), false);
    Endpoints.checkBase(URI.create("http://127.0.0.1:8080/v1"), true);
    assertThatThrownBy(() -> Endpoints.checkBase(URI.create("https://evil.example.com/v1"), false))
        .hasMessageContaining("refusing to send a token");
    assertThatThrownBy(
            () -> Endpoints.checkBase(URI.create("http://api.fabric.microsoft.com/v1"), false))
        .hasMessageContaining("refusing");
    assertThatThrownBy(() -> Endpoints.checkBase(URI.create("http://10.0.0.5/v1"), true))
        .hasMessageContaining("plain HTTP only on loopback");
    assertThatThrownBy(
            () -> Endpoints.checkBase(URI.create("https://fabric.microsoft.com.evil.io/v1"), false))
        .hasMessageContaining("refusing");
    assertThatThrownBy(
            () ->
                Endpoints.checkFollowed(
                    URI.create("https://api.fabric.microsoft.com/v1"),
                    URI.create("https://evil.example.com/jobs/1")))
        .hasMessageContaining("not a Fabric host");
  }
}
