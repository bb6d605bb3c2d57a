package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.diag.Suggestions;
import dev.mlv.lineage.NameResolver;
import dev.mlv.sql.Name;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Maps the composed YAML node tree of mlv.yml onto the config records. Every problem becomes a
 * positioned diagnostic and reading goes on, so one run reports all of them; a field that failed
 * falls back to its default only to keep going, and any error discards the whole config.
 */
final class ConfigReader {
  private static final List<String> TOP_KEYS =
      List.of(
          "name",
          "workspace",
          "lakehouse",
          "schema",
          "views",
          "vars",
          "default_target",
          "targets",
          "lakehouses",
          "sources",
          "defaults",
          "view_config",
          "schedules");
  private static final List<String> SPARK_KEYS =
      List.of("type", "warehouse", "master", "conf", "files");
  private static final List<String> FABRIC_KEYS =
      List.of(
          "type",
          "workspaceId",
          "lakehouseId",
          "endpoint",
          "allow_endpoint",
          "auth",
          "retry_budget",
          "statement_timeout");
  private static final List<String> AUTH_KEYS =
      List.of("mode", "tenant_id", "client_id", "client_secret", "token_env");
  private static final List<String> LAKEHOUSE_KEYS = List.of("workspace");
  private static final List<String> SOURCE_KEYS = List.of("name", "seed", "format", "description");
  private static final List<String> DEFAULTS_KEYS =
      List.of(
          "enable_cdf",
          "optimal_refresh",
          "refresh_policy",
          "refresh_timeout",
          "parallelism",
          "history",
          "quarantine",
          "max_dropped_rows",
          "max_dropped_ratio");
  private static final List<String> HISTORY_KEYS = List.of("retain_runs", "retain_days");
  private static final List<String> VIEW_KEYS =
      List.of(
          "tags",
          "enable_cdf",
          "optimal_refresh",
          "refresh_policy",
          "quarantine",
          "max_dropped_rows",
          "max_dropped_ratio");

  private static final String FABRIC_HOST = "api.fabric.microsoft.com";
  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*([smhd])");
  private static final Pattern UUID_TEXT =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern TARGET_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private enum TargetType {
    SPARK,
    FABRIC
  }

  private enum AuthMode {
    DEFAULT,
    SPN,
    CLI,
    TOKEN
  }

  private static final Map<AuthMode, Set<String>> AUTH_MODE_KEYS =
      Map.of(
          AuthMode.DEFAULT, Set.of(),
          AuthMode.CLI, Set.of(),
          AuthMode.SPN, Set.of("tenant_id", "client_id", "client_secret"),
          AuthMode.TOKEN, Set.of("token_env"));

  private final Path root;
  private final Path file;
  private final Map<String, String> env;
  private final List<Diagnostic> problems = new ArrayList<>();
  private Interpolator interpolator;
  // Per target, the ${env:} values whose variables are unset; where secret() reports its own.
  private final Map<String, List<Diagnostic>> unsetEnv = new LinkedHashMap<>();
  private List<Diagnostic> unsetSink = problems;
  // Resolves source and view_config names as the project will, so that two spellings of one
  // object (s.v and ws.lh.s.v) are one name; absent while the defaults it needs are in error.
  private NameResolver names;

  /** {@code root} must be absolute and normalised. */
  ConfigReader(Path root, Path file, Map<String, String> env) {
    this.root = root;
    this.file = file;
    this.env = env;
    this.interpolator = new Interpolator(Map.of(), env, problems);
  }

  List<Diagnostic> problems() {
    return problems;
  }

  Optional<ProjectConfig> read(Node document) {
    Optional<Entries> parsed = mapping(document, "mlv.yml", "at the top level");
    if (parsed.isEmpty()) {
      return Optional.empty();
    }
    Entries top = parsed.get();
    top.allow(TOP_KEYS);
    // Variables first: every other string value may use them.
    Map<String, String> vars = top.get("vars").map(this::vars).orElse(Map.of());
    interpolator = new Interpolator(vars, env, problems);

    String name = top.required("name").flatMap(n -> nonBlank(n, "name")).orElse(null);
    String workspace =
        top.required("workspace").flatMap(n -> namePart(n, "workspace")).orElse(null);
    String lakehouse =
        top.required("lakehouse")
            .flatMap(n -> namePart(n, "lakehouse").filter(v -> fabricLakehouse(v, n, "lakehouse")))
            .orElse(null);
    String schema =
        top.required("schema")
            .flatMap(n -> namePart(n, "schema").filter(v -> folderName(v, n, "schema")))
            .orElse(null);
    List<Path> views = top.get("views").map(this::viewFolders).orElseGet(() -> defaultViews(top));

    Map<String, Position> declaredTargets = new LinkedHashMap<>();
    Map<String, TargetConfig> targets =
        top.get("targets").map(n -> targets(n, declaredTargets)).orElseGet(LinkedHashMap::new);
    if (!declaredTargets.containsKey("local")) {
      targets.put("local", SparkTarget.implicitLocal(root));
      declaredTargets.put("local", null);
    }
    String defaultTarget = "local";
    Optional<Node> defaultNode = top.get("default_target");
    if (defaultNode.isPresent()) {
      defaultTarget = nonBlank(defaultNode.get(), "default_target").orElse("local");
      if (!declaredTargets.containsKey(defaultTarget)) {
        error(
            "CONFIG_VALUE",
            defaultNode.get(),
            "default_target '" + defaultTarget + "' is not a declared target",
            Suggestions.hint(defaultTarget, declaredTargets.keySet()));
      }
    }

    Map<String, LakehouseRef> lakehouses =
        top.get("lakehouses").map(n -> lakehouses(n, workspace, lakehouse)).orElse(Map.of());
    if (workspace != null && lakehouse != null && schema != null) {
      Map<String, String> lakehouseWorkspaces = new HashMap<>();
      lakehouses.forEach((k, v) -> lakehouseWorkspaces.put(k, v.workspace()));
      names = new NameResolver(workspace, lakehouse, schema, lakehouseWorkspaces);
    }
    List<SourceConfig> sources = top.get("sources").map(this::sources).orElse(List.of());
    ProjectDefaults defaults =
        top.get("defaults").map(this::defaults).orElseGet(ProjectDefaults::builtIn);
    Map<String, ViewSettings> viewConfig =
        top.get("view_config").map(this::viewConfig).orElse(Map.of());

    List<dev.mlv.schedule.Schedule> schedules =
        top.get("schedules")
            .map(n -> new ScheduleReader(problems, this::pos, this::text).read(n, targets))
            .orElse(List.of());

    // Unknown keys alone leave a config validate can still check the views with, so that one typo
    // in mlv.yml does not hide every SQL error (found by QA); LoadResult keeps them as errors.
    if (problems.stream().anyMatch(d -> d.isError() && !d.ruleId().equals("CONFIG_UNKNOWN_KEY"))) {
      return Optional.empty();
    }
    return Optional.of(
        new ProjectConfig(
            root,
            file,
            name,
            workspace,
            lakehouse,
            schema,
            views,
            vars,
            defaultTarget,
            targets,
            lakehouses,
            sources,
            defaults,
            viewConfig,
            schedules,
            unsetEnv));
  }

