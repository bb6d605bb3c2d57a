package dev.mlv.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.diag.Diagnostic;
import dev.mlv.project.DefinitionFiles;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectBuilder;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DATETIME_PATTERN. Found by QA: date_format(order_date, 'YYYY-MM') passed validate, and Spark
 * 4.1.1 refused the view when it ran ([INCONSISTENT_BEHAVIOR_CROSS_VERSION...]), over an empty
 * source too. Each case measured on Spark 4.1.1.
 */
class DatetimePatternTest {
  @TempDir Path dir;

  private List<String> check(String select, String targets) throws IOException {
    Files.writeString(
        dir.resolve("mlv.yml"),
        "name: p\nworkspace: ws\nlakehouse: lh\nschema: dbo\nsources: [bronze.orders]\n" + targets);
    Path f = dir.resolve("views/silver/v.sql");
    Files.createDirectories(f.getParent());
    Files.writeString(f, "CREATE MATERIALIZED LAKE VIEW silver.v AS\n" + select + "\n");
    ProjectConfig config = ProjectLoader.load(dir).orThrow();
    Project project =
        new ProjectBuilder().build(config, DefinitionFiles.discover(config).files(), List.of());
    assertThat(project.diagnostics()).as("load").noneMatch(Diagnostic::isError);
    return Checker.check(project).stream()
        .filter(d -> d.ruleId().equals("DATETIME_PATTERN"))
        .map(d -> d.position() + " " + d.message() + " | " + d.hint())
        .toList();
  }

  @Test
  void aWeekBasedLetterInAConstantPatternIsAnErrorAtThePattern() throws IOException {
    assertThat(check("SELECT date_format(d, 'YYYY-MM') AS m FROM bronze.orders", ""))
        .containsExactly(
            "views/silver/v.sql:2:23 date_format's pattern 'YYYY-MM' has the week-based letter Y,"
                + " which Spark 3 and later refuse in a datetime pattern: Spark refuses the view"
                + " when it runs ([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_PATTERN_RECOGNITION]) | write 'yyyy': 'yyyy' is the calendar year,"
                + " 'YYYY' was the week-based year");
    assertThat(
            check(
                "SELECT to_date(s, 'YYYY-MM-dd') AS a, TO_TIMESTAMP(s, 'yyyy-ww') AS b,\n"
                    + "  try_to_timestamp(s, 'yyyy-W') AS c, unix_timestamp(s, 'u') AS e,\n"
                    + "  to_unix_timestamp(s, 'yyyy-ww') AS f, from_unixtime(n, 'e') AS g,\n"
                    + "  date_format(d, 'c') AS h, try_to_date(s, 'YYYY-QQ') AS i,\n"
                    + "  date_format(d, \"YYYY\") AS j FROM bronze.orders",
                ""))
        .extracting(s -> s.substring(0, s.indexOf(' ')) + s.substring(s.indexOf("([")))
        .containsExactly(
            "views/silver/v.sql:2:19([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_PATTERN_RECOGNITION]) | "
                + "write 'yyyy': 'yyyy' is the calendar year, 'YYYY' was the week-based year",
            "views/silver/v.sql:2:55([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_PATTERN_RECOGNITION]) | "
                + "compute the week with weekofyear(d) or extract(WEEK FROM d), and concat it to a pattern without week letters",
            "views/silver/v.sql:3:23([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_PATTERN_RECOGNITION]) | "
                + "compute the week with weekofyear(d) or extract(WEEK FROM d), and concat it to a pattern without week letters",
            "views/silver/v.sql:3:57([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_PATTERN_RECOGNITION]) | "
                + "write 'E' for the day of the week's name, or use dayofweek(d) for its number",
            "views/silver/v.sql:4:24([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_PATTERN_RECOGNITION]) | "
                + "compute the week with weekofyear(d) or extract(WEEK FROM d), and concat it to a pattern without week letters",
            "views/silver/v.sql:4:58([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_WEEK_BASED_PATTERN]) | "
                + "write 'E' for the day of the week's name, or use dayofweek(d) for its number",
            "views/silver/v.sql:5:18([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_WEEK_BASED_PATTERN]) | "
                + "write 'E' for the day of the week's name, or use dayofweek(d) for its number",
            "views/silver/v.sql:5:44([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_WEEK_BASED_PATTERN]) | "
                + "write 'yyyy': 'yyyy' is the calendar year, 'YYYY' was the week-based year",
            "views/silver/v.sql:6:18([INCONSISTENT_BEHAVIOR_CROSS_VERSION"
                + ".DATETIME_PATTERN_RECOGNITION]) | "
                + "write 'yyyy': 'yyyy' is the calendar year, 'YYYY' was the week-based year");
  }

  @Test
  void patternsSparkTakesOrCannotBeToldAreNoFinding() throws IOException {
    // mlv's lexer reads 'yyyy-''W''ww' as strings side by side, so a pattern with a doubled quote
    // is left to Spark (which refuses this one); so are patterns that are not one literal.
    assertThat(
            check(
                "SELECT date_format(d, 'yyyy-MM') AS a, date_format(d, '''YYYY''') AS b,\n"
                    + "  date_format(d, 'yyyy-''W''') AS c, date_format(d, 'E') AS e,\n"
                    + "  date_format(d, fmt) AS f, date_format(d, concat('YY', 'YY')) AS g,\n"
                    + "  to_timestamp(s) AS h, weekofyear(d) AS i, upper('YYYY') AS j,\n"
                    + "  date_format(d, 'yyyy-''W''ww') AS m, x.date_format(d, 'YYYY') AS k, date_format(d, 'YY' 'YY') AS l"
                    + " FROM bronze.orders x",
                ""))
        .isEmpty();
    // A target's Spark conf with the legacy time parser formats week-based patterns.
    assertThat(
            check(
                "SELECT date_format(d, 'YYYY-MM') AS m FROM bronze.orders",
                "targets:\n  local:\n    type: spark\n"
                    + "    conf: {spark.sql.legacy.timeParserPolicy: LEGACY}\n"))
        .isEmpty();
  }
}
