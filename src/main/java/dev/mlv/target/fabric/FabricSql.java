package dev.mlv.target.fabric;

import dev.mlv.diag.Position;
import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.Name;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.ViewDefinition;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Spark SQL text mlv sends over Livy. Views mlv creates carry the table property {@value
 * #MANAGED}: Fabric has no other place to record who created a view, and only such views are ever
 * renamed or dropped by a plan. The property is removed again when a deployed definition is read.
 */
final class FabricSql {
  static final String MANAGED = "mlv.managed";
  static final String MANAGED_PROPERTY = "'" + MANAGED + "' = 'true'";

  /**
   * Written after the marker, as the local target writes it on a view whose {@code enable_cdf} is
   * on: a view reading this one can then be refreshed incrementally by Fabric's optimal refresh,
   * which needs change data feed on every source. Removed when read back with the marker.
   */
  static final String CDF = "delta.enableChangeDataFeed";

  private static final String CDF_PROPERTY = "'" + CDF + "' = 'true'";

  private static final Pattern LEADING_CREATE =
      Pattern.compile(
          "(?is)^((?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*)CREATE\\s+(?:OR\\s+REPLACE\\s+)?"
              + "MATERIALIZED\\s+LAKE\\s+VIEW\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?");
  private static final Pattern AS_BEFORE_BODY = Pattern.compile("(?is)\\bAS\\s*$");
  private static final Pattern TBLPROPERTIES = Pattern.compile("(?i)\\bTBLPROPERTIES\\s*\\(");

  private final String lakehouse;
  private final String workspace;

  /** Names in the target lakehouse are written {@code schema.name}, others with their lakehouse. */
  FabricSql(String workspace, String lakehouse) {
    this.workspace = workspace.toLowerCase(Locale.ROOT);
    this.lakehouse = lakehouse.toLowerCase(Locale.ROOT);
  }

  static String quote(String part) {
    return "`" + part.replace("`", "``") + "`";
  }

  String name(ObjectId id) {
    List<String> parts =
        !id.workspace().equals(workspace)
            ? id.parts()
            : id.lakehouse().equals(lakehouse)
                ? List.of(id.schema(), id.name())
                : List.of(id.lakehouse(), id.schema(), id.name());
    return parts.stream().map(FabricSql::quote).collect(Collectors.joining("."));
  }

  static String name(Name n) {
    return n.parts().stream().map(FabricSql::quote).collect(Collectors.joining("."));
  }

  /**
   * {@code CREATE OR REPLACE} of the project's statement with the managed marker added to its table
   * properties, and change data feed turned on when {@code cdf} and the statement does not set it
   * itself; the rest of the text is sent as written.
   */
  static String createOrReplace(String statement, boolean cdf) {
    ViewDefinition def =
        parse(statement)
            .orElseThrow(
                () ->
                    new IllegalArgumentException("not a CREATE MATERIALIZED LAKE VIEW statement"));
    String text = def.statement();
    Matcher m = LEADING_CREATE.matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException("not a CREATE MATERIALIZED LAKE VIEW statement");
    }
    String rest = text.substring(m.end());
    String head = m.group(1) + "CREATE OR REPLACE MATERIALIZED LAKE VIEW ";
    int body = bodyOffset(def) - m.end();
    String marker =
        cdf && def.properties().keySet().stream().noneMatch(CDF::equalsIgnoreCase)
            ? MANAGED_PROPERTY + ", " + CDF_PROPERTY
            : MANAGED_PROPERTY;
    if (!def.properties().isEmpty()) {
      Matcher p = TBLPROPERTIES.matcher(rest);
      if (p.find() && p.end() <= body) {
        return head + rest.substring(0, p.end()) + marker + ", " + rest.substring(p.end());
      }
    }
    String before = rest.substring(0, body);
    Matcher as = AS_BEFORE_BODY.matcher(before);
    int at = as.find() ? as.start() : body;
    return head
        + before.substring(0, at).stripTrailing()
        + "\nTBLPROPERTIES ("
        + marker
        + ")\n"
        + before.substring(at)
        + rest.substring(body);
  }

  /** Where the SELECT (or USING) body starts inside the statement text. */
  private static int bodyOffset(ViewDefinition def) {
    Position start = def.position();
    Position body =
        def.body() instanceof dev.mlv.sql.ViewBody.Select s
            ? s.position()
            : ((dev.mlv.sql.ViewBody.Files) def.body()).position();
    String text = def.statement();
    int offset = 0;
    int line = start.line();
    while (line < body.line()) {
      int nl = text.indexOf('\n', offset);
      if (nl < 0) {
        return text.length();
      }
      offset = nl + 1;
      line++;
    }
    int column = body.line() == start.line() ? body.column() - start.column() : body.column() - 1;
    return Position.afterCodePoints(text, offset, column); // a Position counts characters
  }

  static Optional<ViewDefinition> parse(String statement) {
    MlvParser.Result r = MlvParser.parse(Position.start(null), statement);
    if (r.statements().size() == 1 && r.statements().get(0) instanceof SqlStatement.CreateView c) {
      return Optional.of(c.definition());
    }
    return Optional.empty();
  }

  /** A deployed definition as read back: whether mlv made it, and its text without the marker. */
  record Deployed(ViewDefinition definition, String text, boolean managed) {}

  static Optional<Deployed> readBack(String shown) {
    Optional<ViewDefinition> parsed = parse(shown);
    if (parsed.isEmpty()) {
      return Optional.empty();
    }
    ViewDefinition d = parsed.get();
    boolean managed = "true".equalsIgnoreCase(d.properties().get(MANAGED));
    Map<String, String> props = new HashMap<>(d.properties());
    props.remove(MANAGED);
    String withCdf = MANAGED_PROPERTY + ", " + CDF_PROPERTY;
    if (managed && shown.contains(withCdf)) {
      props.keySet().removeIf(CDF::equalsIgnoreCase); // mlv's, not the statement's
    }
    String text =
        shown
            .replace("\nTBLPROPERTIES (" + withCdf + ")\n", "\n")
            .replace(withCdf + ", ", "")
            .replace("\nTBLPROPERTIES (" + MANAGED_PROPERTY + ")\n", "\n")
            .replace(MANAGED_PROPERTY + ", ", "")
            .replaceFirst("(?i)CREATE OR REPLACE MATERIALIZED", "CREATE MATERIALIZED");
    ViewDefinition clean =
        new ViewDefinition(
            d.name(),
            d.orReplace(),
            d.ifNotExists(),
            d.constraints(),
            d.partitionedBy(),
            d.comment(),
            props,
            d.body(),
            d.position(),
            text);
    return Optional.of(new Deployed(clean, text, managed));
  }

  /** The text of a management statement parsed by {@link MlvParser}, for sending as it is. */
  private static final Pattern VORDER =
      Pattern.compile("(?is)^(?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*OPTIMIZE\\b.*\\bVORDER\\b.*");

  /**
   * Whether {@code sql} uses syntax only Fabric's Spark knows ({@code OPTIMIZE ... VORDER}, its
   * Delta extension), which the open-source parser mlv checks with would refuse.
   */
  static boolean fabricOnly(String sql) {
    return VORDER.matcher(sql).matches();
  }

  static String text(SqlStatement st) {
    if (st instanceof SqlStatement.Other o) {
      return o.sql();
    } else if (st instanceof SqlStatement.CreateView c) {
      return c.definition().statement();
    } else if (st instanceof SqlStatement.ShowViews s) {
      return "SHOW MATERIALIZED LAKE VIEWS" + (s.schema() == null ? "" : " IN " + name(s.schema()));
    } else if (st instanceof SqlStatement.ShowCreate s) {
      return "SHOW CREATE MATERIALIZED LAKE VIEW " + name(s.view());
    } else if (st instanceof SqlStatement.Rename r) {
      return "ALTER MATERIALIZED LAKE VIEW " + name(r.from()) + " RENAME TO " + name(r.to());
    } else if (st instanceof SqlStatement.Drop d) {
      return "DROP MATERIALIZED LAKE VIEW " + (d.ifExists() ? "IF EXISTS " : "") + name(d.view());
    } else if (st instanceof SqlStatement.Refresh r) {
      return "REFRESH MATERIALIZED LAKE VIEW " + name(r.view()) + (r.full() ? " FULL" : "");
    }
    throw new IllegalArgumentException("unknown statement " + st);
  }
}
