package dev.mlv.project;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectLoaderTest {
  private static final String BASE =
      "name: medallion\nworkspace: demo_ws\nlakehouse: lh_oud_mlv\nschema: dbo\n";
  private static final String WS_ID = "8d2f3c1a-5b6e-4f70-8a91-b2c3d4e5f607";
  private static final String LH_ID = "11111111-2222-4333-8444-555555555555";

  @TempDir Path root;

  // A project reads views/ unless mlv.yml says otherwise, and that folder must exist.
  @BeforeEach
  void defaultViewFolder() throws IOException {
    Files.createDirectories(root.resolve("views"));
  }

  private LoadResult load(String yaml) throws IOException {
    return load(yaml, Map.of());
  }

  private LoadResult load(String yaml, Map<String, String> env) throws IOException {
    Files.writeString(root.resolve("mlv.yml"), yaml);
    return ProjectLoader.load(root, env);
  }

  /** "line:column RULE" of every diagnostic, in reported order. */
  private static List<String> where(LoadResult result) {
    return result.diagnostics().stream()
        .map(d -> d.position().line() + ":" + d.position().column() + " " + d.ruleId())
        .toList();
  }

  private static Diagnostic only(LoadResult result) {
    assertThat(result.diagnostics()).hasSize(1);
    assertThat(result.config()).isEmpty();
    return result.diagnostics().get(0);
  }

  @Test
  void durationsAreWrittenBackAsMlvYmlTakesThem() {
    assertThat(ProjectDefaults.durationText(Duration.ofSeconds(1))).isEqualTo("1s");
    assertThat(ProjectDefaults.durationText(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(ProjectDefaults.durationText(Duration.ofMinutes(30))).isEqualTo("30m");
    assertThat(ProjectDefaults.durationText(Duration.ofHours(24))).isEqualTo("24h");
    assertThat(ProjectDefaults.durationText(Duration.ofDays(2))).isEqualTo("2d");
    assertThat(ProjectDefaults.durationText(Duration.ofHours(36))).isEqualTo("36h");
    assertThat(ProjectDefaults.durationText(Duration.ofMillis(300))).isEqualTo("0.3s");
  }

  @Test
  void fourRequiredKeysMakeAProjectWithTheImplicitLocalTarget() throws IOException {
    LoadResult result = load(BASE);

    assertThat(result.diagnostics()).isEmpty();
    ProjectConfig config = result.config().orElseThrow();
    Path abs = root.toAbsolutePath().normalize();
    assertThat(config.root()).isEqualTo(abs);
    assertThat(config.file()).isEqualTo(abs.resolve("mlv.yml"));
    assertThat(config.name()).isEqualTo("medallion");
    assertThat(config.workspace()).isEqualTo("demo_ws");
    assertThat(config.lakehouse()).isEqualTo("lh_oud_mlv");
    assertThat(config.schema()).isEqualTo("dbo");
    assertThat(config.viewFolders()).containsExactly(abs.resolve("views"));
    assertThat(config.defaultTarget()).isEqualTo("local");
    assertThat(config.targets())
        .containsExactly(
            Map.entry(
                "local",
                new SparkTarget("local", abs.resolve(".mlv/warehouse"), "local[*]", Map.of())));
    assertThat(config.sources()).isEmpty();
    assertThat(config.lakehouses()).isEmpty();
    assertThat(config.vars()).isEmpty();
    assertThat(config.defaults().refreshTimeout()).isEqualTo(Duration.ofHours(24));
    assertThat(config.defaults().parallelism())
        .isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(config.defaults().history()).isEqualTo(new ProjectDefaults.RunHistory(25, 7));
    assertThat(config.settingsFor("silver.anything"))
        .isEqualTo(new ViewSettings.Effective(true, true, RefreshPolicy.AUTO, List.of()));
  }

  @Test
  void fullFileIsReadIntoEveryRecord() throws IOException {
    Files.createDirectories(root.resolve("views"));
    Files.createDirectories(root.resolve("more/views"));
    Files.createDirectories(root.resolve("seeds"));
    Files.writeString(root.resolve("seeds/preference_trials.csv"), "id\n1\n");
    Files.writeString(root.resolve("seeds/customers.parquet"), "");
    String yaml =
        BASE
            + """
            views: [views, more/views]
            vars: {region: weu}
            default_target: prod
            targets:
              local:
                type: spark
                warehouse: .mlv/wh-${region}
                master: local[2]
                conf: {spark.sql.shuffle.partitions: "4"}
              prod:
                type: fabric
                workspaceId: %s
                lakehouseId: %s
                endpoint: https://api.fabric.microsoft.com/v1
                allow_endpoint: false
                auth:
                  mode: spn
                  tenant_id: contoso.onmicrosoft.com
                  client_id: 99999999-2222-4333-8444-555555555555
                  client_secret: ${env:MLV_SECRET}
              sim:
                type: fabric
                workspaceId: %s
                lakehouseId: %s
                endpoint: http://127.0.0.1:8123/v1
                allow_endpoint: true
                auth: {mode: token}
            lakehouses:
              crm_lh: {workspace: other_ws}
              Same_WS_LH:
            sources:
              - name: bronze.preference_trials
                seed: seeds/preference_trials.csv
                description: trials from the ${region} lab
              - name: crm_lh.dbo.customers
                seed: seeds/customers.parquet
              - bronze.raw_events
            defaults:
              enable_cdf: true
              optimal_refresh: false
              refresh_policy: auto
              refresh_timeout: 90m
              parallelism: 4
              history: {retain_runs: 10, retain_days: 3}
            view_config:
              silver.trials_clean: {tags: [quality, pii], enable_cdf: false, refresh_policy: full}
              Gold.Summary: {optimal_refresh: true}
            """
                .formatted(WS_ID, LH_ID, WS_ID, LH_ID);

    LoadResult result = load(yaml, Map.of("MLV_SECRET", "s3cr3t-value"));

    assertThat(result.diagnostics()).isEmpty();
    ProjectConfig config = result.config().orElseThrow();
    Path abs = root.toAbsolutePath().normalize();
    assertThat(config.viewFolders())
        .containsExactly(abs.resolve("views"), abs.resolve("more/views"));
    assertThat(config.vars()).containsExactly(Map.entry("region", "weu"));
    assertThat(config.defaultTarget()).isEqualTo("prod");
    assertThat(config.targets()).containsOnlyKeys("local", "prod", "sim");
    assertThat(config.target("local"))
        .contains(
            new SparkTarget(
                "local",
                abs.resolve(".mlv/wh-weu"),
                "local[2]",
                Map.of("spark.sql.shuffle.partitions", "4"),
                Map.of(),
                // Where the value is, for Spark's refusal of it when the engine starts.
                Map.of(
                    "spark.sql.shuffle.partitions",
                    new dev.mlv.diag.Position(Path.of("mlv.yml"), 13, 42))));

    FabricTarget prod = (FabricTarget) config.target("prod").orElseThrow();
    assertThat(prod.workspaceId()).isEqualTo(UUID.fromString(WS_ID));
    assertThat(prod.lakehouseId()).isEqualTo(UUID.fromString(LH_ID));
    assertThat(prod.endpoint()).isEqualTo(FabricTarget.DEFAULT_ENDPOINT);
    assertThat(prod.allowEndpoint()).isFalse();
    AuthConfig.ServicePrincipal spn = (AuthConfig.ServicePrincipal) prod.auth();
    assertThat(spn.tenantId()).isEqualTo("contoso.onmicrosoft.com");
    assertThat(spn.clientId()).isEqualTo("99999999-2222-4333-8444-555555555555");
    assertThat(spn.clientSecret().envName()).isEqualTo("MLV_SECRET");
    assertThat(spn.clientSecret().reveal()).isEqualTo("s3cr3t-value");

    FabricTarget sim = (FabricTarget) config.target("sim").orElseThrow();
    assertThat(sim.endpoint()).isEqualTo(URI.create("http://127.0.0.1:8123/v1"));
    assertThat(sim.allowEndpoint()).isTrue();
    assertThat(sim.auth()).isEqualTo(new AuthConfig.TokenFromEnv("FABRIC_TOKEN"));

    assertThat(config.lakehouses()).containsOnlyKeys("crm_lh", "same_ws_lh");
    assertThat(config.lakehouses().get("crm_lh").workspace()).isEqualTo("other_ws");
    assertThat(config.lakehouses().get("same_ws_lh").workspace()).isEqualTo("demo_ws");
    assertThat(config.lakehouses().get("crm_lh").position().line()).isEqualTo(33);

    assertThat(config.sources())
        .extracting(SourceConfig::name)
        .containsExactly("bronze.preference_trials", "crm_lh.dbo.customers", "bronze.raw_events");
    SourceConfig trials = config.sources().get(0);
    assertThat(trials.seed()).contains(abs.resolve("seeds/preference_trials.csv"));
    assertThat(trials.format()).contains(SeedFormat.CSV);
    assertThat(trials.description()).contains("trials from the weu lab");
    assertThat(trials.position().line()).isEqualTo(36);
    assertThat(trials.position().column()).isEqualTo(5);
    assertThat(config.sources().get(1).format()).contains(SeedFormat.PARQUET);
    SourceConfig events = config.sources().get(2);
    assertThat(events.seed()).isEmpty();
    assertThat(events.format()).isEmpty();
    assertThat(events.position().line()).isEqualTo(41);

    ProjectDefaults defaults = config.defaults();
    assertThat(defaults.refreshTimeout()).isEqualTo(Duration.ofMinutes(90));
    assertThat(defaults.parallelism()).isEqualTo(4);
    assertThat(defaults.history()).isEqualTo(new ProjectDefaults.RunHistory(10, 3));
    assertThat(defaults.views().optimalRefresh()).contains(false);

    assertThat(config.viewConfig()).containsOnlyKeys("silver.trials_clean", "gold.summary");
    assertThat(config.viewConfig().get("gold.summary").position().line()).isEqualTo(51);
    assertThat(config.viewConfig().get("gold.summary").position().column()).isEqualTo(3);
    assertThat(config.settingsFor("silver.trials_clean"))
        .isEqualTo(
            new ViewSettings.Effective(
                false, false, RefreshPolicy.FULL, List.of("quality", "pii")));
    assertThat(config.settingsFor("GOLD.summary"))
        .isEqualTo(new ViewSettings.Effective(true, true, RefreshPolicy.AUTO, List.of()));
    assertThat(config.settingsFor("other.view"))
        .isEqualTo(new ViewSettings.Effective(true, false, RefreshPolicy.AUTO, List.of()));
  }

  @Test
  void unknownKeysSuggestTheNearestKnownKey() throws IOException {
    LoadResult result =
        load(
            """
            nmae: medallion
            workspace: demo_ws
            lakehouse: lh
            schema: dbo
            targets:
              local:
                warehose: wh
            defaults:
              refresh_timout: 1h
              colour: blue
            """);

    assertThat(where(result))
        .containsExactly(
            "1:1 CONFIG_UNKNOWN_KEY",
            "1:1 CONFIG_MISSING",
            "7:5 CONFIG_UNKNOWN_KEY",
            "9:3 CONFIG_UNKNOWN_KEY",
            "10:3 CONFIG_UNKNOWN_KEY");
    List<Diagnostic> d = result.diagnostics();
    assertThat(d.get(0).message()).isEqualTo("unknown key 'nmae' at the top level");
    assertThat(d.get(0).hint()).isEqualTo("did you mean 'name'?");
    assertThat(d.get(1).message()).isEqualTo("missing required key 'name' at the top level");
    assertThat(d.get(2).message()).isEqualTo("unknown key 'warehose' in targets.local");
    assertThat(d.get(2).hint()).isEqualTo("did you mean 'warehouse'?");
    assertThat(d.get(3).hint()).isEqualTo("did you mean 'refresh_timeout'?");
    assertThat(d.get(4).hint())
        .startsWith("expected one of: enable_cdf, optimal_refresh, refresh_policy");
    assertThat(result.config()).isEmpty();
  }

  @Test
  void wrongTypesAreReportedAtTheValue() throws IOException {
    LoadResult result =
        load(
            BASE
                + """
                vars: [a, b]
                defaults:
                  enable_cdf: maybe
                  parallelism: four
                  history: 5
                view_config:
                  silver.x: {tags: {a: b}}
                """);

    assertThat(where(result))
        .containsExactly(
            "5:7 CONFIG_TYPE",
            "7:15 CONFIG_TYPE",
            "8:16 CONFIG_TYPE",
            "9:12 CONFIG_TYPE",
            "11:20 CONFIG_TYPE");
    assertThat(result.diagnostics().get(1).message())
        .isEqualTo("defaults.enable_cdf must be true or false, not a string");
    assertThat(result.diagnostics().get(2).message())
        .isEqualTo("defaults.parallelism must be a whole number, not a string");
    // Each says what to write instead.
    assertThat(result.diagnostics())
        .extracting(Diagnostic::hint)
        .containsExactly(
            "write 'key: value' lines indented under it, or {key: value} on one line",
            "write true or false without quotes, e.g. enable_cdf: true",
            "write digits, without quotes or a decimal point, e.g. parallelism: 4",
            "write 'key: value' lines indented under it, or {key: value} on one line",
            "write [a, b] on one line, or one '- a' per line indented under the key");
  }

  @Test
  void aListElementOfTheWrongTypeIsNamedByItsPlace() throws IOException {
    Diagnostic d = only(load(BASE + "view_config:\n  silver.a: {tags: [1, {a: b}]}\n"));
    assertThat(d.ruleId()).isEqualTo("CONFIG_TYPE");
    assertThat(d.position().column()).isEqualTo(24);
    assertThat(d.message())
        .isEqualTo("view_config.silver.a.tags[2] must be a single value, not a mapping");
    assertThat(d.hint()).contains("not a list or mapping").contains("quote");

    Diagnostic top = only(load("- name\n"));
    assertThat(top.hint()).contains("name, workspace, lakehouse and schema");

    Diagnostic key = only(load(BASE + "? [a, b]\n: 1\n"));
    assertThat(key.message()).isEqualTo("keys at the top level must be plain names");
    assertThat(key.hint())
        .isEqualTo("write a name before the ':'; a list or mapping cannot be a key");

    // A fraction where a whole number is wanted is named as one (found by QA: "not a number").
    Diagnostic fraction = only(load(BASE + "defaults: {parallelism: 2.5}\n"));
    assertThat(fraction.message())
        .isEqualTo("defaults.parallelism must be a whole number, not a fraction (2.5)");

    Diagnostic filledIn = only(load(BASE + "vars: {n: four}\ndefaults: {parallelism: '${n}'}\n"));
    assertThat(filledIn.message())
        .isEqualTo("defaults.parallelism must be a whole number, not 'four'");
    assertThat(filledIn.hint())
        .isEqualTo("write digits, without quotes or a decimal point, e.g. parallelism: 4");
  }

  @Test
  void yamlMergeKeysBringInAnAnchoredMappingAndWrittenKeysWin() throws IOException {
    LoadResult result =
        load(
            """
            name: m
            workspace: ws
            lakehouse: lh
            schema: dbo
            view_config:
              silver.a: &strict {max_dropped_rows: 0, quarantine: true, tags: [gold]}
              silver.b: {<<: *strict, quarantine: false}
              silver.c:
                <<: [*strict]
                refresh_policy: full
            """);
    assertThat(result.diagnostics()).isEmpty();
    ProjectConfig config = result.config().orElseThrow();
    ViewSettings.Effective b = config.settingsFor("silver.b");
    assertThat(b.quality().quarantine()).contains(false);
    assertThat(b.quality().maxDroppedRows()).hasValue(0);
    assertThat(b.tags()).containsExactly("gold");
    ViewSettings.Effective c = config.settingsFor("silver.c");
    assertThat(c.quality().quarantine()).contains(true);
    assertThat(c.refreshPolicy()).isEqualTo(RefreshPolicy.FULL);
    LoadResult bad =
        load("name: m\nworkspace: ws\nlakehouse: lh\nschema: dbo\nview_config:\n  s.d: {<<: 5}\n");
    assertThat(where(bad)).containsExactly("6:13 CONFIG_TYPE");
  }

  @Test
  void manyViewsMergeOneAnchorButAliasesOfAliasesThatExplodeAreRefused() throws IOException {
    StringBuilder many =
        new StringBuilder(
            "name: m\nworkspace: ws\nlakehouse: lh\nschema: dbo\nview_config:\n"
                + "  silver.v0: &strict {quarantine: true, tags: [t]}\n");
    for (int i = 1; i <= 200; i++) {
      many.append("  silver.v").append(i).append(": {<<: *strict, refresh_policy: full}\n");
    }
    LoadResult result = load(many.toString());
    assertThat(result.diagnostics()).isEmpty();
    assertThat(result.config().orElseThrow().settingsFor("silver.v200").quality().quarantine())
        .contains(true);

    StringBuilder laughs =
        new StringBuilder("name: m\nworkspace: ws\nlakehouse: lh\nschema: dbo\n");
    laughs.append("vars:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'j'; c++) {
      String prev = "*" + (char) (c - 1);
      laughs
          .append("  ")
          .append(c)
          .append(": &")
          .append(c)
          .append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(10, prev)))
          .append("]\n");
    }
    Diagnostic bomb = only(load(laughs.toString()));
    assertThat(bomb.ruleId()).isEqualTo("YAML_SYNTAX");
    assertThat(bomb.message()).contains("expands to more than 1000000 values through its aliases");
    assertThat(bomb.hint()).contains("<<: *name");
  }

  @Test
  void aNamePartWithADotIsRefusedBecauseNamesAreDotted() throws IOException {
    LoadResult result =
        load(
            "name: m\nworkspace: ws\nlakehouse: Sales.LH\nschema: dbo\n"
                + "lakehouses:\n  other.lh: {}\n  ok_lh: {workspace: w.x}\n");
    assertThat(where(result))
        .containsExactly("3:12 CONFIG_VALUE", "6:3 CONFIG_VALUE", "7:22 CONFIG_VALUE");
  }

  @Test
  void aLakehouseNameFabricRefusesIsAnErrorWhereItIsWritten() throws IOException {
    LoadResult result =
        load(
            "name: m\nworkspace: My Workspace\nlakehouse: Has Space\nschema: dbo\n"
                + "lakehouses:\n  crm-lh: {}\n  ok_lh: {}\n  9lh: {}\n  \"${x}\": {}\n");
    assertThat(where(result))
        .containsExactly(
            "3:12 CONFIG_VALUE", "6:3 CONFIG_VALUE", "8:3 CONFIG_VALUE", "9:3 CONFIG_VALUE");
    assertThat(result.diagnostics())
        .extracting(Diagnostic::message)
        .containsExactly(
            "lakehouse 'Has Space' holds a space, which Fabric does not allow",
            "lakehouse 'crm-lh' holds '-', which Fabric does not allow",
            "lakehouse '9lh' does not start with a letter (A-Z or a-z)",
            "lakehouse '${x}' does not start with a letter (A-Z or a-z)");
    assertThat(result.diagnostics().get(0).hint()).contains("as Fabric requires");
    // The rule holds for the value after interpolation; 123 characters is Fabric's limit.
    assertThat(
            load(BASE.replace("lh_oud_mlv", "${env:LH}"), Map.of("LH", "a".repeat(123)))
                .diagnostics())
        .isEmpty();
    assertThat(
            load(BASE.replace("lh_oud_mlv", "${env:LH}"), Map.of("LH", "a".repeat(124)))
                .diagnostics())
        .extracting(Diagnostic::message)
        .containsExactly(
            "lakehouse '" + "a".repeat(124) + "' is longer than Fabric's 123 characters");
  }

  /**
   * Each schema is a folder of the lakehouse: mlv.yml's schema 'a/b' passed validate and plan and
   * failed only at refresh and apply, with no position (found by QA).
   */
  @Test
  void aSchemaThatCannotBeAFolderIsAnErrorWhereItIsWritten() throws IOException {
    LoadResult result = load(BASE.replace("schema: dbo", "schema: \"a/b\""));
    assertThat(where(result)).containsExactly("4:9 CONFIG_VALUE");
    assertThat(result.diagnostics())
        .extracting(Diagnostic::message)
        .containsExactly(
            "schema 'a/b' contains a path separator, so it cannot name the folder that holds the"
                + " schema's tables");
    String fromEnv = BASE.replace("schema: dbo", "schema: ${env:S}");
    assertThat(load(fromEnv, Map.of("S", "a\\b")).diagnostics())
        .extracting(Diagnostic::message)
        .containsExactly(
            "schema 'a\\b' contains a path separator, so it cannot name the folder that holds the"
                + " schema's tables");
    assertThat(load(fromEnv, Map.of("S", "a\u0001b")).diagnostics())
        .extracting(Diagnostic::message)
        .containsExactly(
            "schema 'a?b' contains a control character, so it cannot name the folder that holds"
                + " the schema's tables");
    assertThat(load(fromEnv, Map.of("S", "silver")).diagnostics()).isEmpty();
  }

  /** mlv.yml's schema is a folder too, so it is held to the 255 bytes of a file name. */
  @Test
  void aSchemaTooLongForItsFolderIsAnErrorWhereItIsWritten() throws IOException {
    String fromEnv = BASE.replace("schema: dbo", "schema: ${env:S}");
    LoadResult result = load(fromEnv, Map.of("S", "é".repeat(128)));
    assertThat(where(result)).containsExactly("4:9 CONFIG_VALUE");
    assertThat(result.diagnostics())
        .extracting(Diagnostic::message)
        .containsExactly(
            "schema '"
                + "é".repeat(20)
                + "… (128 characters)' is 256 bytes long in UTF-8; a schema's name can be at most"
                + " 255 bytes, the limit on a file name, as the local lakehouse keeps each schema"
                + " in a folder");
    assertThat(load(fromEnv, Map.of("S", "s".repeat(255))).diagnostics()).isEmpty();
  }

  @Test
  void anEmptyValueFromTheEnvironmentSaysWhereItCameFrom() throws IOException {
    Diagnostic d = only(load(BASE.replace("lh_oud_mlv", "${env:LH}"), Map.of("LH", "")));
    assertThat(d.message())
        .isEqualTo(
            "lakehouse is empty: it comes from environment variable LH, which is set but empty");
    assertThat(d.hint()).contains("set LH to the lakehouse");
    Diagnostic mixed =
        only(load(BASE.replace("lh_oud_mlv", "${env:A}${env:B}"), Map.of("A", "", "B", " ")));
    assertThat(mixed.message())
        .isEqualTo("lakehouse is empty once '${env:A}${env:B}' is filled in");
  }

  @Test
  void aControlCharacterIsAnErrorWhereItIs() throws IOException {
    LoadResult result = load("name: m\nworkspace: ws\nlakehouse: lh\nschema: dbo\u0000\n");
    assertThat(where(result)).containsExactly("4:12 YAML_SYNTAX");
    assertThat(result.diagnostics().get(0).message()).contains("U+0000");
  }

  @Test
  void missingAndEmptyRequiredKeys() throws IOException {
    LoadResult result = load("# a project\nname: medallion\nschema:\nworkspace: \"\"\n");

    assertThat(where(result))
        .containsExactly("2:1 CONFIG_MISSING", "3:8 CONFIG_MISSING", "4:12 CONFIG_VALUE");
    assertThat(result.diagnostics().get(0).message())
        .isEqualTo("missing required key 'lakehouse' at the top level");
    assertThat(result.diagnostics().get(1).message()).isEqualTo("schema has no value");
    assertThat(result.diagnostics().get(2).message()).isEqualTo("workspace is empty");
  }

  @Test
  void invalidValuesNameWhatIsAllowed() throws IOException {
    LoadResult result =
        load(
            BASE
                + """
                default_target: prdo
                targets:
                  prod: {type: fabric, workspaceId: %s, lakehouseId: %s}
                  dev: {type: sparc}
                defaults:
                  refresh_policy: fulll
                  refresh_timeout: 10 years
                  parallelism: 0
                """
                    .formatted(WS_ID, LH_ID));

    assertThat(where(result))
        .containsExactly(
            "5:17 CONFIG_VALUE",
            "8:15 CONFIG_VALUE",
            "10:19 CONFIG_VALUE",
            "11:20 CONFIG_VALUE",
            "12:16 CONFIG_VALUE");
    List<Diagnostic> d = result.diagnostics();
    assertThat(d.get(0).message()).isEqualTo("default_target 'prdo' is not a declared target");
    assertThat(d.get(0).hint()).isEqualTo("did you mean 'prod'?");
    assertThat(d.get(1).message())
        .isEqualTo("targets.dev.type must be one of spark, fabric, not 'sparc'");
    assertThat(d.get(2).hint()).isEqualTo("did you mean 'full'?");
    assertThat(d.get(3).hint()).isEqualTo("write a number and a unit: 90s, 30m, 24h or 2d");
    assertThat(d.get(4).message()).isEqualTo("defaults.parallelism must be at least 1, not 0");
    assertThat(d.get(4).hint()).isEqualTo("write 1 or more, e.g. parallelism: 1");

    Diagnostic rows = only(load(BASE + "defaults:\n  max_dropped_rows: -1\n"));
    assertThat(rows.message()).isEqualTo("defaults.max_dropped_rows must be at least 0, not -1");
    assertThat(rows.hint()).isEqualTo("write 0 or more, e.g. max_dropped_rows: 0");
  }

  @Test
  void aSparkMasterTheEngineCannotStartIsAnErrorWhereItIsWritten() throws IOException {
    // Spark's own refusal ("internal error: SparkException: Could not parse Master URL") came
    // only once a command started Spark, with no place in mlv.yml; local[0] asks for no thread.
    for (String bad : List.of("bogus://x", "5", "local[0]", "local[two]", "yarn")) {
      Diagnostic d =
          only(load(BASE + "targets:\n  local:\n    type: spark\n    master: " + bad + "\n"));
      assertThat(d.ruleId()).as(bad).isEqualTo("CONFIG_VALUE");
      assertThat(d.position().line()).as(bad).isEqualTo(8);
      assertThat(d.position().column()).as(bad).isEqualTo(13);
      assertThat(d.message())
          .isEqualTo(
              "targets.local.master '" + bad + "' is not a Spark master the embedded engine runs");
      assertThat(d.hint())
          .isEqualTo(
              "write local, local[N] or local[*] (N worker threads, * one per core), or"
                  + " spark://host:port for a standalone cluster");
    }
    for (String good :
        List.of("local", "local[2]", "local[*]", "local[4, 3]", "spark://host:7077")) {
      LoadResult result =
          load(BASE + "targets:\n  local:\n    type: spark\n    master: '" + good + "'\n");
      assertThat(result.diagnostics()).as(good).isEmpty();
    }
  }

  @Test
  void aWarehouseThatIsAFileIsAnErrorWhereItIsWritten() throws IOException {
    // It passed validate and plan (every view "to create"), and seed then failed with "cannot
    // use .../notes.txt/lh.Lakehouse/Tables: not a directory".
    Files.writeString(root.resolve("notes.txt"), "not a warehouse\n");
    Diagnostic d =
        only(load(BASE + "targets:\n  local:\n    type: spark\n    warehouse: notes.txt\n"));
    assertThat(d.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(d.position().line()).isEqualTo(8);
    assertThat(d.position().column()).isEqualTo(16);
    assertThat(d.message())
        .isEqualTo("targets.local.warehouse 'notes.txt' is a file, not a folder");
    assertThat(d.hint())
        .isEqualTo("give the folder the local lakehouses live in; mlv creates it when missing");
  }

  @Test
  void fabricIdsMustBeUuids() throws IOException {
    LoadResult result =
        load(
            BASE
                + """
                targets:
                  prod:
                    type: fabric
                    workspaceId: 8d2f3c1a-5b6e-4f70-8a91
                    lakehouseId: 1-2-3-4-5
                """);

    assertThat(where(result)).containsExactly("8:18 CONFIG_VALUE", "9:18 CONFIG_VALUE");
    assertThat(result.diagnostics().get(0).message())
        .isEqualTo("targets.prod.workspaceId must be a UUID, not '8d2f3c1a-5b6e-4f70-8a91'");
    // UUID.fromString would accept "1-2-3-4-5"; the ids Fabric shows never look like that.
    assertThat(result.diagnostics().get(1).message()).contains("'1-2-3-4-5'");
  }

  @Test
  void fabricTargetNeedsTypeAndIds() throws IOException {
    LoadResult result =
        load(BASE + "targets:\n  prod:\n    workspaceId: " + WS_ID + "\n  qa: {type: fabric}\n");

    assertThat(where(result))
        .containsExactly("7:5 CONFIG_MISSING", "8:7 CONFIG_MISSING", "8:7 CONFIG_MISSING");
    assertThat(result.diagnostics().get(0).message())
        .isEqualTo("missing required key 'type' in targets.prod");
    assertThat(result.diagnostics().get(1).message())
        .isEqualTo("missing required key 'workspaceId' in targets.qa");
  }

  @Test
  void anMlvYmlThatIsNotUtf8IsPlacedAtItsFirstBadByte() throws IOException {
    byte[] yaml = "name: medallion\nworkspace: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
    Files.write(root.resolve("mlv.yml"), yaml);
    Diagnostic d = only(ProjectLoader.load(root, Map.of()));
    assertThat(d.ruleId()).isEqualTo("YAML_SYNTAX");
    assertThat(d.message()).startsWith("mlv.yml is not UTF-8 text");
    assertThat(d.position().line()).isEqualTo(2);
    assertThat(d.position().column()).isEqualTo(15);
  }

  /** Found by QA: a UTF-16 mlv.yml was guessed to be Windows-1252, as a .sql file is not. */
  @Test
  void aUtf16MlvYmlIsSaidToBeUtf16() throws IOException {
    Files.write(
        root.resolve("mlv.yml"),
        "\uFEFFname: medallion\n".getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
    Diagnostic d = only(ProjectLoader.load(root, Map.of()));
    assertThat(d.message())
        .isEqualTo("mlv.yml is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8");
    assertThat(d.hint()).isEqualTo("save it as UTF-8");
  }

  @Test
  void aFabricTargetMaySetItsRetryBudgetAndStatementLimit() throws IOException {
    String target =
        BASE
            + "targets:\n  prod:\n    type: fabric\n    workspaceId: %s\n    lakehouseId: %s\n"
                .formatted(WS_ID, LH_ID);
    FabricTarget builtIn =
        (FabricTarget) load(target).config().orElseThrow().target("prod").orElseThrow();
    assertThat(builtIn.retryBudget()).isEmpty();
    assertThat(builtIn.statementTimeout()).isEmpty();

    LoadResult set = load(target + "    retry_budget: 30m\n    statement_timeout: 4h\n");
    assertThat(set.diagnostics()).isEmpty();
    FabricTarget prod = (FabricTarget) set.config().orElseThrow().target("prod").orElseThrow();
    assertThat(prod.retryBudget()).contains(java.time.Duration.ofMinutes(30));
    assertThat(prod.statementTimeout()).contains(java.time.Duration.ofHours(4));
    var policy = dev.mlv.target.fabric.RetryPolicy.of(prod);
    assertThat(policy.retryBudget()).isEqualTo(java.time.Duration.ofMinutes(30));
    assertThat(policy.statementTimeout()).isEqualTo(java.time.Duration.ofHours(4));
    assertThat(dev.mlv.target.fabric.RetryPolicy.of(builtIn))
        .isEqualTo(dev.mlv.target.fabric.RetryPolicy.defaults());

    Diagnostic bad = only(load(target + "    retry_budget: soon\n"));
    assertThat(bad.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(bad.message()).contains("targets.prod.retry_budget");
    assertThat(bad.position().line()).isEqualTo(10);
  }

  @Test
  void endpointOutsideFabricNeedsOptIn() throws IOException {
    String target =
        BASE
            + "targets:\n  sim:\n    type: fabric\n    workspaceId: %s\n    lakehouseId: %s\n"
                .formatted(WS_ID, LH_ID)
            + "    endpoint: http://127.0.0.1:9999/v1\n";

    Diagnostic refused = only(load(target));
    assertThat(refused.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(refused.position().line()).isEqualTo(10);
    assertThat(refused.position().column()).isEqualTo(15);
    assertThat(refused.hint()).contains("allow_endpoint: true").contains("127.0.0.1");

    LoadResult allowed = load(target + "    allow_endpoint: true\n");
    assertThat(allowed.diagnostics()).isEmpty();
    FabricTarget sim = (FabricTarget) allowed.config().orElseThrow().target("sim").orElseThrow();
    assertThat(sim.endpoint()).isEqualTo(URI.create("http://127.0.0.1:9999/v1"));
    assertThat(sim.auth()).isEqualTo(new AuthConfig.DefaultChain());

    // Opting in never allows a token in clear text over the network.
    Diagnostic clear =
        only(
            load(target.replace("127.0.0.1:9999", "10.1.2.3:9999") + "    allow_endpoint: true\n"));
    assertThat(clear.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(clear.message()).contains("plain http on 10.1.2.3");
    assertThat(clear.position().line()).isEqualTo(10);
  }

  @Test
  void manyErrorsAreReportedTogetherInFileOrder() throws IOException {
    LoadResult result =
        load(
            """
            name: medallion
            workspace: [demo_ws]
            schema: dbo
            views: ../elsewhere
            vars: {region: weu}
            targets:
              prod:
                type: fabric
                workspaceId: not-a-uuid
                lakehouseId: ${env:LH_ID}
            sources:
              - name: a..b
              - {name: bronze.x, seed: missing.csv}
            defaults: {refresh_polcy: full}
            """);

    assertThat(where(result))
        .containsExactly(
            "1:1 CONFIG_MISSING",
            "2:12 CONFIG_TYPE",
            "4:8 CONFIG_PATH",
            "9:18 CONFIG_VALUE",
            "12:11 CONFIG_VALUE",
            "13:28 CONFIG_VALUE",
            "14:12 CONFIG_UNKNOWN_KEY");
    assertThat(result.hasErrors()).isTrue();
    assertThat(result.config()).isEmpty();
  }

  @Test
  void interpolatesVarsAndEnvironment() throws IOException {
    LoadResult result =
        load(
            """
            name: ${project}-${env:STAGE}
            workspace: ${env:WS}
            lakehouse: lh_${region}
            schema: $${literal}
            vars:
              project: medallion
              region: weu
            """,
            Map.of("STAGE", "dev", "WS", "team_ws"));

    assertThat(result.diagnostics()).isEmpty();
    ProjectConfig config = result.config().orElseThrow();
    assertThat(config.name()).isEqualTo("medallion-dev");
    assertThat(config.workspace()).isEqualTo("team_ws");
    assertThat(config.lakehouse()).isEqualTo("lh_weu");
    assertThat(config.schema()).isEqualTo("${literal}");
  }

  @Test
  void missingEnvironmentVariableAndUndefinedVarAreNamed() throws IOException {
    LoadResult result =
        load(
            """
            name: medallion
            workspace: ${env:MLV_WORKSPACE}
            lakehouse: lh_${regoin}
            schema: ${dbo
            vars: {region: weu}
            """,
            Map.of());

    assertThat(where(result))
        .containsExactly("2:12 CONFIG_ENV", "3:12 CONFIG_VAR", "4:9 CONFIG_VALUE");
    List<Diagnostic> d = result.diagnostics();
    assertThat(d.get(0).message())
        .isEqualTo("workspace needs environment variable MLV_WORKSPACE, which is not set");
    assertThat(d.get(1).message()).isEqualTo("lakehouse uses undefined variable 'regoin'");
    assertThat(d.get(1).hint()).isEqualTo("did you mean '${region}'?");
    assertThat(d.get(2).message()).isEqualTo("schema has an unclosed '${'");
  }

  @Test
  void varsAreLiteralSoEnvironmentValuesCannotHideInThem() throws IOException {
    Diagnostic d = only(load(BASE + "vars:\n  token: ${env:TOKEN}\n", Map.of("TOKEN", "t")));

    assertThat(d.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(d.position().line()).isEqualTo(6);
    assertThat(d.position().column()).isEqualTo(10);
    // Where such a variable is used, it is not also "undefined" (found by QA: a second error).
    LoadResult used =
        load(
            "vars: {s: \"${env:SCHEMA_NAME}\"}\nname: p\nworkspace: ws\nlakehouse: lh\nschema: ${s}\n",
            Map.of("SCHEMA_NAME", "dbo"));
    assertThat(where(used)).containsExactly("1:11 CONFIG_VALUE");
  }

  @Test
  void secretsComeOnlyFromTheEnvironmentAndNeverPrint() throws IOException {
    String secret = "p4ss-w0rd-very-secret";
    String yaml =
        BASE
            + """
            targets:
              local:
                conf: {fs.azure.account.key: "${env:STORAGE_KEY}"}
              prod:
                type: fabric
                workspaceId: %s
                lakehouseId: %s
                auth:
                  mode: spn
                  tenant_id: t
                  client_id: c
                  client_secret: ${env:MLV_SECRET}
            """
                .formatted(WS_ID, LH_ID);

    LoadResult result = load(yaml, Map.of("MLV_SECRET", secret, "STORAGE_KEY", secret));

    assertThat(result.diagnostics()).isEmpty();
    ProjectConfig config = result.config().orElseThrow();
    FabricTarget prod = (FabricTarget) config.target("prod").orElseThrow();
    Secret s = ((AuthConfig.ServicePrincipal) prod.auth()).clientSecret();
    assertThat(s.reveal()).isEqualTo(secret);
    assertThat(s.toString()).isEqualTo("****");
    SparkTarget local = (SparkTarget) config.target("local").orElseThrow();
    assertThat(local.conf()).containsEntry("fs.azure.account.key", secret);
    for (Object o : List.of(config, prod, prod.auth(), s, local, result)) {
      assertThat(o.toString()).doesNotContain(secret);
    }
    assertThat(local.toString()).contains("fs.azure.account.key=****");
  }

  @Test
  void literalSecretIsRefusedWithoutEchoingIt() throws IOException {
    LoadResult result =
        load(
            BASE
                + """
                targets:
                  prod:
                    type: fabric
                    workspaceId: %s
                    lakehouseId: %s
                    auth:
                      mode: spn
                      tenant_id: t
                      client_id: c
                      client_secret: "hunter2${env:X}"
                      token_env: NOT_FOR_SPN
                """
                    .formatted(WS_ID, LH_ID),
            Map.of("X", ""));

    assertThat(where(result)).containsExactly("14:22 CONFIG_SECRET_LITERAL", "15:7 CONFIG_VALUE");
    assertThat(result.diagnostics().get(0).format()).doesNotContain("hunter2");
    assertThat(result.diagnostics().get(1).message())
        .isEqualTo("targets.prod.auth.token_env is not used with auth mode 'spn'");
  }

  @Test
  void spnSecretFromMissingEnvironmentVariable() throws IOException {
    String yaml =
        BASE
            + "targets:\n  prod:\n    type: fabric\n    workspaceId: %s\n    lakehouseId: %s\n"
                .formatted(WS_ID, LH_ID)
            + "    auth: {mode: spn, tenant_id: t, client_id: c, client_secret: \"${env:MLV_SECRET}\"}\n";

    LoadResult result = load(yaml, Map.of());

    // The project loads, so validate works without credentials; using the secret fails clearly.
    assertThat(result.diagnostics()).isEmpty();
    var spn =
        (AuthConfig.ServicePrincipal)
            ((FabricTarget) result.orThrow().target("prod").orElseThrow()).auth();
    assertThat(spn.clientSecret().isSet()).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> spn.clientSecret().reveal())
        .hasMessageContaining("environment variable MLV_SECRET is not set");
  }

  @Test
  void aTargetsUnsetEnvironmentVariablesFailOnlyTheCommandThatUsesIt() throws IOException {
    String yaml =
        BASE
            + """
            targets:
              local: {type: spark, conf: {spark.x: "${env:MLV_SET}"}}
              prod:
                type: fabric
                workspaceId: ${env:MLV_WS_ID}
                lakehouseId: %s
                auth:
                  mode: spn
                  tenant_id: ${env:MLV_TENANT}
                  client_id: ${env:MLV_CLIENT}
                  client_secret: ${env:MLV_SECRET}
            """
                .formatted(LH_ID);

    LoadResult result = load(yaml, Map.of("MLV_SET", "1"));

    // validate, lineage and the local target work without prod's credentials (CI has none).
    assertThat(result.diagnostics()).isEmpty();
    ProjectConfig config = result.orThrow();
    assertThat(config.usableTarget("local")).isInstanceOf(SparkTarget.class);
    // Using prod names every variable it lacks, secret included, each at its value.
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> config.usableTarget("prod"))
        .isInstanceOfSatisfying(
            MlvException.class,
            e ->
                assertThat(e.diagnostics())
                    .extracting(
                        d -> d.position().line() + ":" + d.position().column() + " " + d.message())
                    .containsExactly(
                        "9:18 targets.prod.workspaceId needs environment variable MLV_WS_ID,"
                            + " which is not set",
                        "13:18 targets.prod.auth.tenant_id needs environment variable MLV_TENANT,"
                            + " which is not set",
                        "14:18 targets.prod.auth.client_id needs environment variable MLV_CLIENT,"
                            + " which is not set",
                        "15:22 targets.prod.auth.client_secret needs environment variable"
                            + " MLV_SECRET, which is not set"));

    ProjectConfig set =
        load(
                yaml,
                Map.of(
                    "MLV_SET", "1",
                    "MLV_WS_ID", WS_ID,
                    "MLV_TENANT", "t",
                    "MLV_CLIENT", "c",
                    "MLV_SECRET", "s"))
            .orThrow();
    FabricTarget prod = (FabricTarget) set.usableTarget("prod");
    assertThat(prod.workspaceId()).hasToString(WS_ID);
    assertThat(((AuthConfig.ServicePrincipal) prod.auth()).tenantId()).isEqualTo("t");
  }

  @Test
  void aTargetsValuesAreStillCheckedWhenItsEnvironmentIsUnset() throws IOException {
    LoadResult result =
        load(
            BASE
                + """
                targets:
                  prod:
                    type: fabric
                    workspaceId: ${env:MLV_WS_ID}
                    lakehouseId: not-a-uuid
                    auth: {mode: spn, tenant_id: "${env:T}", client_id: c, client_secret: s3cret}
                    regoin: weu
                """,
            Map.of());

    assertThat(where(result))
        .containsExactly(
            "9:18 CONFIG_VALUE", "10:75 CONFIG_SECRET_LITERAL", "11:5 CONFIG_UNKNOWN_KEY");
  }

  @Test
  void badIndentationIsPositioned() throws IOException {
    Diagnostic d = only(load("name: medallion\nworkspace: demo_ws\n  lakehouse: lh\n"));

    assertThat(d.ruleId()).isEqualTo("YAML_SYNTAX");
    // SnakeYAML reads "demo_ws lakehouse" as one value and stops at the second ':'.
    assertThat(d.position().line()).isEqualTo(3);
    assertThat(d.position().column()).isEqualTo(12);
    assertThat(d.message()).isEqualTo("invalid YAML: mapping values are not allowed here");
  }

  /**
   * A quote or bracket never closed is placed where it opens: the end of the text, where SnakeYAML
   * finds the problem, was a line past the last one, at which no editor or CI annotation points
   * (found by QA).
   */
  @Test
  void unclosedQuoteIsPositionedAndNamesWhereItOpened() throws IOException {
    Diagnostic d = only(load("name: \"medallion\nworkspace: demo_ws\n"));

    assertThat(d.ruleId()).isEqualTo("YAML_SYNTAX");
    assertThat(d.position().line()).isEqualTo(1);
    assertThat(d.position().column()).isEqualTo(7);
    assertThat(d.message()).contains("quoted scalar at line 1, column 7");

    Diagnostic flow = only(load(BASE + "sources: [bronze.a, bronze.b\n"));
    int lines = (BASE + "sources: [bronze.a, bronze.b\n").split("\n").length;
    assertThat(flow.position().line()).isEqualTo(lines);
    assertThat(flow.position().column()).isEqualTo(10);
    assertThat(flow.message())
        .isEqualTo("invalid YAML: this '[' is never closed: the file ends inside it");
  }

  /**
   * A file that ends inside a flow collection is reported at the innermost '[' or '{' left open, in
   * words: SnakeYAML put a '[' that ends its line at a line past the last one, with "expected the
   * node content, but found '<stream end>'" (found by QA). Quoted and commented brackets do not
   * count.
   */
  @Test
  void aFileEndingInsideAFlowCollectionNamesTheBracketLeftOpen() throws IOException {
    int line = BASE.split("\n").length + 1;
    Diagnostic last = only(load(BASE + "view_config: {silver.a: [\n"));
    assertThat(last.position().line()).isEqualTo(line);
    assertThat(last.position().column()).isEqualTo(25);
    assertThat(last.message())
        .isEqualTo("invalid YAML: this '[' is never closed: the file ends inside it");
    assertThat(last.hint()).isEqualTo("close it with ']' where its items end");

    Diagnostic outer =
        only(load(BASE + "view_config:\n  silver.a: {tags: ['x]', \"y}\", b] # ] }\n"));
    assertThat(outer.position().line()).isEqualTo(line + 1);
    assertThat(outer.position().column()).isEqualTo(13);
    assertThat(outer.hint()).isEqualTo("close it with '}' where its items end");
  }

  /** Found by QA: SnakeYAML's "but found another document", with a hint about indentation. */
  @Test
  void aSecondDocumentIsSaidInWords() throws IOException {
    Diagnostic d = only(load("name: p\n---\nname: q\n"));
    assertThat(d.position().line()).isEqualTo(2);
    assertThat(d.message())
        .isEqualTo("invalid YAML: a second YAML document starts here; the file must hold one");
  }

  @Test
  void tabIndentationIsPositioned() throws IOException {
    Diagnostic d = only(load("name: medallion\ntargets:\n\tlocal: {}\n"));

    assertThat(d.ruleId()).isEqualTo("YAML_SYNTAX");
    assertThat(d.position().line()).isEqualTo(3);
    assertThat(d.position().column()).isEqualTo(1);
    assertThat(d.message()).contains("tab");
    assertThat(d.hint()).isEqualTo("indent with spaces; YAML does not allow tabs");
  }

  /**
   * A line indented to no level of its block is said in words, not with SnakeYAML's token names
   * ("expected <block end>, but found '?'"), which no file holds (found by QA).
   */
  @Test
  void aLineIndentedToNoLevelIsSaidInWords() throws IOException {
    Diagnostic key =
        only(load(BASE + "sources:\n  - name: bronze.devices\n  seed: seeds/devices.csv\n"));
    int line = (BASE + "sources:\n  - name: bronze.devices\n").split("\n").length + 1;
    assertThat(key.position().line()).isEqualTo(line);
    assertThat(key.position().column()).isEqualTo(3);
    assertThat(key.message())
        .isEqualTo(
            "invalid YAML: this key is indented as the '-' of the list at line "
                + (line - 1)
                + ", column 3, so it belongs to no item of that list");
    assertThat(key.hint()).contains("indent it as the keys of the item above it");

    Diagnostic between =
        only(load(BASE + "targets:\n  local:\n    type: spark\n   master: local[2]\n"));
    assertThat(between.message())
        .startsWith("invalid YAML: this line is indented to no level of the block at line")
        .doesNotContain("<block");
    Diagnostic item = only(load(BASE + "sources:\n  - name: bronze.a\n - name: bronze.b\n"));
    assertThat(item.message())
        .isEqualTo(
            "invalid YAML: this list item's '-' is indented to no level of the lines above it");
  }

  @Test
  void duplicateKeysAreErrorsAtTheSecondOccurrence() throws IOException {
    LoadResult result =
        load(
            BASE
                + """
                schema: silver
                defaults:
                  parallelism: 2
                  parallelism: 3
                """);

    assertThat(where(result)).containsExactly("5:1 YAML_DUPLICATE_KEY", "8:3 YAML_DUPLICATE_KEY");
    assertThat(result.diagnostics().get(0).message())
        .isEqualTo("key 'schema' appears twice at the top level");
    assertThat(result.diagnostics().get(0).hint()).isEqualTo("first at line 4; keep one of them");
  }

  @Test
  void namesThatDifferOnlyInCaseAreDuplicates() throws IOException {
    LoadResult result =
        load(
            BASE
                + """
                sources:
                  - bronze.events
                  - name: BRONZE.Events
                view_config:
                  silver.a: {}
                  SILVER.A: {enable_cdf: false}
                """);

    assertThat(where(result)).containsExactly("7:5 CONFIG_VALUE", "10:3 CONFIG_VALUE");
    assertThat(result.diagnostics().get(0).hint())
        .isEqualTo("first at line 6; merge the two entries");
  }

  @Test
  void namesThatResolveToTheSameObjectAreDuplicates() throws IOException {
    // Found by QA: the later entry silently won. 'other' belongs to workspace ws2, so
    // demo_ws.other.bronze.a is another table than other.bronze.a.
    LoadResult result =
        load(
            BASE
                + """
                lakehouses:
                  other: {workspace: ws2}
                sources:
                  - {name: bronze.a}
                  - {name: demo_ws.lh_oud_mlv.bronze.a}
                  - other.bronze.b
                  - ws2.OTHER.bronze.b
                  - demo_ws.other.bronze.b
                view_config:
                  s.v: {refresh_policy: full, tags: [x]}
                  demo_ws.lh_oud_mlv.s.v: {refresh_policy: incremental, tags: [y]}
                  lh_oud_mlv.S.V: {}
                  v: {}
                  dbo.v: {}
                """);

    assertThat(where(result))
        .containsExactly(
            "9:5 CONFIG_VALUE",
            "11:5 CONFIG_VALUE",
            "15:3 CONFIG_VALUE",
            "16:3 CONFIG_VALUE",
            "18:3 CONFIG_VALUE");
    assertThat(result.diagnostics().get(0).message())
        .isEqualTo(
            "source 'demo_ws.lh_oud_mlv.bronze.a' is configured twice: 'bronze.a' at line 8"
                + " names the same source (demo_ws.lh_oud_mlv.bronze.a)");
    assertThat(result.diagnostics().get(0).hint())
        .isEqualTo("first at line 8; merge the two entries");
    assertThat(result.diagnostics().get(1).message())
        .startsWith("source 'ws2.OTHER.bronze.b' is configured twice: 'other.bronze.b' at line 10");
    assertThat(result.diagnostics().get(2).message())
        .isEqualTo(
            "view 'demo_ws.lh_oud_mlv.s.v' is configured twice: 's.v' at line 14 names the"
                + " same view (demo_ws.lh_oud_mlv.s.v)");
    assertThat(result.diagnostics().get(3).message())
        .startsWith("view 'lh_oud_mlv.S.V' is configured twice: 's.v' at line 14");
    assertThat(result.diagnostics().get(4).message())
        .startsWith("view 'dbo.v' is configured twice: 'v' at line 17");
  }

  @Test
  void pathsCannotLeaveTheProject() throws IOException {
    Path outside = Files.createTempFile("outside", ".csv");
    try {
      Files.createDirectories(root.resolve("views"));
      Files.createSymbolicLink(root.resolve("link.csv"), outside);
      LoadResult result =
          load(
              BASE
                  + """
                  views: [views, ../other, /etc]
                  targets:
                    local: {warehouse: views/../../wh}
                  sources:
                    - {name: a.b, seed: seeds/../../secret.csv}
                    - {name: a.c, seed: link.csv}
                  """);

      assertThat(where(result))
          .containsExactly(
              "5:16 CONFIG_PATH",
              "5:26 CONFIG_PATH",
              "7:22 CONFIG_PATH",
              "9:23 CONFIG_PATH",
              "10:23 CONFIG_PATH");
      assertThat(result.diagnostics().get(0).message())
          .isEqualTo("views '../other' leads outside the project folder");
      assertThat(result.diagnostics().get(1).message()).contains("is absolute");
    } finally {
      Files.deleteIfExists(outside);
    }
  }

  /**
   * The project's own lakehouse listed under lakehouses: with another workspace: lh.silver.a then
   * stopped naming the project's view silver.a, and apply failed with SOURCE_MISSING (found by QA).
   * The same workspace again is harmless.
   */
  @Test
  void theProjectsOwnLakehouseCannotBePlacedInAnotherWorkspace() throws IOException {
    String top = "name: p\nworkspace: ws1\nlakehouse: lh1\nschema: dbo\n";
    LoadResult result = load(top + "lakehouses:\n  LH1: {workspace: ws9}\n");
    assertThat(where(result)).containsExactly("6:3 CONFIG_VALUE");
    assertThat(result.diagnostics().get(0).message())
        .isEqualTo(
            "lakehouses.LH1 places lakehouse LH1 in workspace ws9, but lh1 is the project's own"
                + " lakehouse, in workspace ws1: a name LH1.schema.table could then mean either");
    assertThat(result.diagnostics().get(0).hint())
        .isEqualTo(
            "remove LH1 from lakehouses:, and write a table of the other workspace's LH1 with four"
                + " parts: ws9.LH1.schema.table");
    assertThat(load(top + "lakehouses:\n  lh1: {workspace: ws1}\n  lh2: {}\n").diagnostics())
        .isEmpty();
  }

  /**
   * The default views/ as a link leading outside the project is refused, as views: [views] is
   * (found by QA: without the key it was read through the link, silently).
   */
  @Test
  void theDefaultViewsFolderCannotLeadOutsideTheProject() throws IOException {
    Path outside = Files.createTempDirectory("outside-views");
    try {
      Files.deleteIfExists(root.resolve("views"));
      Files.createSymbolicLink(root.resolve("views"), outside);
      LoadResult result = load(BASE);
      assertThat(where(result)).containsExactly("1:1 CONFIG_PATH");
      assertThat(result.diagnostics().get(0).message())
          .startsWith("views/ leads outside the project folder, to ")
          .endsWith(" (mlv.yml has no 'views:' key, so mlv reads views/)");
    } finally {
      Files.deleteIfExists(root.resolve("views"));
      Files.deleteIfExists(outside);
    }
  }

  @Test
  void viewsAcceptsASingleStringAndMissingFoldersAreErrors() throws IOException {
    Files.createDirectories(root.resolve("sql/views"));
    LoadResult one = load(BASE + "views: sql/views\n");
    assertThat(one.config().orElseThrow().viewFolders())
        .containsExactly(root.toAbsolutePath().normalize().resolve("sql/views"));

    LoadResult missing = load(BASE + "views:\n  - sql/views\n  - sql/gone\n");
    Diagnostic d = only(missing);
    assertThat(d.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(d.position().line()).isEqualTo(7);
    assertThat(d.position().column()).isEqualTo(5);
    assertThat(d.message()).isEqualTo("view folder 'sql/gone' does not exist");

    Files.writeString(root.resolve("sql/file"), "");
    Diagnostic file = only(load(BASE + "views: [sql/file]\n"));
    assertThat(file.message()).isEqualTo("view folder 'sql/file' is a file, not a folder");
    assertThat(file.hint()).isNotNull();
  }

  @Test
  void theDefaultViewFolderMustExistSoPruneCannotDropEverything() throws IOException {
    Files.delete(root.resolve("views"));
    Diagnostic d = only(load("# a project\n" + BASE));
    assertThat(d.ruleId()).isEqualTo("CONFIG_VALUE");
    // Where the missing-key errors of the whole file go: the top mapping's first key.
    assertThat(d.position().line()).isEqualTo(2);
    assertThat(d.position().column()).isEqualTo(1);
    assertThat(d.message())
        .isEqualTo(
            "view folder 'views' does not exist (mlv.yml has no 'views:' key, so mlv reads"
                + " views/)");
    assertThat(d.hint()).startsWith("create views/").contains("'views:'");

    Files.writeString(root.resolve("views"), "");
    Diagnostic file = only(load(BASE));
    assertThat(file.message()).startsWith("view folder 'views' is a file, not a folder");
    assertThat(file.hint()).startsWith("move the file away and create views/");
  }

  @Test
  void seedsAreCheckedAndTheirFormatInferred() throws IOException {
    Files.createDirectories(root.resolve("seeds"));
    Files.writeString(root.resolve("seeds/a.CSV"), "id\n");
    Files.writeString(root.resolve("seeds/b.txt"), "id\n");
    LoadResult result =
        load(
            BASE
                + """
                sources:
                  - {name: s.a, seed: seeds/a.CSV}
                  - {name: s.b, seed: seeds/b.txt}
                  - {name: s.c, seed: seeds/b.txt, format: csv}
                  - {name: s.d, seed: seeds/none.csv}
                  - {name: s.e, format: parquet}
                  - {name: w.l.s.t.x}
                  - {name: "dbo.`bronze.orders`"}
                """);

    assertThat(where(result))
        .containsExactly(
            "7:23 CONFIG_VALUE",
            "9:23 CONFIG_VALUE",
            "10:17 CONFIG_VALUE",
            "11:12 CONFIG_VALUE",
            "12:12 CONFIG_VALUE");
    List<Diagnostic> d = result.diagnostics();
    assertThat(d.get(0).message()).isEqualTo("cannot tell the format of seed 'seeds/b.txt'");
    assertThat(d.get(1).message()).isEqualTo("seed file 'seeds/none.csv' does not exist");
    assertThat(d.get(2).message())
        .isEqualTo("sources[5].format is set but there is no seed to read");
    assertThat(d.get(3).message())
        .isEqualTo("sources[6].name 'w.l.s.t.x' is not a name of 1 to 4 dotted parts");
    // Joined again, the backticked part would be read as two: schema bronze, table orders.
    assertThat(d.get(4).message())
        .isEqualTo(
            "sources[7].name 'dbo.`bronze.orders`' has a dot inside the part `bronze.orders`");

    // A folder is there, so "does not exist" over an ls that shows it misleads.
    Diagnostic folder = only(load(BASE + "sources:\n  - {name: s.f, seed: seeds}\n"));
    assertThat(folder.message()).isEqualTo("seed file 'seeds' is a folder, not a file");
    assertThat(folder.hint())
        .isEqualTo("give the path of the CSV or Parquet file itself, relative to " + root);
  }

  @Test
  void tokenModeDefaultsItsVariableAndRejectsBadNames() throws IOException {
    String target =
        BASE
            + "targets:\n  prod:\n    type: fabric\n    workspaceId: %s\n    lakehouseId: %s\n"
                .formatted(WS_ID, LH_ID);

    FabricTarget prod =
        (FabricTarget)
            load(target + "    auth: {mode: TOKEN}\n").orThrow().target("prod").orElseThrow();
    assertThat(prod.auth()).isEqualTo(new AuthConfig.TokenFromEnv("FABRIC_TOKEN"));

    Diagnostic d = only(load(target + "    auth: {mode: token, token_env: my-token}\n"));
    assertThat(d.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(d.position().column()).isEqualTo(36);

    Diagnostic mode = only(load(target + "    auth: {mode: spm}\n"));
    assertThat(mode.hint()).isEqualTo("did you mean 'spn'?");
  }

  @Test
  void viewConfigKeysMustBeNamesOfOneToFourParts() throws IOException {
    Diagnostic d = only(load(BASE + "view_config:\n  silver..x: {tags: [a]}\n"));

    assertThat(d.ruleId()).isEqualTo("CONFIG_VALUE");
    assertThat(d.position().line()).isEqualTo(6);
    assertThat(d.position().column()).isEqualTo(3);
  }

  @Test
  void viewConfigKeysMayQuotePartsWithBackticks() throws IOException {
    LoadResult r = load(BASE + "view_config:\n  \"`Silver`.`Trials_Clean`\": {tags: [a]}\n");

    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.config().orElseThrow().settingsFor("silver.trials_clean").tags())
        .containsExactly("a");
    assertThat(only(load(BASE + "view_config:\n  \"`silver.x\": {tags: [a]}\n")).ruleId())
        .isEqualTo("CONFIG_VALUE");
  }

  @Test
  void syntaxAndStructureProblemsOfTheWholeFile() throws IOException {
    Diagnostic list = only(load("- name\n- workspace\n"));
    assertThat(list.ruleId()).isEqualTo("CONFIG_TYPE");
    assertThat(list.message()).isEqualTo("mlv.yml must be a mapping of keys to values, not a list");

    Diagnostic empty = only(load("# nothing yet\n"));
    assertThat(empty.ruleId()).isEqualTo("CONFIG_MISSING");
    assertThat(empty.message()).isEqualTo("mlv.yml is empty");
    // A document marker alone holds nothing either (found by QA: four missing keys at 2:1).
    for (String nothing : new String[] {"---\n", "---\n...\n", "--- # later\n"}) {
      Diagnostic marker = only(load(nothing));
      assertThat(marker.message()).as(nothing).isEqualTo("mlv.yml is empty");
    }

    Diagnostic twoDocs = only(load(BASE + "---\n" + BASE));
    assertThat(twoDocs.ruleId()).isEqualTo("YAML_SYNTAX");
    assertThat(twoDocs.position().line()).isEqualTo(5);
  }

  @Test
  void missingFileIsProjectNotFound() throws IOException {
    LoadResult result = ProjectLoader.load(root, Map.of());

    Diagnostic d = only(result);
    assertThat(d.ruleId()).isEqualTo("PROJECT_NOT_FOUND");
    assertThat(d.message()).contains(root.toAbsolutePath().normalize().toString());
    assertThat(result.hasErrors()).isTrue();

    Files.createDirectories(root.resolve("mlv.yml"));
    Diagnostic folder = only(ProjectLoader.load(root, Map.of()));
    assertThat(folder.ruleId()).isEqualTo("PROJECT_NOT_FOUND");
    assertThat(folder.message()).endsWith("mlv.yml is a folder, not a file");
    assertThat(folder.hint()).contains("move the folder away");
  }

  @Test
  void orThrowCarriesTheErrors() throws IOException {
    LoadResult result = load("name: medallion\n");

    try {
      result.orThrow();
      throw new AssertionError("expected an MlvException");
    } catch (MlvException e) {
      assertThat(e.diagnostics()).hasSize(3);
      assertThat(e.getMessage()).contains("missing required key 'workspace'");
    }
    assertThat(result.config()).isEqualTo(Optional.empty());
  }
}