  // ---- sections ----

  private Map<String, String> vars(Node node) {
    Map<String, String> vars = new LinkedHashMap<>();
    mapping(node, "vars", "in vars")
        .ifPresent(
            entries ->
                entries.forEach(
                    (key, tuple) -> {
                      if (!Interpolator.NAME.matcher(key).matches()) {
                        error(
                            "CONFIG_VALUE",
                            tuple.getKeyNode(),
                            "variable name '" + key + "' is not a plain name",
                            "use letters, digits and '_', starting with a letter or '_'");
                        return;
                      }
                      String what = "vars." + key;
                      rawText(tuple.getValueNode(), what)
                          .ifPresent(
                              value -> {
                                if (value.contains("${")) {
                                  // Env values in vars would spread secrets into plain strings.
                                  error(
                                      "CONFIG_VALUE",
                                      tuple.getValueNode(),
                                      what + " uses '${'; variables are literal text",
                                      "write ${env:NAME} directly where the value is used");
                                }
                                // Kept, so a use of it is not also "undefined" (found by QA);
                                // the interpolator leaves a value with ${ in it unresolved.
                                vars.put(key, value);
                              });
                    }));
    return vars;
  }

  private List<Path> viewFolders(Node node) {
    List<Node> items;
    if (node instanceof SequenceNode seq) {
      items = seq.getValue();
      if (items.isEmpty()) {
        error(
            "CONFIG_VALUE",
            node,
            "views lists no folder",
            "list at least one folder, e.g. [views]");
      }
    } else {
      items = List.of(node);
    }
    LinkedHashSet<Path> folders = new LinkedHashSet<>();
    for (Node item : items) {
      projectPath(item, "views")
          .ifPresent(
              folder ->
                  viewFolderProblem(folder)
                      .ifPresentOrElse(
                          problem ->
                              error(
                                  "CONFIG_VALUE",
                                  item,
                                  problem,
                                  Files.exists(folder)
                                      ? "list folders under 'views:'; mlv finds the definition"
                                          + " files inside them"
                                      : "create the folder or correct the path under 'views:'"),
                          () -> folders.add(folder)));
    }
    return new ArrayList<>(folders);
  }

  /**
   * The default {@code views/}, which must exist like a listed folder: a project that silently has
   * no views would make {@code plan --prune} propose dropping every deployed one. The error is
   * placed where the file's other whole-file errors (missing keys) go.
   */
  private List<Path> defaultViews(Entries top) {
    Path folder = root.resolve("views");
    Optional<String> problem = viewFolderProblem(folder);
    if (problem.isPresent()) {
      problems.add(
          Diagnostic.error(
              "CONFIG_VALUE",
              top.at,
              problem.get() + " (mlv.yml has no 'views:' key, so mlv reads views/)",
              (Files.exists(folder) ? "move the file away and create views/" : "create views/")
                  + " (it may stay empty in a project of only sources; git keeps an empty folder"
                  + " only with a file in it, such as views/.gitkeep), or list the view"
                  + " folders under 'views:', e.g. views: [sql]"));
      return List.of();
    }
    // As for a listed folder: a views/ that is a link leading outside the project is refused, since
    // git keeps only the link (found by QA: the default views/ was read through it silently).
    try {
      if (!folder.toRealPath().startsWith(root.toRealPath())) {
        problems.add(
            Diagnostic.error(
                "CONFIG_PATH",
                top.at,
                "views/ leads outside the project folder, to "
                    + folder.toRealPath()
                    + " (mlv.yml has no 'views:' key, so mlv reads views/)",
                "mlv only reads and writes inside " + root + ": move the folder into the project"));
        return List.of();
      }
    } catch (IOException e) {
      // unreadable: the walk reports it as it does for a listed folder
    }
    return List.of(folder);
  }

  /** Why {@code folder} cannot be a view folder, if it cannot. */
  private Optional<String> viewFolderProblem(Path folder) {
    String shown = "view folder '" + root.relativize(folder).toString().replace('\\', '/') + "'";
    if (Files.isDirectory(folder)) {
      return Optional.empty();
    }
    if (Files.exists(folder)) {
      return Optional.of(shown + " is a file, not a folder");
    }
    return Optional.of(shown + " does not exist");
  }

  private Map<String, TargetConfig> targets(Node node, Map<String, Position> declared) {
    Map<String, TargetConfig> targets = new LinkedHashMap<>();
    mapping(node, "targets", "in targets")
        .ifPresent(
            entries ->
                entries.forEach(
                    (name, tuple) -> {
                      declared.put(name, pos(tuple.getKeyNode()));
                      if (!TARGET_NAME.matcher(name).matches()) {
                        error(
                            "CONFIG_VALUE",
                            tuple.getKeyNode(),
                            "target name '" + name + "' is not a plain name",
                            "use letters, digits, '_' and '-'");
                        return;
                      }
                      // A target's environment is checked when a command uses it (see
                      // ProjectConfig.usableTarget): CI validates without production secrets.
                      List<Diagnostic> unset = new ArrayList<>();
                      Interpolator outer = interpolator;
                      interpolator = outer.deferringUnsetEnv(unset);
                      unsetSink = unset;
                      try {
                        target(name, tuple.getValueNode()).ifPresent(t -> targets.put(name, t));
                      } finally {
                        interpolator = outer;
                        unsetSink = problems;
                      }
                      if (!unset.isEmpty()) {
                        unsetEnv.put(name, List.copyOf(unset));
                      }
                    }));
    return targets;
  }

