package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.diag.Suggestions;
import dev.mlv.schedule.Recurrence;
import dev.mlv.schedule.Schedule;
import dev.mlv.schedule.ScheduleLimits;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads {@code schedules:} of mlv.yml. Every value is checked against Fabric's documented limits
 * here, so a schedule Fabric would refuse is an error at its line and column before any request.
 */
final class ScheduleReader {
  private static final List<String> KEYS =
      List.of(
          "name",
          "views",
          "type",
          "interval",
          "times",
          "weekdays",
          "every_months",
          "day_of_month",
          "week_index",
          "weekday",
          "start",
          "end",
          "time_zone",
          "refresh_mode",
          "enabled",
          "targets");
  private static final List<String> TYPES = List.of("cron", "daily", "weekly", "monthly");

  private final List<Diagnostic> problems;
  private final Function<Node, Position> pos;
  private final java.util.function.BiFunction<Node, String, Optional<String>> interpolated;

  /** {@code interpolated} expands {@code ${NAME}} in a value, as every string of mlv.yml does. */
  ScheduleReader(
      List<Diagnostic> problems,
      Function<Node, Position> pos,
      java.util.function.BiFunction<Node, String, Optional<String>> interpolated) {
    this.problems = problems;
    this.pos = pos;
    this.interpolated = interpolated;
  }

  private static String fabricHint(String typed, Map<String, TargetConfig> targets) {
    List<String> fabric =
        targets.values().stream()
            .filter(FabricTarget.class::isInstance)
            .map(TargetConfig::name)
            .toList();
    return fabric.isEmpty()
        ? "the project has no Fabric target: schedules run only in Fabric (docs/fabric.md)"
        : Suggestions.hint(typed, fabric);
  }

  List<Schedule> read(Node node, Map<String, TargetConfig> targets) {
    List<Schedule> out = new ArrayList<>();
    if (!(node instanceof SequenceNode seq)) {
      if (!(node instanceof ScalarNode s && Tag.NULL.equals(s.getTag()))) {
        error(node, "schedules must be a list of schedules, one '- name: ...' each", null);
      }
      return out;
    }
    Map<String, Position> seen = new LinkedHashMap<>();
    Map<String, Integer> perTarget = new LinkedHashMap<>();
    for (Node item : seq.getValue()) {
      Optional<Schedule> s = schedule(item, targets, seen);
      if (s.isEmpty()) {
        continue;
      }
      Schedule schedule = s.get();
      for (TargetConfig t : targets.values()) {
        if (t instanceof FabricTarget && schedule.appliesTo(t.name())) {
          int n = perTarget.merge(t.name(), 1, Integer::sum);
          if (n == ScheduleLimits.MAX_PER_ITEM + 1) {
            error(
                item,
                "schedule '"
                    + schedule.name()
                    + "' is the "
                    + n
                    + "th on target '"
                    + t.name()
                    + "'; Fabric allows at most "
                    + ScheduleLimits.MAX_PER_ITEM
                    + " schedules per lakehouse",
                "merge schedules, or restrict some to other targets with 'targets:'");
          }
        }
      }
      out.add(schedule);
    }
    return out;
  }

