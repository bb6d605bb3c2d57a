package dev.mlv.reliability;

import dev.mlv.cli.CliRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small medallion for the reliability suite: bronze {@code events} loaded with SQL, a silver view
 * with a DROP rule and three gold views, one of which ({@code gold.extra}) comes and goes and
 * another ({@code gold.totals}) has two definitions, so {@code apply} has creates, replaces and
 * drops to do. The expected content of every view is computed here in Java from the bronze rows,
 * independently of mlv, and compared with what the tables hold.
 */
final class ReliabilityProject {
  static final String ABSENT = "<absent>";
  static final List<String> VIEWS =
      List.of("silver.events_clean", "gold.by_grp", "gold.totals", "gold.extra");

  private final Path root;
  private final String lakehouse;
  private final List<long[]> bronze = new ArrayList<>();
  private boolean totalsWithTop;
  private boolean extraPresent;

  ReliabilityProject(Path root, String lakehouse) {
    this.root = root;
    this.lakehouse = lakehouse;
  }

  Path root() {
    return root;
  }

  Path warehouse() {
    return root.resolve(".mlv/warehouse");
  }

  Path lakehouseMlvDir() {
    return warehouse().resolve(lakehouse + ".Lakehouse/.mlv");
  }

  Path tableDir(String view) {
    String[] p = view.split("\\.");
    return warehouse().resolve(lakehouse + ".Lakehouse/Tables/" + p[0] + "/" + p[1]);
  }

  /** Writes the project files, creates and loads bronze, and deploys the views. */
  void create(int rows) {
    write("mlv.yml", mlvYml());
    write("views/silver/events_clean.sql", silver());
    write("views/gold/by_grp.sql", byGrp());
    writeTotals();
    mlvOk("sql", "CREATE SCHEMA IF NOT EXISTS bronze");
    mlvOk(
        "sql",
        "CREATE TABLE bronze.events (id BIGINT, grp INT, amount BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')");
    appendBronze(rows);
    mlvOk("apply", "--auto-approve", "--quiet");
  }

  /** Appends {@code n} rows to bronze (about one in ten breaks the silver rule). */
  void appendBronze(int n) {
    long from = bronze.size();
    long to = from + n;
    mlvOk(
        "sql",
        "INSERT INTO bronze.events SELECT id, CAST(id % 7 AS INT),"
            + " CASE WHEN id % 10 = 3 THEN -id ELSE id * 2 END FROM range("
            + from
            + ", "
            + to
            + ")");
    for (long id = from; id < to; id++) {
      bronze.add(new long[] {id, id % 7, id % 10 == 3 ? -id : id * 2});
    }
  }

  /** Flips gold.totals to its other definition. */
  void toggleTotals() {
    totalsWithTop = !totalsWithTop;
    writeTotals();
  }

