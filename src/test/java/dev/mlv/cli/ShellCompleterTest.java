package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jline.reader.Candidate;
import org.jline.reader.Parser.ParseContext;
import org.jline.reader.impl.DefaultParser;
import org.junit.jupiter.api.Test;

/** Completion of view selectors in the shell, without a project or Spark behind it. */
class ShellCompleterTest {

  private static ShellCompleter completer() {
    var root =
        Main.createCommandLine(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false)
            .getCommandSpec();
    ShellCompleter c = new ShellCompleter(root, Set.of());
    c.tables(Map.of("silver.orders", List.of(), "bronze.orders", List.of("id")));
    c.tags(List.of("tag:pii", "tag:daily"));
    return c;
  }

  private static List<String> complete(String line) {
    var parsed = new DefaultParser().parse(line, line.length(), ParseContext.COMPLETE);
    List<Candidate> candidates = new ArrayList<>();
    completer().complete(null, parsed, candidates);
    return ShellCompleter.values(candidates);
  }

  @Test
  void aNameAfterAPlusKeepsThePlus() {
    assertThat(complete("refresh +sil")).contains("+silver.orders").doesNotContain("silver.orders");
    assertThat(complete("plan silver.orders +")).contains("+silver.orders", "+bronze.orders");
  }

  @Test
  void tagsAfterTagColonWithOrWithoutAPlus() {
    assertThat(complete("refresh tag:")).containsExactly("tag:daily", "tag:pii");
    assertThat(complete("lineage +tag:p")).containsExactly("+tag:daily", "+tag:pii");
  }

  @Test
  void plainNamesAsBefore() {
    assertThat(complete("refresh sil")).contains("silver.orders", "bronze.orders");
    assertThat(complete("refresh ")).doesNotContain("tag:pii");
  }
}