  /**
   * The schedule of {@code node}, or empty after its errors. {@code seen} holds the names read so
   * far, each at its first schedule.
   */
  private Optional<Schedule> schedule(
      Node node, Map<String, TargetConfig> targets, Map<String, Position> seen) {
    if (!(node instanceof MappingNode m)) {
      error(node, "a schedule must be a mapping of keys to values", "start it with '- name: ...'");
      return Optional.empty();
    }
    Map<String, NodeTuple> keys = new LinkedHashMap<>();
    for (NodeTuple t : m.getValue()) {
      if (t.getKeyNode() instanceof ScalarNode k) {
        if (keys.putIfAbsent(k.getValue(), t) != null) {
          error(k, "key '" + k.getValue() + "' appears twice in a schedule", "keep one of them");
        }
        if (!KEYS.contains(k.getValue())) {
          error(
              k,
              "unknown key '" + k.getValue() + "' in a schedule",
              Suggestions.hint(k.getValue(), KEYS));
        }
      }
    }
    int before = problems.size();
    Optional<String> name = required(node, keys, "name", "schedules").flatMap(this::scalar);
    String what = "schedule '" + name.orElse("?") + "'";
    if (name.isPresent() && !name.get().matches("[A-Za-z0-9_-]{1,100}")) {
      error(
          keys.get("name").getValueNode(),
          what + " needs a plain name",
          "use letters, digits, '_' and '-' (at most 100)");
    }
    if (name.isPresent()) {
      // Checked on the name alone, so that it is reported with the schedule's other errors and
      // not only once they are fixed.
      Position first = seen.putIfAbsent(name.get().toLowerCase(Locale.ROOT), pos.apply(node));
      if (first != null) {
        problems.add(
            Diagnostic.error(
                "CONFIG_VALUE",
                pos.apply(node),
                "schedule '" + name.get() + "' is declared twice (names ignore case)",
                "first at line " + first.line() + "; give each schedule its own name"));
      }
    }
    Map<String, Position> views = views(keys.get("views"), what);
    Optional<String> type =
        required(node, keys, "type", what)
            .flatMap(n -> choice(n, what + ".type", TYPES))
            .map(t -> t);
    Recurrence recurrence = type.map(t -> recurrence(t, node, keys, what)).orElse(null);
    Optional<LocalDateTime> start =
        required(node, keys, "start", what).flatMap(n -> dateTime(n, what + ".start"));
    Optional<LocalDateTime> end =
        required(node, keys, "end", what).flatMap(n -> dateTime(n, what + ".end"));
    if (start.isPresent() && end.isPresent() && !end.get().isAfter(start.get())) {
      error(keys.get("end").getValueNode(), what + ".end must be after its start", null);
    }
    String zone =
        Optional.ofNullable(keys.get("time_zone"))
            .flatMap(t -> scalar(t.getValueNode()))
            .orElse("UTC");
    Schedule.RefreshMode mode =
        Optional.ofNullable(keys.get("refresh_mode"))
            .flatMap(
                t -> choice(t.getValueNode(), what + ".refresh_mode", List.of("optimal", "full")))
            .map(v -> Schedule.RefreshMode.valueOf(v.toUpperCase(Locale.ROOT)))
            .orElse(Schedule.RefreshMode.OPTIMAL);
    boolean enabled =
        Optional.ofNullable(keys.get("enabled"))
            .map(t -> bool(t.getValueNode(), what + ".enabled"))
            .orElse(true);
    List<String> onTargets = new ArrayList<>();
    NodeTuple t = keys.get("targets");
    if (t != null) {
      for (Node item : list(t.getValueNode(), what + ".targets")) {
        scalar(item)
            .ifPresent(
                target -> {
                  TargetConfig c = targets.get(target);
                  if (!(c instanceof FabricTarget)) {
                    error(
                        item,
                        what
                            + " names target '"
                            + target
                            + "', which is not a Fabric target of this project",
                        fabricHint(target, targets));
                  } else {
                    onTargets.add(target);
                  }
                });
      }
    }
    if (problems.size() > before || name.isEmpty() || recurrence == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Schedule(
            name.get(),
            List.copyOf(views.keySet()),
            List.copyOf(views.values()),
            recurrence,
            start.orElseThrow(),
            end.orElseThrow(),
            zone,
            mode,
            enabled,
            onTargets,
            pos.apply(node)));
  }

