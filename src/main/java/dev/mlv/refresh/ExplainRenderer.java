package dev.mlv.refresh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.lineage.DisplayWidth;
import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.project.RefreshPolicy;
import dev.mlv.project.ViewSettings;
import dev.mlv.sql.RefreshAnalysis;
import dev.mlv.sql.RefreshAnalysis.Construct;
import dev.mlv.sql.RefreshAnalysis.TableRef;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The construct-by-construct verdict of one view ({@code mlv explain}), as text for people and as
 * JSON, both from the same {@link RefreshAnalysis}. A file view is explained by its {@code
 * refresh_mode}, which is what its refresh reads, not by SQL constructs.
 */
public final class ExplainRenderer {
  public static final int FORMAT_VERSION = 1;

  private ExplainRenderer() {}

  public static String text(
      ObjectId view,
      ViewSettings.Effective settings,
      ViewDefinition def,
      RefreshAnalysis a,
      NameResolver names) {
    if (def.body() instanceof ViewBody.Files files) {
      String mode = refreshMode(def);
      return names.display(view)
          + "  (file view, refresh_mode "
          + mode
          + "; refresh_policy and optimal refresh do not apply)\n\n"
          + String.format(
              Locale.ROOT,
              "  %s  %-34s %5s  %s\n",
              "if  ",
              "USING OneLake_Files",
              files.position() == null
                  ? ""
                  : files.position().line() + ":" + files.position().column(),
              fileNote(mode))
          + "\nVerdict: "
          + fileVerdict(mode)
          + "\n";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(names.display(view))
        .append("  (refresh_policy ")
        .append(settings.refreshPolicy().name().toLowerCase(Locale.ROOT))
        .append(", optimal refresh ")
        .append(settings.optimalRefresh() ? "on" : "off")
        .append(")\n\n");
    if (a.constructs().isEmpty()) {
      sb.append("  (no construct that matters: a plain projection)\n");
    }
    for (Construct c : inReadingOrder(a)) {
      String mark =
          switch (c.support()) {
            case INCREMENTAL -> "ok  ";
            case CONDITIONAL -> "if  ";
            case FULL -> "FULL";
          };
      // A construct can name a CTE or constraint in CJK: padded by display width, not chars.
      sb.append(
          String.format(
              Locale.ROOT,
              "  %s  %s %5s  ",
              mark,
              DisplayWidth.padRight(c.construct(), 34),
              where(c)));
      sb.append(c.note());
      if (!c.code().isEmpty()) {
        sb.append(" [").append(c.code()).append(']');
      }
      sb.append('\n');
    }
    Map<String, String> sources = sources(settings, a, names);
    if (!sources.isEmpty()) {
      sb.append("\nSources:\n");
      sources.forEach((s, how) -> sb.append("  ").append(s).append("  ").append(how).append('\n'));
    }
    sb.append("\nVerdict: ").append(verdict(settings, a)).append('\n');
    return sb.toString();
  }

  public static String json(
      ObjectId view,
      ViewSettings.Effective settings,
      ViewDefinition def,
      RefreshAnalysis a,
      NameResolver names) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    root.put("view", names.display(view));
    if (def.body() instanceof ViewBody.Files files) {
      // refresh_policy and optimal_refresh are not read for a file view: refresh_mode decides.
      String mode = refreshMode(def);
      root.put("refreshMode", mode);
      root.put("verdict", fileVerdict(mode));
      ObjectNode c = root.putArray("constructs").addObject();
      c.put("construct", "USING OneLake_Files");
      c.put("support", "CONDITIONAL");
      c.put("code", "FILE_VIEW");
      if (files.position() == null) {
        c.putNull("line");
        c.putNull("column");
      } else {
        c.put("line", files.position().line());
        c.put("column", files.position().column());
      }
      c.put("note", fileNote(mode));
      root.putObject("sources");
      return write(mapper, root);
    }
    root.put("refreshPolicy", settings.refreshPolicy().name().toLowerCase(Locale.ROOT));
    root.put("optimalRefresh", settings.optimalRefresh());
    root.put("shape", a.shape().name());
    root.put("verdict", verdict(settings, a));
    ArrayNode constructs = root.putArray("constructs");
    for (Construct c : inReadingOrder(a)) {
      ObjectNode n = constructs.addObject();
      n.put("construct", c.construct());
      n.put("support", c.support().name());
      n.put("code", c.code());
      n.put("line", c.position().line());
      n.put("column", c.position().column());
      n.put("note", c.note());
    }
    ObjectNode sources = root.putObject("sources");
    sources(settings, a, names).forEach(sources::put);
    return write(mapper, root);
  }

