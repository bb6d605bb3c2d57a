package dev.mlv.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Completion in the shell: mlv commands and their options from the picocli model (so it cannot
 * drift from {@code --help}), option values picocli knows (enums), and in SQL the names of views
 * and tables and the columns of the tables the statement mentions.
 */
final class ShellCompleter implements Completer {
  static final List<String> SQL_WORDS =
      List.of(
          "SELECT",
          "FROM",
          "WHERE",
          "GROUP",
          "ORDER",
          "BY",
          "HAVING",
          "LIMIT",
          "JOIN",
          "LEFT",
          "ON",
          "AS",
          "AND",
          "OR",
          "NOT",
          "IN",
          "IS",
          "NULL",
          "DISTINCT",
          "COUNT",
          "SUM",
          "AVG",
          "MIN",
          "MAX",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "END",
          "WITH",
          "UNION",
          "ALL",
          "SHOW",
          "TABLES",
          "MATERIALIZED",
          "LAKE",
          "VIEW",
          "VIEWS",
          "CREATE",
          "DESCRIBE",
          "HISTORY",
          "INSERT",
          "INTO",
          "VALUES",
          "REFRESH",
          "FULL",
          "USE");

  private final CommandSpec root;
  private final Set<String> shellWords;
  private volatile SortedMap<String, List<String>> tables = new TreeMap<>();
  private volatile SortedSet<String> tags = new TreeSet<>();

  ShellCompleter(CommandSpec root, Set<String> shellWords) {
    this.root = root;
    this.shellWords = Set.copyOf(shellWords);
  }

  /** Replaces the known tables and views (display name to columns) after each command. */
  void tables(Map<String, List<String>> tables) {
    SortedMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    tables.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    this.tables = copy;
  }

  /** Replaces the project's tag selectors ({@code tag:pii}), read after each command. */
  void tags(Collection<String> tags) {
    this.tags = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(tags));
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    List<String> words = line.words();
    int index = line.wordIndex();
    String first = words.isEmpty() ? "" : words.get(0).toLowerCase(Locale.ROOT);
    if (index == 0) {
      root.subcommands().keySet().forEach(c -> candidates.add(word(c, "commands")));
      shellWords.forEach(c -> candidates.add(word(c, "commands")));
      // a command wins over the SQL word it spells (refresh, not REFRESH)
      SQL_WORDS.stream()
          .filter(c -> !root.subcommands().containsKey(c.toLowerCase(Locale.ROOT)))
          .forEach(c -> candidates.add(word(c, "SQL")));
      return;
    }
    CommandLine sub = root.subcommands().get(first);
    if (sub != null) {
      options(sub.getCommandSpec(), words, index, line.word(), candidates);
      return;
    }
    if ("help".equals(first)) {
      root.subcommands().keySet().forEach(c -> candidates.add(word(c, "commands")));
      return;
    }
    String previous = index > 0 ? words.get(index - 1).toUpperCase(Locale.ROOT) : "";
    sql(line.line(), line.word(), previous, candidates);
  }

  private void options(
      CommandSpec spec, List<String> words, int index, String current, List<Candidate> out) {
    OptionSpec previous = index > 0 ? spec.findOption(words.get(index - 1)) : null;
    if (previous != null && previous.arity().max() > 0 && !current.startsWith("-")) {
      Iterable<String> values = previous.completionCandidates();
      if (values != null) {
        values.forEach(v -> out.add(word(v, "values")));
      }
      return;
    }
    if (current.startsWith("-")) {
      for (OptionSpec o : spec.options()) {
        if (!o.hidden()) {
          for (String name : o.names()) {
            out.add(
                new Candidate(name, name, "options", firstLine(o.description()), null, null, true));
          }
        }
      }
      return;
    }
    if (!spec.positionalParameters().isEmpty()) {
      selectors(current, out);
    }
  }

  /**
   * Names as selectors take them, also after a '+' (+silver.x, with its ancestors), and the tags
   * after {@code tag:}. A trailing '+' is typed after a completed name, so it needs nothing here.
   */
  private void selectors(String current, List<Candidate> out) {
    String plus = current.startsWith("+") ? "+" : "";
    if (current.startsWith(plus + "tag:")) {
      tags.forEach(t -> out.add(word(plus + t, "tags")));
      return;
    }
    tables.keySet().forEach(t -> out.add(word(plus + t, "views and tables")));
  }

  /** Words after which a statement names a table, not a column. */
  private static final Set<String> TABLE_BEFORE = Set.of("FROM", "JOIN", "INTO", "TABLE", "UPDATE");

  private void sql(String line, String current, String previous, List<Candidate> out) {
    SortedMap<String, List<String>> known = tables;
    String lower = line.toLowerCase(Locale.ROOT);
    Set<String> columns = new TreeSet<>();
    Set<String> mentioned = new TreeSet<>();
    known.forEach(
        (name, cols) -> {
          if (lower.contains(name.toLowerCase(Locale.ROOT))) {
            mentioned.add(name);
            columns.addAll(cols);
          }
        });
    if (mentioned.isEmpty()) {
      known.values().forEach(columns::addAll);
    }
    known.keySet().forEach(t -> out.add(word(t, "views and tables")));
    if (TABLE_BEFORE.contains(previous)) {
      return; // FROM silver.ord<Tab>: silver.orders_clean, not a column
    }
    columns.forEach(c -> out.add(word(c, "columns")));
    int dot = current.lastIndexOf('.');
    // Nothing typed yet (Tab after a blank) has no dot and no prefix (found by QA: it threw).
    String typed = dot < 0 ? "" : current.toLowerCase(Locale.ROOT).substring(0, dot + 1);
    // silver.ord is a table's name being typed when a table's name starts so: no column of it.
    boolean schema = dot > 0 && known.keySet().stream().anyMatch(t -> t.startsWith(typed));
    if (dot > 0 && !schema) {
      // alias.column: keep what was typed before the dot.
      String qualifier = current.substring(0, dot + 1);
      columns.forEach(c -> out.add(word(qualifier + c, "columns")));
    }
    for (String w : SQL_WORDS) {
      out.add(word(w, "SQL"));
    }
  }

  private static Candidate word(String value, String group) {
    return new Candidate(value, value, group, null, null, null, !value.endsWith(":"));
  }

  private static String firstLine(String[] description) {
    return description.length == 0 ? null : description[0];
  }

  static List<String> values(Collection<Candidate> candidates) {
    List<String> v = new ArrayList<>();
    candidates.forEach(c -> v.add(c.value()));
    return v;
  }
}