  private Recurrence recurrence(String type, Node node, Map<String, NodeTuple> keys, String what) {
    List<String> allowed =
        switch (type) {
          case "cron" -> List.of("interval");
          case "daily" -> List.of("times");
          case "weekly" -> List.of("times", "weekdays");
          default -> List.of("times", "every_months", "day_of_month", "week_index", "weekday");
        };
    for (String k :
        List.of("interval", "times", "weekdays", "every_months", "day_of_month", "week_index")) {
      if (keys.containsKey(k) && !allowed.contains(k)) {
        error(
            keys.get(k).getKeyNode(),
            what + " is of type " + type + ", which takes no '" + k + "'",
            "a " + type + " schedule takes " + String.join(", ", allowed));
      }
    }
    if (keys.containsKey("weekday") && !allowed.contains("weekday")) {
      error(
          keys.get("weekday").getKeyNode(),
          what + " is of type " + type + ", which takes no 'weekday'",
          type.equals("weekly") ? "a weekly schedule lists 'weekdays'" : null);
    }
    if (type.equals("cron")) {
      return required(node, keys, "interval", what)
          .flatMap(
              n ->
                  integer(
                      n,
                      what + ".interval (minutes)",
                      ScheduleLimits.MIN_INTERVAL,
                      ScheduleLimits.MAX_INTERVAL))
          .map(Recurrence.Cron::new)
          .orElse(null);
    }
    List<String> times =
        required(node, keys, "times", what).map(n -> times(n, what)).orElse(List.of());
    if (type.equals("daily")) {
      return new Recurrence.Daily(times);
    }
    if (type.equals("weekly")) {
      List<String> days = new ArrayList<>();
      required(node, keys, "weekdays", what)
          .ifPresent(
              n -> {
                List<Node> items = list(n, what + ".weekdays");
                for (Node d : items) {
                  choice(d, what + ".weekdays", lower(ScheduleLimits.WEEKDAYS))
                      .map(ScheduleReader::capital)
                      .filter(x -> !days.contains(x))
                      .ifPresent(days::add);
                }
                // Only an empty list: a day not understood was reported where it is written.
                if (items.isEmpty() && n instanceof SequenceNode) {
                  error(n, what + ".weekdays lists no day", "for example [Monday, Thursday]");
                }
              });
      return new Recurrence.Weekly(days, times);
    }
    int every =
        Optional.ofNullable(keys.get("every_months"))
            .flatMap(
                t ->
                    integer(
                        t.getValueNode(),
                        what + ".every_months",
                        1,
                        ScheduleLimits.MAX_EVERY_MONTHS))
            .orElse(1);
    Optional<Integer> day =
        Optional.ofNullable(keys.get("day_of_month"))
            .flatMap(t -> integer(t.getValueNode(), what + ".day_of_month", 1, 31));
    Optional<String> index =
        Optional.ofNullable(keys.get("week_index"))
            .flatMap(
                t ->
                    choice(
                        t.getValueNode(), what + ".week_index", lower(ScheduleLimits.WEEK_INDEXES)))
            .map(ScheduleReader::capital);
    Optional<String> weekday =
        Optional.ofNullable(keys.get("weekday"))
            .flatMap(
                t -> choice(t.getValueNode(), what + ".weekday", lower(ScheduleLimits.WEEKDAYS)))
            .map(ScheduleReader::capital);
    boolean byDay = keys.containsKey("day_of_month");
    boolean byWeekday = keys.containsKey("week_index") || keys.containsKey("weekday");
    if (byDay == byWeekday) {
      error(
          node,
          what + " must say either day_of_month, or week_index with weekday",
          "for example day_of_month: 1, or week_index: Last with weekday: Friday");
    } else if (byWeekday && !(keys.containsKey("week_index") && keys.containsKey("weekday"))) {
      error(node, what + " needs both week_index and weekday", null);
    }
    return new Recurrence.Monthly(every, day, index, weekday, times);
  }

  /** The selectors, each where it is first written, so a bad one is reported there. */
  private Map<String, Position> views(NodeTuple tuple, String what) {
    if (tuple == null) {
      return Map.of();
    }
    Node n = tuple.getValueNode();
    if (n instanceof ScalarNode s && s.getValue().strip().equalsIgnoreCase("all")) {
      return Map.of();
    }
    Map<String, Position> out = new LinkedHashMap<>();
    boolean refused = false;
    for (Node item : list(n, what + ".views")) {
      Optional<String> key = unquotedColon(item);
      if (key.isPresent()) {
        // YAML reads [gold:] as a list holding the map {gold: null}, not a selector.
        error(
            item,
            what
                + ".views has "
                + key.get()
                + ": followed by nothing, which YAML reads as a key, not a selector; a schema is"
                + " selected as schema:"
                + key.get(),
            "write [schema:"
                + key.get()
                + "] (no space after the colon), or another selector: a name, tag:x, with +");
        refused = true;
        continue;
      }
      scalar(item).ifPresent(v -> out.putIfAbsent(v, pos.apply(item)));
    }
    if (out.isEmpty() && !refused) {
      error(
          n, what + ".views selects nothing", "write 'all', or list selectors such as [silver.x+]");
    }
    return out;
  }

  /** The key of {@code item} when it is a map of one key and no value: {@code gold:} unquoted. */
  private static Optional<String> unquotedColon(Node item) {
    if (item instanceof MappingNode m
        && m.getValue().size() == 1
        && m.getValue().get(0).getKeyNode() instanceof ScalarNode k
        && m.getValue().get(0).getValueNode() instanceof ScalarNode v
        && Tag.NULL.equals(v.getTag())) {
      return Optional.of(k.getValue());
    }
    return Optional.empty();
  }

