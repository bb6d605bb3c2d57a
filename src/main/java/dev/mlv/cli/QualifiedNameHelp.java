package dev.mlv.cli;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.Layout;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Usage help that never wraps a line inside a dotted name ({@code silver.orders}, {@code mlv.yml},
 * {@code e.g.}).
 *
 * <p>picocli wraps with the JDK's line {@link java.text.BreakIterator}, which allows a break after
 * any '.' before a letter. Such a dot is swapped for a letter-like stand-in while picocli lays the
 * text out, and swapped back in the finished text, the same trick picocli plays on '-'.
 */
final class QualifiedNameHelp extends Help {
  /** A letter (so no break around it) one column wide that help text never contains. */
  static final char STAND_IN = '\u01c2';

  private static final Pattern INNER_DOT =
      Pattern.compile("(?<=[\\p{L}\\p{N}_])\\.(?=[\\p{L}\\p{N}_])");

  static final CommandLine.IHelpFactory FACTORY = QualifiedNameHelp::new;

  private QualifiedNameHelp(CommandSpec spec, ColorScheme scheme) {
    super(spec, scheme);
  }

  @Override
  public String description(Object... params) {
    return paragraphs(commandSpec().usageMessage().description(), params);
  }

  @Override
  public String header(Object... params) {
    return paragraphs(commandSpec().usageMessage().header(), params);
  }

  @Override
  public String footer(Object... params) {
    return paragraphs(commandSpec().usageMessage().footer(), params);
  }

  private String paragraphs(String[] lines, Object... params) {
    String[] held = new String[lines.length];
    for (int i = 0; i < lines.length; i++) {
      held[i] = hold(lines[i]);
    }
    CommandLine.Model.UsageMessageSpec usage = commandSpec().usageMessage();
    return release(
        join(
                ansi(),
                usage.width(),
                usage.adjustLineBreaksForWideCJKCharacters(),
                held,
                new StringBuilder(),
                params)
            .toString());
  }

  @Override
  public Layout createDefaultLayout(
      List<OptionSpec> options, List<PositionalParamSpec> positionals, ColorScheme scheme) {
    Layout layout = super.createDefaultLayout(options, positionals, scheme);
    return new Layout(
        layout.colorScheme(),
        Table.like(layout.textTable(), layout.colorScheme()),
        layout.optionRenderer(),
        layout.parameterRenderer());
  }

  @Override
  public TextTable createTextTable(Map<?, ?> map) {
    return Table.like(super.createTextTable(map), colorScheme());
  }

  static String hold(String s) {
    return s == null ? null : INNER_DOT.matcher(s).replaceAll(String.valueOf(STAND_IN));
  }

  static String release(String s) {
    return s.replace(STAND_IN, '.');
  }

  /** A table that holds the dots of each value it is given and releases them when printed. */
  private static final class Table extends TextTable {
    private Table(ColorScheme scheme, Column[] columns) {
      super(scheme, columns);
    }

    /** An empty table with the columns and wrapping of {@code table}, which picocli made. */
    static TextTable like(TextTable table, ColorScheme scheme) {
      Table copy = new Table(scheme, table.columns());
      copy.indentWrappedLines = table.indentWrappedLines;
      copy.setAdjustLineBreaksForWideCJKCharacters(table.isAdjustLineBreaksForWideCJKCharacters());
      return copy;
    }

    @Override
    public Cell putValue(int row, int col, Text value) {
      return super.putValue(row, col, value == null ? null : held(value));
    }

    @Override
    public StringBuilder toString(StringBuilder text) {
      return text.append(release(super.toString(new StringBuilder()).toString()));
    }

    /** The value with each inner dot swapped, keeping the styles of the text around it. */
    private static Text held(Text value) {
      String plain = value.plainString();
      var dots = INNER_DOT.matcher(plain);
      if (!dots.find()) {
        return value;
      }
      Text result = value.substring(0, 0);
      int from = 0;
      do {
        result =
            result.concat(value.substring(from, dots.start())).concat(String.valueOf(STAND_IN));
        from = dots.end();
      } while (dots.find());
      return result.concat(value.substring(from, plain.length()));
    }
  }
}
