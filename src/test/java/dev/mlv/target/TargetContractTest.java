package dev.mlv.target;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.Change;
import dev.mlv.plan.Plan;
import dev.mlv.plan.Planner;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.LoadResult;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import dev.mlv.refresh.RefreshRequest;
import dev.mlv.refresh.RunListener;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.RunStatus;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.SqlStatement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link Target} must have, whatever engine is behind it. Each implementation
 * extends this class, says how to open a target for a project and how to load source rows into it,
 * and runs every case. A case that an implementation cannot pass is a bug in that implementation or
 * a documented exception, overridden there with the reason.
 *
 * <p>Every case builds a tiny project in its own folder: {@code bronze.orders} (a source), {@code
 * silver.orders_clean} (one DROP rule, reads bronze) and {@code gold.by_customer} (reads silver).
 * Data is kept to a handful of rows, and the number of commits small, because each commit costs.
 */
public abstract class TargetContractTest {

  protected static final String WORKSPACE = "ws_contract";
  protected static final String LAKEHOUSE = "lh_contract";
  protected static final String ORDER_COLUMNS = "id INT, customer STRING, amount DOUBLE";

  public static final String SILVER =
      "CREATE MATERIALIZED LAKE VIEW silver.orders_clean\n"
          + "(CONSTRAINT positive CHECK (amount > 0) ON MISMATCH DROP)\n"
          + "AS SELECT id, customer, amount FROM bronze.orders\n";
  public static final String GOLD =
      "CREATE MATERIALIZED LAKE VIEW gold.by_customer\n"
          + "AS SELECT customer, SUM(amount) AS total\n"
          + "FROM silver.orders_clean GROUP BY customer\n";

  @TempDir protected Path dir;
  protected Target target;

  /** A target for the project, on an empty lakehouse of its own. */
  protected abstract Target newTarget(Project project);

  /**
   * Creates (or replaces) the source table with the given columns ({@code name TYPE, ...}) and
   * rows; with {@code append}, adds the rows to the existing table as one new commit instead.
   */
  protected abstract void loadSource(
      Project project, ObjectId table, String columns, List<List<Object>> rows, boolean append);

  @BeforeEach
  void writeProject() throws IOException {
    write(
        "mlv.yml",
        "name: contract\n"
            + "workspace: "
            + WORKSPACE
            + "\n"
            + "lakehouse: "
            + LAKEHOUSE
            + "\n"
            + "schema: dbo\n"
            + "sources: [bronze.orders]\n"
            + "defaults:\n"
            + "  enable_cdf: false\n"
            + "  parallelism: 2\n"
            + extraConfig()
            + "targets:\n"
            + "  local:\n"
            + "    type: spark\n"
            + "    warehouse: .mlv/warehouse\n"
            + "    master: local[2]\n");
    write("views/silver/orders_clean.sql", SILVER);
    write("views/gold/by_customer.sql", GOLD);
    target = newTarget(project());
  }

  /** More lines under {@code defaults:} for a subclass's cases. */
  protected String extraConfig() {
    return "";
  }

  @AfterEach
  void closeTarget() {
    if (target != null) {
      target.close();
    }
  }

  // ---- the cases ----

  @Test
  void anEmptyTargetHasNoViewsAndNoTables() {
    DeployedState state = target.state(project());
    assertThat(state.views()).isEmpty();
    assertThat(state.tables()).isEmpty();
    assertThat(target.runs(10)).isEmpty();
  }

  @Test
  void sqlGivesValuesTheirTypesAndShowsThemAsSparkDoes() {
    SqlResult r =
        sql(
            project(),
            "SELECT array(1, NULL) AS a, named_struct('x', 1, 'y', 'z') AS s, map('k', 1) AS m,"
                + " X'00FF' AS bin, CAST(1.50 AS DECIMAL(10,2)) AS dec,"
                + " CAST(9223372036854775807 AS BIGINT) AS big, true AS t,"
                + " CAST(NULL AS STRING) AS n, '' AS e");
    assertThat(r.rows().get(0))
        .containsExactly(
            "[1, NULL]",
            "{1, z}",
            "{k -> 1}",
            "[00 FF]",
            "1.50",
            "9223372036854775807",
            "true",
            null,
            "");
    SqlValue one = new SqlValue.Exact(java.math.BigDecimal.ONE);
    assertThat(r.values().get(0))
        .containsExactly(
            new SqlValue.Array(java.util.Arrays.asList(one, null)),
            new SqlValue.Struct(List.of("x", "y"), List.of(one, new SqlValue.Text("z"))),
            new SqlValue.MapValue(List.of(new SqlValue.Text("k")), List.of(one)),
            new SqlValue.Bytes(new byte[] {0, (byte) 0xFF}),
            new SqlValue.Exact(new java.math.BigDecimal("1.50")),
            new SqlValue.Exact(java.math.BigDecimal.valueOf(Long.MAX_VALUE)),
            new SqlValue.Bool(true),
            null,
            new SqlValue.Text(""));
  }