  private Optional<TargetConfig> target(String name, Node node) {
    String where = "targets." + name;
    Optional<Entries> parsed = mapping(node, where, "in " + where);
    if (parsed.isEmpty()) {
      return Optional.empty();
    }
    Entries t = parsed.get();
    Optional<TargetType> type;
    Optional<Node> typeNode = t.get("type");
    if (typeNode.isPresent()) {
      type = choice(typeNode.get(), where + ".type", TargetType.class);
    } else if (name.equals("local")) {
      type = Optional.of(TargetType.SPARK);
    } else {
      type = Optional.empty();
      t.required("type");
    }
    if (type.isEmpty()) {
      // Without a type we cannot tell which keys belong, so accept the keys of any type.
      List<String> any = new ArrayList<>(new LinkedHashSet<>(concat(SPARK_KEYS, FABRIC_KEYS)));
      t.allow(any);
      return Optional.empty();
    }
    return Optional.of(
        type.get() == TargetType.SPARK ? spark(name, where, t) : fabric(name, where, t));
  }

  /**
   * The master URLs SparkContext itself parses (its LOCAL_N, LOCAL_N_FAILURES, LOCAL_CLUSTER and
   * SPARK regexes, with at least one thread); any other needs a cluster manager module (YARN,
   * Kubernetes) that mlv does not ship, and Spark refuses it only once a command starts it.
   */
  private static final java.util.regex.Pattern SPARK_MASTER =
      java.util.regex.Pattern.compile(
          "local|local\\[(\\*|0*[1-9][0-9]*)(\\s*,\\s*[0-9]+)?\\]"
              + "|local-cluster\\[\\s*[0-9]+\\s*,\\s*[0-9]+\\s*,\\s*[0-9]+\\s*]"
              + "|spark://.+");

  private SparkTarget spark(String name, String where, Entries t) {
    t.allow(SPARK_KEYS);
    Path warehouse =
        t.get("warehouse")
            .flatMap(n -> projectPath(n, where + ".warehouse"))
            .orElseGet(() -> root.resolve(SparkTarget.DEFAULT_WAREHOUSE).normalize());
    if (Files.isRegularFile(warehouse)) {
      error(
          "CONFIG_VALUE",
          t.get("warehouse").orElseThrow(),
          where
              + ".warehouse '"
              + root.relativize(warehouse).toString().replace('\\', '/')
              + "' is a file, not a folder",
          "give the folder the local lakehouses live in; mlv creates it when missing");
    } else if (warehouse.equals(root)) {
      error(
          "CONFIG_PATH",
          t.get("warehouse").orElseThrow(),
          where + ".warehouse is the project folder itself",
          "use a folder of its own, such as " + SparkTarget.DEFAULT_WAREHOUSE);
    }
    String master =
        t.get("master")
            .flatMap(n -> nonBlank(n, where + ".master"))
            .orElse(SparkTarget.DEFAULT_MASTER);
    if (!SPARK_MASTER.matcher(master).matches()) {
      error(
          "CONFIG_VALUE",
          t.get("master").orElseThrow(),
          where + ".master '" + master + "' is not a Spark master the embedded engine runs",
          "write local, local[N] or local[*] (N worker threads, * one per core), or"
              + " spark://host:port for a standalone cluster");
    }
    Map<String, Position> confAt = new HashMap<>();
    Map<String, String> conf =
        t.get("conf").map(n -> stringMap(n, where + ".conf", confAt)).orElse(Map.of());
    Map<String, Path> files =
        t.get("files").map(n -> fileFolders(n, where + ".files")).orElse(Map.of());
    return new SparkTarget(name, warehouse, master, conf, files, confAt);
  }

  /** OneLake folder URL to a local folder of the project, for file-ingesting views. */
  private Map<String, Path> fileFolders(Node node, String what) {
    Map<String, Path> map = new LinkedHashMap<>();
    mapping(node, what, "in " + what)
        .ifPresent(
            e ->
                e.forEach(
                    (key, tuple) -> {
                      if (OneLakeFolder.parse(key).isEmpty()) {
                        error(
                            "CONFIG_VALUE",
                            tuple.getKeyNode(),
                            "'" + key + "' in " + what + " is not a OneLake folder URL",
                            "write it as a file view's path names it: 'abfss://<workspace>@"
                                + "onelake.dfs.fabric.microsoft.com/<lakehouse>.Lakehouse/Files/"
                                + "<folder>/'");
                        return;
                      }
                      Optional<Path> folder = projectPath(tuple.getValueNode(), what + "." + key);
                      // A missing folder is one no file has landed in yet; a file is a mistake.
                      if (folder.isPresent() && Files.isRegularFile(folder.get())) {
                        error(
                            "CONFIG_PATH",
                            tuple.getValueNode(),
                            what
                                + "."
                                + key
                                + " is the file "
                                + root.relativize(folder.get())
                                + "; a OneLake folder maps to a folder of the project",
                            "give the folder that holds the files, not one of them");
                        return;
                      }
                      folder.ifPresent(p -> map.put(key, p));
                    }));
    return map;
  }

  private FabricTarget fabric(String name, String where, Entries t) {
    t.allow(FABRIC_KEYS);
    UUID workspaceId =
        t.required("workspaceId").flatMap(n -> uuid(n, where + ".workspaceId")).orElse(null);
    UUID lakehouseId =
        t.required("lakehouseId").flatMap(n -> uuid(n, where + ".lakehouseId")).orElse(null);
    boolean allowEndpoint =
        t.get("allow_endpoint").flatMap(n -> bool(n, where + ".allow_endpoint")).orElse(false);
    URI endpoint =
        t.get("endpoint")
            .flatMap(n -> endpoint(n, where + ".endpoint", allowEndpoint))
            .orElse(FabricTarget.DEFAULT_ENDPOINT);
    AuthConfig auth =
        t.get("auth").map(n -> auth(n, where + ".auth")).orElseGet(AuthConfig.DefaultChain::new);
    Optional<Duration> retryBudget =
        t.get("retry_budget").flatMap(n -> duration(n, where + ".retry_budget"));
    Optional<Duration> statementTimeout =
        t.get("statement_timeout").flatMap(n -> duration(n, where + ".statement_timeout"));
    return new FabricTarget(
        name,
        workspaceId,
        lakehouseId,
        endpoint,
        allowEndpoint,
        auth,
        retryBudget,
        statementTimeout);
  }

