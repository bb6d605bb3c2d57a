package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import dev.mlv.plan.Plan;
import dev.mlv.plan.Planner;
import dev.mlv.project.AuthConfig;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.FabricTarget;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.sql.MlvParser;
import dev.mlv.target.SqlResult;
import dev.mlv.target.TargetContractTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A small project ({@code bronze.orders} → {@code silver.orders_clean} → {@code gold.by_customer})
 * deployed to a catalog-only {@link FabricSimulator}, for the fast Fabric target tests.
 */
final class SimulatedFabric implements AutoCloseable {
  static final String WORKSPACE = "ws_fabric";
  static final String LAKEHOUSE = "lh_fabric";

  final Path dir;
  final FabricSimulator simulator;
  final UUID workspaceId = UUID.randomUUID();
  final UUID lakehouseId = UUID.randomUUID();
  final CatalogDataPlane data = new CatalogDataPlane(LAKEHOUSE);
  FabricWorkspaceTarget target;

  SimulatedFabric(Path dir) {
    this.dir = dir;
    try {
      simulator = new FabricSimulator();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    simulator.addLakehouse(workspaceId, lakehouseId, WORKSPACE, LAKEHOUSE, data);
    write("mlv.yml", config(""));
    write("views/silver/orders_clean.sql", TargetContractTest.SILVER);
    write("views/gold/by_customer.sql", TargetContractTest.GOLD);
    target = open(FabricTargetContractTest.fast());
  }

  String config(String targetAuth) {
    return "name: fabric_test\nworkspace: "
        + WORKSPACE
        + "\nlakehouse: "
        + LAKEHOUSE
        + "\nschema: dbo\nsources: [bronze.orders]\ndefaults:\n  enable_cdf: false\n"
        + "targets:\n  prod:\n    type: fabric\n    workspaceId: "
        + workspaceId
        + "\n    lakehouseId: "
        + lakehouseId
        + "\n    endpoint: "
        + simulator.endpoint()
        + "\n    allow_endpoint: true\n"
        + targetAuth;
  }

  FabricWorkspaceTarget open(RetryPolicy policy) {
    AuthConfig auth = new AuthConfig.TokenFromEnv("SIM_TOKEN");
    FabricTarget t =
        new FabricTarget("prod", workspaceId, lakehouseId, simulator.endpoint(), true, auth);
    return new FabricWorkspaceTarget(
        project().config(), t, TokenSource.of(auth, Map.of("SIM_TOKEN", simulator.token)), policy);
  }

  void write(String relative, String text) {
    try {
      Path f = dir.resolve(relative);
      Files.createDirectories(f.getParent());
      Files.writeString(f, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Project project() {
    LoadResult loaded = ProjectLoader.load(dir, Map.of());
    assertThat(loaded.hasErrors()).as(loaded.diagnostics().toString()).isFalse();
    ProjectConfig config = loaded.orThrow();
    return new ProjectBuilder()
        .build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
  }

  SqlResult sql(String sql) {
    return target.sql(project(), MlvParser.parse(Position.start(null), sql).statements().get(0));
  }

  /** bronze.orders exists (one commit). */
  Project withOrders() {
    sql("CREATE OR REPLACE TABLE " + LAKEHOUSE + ".bronze.orders AS SELECT 1 AS id");
    return project();
  }

  Plan plan(Project p, boolean prune) {
    return new Planner(Clock.systemUTC())
        .plan(p, target.name(), target.state(p), new TreeSet<>(p.views().keySet()), true, prune);
  }

  static RefreshRequest request(Project p, boolean full) {
    return new RefreshRequest(
        new TreeSet<>(p.views().keySet()), full, 2, Duration.ofMinutes(1), false, Map.of());
  }

  @Override
  public void close() {
    target.close();
    simulator.close();
  }
}