  @Test
  void applyCreatesTheViewsAndTheNextPlanIsEmpty() {
    Project p = loadOrders();
    Plan plan = plan(p, false);
    assertThat(plan.changes())
        .extracting(c -> c.getClass().getSimpleName() + " " + c.id().shortName())
        .containsExactly("Create silver.orders_clean", "Create gold.by_customer");

    RunReport run = target.apply(p, plan, RunListener.NONE);

    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status())
        .containsExactly("silver.orders_clean Completed", "gold.by_customer Completed");
    DeployedState state = target.state(p);
    assertThat(state.views().keySet()).containsExactlyInAnyOrder(id("silver.orders_clean"), gold());
    assertThat(state.view(gold()).orElseThrow().managed()).isTrue();
    assertThat(state.tables()).containsKey(orders());
    assertThat(rows(p, "SELECT customer, total FROM gold.by_customer ORDER BY customer"))
        .containsExactly("a|15.0", "b|7.0");

    Plan again = plan(p, false);
    assertThat(again.hasChanges()).isFalse();
    assertThat(again.changes()).allMatch(Change.NoOp.class::isInstance);
  }

  @Test
  void aChangedDefinitionIsAReplaceAndApplyReplacesIt() throws IOException {
    Project p = applied();
    long before = version(p, gold());
    write(
        "views/gold/by_customer.sql",
        GOLD.replace("SUM(amount) AS total", "SUM(amount) AS total, COUNT(*) AS orders"));
    p = project();

    Plan plan = plan(p, false);
    assertThat(changes(plan)).singleElement().isInstanceOf(Change.Replace.class);
    assertThat(changes(plan).get(0).id()).isEqualTo(gold());

    RunReport run = target.apply(p, plan, RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(rows(p, "SELECT customer, total, orders FROM gold.by_customer ORDER BY customer"))
        .containsExactly("a|15.0|2", "b|7.0|1");
    assertThat(version(p, gold())).isGreaterThan(before);
    assertThat(plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void aFormattingOnlyChangeIsANoOp() throws IOException {
    Project p = applied();
    write(
        "views/gold/by_customer.sql",
        "-- totals per customer\ncreate   materialized lake view gold.by_customer AS\n"
            + "  select customer,\n         sum(amount) as total\n"
            + "  from silver.orders_clean\n  group by customer\n");
    p = project();
    Plan plan = plan(p, false);
    assertThat(plan.hasChanges()).isFalse();
    assertThat(plan.changes())
        .filteredOn(c -> c.id().equals(gold()))
        .singleElement()
        .isInstanceOf(Change.NoOp.class);
  }

  @Test
  void aRenameKeepsTheDataAndTheOldNameDisappears() throws IOException {
    Project p = applied();
    Files.delete(dir.resolve("views/gold/by_customer.sql"));
    write(
        "views/gold/customer_totals.sql", GOLD.replace("gold.by_customer", "gold.customer_totals"));
    p = project();
    ObjectId renamed = id("gold.customer_totals");

    Plan plan = plan(p, false);
    assertThat(changes(plan)).singleElement().isInstanceOf(Change.Rename.class);
    RunReport run = target.apply(p, plan, RunListener.NONE);

    assertThat(run.status()).as(describe(run)).isNotEqualTo(RunStatus.Failed);
    DeployedState state = target.state(p);
    assertThat(state.views()).containsKey(renamed).doesNotContainKey(gold());
    assertThat(state.view(renamed).orElseThrow().definition()).contains("gold.customer_totals");
    assertThat(rows(p, "SELECT customer, total FROM gold.customer_totals ORDER BY customer"))
        .containsExactly("a|15.0", "b|7.0");
    assertThat(plan(p, false).hasChanges()).isFalse();
  }

  @Test
  void pruneDropsAViewTheProjectNoLongerHas() throws IOException {
    Project p = applied();
    Files.delete(dir.resolve("views/gold/by_customer.sql"));
    p = project();

    Plan withoutPrune = plan(p, false);
    assertThat(withoutPrune.hasChanges()).isFalse();
    assertThat(withoutPrune.orphans()).containsExactly(gold());

    Plan plan = plan(p, true);
    assertThat(plan.changes())
        .filteredOn(Change.Drop.class::isInstance)
        .extracting(Change::id)
        .containsExactly(gold());
    target.apply(p, plan, RunListener.NONE);
    assertThat(target.state(p).views()).containsOnlyKeys(id("silver.orders_clean"));
  }

  @Test
  void aRefreshWithNothingNewSkipsEveryViewAndChangesNoTable() {
    Project p = applied();
    Map<ObjectId, Long> before = versions(p);

    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);

    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views()).hasSize(2);
    assertThat(run.views())
        .allSatisfy(
            v -> {
              assertThat(v.strategy()).isEqualTo("skip");
              assertThat(v.reason()).startsWith("NO_NEW_COMMITS");
              assertThat(v.status()).isNotEqualTo(ViewStatus.Failed);
            });
    assertThat(versions(p)).isEqualTo(before);
  }

  /**
   * {@code optimal_refresh: false} and {@code refresh_policy: full} rebuild a view though nothing
   * is new, in the dry run and in the run, with the same reason codes on every target (on Fabric,
   * whose Optimal mode would skip them, by a job in Full mode).
   */
  @Test
  void optimalRefreshOffAndRefreshPolicyFullRebuildAViewWithNothingNew() throws IOException {
    String config = Files.readString(dir.resolve("mlv.yml"), StandardCharsets.UTF_8);
    write(
        "mlv.yml",
        config.replace(
            "targets:\n",
            "view_config:\n"
                + "  silver.orders_clean:\n"
                + "    optimal_refresh: false\n"
                + "  gold.by_customer:\n"
                + "    refresh_policy: full\n"
                + "targets:\n"));
    Project p = applied();
    Map<ObjectId, Long> before = versions(p);

    RefreshRequest dry =
        new RefreshRequest(
            new TreeSet<>(p.views().keySet()), false, 1, Duration.ofHours(1), true, Map.of());
    assertThat(target.refresh(p, dry, RunListener.NONE).views())
        .extracting(v -> v.id().shortName() + " " + v.strategy() + " " + v.reason())
        .containsExactly(
            "silver.orders_clean full OPTIMAL_REFRESH_OFF: optimal refresh is off, so every run"
                + " rebuilds the view",
            "gold.by_customer full POLICY_FULL: refresh_policy is full for this view");

    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views())
        .extracting(
            v ->
                v.id().shortName()
                    + " "
                    + v.status()
                    + " "
                    + v.strategy()
                    + " "
                    + v.reason().substring(0, v.reason().indexOf(':')))
        .containsExactly(
            "silver.orders_clean Completed full OPTIMAL_REFRESH_OFF",
            "gold.by_customer Completed full POLICY_FULL");
    assertThat(versions(p).get(gold())).isGreaterThan(before.get(gold()));
    assertThat(versions(p).get(id("silver.orders_clean")))
        .isGreaterThan(before.get(id("silver.orders_clean")));
  }

  @Test
  void afterAnAppendRefreshRefreshesTheViewAndItsDescendantInOrder() {
    Project p = applied();
    Map<ObjectId, Long> before = versions(p);
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(5, "c", 4.0)), true);

    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);

    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.strategy())
        .containsExactly("silver.orders_clean Completed full", "gold.by_customer Completed full");
    assertThat(run.views().get(0).rowsWritten()).isEqualTo(4);
    assertThat(versions(p).get(gold())).isGreaterThan(before.get(gold()));
    assertThat(rows(p, "SELECT customer, total FROM gold.by_customer ORDER BY customer"))
        .containsExactly("a|15.0", "b|7.0", "c|4.0");
  }

  @Test
  void aFailConstraintFailsTheViewKeepsItsTableAndSkipsItsChildren() throws IOException {
    write(
        "views/silver/orders_clean.sql",
        SILVER.replace("ON MISMATCH DROP)", ")")); // FAIL is the default
    Project p = applied();
    ObjectId silver = id("silver.orders_clean");
    List<String> silverBefore = rows(p, "SELECT * FROM silver.orders_clean ORDER BY id");
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(9, "z", -1.0)), true);
    Map<ObjectId, Long> before = versions(p);

    RunReport run = target.refresh(p, request(p, false), RunListener.NONE);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    ViewRun failed = run.views().get(0);
    assertThat(failed.id()).isEqualTo(silver);
    assertThat(failed.status()).isEqualTo(ViewStatus.Failed);
    assertThat(failed.error().orElseThrow())
        .contains("positive")
        .doesNotContain("\n\tat ", "Exception");
    assertThat(failed.violations()).isEqualTo(violationsOfAFailedRefresh("positive", 1));
    ViewRun child = run.views().get(1);
    assertThat(child.status()).isEqualTo(ViewStatus.Skipped);
    assertThat(child.reason()).contains("orders_clean");
    assertThat(versions(p)).isEqualTo(before);
    assertThat(rows(p, "SELECT * FROM silver.orders_clean ORDER BY id")).isEqualTo(silverBefore);
  }

  /**
   * What the run records as the violations of a view that {@code rows} rows breaking its {@code ON
   * MISMATCH FAIL} rule {@code rule} failed: the rows that broke it (found by QA: the map was
   * empty, as if no row had).
   */
  protected Map<String, Long> violationsOfAFailedRefresh(String rule, long rows) {
    return Map.of(rule, rows);
  }

  @Test
  protected void dropRulesCountEveryViolationAndDropARowOnce() throws IOException {
    write(
        "views/silver/orders_clean.sql",
        "CREATE MATERIALIZED LAKE VIEW silver.orders_clean\n"
            + "(CONSTRAINT positive CHECK (amount > 0) ON MISMATCH DROP,\n"
            + " CONSTRAINT named CHECK (customer IS NOT NULL) ON MISMATCH DROP)\n"
            + "AS SELECT id, customer, amount FROM bronze.orders\n");
    Project p = project();
    loadSource(
        p,
        orders(),
        ORDER_COLUMNS,
        List.of(
            List.of(1, "a", 10.0),
            row(2, null, 3.0), // breaks one rule
            List.of(3, "b", -1.0), // breaks the other
            row(4, null, -2.0))); // breaks both: dropped once, counted twice

    RunReport run = target.apply(p, plan(p, false), RunListener.NONE);

    ViewRun silver = run.views().get(0);
    assertThat(silver.status()).as(describe(run)).isEqualTo(ViewStatus.Completed);
    assertThat(silver.rowsWritten()).isEqualTo(1);
    assertThat(silver.rowsDropped()).isEqualTo(3);
    assertThat(silver.violations()).containsEntry("positive", 2L).containsEntry("named", 2L);
    long violations = silver.violations().values().stream().mapToLong(Long::longValue).sum();
    assertThat(violations).isGreaterThanOrEqualTo(silver.rowsDropped());
  }

  @Test
  void aViewWhoseSourceDoesNotExistFailsNamingTheTable() throws IOException {
    write("views/silver/orders_clean.sql", SILVER.replace("bronze.orders", "bronze.no_such_table"));
    Project p = project();

    RunReport run = target.apply(p, plan(p, false), RunListener.NONE);

    assertThat(run.status()).isEqualTo(RunStatus.Failed);
    ViewRun silver = run.views().get(0);
    assertThat(silver.status()).isEqualTo(ViewStatus.Failed);
    assertThat(silver.error().orElseThrow())
        .contains("no_such_table")
        .doesNotContain("\n\tat ", "Exception");
    assertThat(run.views().get(1).status()).isEqualTo(ViewStatus.Skipped);
    assertThat(target.state(p).views()).isEmpty();
  }

  @Test
  void runsReturnsTheRunWithItsViews() {
    Project p = loadOrders();
    RunReport applied = target.apply(p, plan(p, false), RunListener.NONE);
    RunReport refreshed = target.refresh(p, request(p, false), RunListener.NONE);

    List<RunReport> runs = target.runs(10);
    assertThat(runs).extracting(RunReport::id).containsExactly(refreshed.id(), applied.id());
    RunReport first = target.run(applied.id()).orElseThrow();
    assertThat(first.status()).isEqualTo(RunStatus.Completed);
    assertThat(first.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.rowsWritten())
        .containsExactly("silver.orders_clean Completed 3", "gold.by_customer Completed 2");
    assertThat(target.run("no-such-run")).isEmpty();
  }

  @Test
  void aDryRunRefreshIsPlannedAndChangesNothing() {
    Project p = applied();
    loadSource(p, orders(), ORDER_COLUMNS, List.of(List.of(5, "c", 4.0)), true);
    Map<ObjectId, Long> before = versions(p);
    int runsBefore = target.runs(100).size();

    RefreshRequest dry =
        new RefreshRequest(
            new TreeSet<>(p.views().keySet()), false, 1, Duration.ofHours(1), true, Map.of());
    RunReport run = target.refresh(p, dry, RunListener.NONE);

    assertThat(run.status()).isEqualTo(RunStatus.Planned);
    assertThat(run.views())
        .extracting(v -> v.id().shortName() + " " + v.status() + " " + v.strategy())
        .containsExactly("silver.orders_clean Planned full", "gold.by_customer Planned full");
    // gold's own source has no new commit yet, but silver will be refreshed before it.
    assertThat(run.views().get(1).reason()).contains("orders_clean");
    assertThat(versions(p)).isEqualTo(before);
    assertThat(target.runs(100)).hasSize(runsBefore);
  }

  // ---- helpers for subclasses and cases ----

  protected void write(String relative, String text) throws IOException {
    Path f = dir.resolve(relative);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text, StandardCharsets.UTF_8);
  }

  /** The project as it is on disk now; fails the test on any error. */
  protected Project project() {
    LoadResult loaded = ProjectLoader.load(dir, Map.of());
    assertThat(loaded.hasErrors()).as(loaded.diagnostics().toString()).isFalse();
    ProjectConfig config = loaded.orThrow();
    Project p =
        new ProjectBuilder()
            .build(config, DefinitionFiles.discover(config).files(), loaded.diagnostics());
    assertThat(p.hasErrors()).as(p.diagnostics().toString()).isFalse();
    return p;
  }

  protected ObjectId id(String name) {
    String[] parts = name.split("\\.");
    return switch (parts.length) {
      case 2 -> new ObjectId(WORKSPACE, LAKEHOUSE, parts[0], parts[1]);
      case 3 -> new ObjectId(WORKSPACE, parts[0], parts[1], parts[2]);
      default -> ObjectId.parse(name);
    };
  }

  protected ObjectId orders() {
    return id("bronze.orders");
  }

  protected ObjectId gold() {
    return id("gold.by_customer");
  }

  /** Three orders, two customers: gold holds a=15 and b=7. */
  protected Project loadOrders() {
    Project p = project();
    loadSource(
        p,
        orders(),
        ORDER_COLUMNS,
        List.of(List.of(1, "a", 10.0), List.of(2, "a", 5.0), List.of(3, "b", 7.0)));
    return p;
  }

  protected void loadSource(Project p, ObjectId table, String columns, List<List<Object>> rows) {
    loadSource(p, table, columns, rows, false);
  }

  /** The orders loaded and the project applied, successfully. */
  protected Project applied() {
    Project p = loadOrders();
    RunReport run = target.apply(p, plan(p, false), RunListener.NONE);
    assertThat(run.status()).as(describe(run)).isEqualTo(RunStatus.Completed);
    return p;
  }

  /** The plan's changes other than no-ops. */
  protected static List<Change> changes(Plan plan) {
    return plan.changes().stream().filter(c -> !(c instanceof Change.NoOp)).toList();
  }

  protected Plan plan(Project p, boolean prune) {
    return new Planner(Clock.systemUTC())
        .plan(p, target.name(), target.state(p), new TreeSet<>(p.views().keySet()), true, prune);
  }

  protected static RefreshRequest request(Project p, boolean full) {
    return new RefreshRequest(
        new TreeSet<>(p.views().keySet()), full, 2, Duration.ofHours(1), false, Map.of());
  }

  /** The version of every view and table the target holds. */
  protected Map<ObjectId, Long> versions(Project p) {
    DeployedState s = target.state(p);
    Map<ObjectId, Long> out = new java.util.TreeMap<>();
    s.views().forEach((id, v) -> out.put(id, v.version()));
    s.tables().forEach((id, t) -> out.put(id, t.version()));
    return out;
  }

  protected long version(Project p, ObjectId view) {
    return target.state(p).view(view).orElseThrow().version();
  }

  /** Runs one query through {@link Target#sql} and returns its rows as {@code a|b|c}. */
  protected List<String> rows(Project p, String sql) {
    return sql(p, sql).rows().stream()
        .map(r -> r.stream().map(String::valueOf).collect(Collectors.joining("|")))
        .toList();
  }

  protected SqlResult sql(Project p, String sql) {
    List<SqlStatement> statements = MlvParser.parse(Position.start(null), sql).statements();
    assertThat(statements).hasSize(1);
    return target.sql(p, statements.get(0));
  }

  protected static List<Object> row(Object... values) {
    return new ArrayList<>(java.util.Arrays.asList(values));
  }

  protected static String describe(RunReport run) {
    return run.status()
        + " "
        + run.views().stream()
            .map(
                v -> v.id().shortName() + "=" + v.status() + v.error().map(e -> " " + e).orElse(""))
            .toList();
  }
}