  private List<String> times(Node n, String what) {
    List<Node> items = list(n, what + ".times");
    List<String> out = new ArrayList<>();
    for (Node item : items) {
      scalar(item)
          .ifPresent(
              v -> {
                if (!ScheduleLimits.TIME.matcher(v).matches()) {
                  error(
                      item,
                      what + ".times has '" + v + "', which is not a time of day as HH:mm",
                      "write 24-hour times in quotes, e.g. \"02:00\" or \"14:30\"");
                } else if (!out.contains(v)) {
                  out.add(v);
                }
              });
    }
    if (items.isEmpty()) {
      error(n, what + ".times lists no time", "for example [\"02:00\"]");
    } else if (items.size() > ScheduleLimits.MAX_TIMES) {
      error(
          n,
          what
              + ".times lists "
              + items.size()
              + " times; Fabric allows at most "
              + ScheduleLimits.MAX_TIMES,
          null);
    }
    return out;
  }

  // ---- values ----

  private Optional<Node> required(Node at, Map<String, NodeTuple> keys, String key, String what) {
    NodeTuple t = keys.get(key);
    if (t == null) {
      String hint =
          key.equals("end")
              ? "Fabric requires an end (endDateTime): add 'end: 2027-01-01T00:00:00'"
              : "add '" + key + ": ...'";
      error(at, "missing required key '" + key + "' in " + what, hint);
      return Optional.empty();
    }
    return Optional.of(t.getValueNode());
  }

  private Optional<String> scalar(Node n) {
    if (n instanceof ScalarNode s && !Tag.NULL.equals(s.getTag()) && !s.getValue().isBlank()) {
      if (s.getValue().contains("${")) {
        return interpolated.apply(n, "a schedule value").map(String::strip);
      }
      return Optional.of(s.getValue().strip());
    }
    error(n, "expected a single value here", null);
    return Optional.empty();
  }

  private List<Node> list(Node n, String what) {
    if (n instanceof SequenceNode seq) {
      return seq.getValue();
    }
    if (n instanceof ScalarNode s && !Tag.NULL.equals(s.getTag())) {
      return List.of(n);
    }
    error(n, what + " must be a list", null);
    return List.of();
  }

  private Optional<String> choice(Node n, String what, List<String> options) {
    return scalar(n)
        .flatMap(
            v -> {
              String lower = v.toLowerCase(Locale.ROOT);
              if (options.contains(lower)) {
                return Optional.of(lower);
              }
              error(
                  n,
                  what + " must be one of " + String.join(", ", options) + ", not '" + v + "'",
                  Suggestions.hint(lower, options));
              return Optional.empty();
            });
  }

  private Optional<Integer> integer(Node n, String what, int min, int max) {
    return scalar(n)
        .flatMap(
            v -> {
              try {
                int i = Integer.parseInt(v.replace("_", ""));
                if (i >= min && i <= max) {
                  return Optional.of(i);
                }
              } catch (NumberFormatException e) {
                // reported below
              }
              error(
                  n,
                  what + " must be a whole number from " + min + " to " + max + ", not '" + v + "'",
                  null);
              return Optional.empty();
            });
  }

  private boolean bool(Node n, String what) {
    Optional<String> v = scalar(n).map(x -> x.toLowerCase(Locale.ROOT));
    if (v.isPresent() && (v.get().equals("true") || v.get().equals("false"))) {
      return v.get().equals("true");
    }
    error(n, what + " must be true or false", null);
    return true;
  }

  private Optional<LocalDateTime> dateTime(Node n, String what) {
    return scalar(n)
        .flatMap(
            v -> {
              try {
                LocalDateTime t = LocalDateTime.parse(v);
                if (t.getNano() != 0) {
                  throw new DateTimeParseException("fractions of a second", v, 0);
                }
                return Optional.of(t);
              } catch (DateTimeParseException e) {
                error(
                    n,
                    what + " is '" + v + "', not a date and time as yyyy-MM-ddTHH:mm:ss",
                    "write it in the schedule's time zone without an offset, e.g."
                        + " 2026-01-01T00:00:00");
                return Optional.empty();
              }
            });
  }

  private static List<String> lower(List<String> values) {
    return values.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList();
  }

  private static String capital(String lower) {
    return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
  }

  private void error(Node node, String message, String hint) {
    problems.add(Diagnostic.error("CONFIG_SCHEDULE", pos.apply(node), message, hint));
  }
}
