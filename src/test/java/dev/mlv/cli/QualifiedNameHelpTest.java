package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** Help text wraps between words, never inside a dotted name such as silver.orders or mlv.yml. */
class QualifiedNameHelpTest {
  private static final Pattern DOTTED = Pattern.compile("\\w+(?:\\.\\w+)+");

  @Command(
      name = "demo",
      description = "Refreshes the view in the schema named by a silver.orders prefix.",
      footer = "The footer, whose first line is long enough, gold.by_customer too.")
  static class Demo {
    @Option(names = "--view", description = "The view to explain, e.g. @|bold gold.by_customer|@.")
    String view;
  }

  @Test
  void aDottedNameMovesToTheNextLineWhole() {
    CommandLine cl = new CommandLine(new Demo());
    cl.setHelpFactory(QualifiedNameHelp.FACTORY);
    // At 55 columns the JDK's line breaker would end the description's first line with "silver."
    // and the footer's with "gold.".
    cl.setUsageHelpWidth(55);
    String help = cl.getUsageMessage(Ansi.OFF);

    assertThat(help)
        .contains("Refreshes the view in the schema named by a\nsilver.orders prefix.")
        .contains("The footer, whose first line is long enough,\ngold.by_customer too.")
        .contains("e.g.\n                        gold.by_customer.")
        .doesNotContain(String.valueOf(QualifiedNameHelp.STAND_IN));
  }

  @Test
  void aStyledValueKeepsItsStylesAroundTheDots() {
    CommandLine cl = new CommandLine(new Demo());
    cl.setHelpFactory(QualifiedNameHelp.FACTORY);
    String help = cl.getUsageMessage(Ansi.ON);

    assertThat(help).contains("e.g. " + Ansi.ON.string("@|bold gold.by_customer|@") + ".");
  }

  @Test
  void noCommandsHelpSplitsADottedNameAtAnyWidth() {
    CommandLine root =
        Main.createCommandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
    List<String> split = new ArrayList<>();
    List<CommandLine> all = new ArrayList<>();
    all.add(root);
    all.addAll(root.getSubcommands().values());
    for (CommandLine cmd : all) {
      Set<String> names = dottedNames(cmd.getCommandSpec());
      for (int width = 55; width <= 120; width++) {
        cmd.setUsageHelpWidth(width);
        String help = cmd.getUsageMessage(Ansi.OFF);
        for (String name : names) {
          if (!help.contains(name)) {
            split.add(cmd.getCommandName() + " at " + width + ": " + name);
          }
        }
      }
    }
    assertThat(split).isEmpty();
  }

  /** The dotted names the help texts of a command hold, as written. */
  private static Set<String> dottedNames(CommandSpec spec) {
    List<String> texts = new ArrayList<>();
    texts.addAll(Arrays.asList(spec.usageMessage().description()));
    texts.addAll(Arrays.asList(spec.usageMessage().header()));
    texts.addAll(Arrays.asList(spec.usageMessage().footer()));
    Stream.concat(spec.options().stream(), spec.positionalParameters().stream())
        .map(ArgSpec::description)
        .forEach(d -> texts.addAll(Arrays.asList(d)));
    Set<String> names = new LinkedHashSet<>();
    for (String text : texts) {
      Matcher m = DOTTED.matcher(text);
      while (m.find()) {
        names.add(m.group());
      }
    }
    return names;
  }
}
