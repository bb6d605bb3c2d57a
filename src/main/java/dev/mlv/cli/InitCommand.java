package dev.mlv.cli;

import dev.mlv.diag.MlvException;
import dev.mlv.diag.UsageException;
import dev.mlv.project.LakehouseName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mlv init}: a new project that validates, plans and runs from the first minute. */
@Command(
    name = "init",
    header = "Create a new mlv project.",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Create a project: mlv.yml with a local target and a commented Fabric target,"
          + " views/silver and views/gold with a sample view each, a seeded bronze source, a CI"
          + " workflow example and a git ignore file (.gitignore) that keeps the local warehouse"
          + " out of git. Never overwrites a file: the lines mlv needs are appended to an existing"
          + " git ignore file when missing."
    },
    footer = {
      "",
      "Examples:",
      "  mlv init sales",
      "  mlv init . --name sales --lakehouse sales_lh"
    })
public final class InitCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "DIR",
      arity = "0..1",
      defaultValue = ".",
      description = "Folder of the new project (default: the current folder).")
  Path dir;

  @Option(
      names = "--name",
      description =
          "Project name, written to mlv.yml as given, any text on one line (default: the"
              + " folder's name, lower case, with each sign other than an ASCII letter, digit or _ as _).")
  String name;

  @Option(
      names = "--workspace",
      defaultValue = "my_workspace",
      description = "Default workspace (default: ${DEFAULT-VALUE}).")
  String workspace;

  @Option(
      names = "--lakehouse",
      defaultValue = "my_lakehouse",
      description =
          "Default lakehouse: a letter, then letters, digits and '_', as Fabric requires"
              + " (default: ${DEFAULT-VALUE}).")
  String lakehouse;

  @Override
  public Integer call() throws IOException {
    Path root = dir.toAbsolutePath().normalize();
    // A name given is kept as written (mlv.yml quotes it); only the default is made plain.
    String project =
        name != null
            ? name.strip()
            : (root.getFileName() == null ? "mlv_project" : root.getFileName().toString())
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9_]", "_");
    // Option values a project cannot have are usage errors (64), said for the option given.
    if (project.isEmpty()) {
      throw new UsageException("INIT", "--name must not be empty");
    }
    if (project.chars().anyMatch(Character::isISOControl)) {
      throw new UsageException(
          "INIT", "--name must be one line of text, without tabs or other control characters");
    }
    if (workspace.isBlank()) {
      throw new UsageException("INIT", "--workspace must not be empty");
    }
    if (lakehouse.isBlank()) {
      throw new UsageException("INIT", "--lakehouse must not be empty");
    }
    // A usage error before any file is written: the project could never be deployed to Fabric.
    LakehouseName.problem(lakehouse)
        .ifPresent(
            p -> {
              throw new UsageException(
                  "INIT", "--lakehouse '" + lakehouse + "' " + p + "; " + LakehouseName.RULE);
            });
    if ((workspace + lakehouse).contains(".") || (workspace + lakehouse).contains("`")) {
      throw new UsageException(
          "INIT",
          "--workspace and --lakehouse must not hold a dot or backtick: names in mlv are dotted"
              + " (workspace.lakehouse.schema.table)");
    }
    if (java.nio.file.Files.exists(root) && !java.nio.file.Files.isDirectory(root)) {
      throw new MlvException(
          "INIT", root + " is a file; mlv init makes a project in a folder (new or existing)");
    }
    if (workspace.equalsIgnoreCase(lakehouse)) {
      throw new UsageException("INIT", "--workspace and --lakehouse must differ");
    }
    Map<String, String> files = new LinkedHashMap<>();
    files.put("mlv.yml", yml(project));
    files.put(".gitignore", GITIGNORE);
    files.put("seeds/orders.csv", ORDERS);
    files.put("views/silver/orders_clean.sql", SILVER);
    files.put("views/gold/daily_revenue.sql", GOLD);
    // In a subfolder of a git repository the workflow runs mlv there; GitHub runs only those in
    // the repository root's .github/workflows, which mlv init does not write into.
    Optional<Path> repository = repositoryAbove(root);
    String inFolder =
        repository
            .map(r -> r.relativize(root.toAbsolutePath().normalize()).toString().replace('\\', '/'))
            .orElse("");
    files.put(".github/workflows/mlv.yml", workflow(inFolder));
    // A .gitignore is the repository's, not mlv's: it is kept, and mlv's lines appended to it.
    Path gitignore = root.resolve(".gitignore");
    String appended = null;
    if (Files.exists(gitignore)) {
      files.remove(".gitignore");
      String had = Files.readString(gitignore, StandardCharsets.UTF_8);
      boolean ignored =
          had.lines()
              .map(String::strip)
              .anyMatch(l -> l.equals(".mlv/") || l.equals(".mlv") || l.equals("/.mlv/"));
      appended = ignored ? "" : (had.isEmpty() || had.endsWith("\n") ? "" : "\n") + GITIGNORE;
    }
    java.util.List<String> existing =
        files.keySet().stream().filter(f -> Files.exists(root.resolve(f))).toList();
    if (!existing.isEmpty()) {
      throw new MlvException(
          "INIT_EXISTS",
          String.join(", ", existing.stream().map(f -> root.resolve(f).toString()).toList())
              + (existing.size() == 1 ? " already exists" : " already exist")
              + "; mlv init never overwrites files. Choose an empty folder, or move them away.");
    }
    var out = spec.commandLine().getOut();
    for (var e : files.entrySet()) {
      Path p = root.resolve(e.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
      out.println("created " + root.relativize(p));
    }
    if (appended != null && appended.isEmpty()) {
      out.println("kept .gitignore (it already ignores .mlv/)");
    } else if (appended != null) {
      Files.writeString(
          gitignore, appended, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
      out.println("appended .mlv/ to the existing .gitignore");
    }
    if (repository.isPresent()) {
      out.println(
          "note: GitHub runs workflows only from the repository's root: move"
              + " .github/workflows/mlv.yml to "
              + repository.get().resolve(".github/workflows")
              + " (it already runs mlv in "
              + inFolder
              + ")");
    }
    out.println();
    out.println(
        "Next: cd " + shellWord(root.toString()) + " && mlv validate && mlv seed && mlv apply");
    return ExitCodes.OK;
  }

  private static final String GITIGNORE = "# the local lakehouse and mlv's caches\n.mlv/\n";

  private String yml(String project) {
    return """
        # mlv project file; reference: docs/mlv-yml.md
        name: %s
        workspace: %s
        lakehouse: %s
        schema: dbo

        views: [views]

        sources:
          - name: bronze.orders
            seed: seeds/orders.csv    # loaded into the local lakehouse by `mlv seed`

        targets:
          local:
            type: spark
            warehouse: .mlv/warehouse
            master: local[*]
          # A Fabric workspace: mlv plan -t prod, mlv apply -t prod (docs/fabric.md)
          # prod:
          #   type: fabric
          #   workspaceId: 00000000-0000-0000-0000-000000000000
          #   lakehouseId: 00000000-0000-0000-0000-000000000000
          #   auth:
          #     mode: spn
          #     tenant_id: ${env:AZURE_TENANT_ID}
          #     client_id: ${env:AZURE_CLIENT_ID}
          #     client_secret: ${env:AZURE_CLIENT_SECRET}
        """
        .formatted(scalar(project), scalar(workspace), scalar(lakehouse));
  }

  /** The path as one shell word, so the hint can be pasted whatever the folder is called. */
  static String shellWord(String path) {
    return path.matches("[A-Za-z0-9_@%+=:,./-]+") ? path : "'" + path.replace("'", "'\\''") + "'";
  }

  /**
   * A value as a YAML scalar: plain when YAML reads it back unchanged, else double-quoted (a
   * workspace called "sales #1" must not lose " #1" to a comment).
   */
  static String scalar(String value) {
    if (value.matches("[A-Za-z_][A-Za-z0-9_]*")
        && !java.util.Set.of("true", "false", "yes", "no", "on", "off", "null", "y", "n")
            .contains(value.toLowerCase(Locale.ROOT))) {
      return value;
    }
    StringBuilder quoted = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\t' -> quoted.append("\\t");
        default -> quoted.append(c);
      }
    }
    return quoted.append('"').toString();
  }

  private static final String ORDERS =
      """
      order_id,customer_id,amount,order_date
      1,C1,120.50,2026-11-01
      2,C2,75.00,2026-11-01
      3,C1,-5.00,2026-11-02
      4,C3,240.00,2026-11-02
      5,,18.25,2026-11-03
      """;

  private static final String SILVER =
      """
      -- Silver: rows that break a rule are dropped and counted in the run report
      CREATE OR REPLACE MATERIALIZED LAKE VIEW silver.orders_clean
      (
        CONSTRAINT positive_amount CHECK (amount > 0)              ON MISMATCH DROP,
        CONSTRAINT has_customer    CHECK (customer_id IS NOT NULL) ON MISMATCH DROP
      )
      AS SELECT order_id, customer_id, amount, order_date
      FROM bronze.orders
      """;

  private static final String GOLD =
      """
      -- Gold: refreshed after silver, because it reads silver
      CREATE OR REPLACE MATERIALIZED LAKE VIEW gold.daily_revenue
      AS SELECT order_date, COUNT(*) AS orders, SUM(amount) AS revenue
      FROM silver.orders_clean
      GROUP BY order_date
      """;

  /** The git repository whose work tree holds {@code folder} below its root, if any. */
  private static Optional<Path> repositoryAbove(Path folder) {
    Path start = folder.toAbsolutePath().normalize();
    if (Files.exists(start.resolve(".git"))) {
      return Optional.empty(); // the project is the repository's root
    }
    for (Path p = start.getParent(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The example workflow; {@code folder} is the project's path in the repository, or "". */
  private static String workflow(String folder) {
    if (folder.isEmpty()) {
      return WORKFLOW;
    }
    String quoted = "'" + folder.replace("'", "''") + "'";
    return WORKFLOW.replace(
        "jobs:\n", "defaults:\n  run: {working-directory: " + quoted + "}\njobs:\n");
  }

  private static final String WORKFLOW =
      """
      # Example CI for an mlv project: lint, plan, and publish the lineage.
      name: mlv
      on: [push, pull_request]
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
            - uses: actions/setup-java@v4
              with: {distribution: temurin, java-version: '17'}
            # mlv from its release archive (docs/releasing.md): set the repository variable
            # MLV_ARCHIVE_URL to where your team keeps mlv-<version>.tar.gz.
            - name: Install mlv
              env: {MLV_ARCHIVE_URL: '${{ vars.MLV_ARCHIVE_URL }}'}
              run: |
                curl -fsSL "$MLV_ARCHIVE_URL" | tar -xz -C "$RUNNER_TEMP"
                ls -d "$RUNNER_TEMP"/mlv-*/bin >> "$GITHUB_PATH"
            - name: Validate
              run: mlv validate --format github
            - name: Plan (exit 2 means changes, which is fine here)
              run: mlv plan --detailed-exitcode || test $? -eq 2
            - name: Lineage
              run: mlv lineage --dot > lineage.dot
      """;
}