  private Optional<URI> endpoint(Node node, String what, boolean allowAnyHost) {
    Optional<String> text = nonBlank(node, what);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    URI uri;
    try {
      uri = new URI(text.get());
    } catch (URISyntaxException e) {
      error("CONFIG_VALUE", node, what + " is not a URL: " + e.getReason(), null);
      return Optional.empty();
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must be an http(s) URL with a host",
          "the Fabric API is " + FabricTarget.DEFAULT_ENDPOINT);
      return Optional.empty();
    }
    boolean fabricHost = scheme.equals("https") && FabricTarget.isFabricHost(uri.getHost());
    if (!allowAnyHost && !fabricHost) {
      // Tokens are sent to this host, so only Fabric's hosts get them unless the user opts in.
      error(
          "CONFIG_VALUE",
          node,
          what + " is not a Fabric host (https://" + FABRIC_HOST + ")",
          "set allow_endpoint: true on this target to send requests and tokens to "
              + uri.getHost());
      return Optional.empty();
    }
    if (!fabricHost && scheme.equals("http") && !FabricTarget.isLoopback(uri.getHost())) {
      error(
          "CONFIG_VALUE",
          node,
          what
              + " uses plain http on "
              + uri.getHost()
              + ", which would send the token unencrypted",
          "use https; plain http is allowed only on the loopback interface (a local simulator)");
      return Optional.empty();
    }
    return Optional.of(uri);
  }

  private AuthConfig auth(Node node, String where) {
    Optional<Entries> parsed = mapping(node, where, "in " + where);
    if (parsed.isEmpty()) {
      return new AuthConfig.DefaultChain();
    }
    Entries a = parsed.get();
    a.allow(AUTH_KEYS);
    Optional<AuthMode> parsedMode =
        a.get("mode").isPresent()
            ? choice(a.get("mode").get(), where + ".mode", AuthMode.class)
            : Optional.of(AuthMode.DEFAULT);
    if (parsedMode.isEmpty()) {
      return new AuthConfig.DefaultChain();
    }
    AuthMode mode = parsedMode.get();
    String modeName = mode.name().toLowerCase(Locale.ROOT);
    a.forEach(
        (key, tuple) -> {
          if (AUTH_KEYS.contains(key)
              && !key.equals("mode")
              && !AUTH_MODE_KEYS.get(mode).contains(key)) {
            error(
                "CONFIG_VALUE",
                tuple.getKeyNode(),
                where + "." + key + " is not used with auth mode '" + modeName + "'",
                "remove it, or set the mode that uses it");
          }
        });
    return switch (mode) {
      case DEFAULT -> new AuthConfig.DefaultChain();
      case CLI -> new AuthConfig.AzureCli();
      case SPN ->
          new AuthConfig.ServicePrincipal(
              a.required("tenant_id").flatMap(n -> nonBlank(n, where + ".tenant_id")).orElse(null),
              a.required("client_id").flatMap(n -> nonBlank(n, where + ".client_id")).orElse(null),
              a.required("client_secret")
                  .flatMap(n -> secret(n, where + ".client_secret"))
                  .orElse(null));
      case TOKEN ->
          new AuthConfig.TokenFromEnv(
              a.get("token_env")
                  .flatMap(n -> envName(n, where + ".token_env"))
                  .orElse(AuthConfig.TokenFromEnv.DEFAULT_ENV));
    };
  }

  private Map<String, LakehouseRef> lakehouses(
      Node node, String projectWorkspace, String projectLakehouse) {
    Map<String, LakehouseRef> lakehouses = new LinkedHashMap<>();
    Map<String, Seen> seen = new HashMap<>();
    mapping(node, "lakehouses", "in lakehouses")
        .ifPresent(
            entries ->
                entries.forEach(
                    (name, tuple) -> {
                      String where = "lakehouses." + name;
                      Position at = pos(tuple.getKeyNode());
                      if (!unique(seen, name.toLowerCase(Locale.ROOT), name, at, "lakehouse")) {
                        return;
                      }
                      if (name.contains(".") || name.contains("`")) {
                        error(
                            "CONFIG_VALUE",
                            tuple.getKeyNode(),
                            "lakehouse '" + name + "' has a dot or backtick in it",
                            "names in mlv are dotted (workspace.lakehouse.schema.table), so a"
                                + " part cannot hold a dot");
                        return;
                      }
                      fabricLakehouse(name, tuple.getKeyNode(), "lakehouse");
                      String workspace = projectWorkspace;
                      Optional<Entries> fields =
                          mapping(tuple.getValueNode(), where, "in " + where);
                      if (fields.isPresent()) {
                        fields.get().allow(LAKEHOUSE_KEYS);
                        workspace =
                            fields
                                .get()
                                .get("workspace")
                                .flatMap(n -> namePart(n, where + ".workspace"))
                                .orElse(projectWorkspace);
                      }
                      if (projectLakehouse != null
                          && name.equalsIgnoreCase(projectLakehouse)
                          && workspace != null
                          && projectWorkspace != null
                          && !workspace.equalsIgnoreCase(projectWorkspace)) {
                        // lh.silver.a would stop naming the project's own view (found by QA).
                        error(
                            "CONFIG_VALUE",
                            tuple.getKeyNode(),
                            "lakehouses."
                                + name
                                + " places lakehouse "
                                + name
                                + " in workspace "
                                + workspace
                                + ", but "
                                + projectLakehouse
                                + " is the project's own lakehouse, in workspace "
                                + projectWorkspace
                                + ": a name "
                                + name
                                + ".schema.table could then mean either",
                            "remove "
                                + name
                                + " from lakehouses:, and write a table of the other workspace's "
                                + name
                                + " with four parts: "
                                + workspace
                                + "."
                                + name
                                + ".schema.table");
                        return;
                      }
                      lakehouses.put(
                          name.toLowerCase(Locale.ROOT), new LakehouseRef(name, workspace, at));
                    }));
    return lakehouses;
  }

  private List<SourceConfig> sources(Node node) {
    List<SourceConfig> sources = new ArrayList<>();
    Map<String, Seen> seen = new HashMap<>();
    List<Node> items = sequence(node, "sources");
    for (int i = 0; i < items.size(); i++) {
      Node item = items.get(i);
      String where = "sources[" + (i + 1) + "]";
      if (item instanceof ScalarNode) {
        // Short form: a bare name, for a source without seed or description.
        dottedName(item, where)
            .filter(name -> unique(seen, objectKey(name), name, pos(item), "source"))
            .ifPresent(
                name ->
                    sources.add(
                        new SourceConfig(
                            name,
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            pos(item))));
        continue;
      }
      Optional<Entries> parsed = mapping(item, where, "in " + where);
      if (parsed.isEmpty()) {
        continue;
      }
      Entries s = parsed.get();
      s.allow(SOURCE_KEYS);
      Optional<String> name =
          s.required("name")
              .flatMap(n -> dottedName(n, where + ".name"))
              .filter(n -> unique(seen, objectKey(n), n, pos(item), "source"));
      Optional<Path> seed = s.get("seed").flatMap(n -> seed(n, where + ".seed"));
      Optional<SeedFormat> format =
          s.get("format").flatMap(n -> choice(n, where + ".format", SeedFormat.class));
      if (seed.isPresent() && format.isEmpty() && s.get("format").isEmpty()) {
        format = SeedFormat.fromExtension(seed.get());
        if (format.isEmpty()) {
          error(
              "CONFIG_VALUE",
              s.get("seed").get(),
              "cannot tell the format of seed '" + root.relativize(seed.get()) + "'",
              "name it *.csv or *.parquet, or add format: csv or format: parquet");
        }
      }
      if (s.get("seed").isEmpty() && s.get("format").isPresent()) {
        error(
            "CONFIG_VALUE",
            s.keyNode("format"),
            where + ".format is set but there is no seed to read",
            "add seed: <file>, or remove format");
      }
      Optional<String> description =
          s.get("description").flatMap(n -> text(n, where + ".description"));
      if (name.isPresent()) {
        Optional<SeedFormat> seedFormat = seed.isPresent() ? format : Optional.empty();
        sources.add(new SourceConfig(name.get(), seed, seedFormat, description, pos(item)));
      }
    }
    return sources;
  }

  private Optional<Path> seed(Node node, String what) {
    Optional<Path> seed = projectPath(node, what);
    if (seed.isPresent() && Files.isDirectory(seed.get())) {
      error(
          "CONFIG_VALUE",
          node,
          "seed file '" + root.relativize(seed.get()) + "' is a folder, not a file",
          "give the path of the CSV or Parquet file itself, relative to " + root);
      return Optional.empty();
    }
    if (seed.isPresent() && !Files.isRegularFile(seed.get())) {
      error(
          "CONFIG_VALUE",
          node,
          "seed file '" + root.relativize(seed.get()) + "' does not exist",
          "the path is relative to the project folder " + root);
      return Optional.empty();
    }
    return seed;
  }

  private ProjectDefaults defaults(Node node) {
    ProjectDefaults builtIn = ProjectDefaults.builtIn();
    Optional<Entries> parsed = mapping(node, "defaults", "in defaults");
    if (parsed.isEmpty()) {
      return builtIn;
    }
    Entries d = parsed.get();
    d.allow(DEFAULTS_KEYS);
    ViewSettings views = viewSettings(d, "defaults", pos(node), false);
    Duration timeout =
        d.get("refresh_timeout")
            .flatMap(n -> duration(n, "defaults.refresh_timeout"))
            .orElse(builtIn.refreshTimeout());
    int parallelism =
        d.get("parallelism")
            .flatMap(n -> integer(n, "defaults.parallelism", 1))
            .orElse(builtIn.parallelism());
    ProjectDefaults.RunHistory history =
        d.get("history").map(this::history).orElse(ProjectDefaults.RunHistory.DEFAULT);
    return new ProjectDefaults(views, timeout, parallelism, history);
  }

  private ProjectDefaults.RunHistory history(Node node) {
    ProjectDefaults.RunHistory fallback = ProjectDefaults.RunHistory.DEFAULT;
    Optional<Entries> parsed = mapping(node, "defaults.history", "in defaults.history");
    if (parsed.isEmpty()) {
      return fallback;
    }
    Entries h = parsed.get();
    h.allow(HISTORY_KEYS);
    return new ProjectDefaults.RunHistory(
        h.get("retain_runs")
            .flatMap(n -> integer(n, "defaults.history.retain_runs", 1))
            .orElse(fallback.retainRuns()),
        h.get("retain_days")
            .flatMap(n -> integer(n, "defaults.history.retain_days", 1))
            .orElse(fallback.retainDays()));
  }

  private Map<String, ViewSettings> viewConfig(Node node) {
    Map<String, ViewSettings> config = new LinkedHashMap<>();
    Map<String, Seen> seen = new HashMap<>();
    mapping(node, "view_config", "in view_config")
        .ifPresent(
            entries ->
                entries.forEach(
                    (key, tuple) -> {
                      String where = "view_config." + key;
                      Position at = pos(tuple.getKeyNode());
                      Optional<String> name =
                          checkDottedName(key, tuple.getKeyNode(), "view_config key")
                              .filter(n -> unique(seen, objectKey(n), n, at, "view"));
                      Optional<Entries> fields =
                          mapping(tuple.getValueNode(), where, "in " + where);
                      if (name.isEmpty() || fields.isEmpty()) {
                        return;
                      }
                      fields.get().allow(VIEW_KEYS);
                      config.put(
                          name.get().toLowerCase(Locale.ROOT),
                          viewSettings(fields.get(), where, at, true));
                    }));
    return config;
  }

  private ViewSettings viewSettings(Entries e, String where, Position at, boolean withTags) {
    List<String> tags = List.of();
    if (withTags) {
      tags = e.get("tags").map(n -> tags(n, where + ".tags")).orElse(List.of());
    }
    return new ViewSettings(
        e.get("enable_cdf").flatMap(n -> bool(n, where + ".enable_cdf")),
        e.get("optimal_refresh").flatMap(n -> bool(n, where + ".optimal_refresh")),
        e.get("refresh_policy")
            .flatMap(n -> choice(n, where + ".refresh_policy", RefreshPolicy.class)),
        tags,
        at,
        quality(e, where));
  }

  private QualitySettings quality(Entries e, String where) {
    return new QualitySettings(
        e.get("quarantine").flatMap(n -> bool(n, where + ".quarantine")),
        e.get("max_dropped_rows")
            .flatMap(n -> integer(n, where + ".max_dropped_rows", 0))
            .map(OptionalLong::of)
            .orElse(OptionalLong.empty()),
        e.get("max_dropped_ratio")
            .flatMap(n -> ratio(n, where + ".max_dropped_ratio"))
            .map(OptionalDouble::of)
            .orElse(OptionalDouble.empty()));
  }

  /** A share of rows: 0.05 or 5%, between 0 and 1. */
  private Optional<Double> ratio(Node node, String what) {
    Optional<String> written =
        node instanceof ScalarNode s && (Tag.FLOAT.equals(s.getTag()) || Tag.INT.equals(s.getTag()))
            ? Optional.of(s.getValue())
            : text(node, what).map(String::strip);
    if (written.isEmpty()) {
      return Optional.empty();
    }
    String v = written.get();
    double value;
    try {
      value =
          v.endsWith("%")
              ? Double.parseDouble(v.substring(0, v.length() - 1).strip()) / 100
              : Double.parseDouble(v);
    } catch (NumberFormatException ex) {
      value = Double.NaN;
    }
    if (Double.isNaN(value) || value < 0 || value > 1) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must be a share of rows between 0 and 1 (or 0% and 100%), not '" + v + "'",
          "for example 0.05 or 5%");
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private List<String> tags(Node node, String what) {
    boolean one = node instanceof ScalarNode;
    List<Node> items = one ? List.of(node) : sequence(node, what);
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      // Elements are named from 1, as sources[n] is.
      String element = one ? what : what + "[" + (i + 1) + "]";
      nonBlank(items.get(i), element).filter(t -> !tags.contains(t)).ifPresent(tags::add);
    }
    return tags;
  }

  // ---- typed values ----

  /** The scalar's text as written, without interpolation. */
  private Optional<String> rawText(Node node, String what) {
    if (node instanceof ScalarNode s) {
      if (Tag.NULL.equals(s.getTag())) {
        error(
            "CONFIG_MISSING",
            node,
            what + " has no value",
            "give it a value, or, if the key is optional, remove it to use its default");
        return Optional.empty();
      }
      return Optional.of(s.getValue());
    }
    typeError(node, what, "a single value");
    return Optional.empty();
  }

  private Optional<String> text(Node node, String what) {
    return rawText(node, what).flatMap(raw -> interpolator.expand(raw, pos(node), what));
  }

  /** A part of dotted names (workspace, lakehouse, schema): no dot or backtick inside. */
  private Optional<String> namePart(Node node, String what) {
    Optional<String> value = nonBlank(node, what);
    if (value.isPresent() && (value.get().contains(".") || value.get().contains("`"))) {
      error(
          "CONFIG_VALUE",
          node,
          what + " '" + value.get() + "' has a dot or backtick in it",
          "names in mlv are dotted (workspace.lakehouse.schema.table), so a part cannot hold a"
              + " dot; in a Fabric target the workspace and lakehouse are found by their ids");
      return Optional.empty();
    }
    return value;
  }

  /**
   * False, with an error at {@code node}, for a schema name that cannot be a folder, or is too long
   * for one: each schema is one in the lakehouse, and without this a view in it would pass validate
   * and plan and fail at refresh, with no position (found by QA). The workspace is no folder (a
   * Fabric target finds it by id) and a lakehouse name is held to Fabric's stricter rule.
   */
  private boolean folderName(String name, Node node, String what) {
    String shown = what + " '" + FolderName.shortened(name).replaceAll("\\p{Cntrl}", "?") + "' ";
    Optional<String> problem = FolderName.problem(name);
    if (problem.isPresent()) {
      error(
          "CONFIG_VALUE",
          node,
          shown + problem.get() + ", so it cannot name the folder that holds the schema's tables",
          "use letters, digits and '_'");
      return false;
    }
    Optional<String> tooLong = FolderName.schemaTooLong(name);
    tooLong.ifPresent(p -> error("CONFIG_VALUE", node, shown + p, "shorten the name"));
    return tooLong.isEmpty();
  }

  /** False, with an error at {@code node}, for a lakehouse name Fabric would refuse. */
  private boolean fabricLakehouse(String name, Node node, String what) {
    Optional<String> problem = LakehouseName.problem(name);
    problem.ifPresent(
        p -> error("CONFIG_VALUE", node, what + " '" + name + "' " + p, LakehouseName.RULE));
    return problem.isEmpty();
  }

  private Optional<String> nonBlank(Node node, String what) {
    Optional<String> value = text(node, what);
    if (value.isPresent() && value.get().isBlank()) {
      // "lakehouse is empty" over a line that plainly is not sends the user looking in mlv.yml;
      // the value came from somewhere else.
      String raw = node instanceof ScalarNode s ? s.getValue() : "";
      Optional<String> env = Interpolator.wholeEnvReference(raw);
      if (env.isPresent()) {
        error(
            "CONFIG_VALUE",
            node,
            what
                + " is empty: it comes from environment variable "
                + env.get()
                + ", which is set"
                + " but empty",
            "set " + env.get() + " to the " + what + " to use, or write the value in mlv.yml");
      } else if (raw.contains("${")) {
        error(
            "CONFIG_VALUE", node, what + " is empty once '" + raw.strip() + "' is filled in", null);
      } else {
        error("CONFIG_VALUE", node, what + " is empty", null);
      }
      return Optional.empty();
    }
    return value.map(String::strip);
  }

  private Optional<Boolean> bool(Node node, String what) {
    if (node instanceof ScalarNode s && Tag.BOOL.equals(s.getTag())) {
      String v = s.getValue().toLowerCase(Locale.ROOT);
      return Optional.of(v.equals("true") || v.equals("yes") || v.equals("on"));
    }
    if (isInterpolated(node)) {
      Optional<String> v = text(node, what).map(x -> x.strip().toLowerCase(Locale.ROOT));
      if (v.isEmpty()) {
        return Optional.empty();
      }
      if (v.get().equals("true") || v.get().equals("false")) {
        return Optional.of(v.get().equals("true"));
      }
      error("CONFIG_VALUE", node, what + " must be true or false, not '" + v.get() + "'", null);
      return Optional.empty();
    }
    typeError(node, what, "true or false");
    return Optional.empty();
  }

  private Optional<Integer> integer(Node node, String what, int min) {
    Optional<String> digits;
    if (node instanceof ScalarNode s && Tag.INT.equals(s.getTag())) {
      digits = Optional.of(s.getValue());
    } else if (isInterpolated(node)) {
      digits = text(node, what).map(String::strip);
      if (digits.isEmpty()) {
        return Optional.empty();
      }
    } else {
      typeError(node, what, "a whole number");
      return Optional.empty();
    }
    int value;
    try {
      value = Integer.parseInt(digits.get().replace("_", ""));
    } catch (NumberFormatException e) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must be a whole number, not '" + digits.get() + "'",
          typeHint(what, "a whole number"));
      return Optional.empty();
    }
    if (value < min) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must be at least " + min + ", not " + value,
          "write " + min + " or more, e.g. " + example(what, String.valueOf(min)));
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private Optional<Duration> duration(Node node, String what) {
    Optional<String> text = nonBlank(node, what);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Matcher m = DURATION.matcher(text.get());
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must be a positive duration, not '" + text.get() + "'",
          "write a number and a unit: 90s, 30m, 24h or 2d");
      return Optional.empty();
    }
    long n = Long.parseLong(m.group(1));
    return Optional.of(
        switch (m.group(2)) {
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        });
  }

  private Optional<UUID> uuid(Node node, String what) {
    Optional<String> text = nonBlank(node, what);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    if (!UUID_TEXT.matcher(text.get()).matches()) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must be a UUID, not '" + text.get() + "'",
          "copy the id from the Fabric URL: 8-4-4-4-12 hex digits");
      return Optional.empty();
    }
    return Optional.of(UUID.fromString(text.get()));
  }

  private <E extends Enum<E>> Optional<E> choice(Node node, String what, Class<E> type) {
    Optional<String> text = nonBlank(node, what);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    List<String> options =
        Arrays.stream(type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
    String typed = text.get().toLowerCase(Locale.ROOT);
    if (!options.contains(typed)) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must be one of " + String.join(", ", options) + ", not '" + text.get() + "'",
          Suggestions.hint(typed, options));
      return Optional.empty();
    }
    return Optional.of(Enum.valueOf(type, typed.toUpperCase(Locale.ROOT)));
  }

  /** A secret is only ever {@code ${env:NAME}}: a literal would sit in version control. */
  private Optional<Secret> secret(Node node, String what) {
    Optional<String> raw = rawText(node, what);
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> envName = Interpolator.wholeEnvReference(raw.get());
    if (envName.isEmpty()) {
      // Never echo the value: it may be a real secret.
      error(
          "CONFIG_SECRET_LITERAL",
          node,
          what + " is written into mlv.yml; secrets must come from the environment",
          "write ${env:SOME_NAME} here, set SOME_NAME in the environment, and rotate this secret");
      return Optional.empty();
    }
    // Resolved now but checked only when a command uses the target: validate, lineage and the
    // local target must work in CI without production credentials.
    String value = env.get(envName.get());
    if (value == null) {
      unsetSink.add(Interpolator.unsetEnv(envName.get(), pos(node), what));
    }
    return Optional.of(new Secret(envName.get(), value));
  }

  private Optional<String> envName(Node node, String what) {
    Optional<String> name = nonBlank(node, what);
    if (name.isPresent() && !Interpolator.NAME.matcher(name.get()).matches()) {
      error(
          "CONFIG_VALUE",
          node,
          what + " must name an environment variable, not '" + name.get() + "'",
          "write the variable's name, e.g. " + AuthConfig.TokenFromEnv.DEFAULT_ENV);
      return Optional.empty();
    }
    return name;
  }

  /**
   * A path relative to the project root that stays inside it, lexically and, when it exists, after
   * resolving symbolic links: config values never make mlv touch files elsewhere.
   */
  private Optional<Path> projectPath(Node node, String what) {
    Optional<String> text = nonBlank(node, what);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Path relative;
    try {
      relative = Path.of(text.get());
    } catch (InvalidPathException e) {
      error("CONFIG_VALUE", node, what + " is not a valid path: " + e.getReason(), null);
      return Optional.empty();
    }
    if (relative.isAbsolute() || relative.getRoot() != null) {
      error(
          "CONFIG_PATH",
          node,
          what + " '" + text.get() + "' is absolute; paths are relative to the project folder",
          "move the file into the project and give its path from " + root);
      return Optional.empty();
    }
    Path resolved = root.resolve(relative).normalize();
    boolean inside = resolved.startsWith(root);
    if (inside && Files.exists(resolved)) {
      try {
        inside = resolved.toRealPath().startsWith(root.toRealPath());
      } catch (IOException e) {
        inside = false;
      }
    }
    if (!inside) {
      error(
          "CONFIG_PATH",
          node,
          what + " '" + text.get() + "' leads outside the project folder",
          "mlv only reads and writes inside " + root);
      return Optional.empty();
    }
    return Optional.of(resolved);
  }

  private Optional<String> dottedName(Node node, String what) {
    return nonBlank(node, what).flatMap(name -> checkDottedName(name, node, what));
  }

  /** The name with its backticks removed, or empty after an error when it is not a name. */
  private Optional<String> checkDottedName(String name, Node node, String what) {
    List<String> parts = Name.of(name).written();
    boolean ok =
        parts.size() <= 4
            && parts.stream().noneMatch(String::isBlank)
            && name.chars().filter(c -> c == '`').count() % 2 == 0;
    if (!ok) {
      error(
          "CONFIG_VALUE",
          node,
          what + " '" + name + "' is not a name of 1 to 4 dotted parts",
          "write name, schema.name, lakehouse.schema.name or workspace.lakehouse.schema.name");
      return Optional.empty();
    }
    Optional<String> dotted = parts.stream().filter(p -> p.contains(".")).findFirst();
    if (dotted.isPresent()) {
      // Joined again, `bronze.orders` would read as two parts: schema bronze, table orders.
      error(
          "CONFIG_VALUE",
          node,
          what + " '" + name + "' has a dot inside the part `" + dotted.get() + "`",
          "names in mlv are dotted (workspace.lakehouse.schema.table), so a part cannot hold a"
              + " dot; rename the table, e.g. "
              + dotted.get().replace('.', '_'));
      return Optional.empty();
    }
    return Optional.of(String.join(".", parts));
  }

  /** Where a name was first written, and how. */
  private record Seen(String name, Position at) {}

  /**
   * The object a 1-4 part name stands for, fully qualified with the project's defaults; the name in
   * lower case when those defaults are in error (the file is refused anyway).
   */
  private String objectKey(String name) {
    return names == null ? name.toLowerCase(Locale.ROOT) : names.resolve(Name.of(name)).toString();
  }

  /**
   * False, with an error at {@code at} naming the first entry, when {@code key} was already seen:
   * the later entry would silently win over the first.
   */
  private boolean unique(
      Map<String, Seen> seen, String key, String name, Position at, String kind) {
    Seen first = seen.putIfAbsent(key, new Seen(name, at));
    if (first == null) {
      return true;
    }
    String message =
        first.name().equalsIgnoreCase(name)
            ? kind + " '" + name + "' is configured twice (names ignore case)"
            : kind
                + " '"
                + name
                + "' is configured twice: '"
                + first.name()
                + "' at line "
                + first.at().line()
                + " names the same "
                + kind
                + " ("
                + key
                + ")";
    problems.add(
        Diagnostic.error(
            "CONFIG_VALUE",
            at,
            message,
            "first at line " + first.at().line() + "; merge the two entries"));
    return false;
  }

  /** The string values of a mapping; {@code at} gets the place of each value. */
  private Map<String, String> stringMap(Node node, String what, Map<String, Position> at) {
    Map<String, String> map = new LinkedHashMap<>();
    mapping(node, what, "in " + what)
        .ifPresent(
            e ->
                e.forEach(
                    (key, tuple) ->
                        text(tuple.getValueNode(), what + "." + key)
                            .ifPresent(
                                v -> {
                                  map.put(key, v);
                                  at.put(key, pos(tuple.getValueNode()));
                                })));
    return map;
  }

  private List<Node> sequence(Node node, String what) {
    if (node instanceof SequenceNode seq) {
      return seq.getValue();
    }
    if (node instanceof ScalarNode s && Tag.NULL.equals(s.getTag())) {
      return List.of();
    }
    typeError(node, what, "a list");
    return List.of();
  }

  /** A mapping's entries; an empty value counts as an empty mapping. */
  private Optional<Entries> mapping(Node node, String what, String where) {
    if (node instanceof MappingNode m) {
      return Optional.of(new Entries(m, where));
    }
    if (node instanceof ScalarNode s && Tag.NULL.equals(s.getTag())) {
      return Optional.of(new Entries(pos(node), where));
    }
    typeError(node, what, "a mapping of keys to values");
    return Optional.empty();
  }

  private static boolean isInterpolated(Node node) {
    return node instanceof ScalarNode s
        && Tag.STR.equals(s.getTag())
        && s.getValue().contains("${");
  }

  private void typeError(Node node, String what, String expected) {
    error(
        "CONFIG_TYPE",
        node,
        what + " must be " + expected + ", not " + kind(node),
        typeHint(what, expected));
  }

  /** How to write a value of the {@code expected} type, with an example where one helps. */
  private static String typeHint(String what, String expected) {
    return switch (expected) {
      case "a whole number" ->
          "write digits, without quotes or a decimal point, e.g. " + example(what, "4");
      case "true or false" -> "write true or false without quotes, e.g. " + example(what, "true");
      case "a list" -> "write [a, b] on one line, or one '- a' per line indented under the key";
      case "a mapping of keys to values" ->
          what.equals("mlv.yml")
              ? "write one 'key: value' per line, starting with name, workspace, lakehouse and"
                  + " schema"
              : "write 'key: value' lines indented under it, or {key: value} on one line";
      default ->
          "write one text or number here, not a list or mapping; quote text that starts with"
              + " [ or {";
    };
  }

  /** {@code key: value} for the last key of {@code what}, or the value alone if it has none. */
  private static String example(String what, String value) {
    String key = what.substring(what.lastIndexOf('.') + 1);
    return key.matches("[a-z_]+") ? key + ": " + value : value;
  }

  private static String kind(Node node) {
    if (node instanceof MappingNode) {
      return "a mapping";
    }
    if (node instanceof SequenceNode) {
      return "a list";
    }
    Tag tag = node.getTag();
    if (Tag.BOOL.equals(tag)) {
      return "a boolean";
    }
    if (Tag.INT.equals(tag)) {
      return "a number";
    }
    if (Tag.FLOAT.equals(tag)) {
      // "not a number" would read as a contradiction where a whole one is wanted
      return "a fraction (" + ((ScalarNode) node).getValue() + ")";
    }
    if (Tag.NULL.equals(tag)) {
      return "an empty value";
    }
    return "a string";
  }

  private void error(String rule, Node node, String message, String hint) {
    problems.add(Diagnostic.error(rule, pos(node), message, hint));
  }

  private Position pos(Node node) {
    // Relative to the project root, like every other position mlv prints.
    Path shown = file.getFileName();
    Mark mark = node.getStartMark();
    return mark == null
        ? Position.start(shown)
        : new Position(shown, mark.getLine() + 1, mark.getColumn() + 1);
  }

  private static List<String> concat(Collection<String> a, Collection<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * One YAML mapping by key. Non-scalar and duplicate keys are reported when it is built, unknown
   * keys when the caller says which keys it knows.
   */
  private final class Entries {
    private final Position at;
    private final String where;
    private final Map<String, NodeTuple> byKey = new LinkedHashMap<>();

    Entries(Position at, String where) {
      this.at = at;
      this.where = where;
    }

    Entries(MappingNode node, String where) {
      this(pos(node), where);
      List<NodeTuple> merged = new ArrayList<>();
      for (NodeTuple tuple : node.getValue()) {
        Node keyNode = tuple.getKeyNode();
        if (keyNode instanceof ScalarNode merge && merge.getValue().equals("<<")) {
          merged.addAll(mergedEntries(tuple.getValueNode(), where));
          continue;
        }
        if (!(keyNode instanceof ScalarNode scalar)) {
          error(
              "CONFIG_TYPE",
              keyNode,
              "keys " + where + " must be plain names",
              "write a name before the ':'; a list or mapping cannot be a key");
          continue;
        }
        String key = scalar.getValue();
        NodeTuple first = byKey.putIfAbsent(key, tuple);
        if (first != null) {
          error(
              "YAML_DUPLICATE_KEY",
              keyNode,
              "key '" + key + "' appears twice " + where,
              "first at line " + pos(first.getKeyNode()).line() + "; keep one of them");
        }
      }
      // YAML's merge key: the keys written here win over merged ones, earlier merges over later.
      for (NodeTuple tuple : merged) {
        if (tuple.getKeyNode() instanceof ScalarNode scalar) {
          byKey.putIfAbsent(scalar.getValue(), tuple);
        }
      }
    }

    /** The entries {@code <<: *alias} (or a list of aliases) brings in, their own merges done. */
    private List<NodeTuple> mergedEntries(Node value, String where) {
      List<Node> sources = value instanceof SequenceNode list ? list.getValue() : List.of(value);
      List<NodeTuple> out = new ArrayList<>();
      for (Node source : sources) {
        if (!(source instanceof MappingNode m)) {
          error(
              "CONFIG_TYPE",
              source,
              "'<<' " + where + " must merge a mapping, not " + kind(source),
              "merge an anchored mapping: <<: *name");
          continue;
        }
        Entries inner = new Entries(m, where);
        out.addAll(inner.byKey.values());
      }
      return out;
    }

    void allow(List<String> known) {
      byKey.forEach(
          (key, tuple) -> {
            if (!known.contains(key)) {
              error(
                  "CONFIG_UNKNOWN_KEY",
                  tuple.getKeyNode(),
                  "unknown key '" + key + "' " + where,
                  Suggestions.hint(key, known));
            }
          });
    }

    Optional<Node> get(String key) {
      return Optional.ofNullable(byKey.get(key)).map(NodeTuple::getValueNode);
    }

    Node keyNode(String key) {
      return byKey.get(key).getKeyNode();
    }

    Optional<Node> required(String key) {
      Optional<Node> node = get(key);
      if (node.isEmpty()) {
        problems.add(
            Diagnostic.error(
                "CONFIG_MISSING",
                at,
                "missing required key '" + key + "' " + where,
                "add '" + key + ": ...'"));
      }
      return node;
    }

    void forEach(BiConsumer<String, NodeTuple> action) {
      byKey.forEach(action);
    }
  }
}
