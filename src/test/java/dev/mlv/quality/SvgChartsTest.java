package dev.mlv.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SvgChartsTest {
  private static List<String> ticks(String svg) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("class=\"tick\">(\\d+)<").matcher(svg);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void theAxisOfASmallCountHasWholeDistinctTicks() {
    List<SvgCharts.Series> one = List.of(new SvgCharts.Series("failed", "#c00", List.of(1L)));
    assertThat(ticks(SvgCharts.lines("violations", List.of("run 1"), one, 120)))
        .containsExactly("0", "1", "2");
    assertThat(
            ticks(SvgCharts.stackedColumns("rows", List.of("run 1"), List.of("t"), one, null, 120)))
        .containsExactly("0", "1", "2");
    List<SvgCharts.Series> four = List.of(new SvgCharts.Series("rows", "#0a0", List.of(4L)));
    assertThat(ticks(SvgCharts.lines("rows", List.of("run 1"), four, 120)))
        .containsExactly("0", "2", "4");
  }

  /** Found by QA: a duration chart's ticks were its maximum and half of it, 0, 4348, 8696. */
  @Test
  void theAxisTopIsARoundNumber() {
    List<SvgCharts.Series> ms = List.of(new SvgCharts.Series("ms", "#06c", List.of(8696L, 120L)));
    assertThat(ticks(SvgCharts.lines("duration", List.of("run 1", "run 2"), ms, 120)))
        .containsExactly("0", "5000", "10000");
    assertThat(SvgCharts.niceTop(28006)).isEqualTo(40000);
    assertThat(SvgCharts.niceTop(7)).isEqualTo(10);
    assertThat(SvgCharts.niceTop(10)).isEqualTo(10);
    assertThat(SvgCharts.niceTop(11)).isEqualTo(20);
    assertThat(SvgCharts.niceTop(3)).isEqualTo(4);
  }

  /**
   * Found by QA: with as many rows dropped as violations the two lines were one, and the legend
   * stood over the top point of the last run.
   */
  @Test
  void equalSeriesBothShowAndTheLegendStaysAboveThePlot() {
    List<SvgCharts.Series> equal =
        List.of(
            new SvgCharts.Series("violations", "#c00", List.of(2L, 4L)),
            new SvgCharts.Series("dropped", "#06c", List.of(2L, 4L)));
    String svg = SvgCharts.lines("violations", List.of("run 1", "run 2"), equal, 140);
    Matcher widths = Pattern.compile("<polyline [^>]*stroke-width=\"(\\d+)\"").matcher(svg);
    List<Integer> w = new ArrayList<>();
    while (widths.find()) {
      w.add(Integer.parseInt(widths.group(1)));
    }
    assertThat(w).hasSize(2);
    assertThat(w.get(0)).isGreaterThan(w.get(1)); // the later line shows inside the earlier
    // Every dot's top is below the legend's boxes and text (y 2 to 11).
    Matcher dots =
        Pattern.compile("<circle cx=\"[\\d.]+\" cy=\"([\\d.]+)\" r=\"([\\d.]+)\"").matcher(svg);
    int n = 0;
    while (dots.find()) {
      n++;
      assertThat(Double.parseDouble(dots.group(1)) - Double.parseDouble(dots.group(2)))
          .isGreaterThan(12);
    }
    assertThat(n).isEqualTo(4);
  }

  /**
   * Found by QA: with many runs the last x label of "Runs over time" was centred under a column a
   * few pixels from the right edge and cut to "12-07 08:2". Every label's extent, at the widest
   * advance of an 11px character, must lie inside the viewBox.
   */
  @Test
  void theLastXLabelOfAChartWithManyRunsStaysInsideTheChart() {
    List<String> labels = new ArrayList<>();
    List<String> tips = new ArrayList<>();
    List<Long> values = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      labels.add(String.format("12-07 08:%02d", i));
      tips.add("run " + i);
      values.add((long) i);
    }
    List<SvgCharts.Series> rows = List.of(new SvgCharts.Series("written", "#0a0", values));
    for (String svg :
        List.of(
            SvgCharts.stackedColumns("rows", labels, tips, rows, null, 240),
            SvgCharts.lines("rows", labels, rows, 200))) {
      Matcher m =
          Pattern.compile(
                  "<text x=\"([\\d.]+)\" y=\"\\d+\" text-anchor=\"(\\w+)\""
                      + " class=\"tick\">(12-07 [^<]+)</text>")
              .matcher(svg);
      int n = 0;
      String last = null;
      while (m.find()) {
        n++;
        last = m.group(3);
        double x = Double.parseDouble(m.group(1));
        double w = m.group(3).length() * SvgCharts.CHAR_WIDTH;
        double left =
            switch (m.group(2)) {
              case "start" -> x;
              case "end" -> x - w;
              default -> x - w / 2;
            };
        assertThat(left).as(m.group()).isGreaterThanOrEqualTo(0);
        assertThat(left + w).as(m.group()).isLessThanOrEqualTo(SvgCharts.WIDTH);
      }
      assertThat(n).isGreaterThan(5);
      assertThat(last).isEqualTo("12-07 08:24"); // the last run is labelled
    }
  }
}
