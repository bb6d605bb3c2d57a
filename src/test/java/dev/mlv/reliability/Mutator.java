package dev.mlv.reliability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a project (file name to bytes) into broken variants, deterministically for a seed: cut
 * short, tokens dropped or doubled, unbalanced quotes and parentheses, invalid UTF-8, a 1 MB
 * statement, 10,000-deep nesting, hostile names ({@code ..}, {@code /}, NUL) in SQL and in mlv.yml,
 * YAML bombs and bad types, flipped bytes, and mixtures of these.
 */
final class Mutator {
  /** One variant: what was done, and the project's files after it. */
  record Variant(int index, String operator, Map<String, byte[]> files) {}

  static final String[] OPERATORS = {
    "truncate",
    "drop-token",
    "double-token",
    "unbalanced-quote",
    "unbalanced-paren",
    "invalid-utf8",
    "huge-statement",
    "deep-nesting",
    "hostile-sql-name",
    "hostile-yml-name",
    "flip-bytes",
    "shuffle-lines",
    "yaml-structure",
    "mixed"
  };

  private static final Pattern TOKEN =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|\\d+(?:\\.\\d+)?|'[^']*'|\\S");
  private static final Pattern VIEW_NAME =
      Pattern.compile("(?i)(MATERIALIZED\\s+LAKE\\s+VIEW\\s+)([\\w.`]+)");
  private static final String[] HOSTILE_NAMES = {
    "gold.`../../escaped`",
    "`..`.`..`.escaped",
    "gold.`a/b`",
    "gold.`/tmp/escaped`",
    "gold.`x\u0000y`",
    "`.mlv`.runs",
    "gold.`..`",
    "gold.`.`",
    "`lh/../..`.gold.escaped",
    "gold.`C:\\\\escaped`",
    "gold.`tab\there`",
    "gold.`ünï¢ødé`"
  };
  private static final String[] HOSTILE_YML = {
    "lakehouse: ../../escaped",
    "lakehouse: \"a/b\"",
    "lakehouse: \"x\\0y\"",
    "lakehouse: .mlv",
    "schema: ../..",
    "schema: \"dbo/../..\"",
    "workspace: \"..\"",
    "name: \"\\0\"",
    "lakehouse: \"\"",
    "workspace: \"/\"",
    "views: [\"../..\"]",
    "views: [\"/\"]",
    "views: [\"views/../../..\"]"
  };

  private final Random rnd;
  private final Map<String, byte[]> base;
  private final String escapedWarehouse;

  /**
   * @param escapedWarehouse a path outside every variant's folder, used as a hostile warehouse
   *     location; the test checks that nothing appears there
   */
  Mutator(long seed, Map<String, byte[]> base, String escapedWarehouse) {
    this.rnd = new Random(seed);
    this.base = base;
    this.escapedWarehouse = escapedWarehouse;
  }

  List<Variant> variants(int n) {
    List<Variant> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // A 1 MB statement costs seconds to parse: four per 1,000 variants, one of each kind.
      String op = i % 250 == 6 ? "huge-statement" : OPERATORS[i % OPERATORS.length];
      if (op.equals("huge-statement") && i % 250 != 6) {
        op = "truncate";
      }
      Map<String, byte[]> files = new LinkedHashMap<>(base);
      apply(op, files);
      out.add(new Variant(i, op, files));
    }
    return out;
  }

  private void apply(String op, Map<String, byte[]> files) {
    switch (op) {
      case "mixed" -> {
        int k = 2 + rnd.nextInt(3);
        for (int i = 0; i < k; i++) {
          String op2 = OPERATORS[rnd.nextInt(OPERATORS.length - 1)];
          apply(op2.equals("huge-statement") ? "double-token" : op2, files);
        }
      }
      case "hostile-yml-name" -> {
        String yml = text(files, "mlv.yml");
        String line = HOSTILE_YML[rnd.nextInt(HOSTILE_YML.length)];
        if (rnd.nextInt(4) == 0) {
          line =
              "targets:\n  local:\n    type: spark\n    warehouse: "
                  + (rnd.nextBoolean() ? escapedWarehouse : "../escaped-warehouse");
          yml = yml.replaceAll("(?s)targets:.*?(?=\\n\\w|$)", "");
        }
        String key = line.substring(0, line.indexOf(':') + 1);
        files.put(
            "mlv.yml",
            utf8(yml.replaceAll("(?m)^" + Pattern.quote(key) + ".*$", "") + "\n" + line + "\n"));
      }
      case "yaml-structure" -> files.put("mlv.yml", utf8(yamlStructure(text(files, "mlv.yml"))));
      case "huge-statement" -> files.put("views/gold/huge.sql", utf8(huge()));
      case "deep-nesting" -> {
        if (rnd.nextInt(4) == 0) {
          files.put("mlv.yml", utf8(text(files, "mlv.yml") + "deep: " + nest("[", "]", "1")));
        } else {
          files.put(sqlFile(files), utf8(deep()));
        }
      }
      case "hostile-sql-name" -> {
        String f = sqlFile(files);
        Matcher m = VIEW_NAME.matcher(text(files, f));
        String name = HOSTILE_NAMES[rnd.nextInt(HOSTILE_NAMES.length)];
        String replaced =
            m.find()
                ? m.replaceFirst(Matcher.quoteReplacement(m.group(1) + name))
                : "CREATE MATERIALIZED LAKE VIEW " + name + " AS SELECT 1 AS x";
        if (rnd.nextBoolean()) {
          // ... and as a table the view reads
          replaced = replaced.replaceFirst("(?i)FROM\\s+[\\w.]+", "FROM " + name);
        }
        files.put(f, utf8(replaced));
        if (rnd.nextInt(3) == 0) {
          files.put(
              "views/" + (rnd.nextBoolean() ? "..%2F" : "x\u00e9/") + "odd.sql", utf8(replaced));
        }
      }
      default -> {
        String f = rnd.nextInt(4) == 0 ? "mlv.yml" : sqlFile(files);
        files.put(f, bytes(op, files.get(f)));
      }
    }
  }

  private byte[] bytes(String op, byte[] in) {
    String s = new String(in, StandardCharsets.UTF_8);
    return switch (op) {
      case "truncate" -> java.util.Arrays.copyOf(in, rnd.nextInt(in.length + 1));
      case "drop-token", "double-token" -> {
        List<int[]> tokens = tokens(s);
        if (tokens.isEmpty()) {
          yield in;
        }
        int[] t = tokens.get(rnd.nextInt(tokens.size()));
        String tok = s.substring(t[0], t[1]);
        yield utf8(
            s.substring(0, t[0])
                + (op.equals("drop-token") ? "" : tok + " " + tok)
                + s.substring(t[1]));
      }
      case "unbalanced-quote" -> utf8(insert(s, new String[] {"'", "\"", "`", "'''", "\\'"}));
      case "unbalanced-paren" -> utf8(insert(s, new String[] {"(", ")", "((", "))", "[", "{"}));
      case "invalid-utf8" -> {
        byte[][] bad = {
          {(byte) 0xff}, {(byte) 0xc3, 0x28}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
          {(byte) 0x80}, {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80}, {0}
        };
        byte[] b = bad[rnd.nextInt(bad.length)];
        int at = rnd.nextInt(in.length + 1);
        byte[] out = new byte[in.length + b.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(b, 0, out, at, b.length);
        System.arraycopy(in, at, out, at + b.length, in.length - at);
        yield out;
      }
      case "flip-bytes" -> {
        byte[] out = in.clone();
        for (int i = 0, k = 1 + rnd.nextInt(5); i < k && out.length > 0; i++) {
          out[rnd.nextInt(out.length)] = (byte) rnd.nextInt(256);
        }
        yield out;
      }
      case "shuffle-lines" -> {
        List<String> lines = new ArrayList<>(List.of(s.split("\n", -1)));
        if (lines.size() > 1) {
          int a = rnd.nextInt(lines.size());
          int b = rnd.nextInt(lines.size());
          if (rnd.nextBoolean()) {
            java.util.Collections.swap(lines, a, b);
          } else {
            lines.add(b, lines.get(a));
          }
        }
        yield utf8(String.join("\n", lines));
      }
      default -> throw new IllegalArgumentException(op);
    };
  }

  private String yamlStructure(String yml) {
    return switch (rnd.nextInt(8)) {
      case 0 -> yml.replaceFirst("\n  ", "\n\t"); // a tab in the indentation
      case 1 -> // the billion laughs
          "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
              + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c]\n"
              + "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e]\n"
              + yml;
      case 2 -> yml + "\nlakehouse: again\n"; // a duplicate key
      case 3 -> yml.replace("views: [views]", "views: 5");
      case 4 -> yml.replace("schema: dbo", "schema: [dbo, dbo]");
      case 5 -> "--- !!java.io.File\npath: /tmp\n" + yml; // a type tag
      case 6 -> yml + "\ndefaults:\n  refresh_timeout: 99999999999999999999d\n  parallelism: -1\n";
      default -> "[" + yml;
    };
  }

  private int hugeKind;

  private String huge() {
    int size = 1 << 20;
    StringBuilder sb = new StringBuilder("CREATE MATERIALIZED LAKE VIEW gold.huge AS SELECT ");
    switch (hugeKind++ % 4) {
      case 0 -> {
        sb.append("id FROM bronze.formulas WHERE id IN (0");
        for (int i = 1; sb.length() < size; i++) {
          sb.append(", ").append(i);
        }
        sb.append(')');
      }
      case 1 -> sb.append('\'').append("x".repeat(size)).append("' AS s FROM bronze.formulas");
      case 2 -> {
        for (int i = 0; sb.length() < size; i++) {
          sb.append(i == 0 ? "" : ", ").append("formula_id AS c").append(i);
        }
        sb.append(" FROM bronze.formulas");
      }
      default -> sb.append("`").append("n".repeat(size)).append("` FROM bronze.formulas");
    }
    return sb.toString();
  }

  private String deep() {
    int depth = 10_000;
    String head = "CREATE MATERIALIZED LAKE VIEW gold.deep AS ";
    return switch (rnd.nextInt(4)) {
      case 0 -> head + "SELECT " + nest("(", ")", "1") + " AS x FROM bronze.formulas";
      case 1 ->
          head
              + "SELECT * FROM ".repeat(1)
              + "(SELECT * FROM ".repeat(depth)
              + "bronze.formulas"
              + ") t".repeat(depth);
      case 2 ->
          head
              + "SELECT "
              + "CASE WHEN 1 = 1 THEN ".repeat(depth)
              + "1"
              + " END".repeat(depth)
              + " AS x FROM bronze.formulas";
      default -> head + "SELECT 1 AS x FROM bronze.formulas WHERE " + "NOT ".repeat(depth) + "true";
    };
  }

  private static String nest(String open, String close, String core) {
    return open.repeat(10_000) + core + close.repeat(10_000);
  }

  private String insert(String s, String[] what) {
    int at = rnd.nextInt(s.length() + 1);
    return s.substring(0, at) + what[rnd.nextInt(what.length)] + s.substring(at);
  }

  private static List<int[]> tokens(String s) {
    List<int[]> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(s);
    while (m.find()) {
      out.add(new int[] {m.start(), m.end()});
    }
    return out;
  }

  private String sqlFile(Map<String, byte[]> files) {
    List<String> sql = files.keySet().stream().filter(f -> f.endsWith(".sql")).sorted().toList();
    return sql.get(rnd.nextInt(sql.size()));
  }

  private static String text(Map<String, byte[]> files, String name) {
    return new String(files.get(name), StandardCharsets.UTF_8);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