  /** Adds gold.extra when absent, removes its file when present (apply --prune drops it). */
  void toggleExtra() {
    extraPresent = !extraPresent;
    Path f = root.resolve("views/gold/extra.sql");
    if (extraPresent) {
      write("views/gold/extra.sql", extra());
    } else {
      try {
        Files.deleteIfExists(f);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** What every view must hold once the project as it is now is applied and refreshed. */
  Map<String, String> expected() {
    List<long[]> silver = bronze.stream().filter(r -> r[2] >= 0).toList();
    Map<String, String> out = new LinkedHashMap<>();
    StringBuilder s = new StringBuilder("id,grp,amount\n");
    silver.forEach(
        r -> s.append(r[0]).append(',').append(r[1]).append(',').append(r[2]).append('\n'));
    out.put("silver.events_clean", s.toString());
    Map<Long, long[]> groups = new TreeMap<>(); // grp -> n, total, last id
    for (long[] r : silver) {
      long[] g = groups.computeIfAbsent(r[1], k -> new long[3]);
      g[0]++;
      g[1] += r[2];
      g[2] = Math.max(g[2], r[0]);
    }
    StringBuilder b = new StringBuilder("grp,n,total\n");
    groups.forEach(
        (k, g) -> b.append(k).append(',').append(g[0]).append(',').append(g[1]).append('\n'));
    out.put("gold.by_grp", b.toString());
    long n = silver.size();
    long total = silver.stream().mapToLong(r -> r[2]).sum();
    long top = silver.stream().mapToLong(r -> r[2]).max().orElse(0);
    out.put(
        "gold.totals",
        totalsWithTop
            ? "n,total,top\n" + n + "," + total + "," + top + "\n"
            : "n,total\n" + n + "," + total + "\n");
    if (extraPresent) {
      StringBuilder e = new StringBuilder("grp,last_id\n");
      groups.forEach((k, g) -> e.append(k).append(',').append(g[2]).append('\n'));
      out.put("gold.extra", e.toString());
    } else {
      out.put("gold.extra", ABSENT);
    }
    return out;
  }

  /** What the tables hold now, read through {@code mlv sql}; {@link #ABSENT} for no table. */
  Map<String, String> actual() {
    Map<String, String> out = new LinkedHashMap<>();
    for (String v : VIEWS) {
      out.put(v, read(v));
    }
    return out;
  }

  String read(String view) {
    if (!hasCommit(tableDir(view))) {
      return ABSENT;
    }
    String order = view.startsWith("silver") ? "id" : view.equals("gold.totals") ? "1" : "grp";
    CliRun r = mlv("sql", "SELECT * FROM " + view + " ORDER BY " + order, "--format", "csv");
    if (r.exitCode() != 0) {
      return "<unreadable: " + r.err().strip() + ">";
    }
    return r.out();
  }

  /**
   * Problems with the Delta log of a view: a commit file that is not a sequence of JSON actions, or
   * a gap in the versions. Empty when the log is sound or there is no table.
   */
  List<String> logProblems(String view) {
    List<String> problems = new ArrayList<>();
    Path log = tableDir(view).resolve("_delta_log");
    if (!Files.isDirectory(log)) {
      return problems;
    }
    List<Long> versions = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(log, "*.json")) {
      for (Path f : ds) {
        String name = f.getFileName().toString();
        if (!name.matches("\\d{20}\\.json")) {
          continue;
        }
        versions.add(Long.parseLong(name.substring(0, 20)));
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            try {
              JSON.readTree(line);
            } catch (IOException e) {
              problems.add(view + ": " + name + " holds a line that is not JSON");
            }
          }
        }
      }
    } catch (IOException e) {
      problems.add(view + ": cannot read its log: " + e.getMessage());
    }
    versions.sort(null);
    for (int i = 0; i < versions.size(); i++) {
      if (versions.get(i) != i) {
        problems.add(
            view + ": commit versions are not 0.." + (versions.size() - 1) + ": " + versions);
        break;
      }
    }
    return problems;
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  static boolean hasCommit(Path table) {
    Path log = table.resolve("_delta_log");
    if (!Files.isDirectory(log)) {
      return false;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(log, "[0-9]*.json")) {
      return ds.iterator().hasNext();
    } catch (IOException e) {
      return false;
    }
  }

  CliRun mlv(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "-p";
    all[args.length + 1] = root.toString();
    return CliRun.of(all);
  }

  CliRun mlvOk(String... args) {
    CliRun r = mlv(args);
    if (r.exitCode() != 0) {
      throw new IllegalStateException("mlv " + String.join(" ", args) + " failed: " + r);
    }
    return r;
  }

  private String mlvYml() {
    return "name: reliability\n"
        + "workspace: "
        + lakehouse.replace("lh", "ws")
        + "\nlakehouse: "
        + lakehouse
        + "\nschema: dbo\n"
        + "views: [views]\n"
        // A 50-kill soak makes some 150 runs; the last check needs every killed run still listed.
        + "defaults:\n"
        + "  history:\n"
        + "    retain_runs: 1000\n"
        + "sources:\n"
        + "  - name: bronze.events\n"
        + "targets:\n"
        + "  local:\n"
        + "    type: spark\n"
        + "    warehouse: .mlv/warehouse\n"
        + "    master: local[2]\n";
  }

  private static String silver() {
    return "CREATE MATERIALIZED LAKE VIEW silver.events_clean\n"
        + "(CONSTRAINT non_negative CHECK (amount >= 0) ON MISMATCH DROP)\n"
        + "AS SELECT id, grp, amount FROM bronze.events\n";
  }

  private static String byGrp() {
    return "CREATE MATERIALIZED LAKE VIEW gold.by_grp AS\n"
        + "SELECT grp, COUNT(*) AS n, SUM(amount) AS total FROM silver.events_clean GROUP BY grp\n";
  }

  private void writeTotals() {
    write(
        "views/gold/totals.sql",
        "CREATE MATERIALIZED LAKE VIEW gold.totals AS\nSELECT COUNT(*) AS n, SUM(amount) AS total"
            + (totalsWithTop ? ", MAX(amount) AS top" : "")
            + " FROM silver.events_clean\n");
  }

  private static String extra() {
    return "CREATE MATERIALIZED LAKE VIEW gold.extra AS\n"
        + "SELECT grp, MAX(id) AS last_id FROM silver.events_clean GROUP BY grp\n";
  }

  private void write(String rel, String text) {
    try {
      Path f = root.resolve(rel);
      Files.createDirectories(f.getParent());
      Files.writeString(f, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