  private static String write(ObjectMapper mapper, ObjectNode root) {
    try {
      return mapper.writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The view's {@code refresh_mode} as written (upper case), APPEND_ONLY when it has none. */
  private static String refreshMode(ViewDefinition def) {
    return def.properties().entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase("refresh_mode"))
        .map(e -> e.getValue().strip().toUpperCase(Locale.ROOT))
        .findFirst()
        .orElse("APPEND_ONLY");
  }

  /** What a refresh reads of the folder under {@code mode}, as the file ingestion decides it. */
  private static String fileNote(String mode) {
    return switch (mode) {
      case "APPEND_ONLY" ->
          "refresh_mode APPEND_ONLY: only files new since the last refresh are read and appended";
      case "MIRROR" ->
          "refresh_mode MIRROR: new files are added, replaced ones re-read, deleted ones removed";
      default -> "refresh_mode " + mode + ": any change in the folder reads the whole folder again";
    };
  }

  private static String fileVerdict(String mode) {
    String first = "; full at the first refresh, after a definition change and with --full";
    return switch (mode) {
      case "APPEND_ONLY" ->
          "incremental when new files arrived (NEW_FILES: only they are read; replaced or deleted"
              + " files keep the rows read before), skipped when none did (NO_NEW_FILES)"
              + first;
      case "MIRROR" ->
          "incremental when files were added, replaced or deleted (FILES_CHANGED: only those"
              + " files' rows are written), skipped when the folder did not change"
              + " (NO_FILE_CHANGES)"
              + first;
      default ->
          "full whenever the folder changed (FILES_CHANGED), skipped when it did not"
              + " (NO_FILE_CHANGES)"
              + first;
    };
  }

  private static String where(Construct c) {
    return c.position() == null ? "" : c.position().line() + ":" + c.position().column();
  }

  private static Map<String, String> sources(
      ViewSettings.Effective settings, RefreshAnalysis a, NameResolver names) {
    // A view that is always full reads its sources whole, and plan turns no feed on for it.
    boolean alwaysFull = verdict(settings, a).startsWith("always full");
    Map<String, String> out = new LinkedHashMap<>();
    for (TableRef r : a.refs()) {
      String how =
          switch (r.context()) {
            case FROM ->
                alwaysFull
                    ? "read whole at every refresh"
                    : "its appended rows are read from the change data feed";
            case LEFT_JOIN_RIGHT -> "right side of a left join: must be unchanged";
            case SUBQUERY_EXPRESSION -> "read in a subquery expression: must be unchanged";
          };
      out.merge(names.display(names.resolve(r.name())), how, (x, y) -> x.equals(y) ? x : x);
    }
    return out;
  }

  /**
   * The view's settings come before its SQL, as in the decision: a view that is always rebuilt
   * whatever its SQL says is never incremental.
   */
  static String verdict(ViewSettings.Effective settings, RefreshAnalysis a) {
    if (settings.refreshPolicy() == RefreshPolicy.FULL) {
      return "always full (POLICY_FULL: refresh_policy is full for this view)";
    }
    if (!settings.optimalRefresh()) {
      return "always full (OPTIMAL_REFRESH_OFF: optimal refresh is off for this view)";
    }
    return verdict(a);
  }

  /** One sentence: what the SQL allows, before the sources' logs are looked at. */
  public static String verdict(RefreshAnalysis a) {
    if (a.blocker().isPresent()) {
      Construct b = a.blocker().get();
      return "always full (" + b.code() + ")";
    }
    String how =
        switch (a.shape()) {
          case APPEND -> "the new result rows are appended";
          case MERGE_AGGREGATE -> "new partial aggregates are merged into the existing groups";
          case PARTITION_AGGREGATE -> "the groups of touched partitions are recomputed";
          case NONE -> "";
        };
    if (a.shape() == RefreshAnalysis.Shape.NONE) {
      return "always full (NOT_ANALYSABLE)";
    }
    // A table whose appends feed the view and which must also stay unchanged (the right side of
    // a LEFT JOIN, a subquery) can never meet both conditions.
    java.util.Set<String> fed = new java.util.TreeSet<>();
    java.util.Set<String> fixed = new java.util.TreeSet<>();
    for (RefreshAnalysis.TableRef r : a.refs()) {
      (r.context() == RefreshAnalysis.RefContext.FROM ? fed : fixed).add(r.name().dotted());
    }
    fed.retainAll(fixed);
    if (!fed.isEmpty()) {
      return "full whenever "
          + String.join(", ", fed)
          + " has new commits, else skipped: the view reads it both for its rows and where it"
          + " must be unchanged (a LEFT JOIN's right side or a subquery)";
    }
    String conditions =
        a.conditions().stream()
            // The condition only: "an expression over SUM is not merged; incremental only
            // when every source is partitioned..." is "every source is partitioned...".
            .map(c -> c.note().replaceFirst("^(?:[^;]*; )?incremental (while|only when) ", ""))
            .distinct()
            .map(n -> ", " + n)
            .reduce("", String::concat);
    return "incremental when change data feed is on for every source, only appends arrived"
        + " since the last refresh"
        + conditions
        + " ("
        + how
        + "); otherwise full";
  }

  /**
   * The constructs as the SQL reads, by line and column: the analysis finds them walking Calcite's
   * tree, which holds a chain of joins outermost first and an aggregate's items before its FROM.
   */
  private static java.util.List<Construct> inReadingOrder(RefreshAnalysis a) {
    return a.constructs().stream()
        .sorted(
            java.util.Comparator.comparingInt((Construct c) -> c.position().line())
                .thenComparingInt(c -> c.position().column()))
        .toList();
  }
}
