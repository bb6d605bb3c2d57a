package dev.mlv.quality;

import java.util.List;
import java.util.Locale;

/**
 * Draws the report's charts as inline SVG: stacked columns, horizontal bars and lines. Charts are
 * drawn here rather than by a JavaScript library so the report needs no network and shows even with
 * scripts off. Every mark carries a {@code <title>} with its exact numbers as the tooltip.
 */
final class SvgCharts {
  static final int WIDTH = 760;
  private static final int LEFT = 56;
  private static final int RIGHT = 16;

  /** Room above the plot for the legend (y 2 to 11), so the top point's dot never meets it. */
  private static final int TOP = 22;

  private static final int BOTTOM = 34;

  private SvgCharts() {}

  /**
   * A named series of values, one per x position, in one colour; in {@link #lines} a value may be
   * null (no point).
   */
  record Series(String name, String color, List<Long> values) {}

  /**
   * Stacked columns, one per x label; {@code marks} (may be null) colours a small square under each
   * column, e.g. a run's status.
   */
  static String stackedColumns(
      String label,
      List<String> xLabels,
      List<String> tooltips,
      List<Series> series,
      List<String> marks,
      int height) {
    long max = 1;
    for (int i = 0; i < xLabels.size(); i++) {
      long sum = 0;
      for (Series s : series) {
        sum += s.values().get(i);
      }
      max = Math.max(max, sum);
    }
    StringBuilder svg = open(label, height);
    double plotH = height - TOP - BOTTOM;
    max = niceTop(max);
    axis(svg, max, height);
    int n = Math.max(1, xLabels.size());
    double slot = (double) (WIDTH - LEFT - RIGHT) / n;
    double bar = Math.max(2, Math.min(40, slot * 0.7));
    for (int i = 0; i < xLabels.size(); i++) {
      double x = LEFT + slot * i + (slot - bar) / 2;
      double y = TOP + plotH;
      StringBuilder tip = new StringBuilder(tooltips.get(i));
      for (Series s : series) {
        long v = s.values().get(i);
        tip.append('\n').append(s.name()).append(": ").append(v);
      }
      svg.append("<g class=\"col\"><title>").append(Html.esc(tip.toString())).append("</title>");
      for (Series s : series) {
        long v = s.values().get(i);
        double h = plotH * v / max;
        y -= h;
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>",
                x,
                y,
                bar,
                h,
                s.color()));
      }
      if (marks != null) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"mark\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"6\" fill=\"%s\"/>",
                x,
                TOP + plotH + 3,
                bar,
                marks.get(i)));
      }
      svg.append("</g>");
      xLabel(svg, xLabels, i, LEFT + slot * i + slot / 2, height, n);
    }
    legend(svg, series);
    return svg.append("</svg>").toString();
  }

  /**
   * Lines over x labels; a single point is drawn as a dot. Each series is drawn wider and its dots
   * larger than the one after it, so where two series have the same values (as many violations as
   * rows dropped) the later one shows inside the earlier instead of hiding it. A null value is no
   * point at all (nothing was measured, e.g. the view was skipped): the line breaks there rather
   * than dropping to a zero that was never counted.
   */
  static String lines(String label, List<String> xLabels, List<Series> series, int height) {
    long max = 1;
    for (Series s : series) {
      for (Long v : s.values()) {
        if (v != null) {
          max = Math.max(max, v);
        }
      }
    }
    StringBuilder svg = open(label, height);
    max = niceTop(max);
    axis(svg, max, height);
    double plotH = height - TOP - BOTTOM;
    int n = Math.max(1, xLabels.size());
    double step = n == 1 ? 0 : (double) (WIDTH - LEFT - RIGHT - 60) / (n - 1);
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      int under = series.size() - 1 - k; // series drawn after this one
      List<StringBuilder> runs = new java.util.ArrayList<>();
      StringBuilder points = null;
      StringBuilder dots = new StringBuilder();
      for (int i = 0; i < s.values().size(); i++) {
        if (s.values().get(i) == null) {
          points = null;
          continue;
        }
        if (points == null) {
          points = new StringBuilder();
          runs.add(points);
        }
        double x = LEFT + 30 + step * i;
        double y = TOP + plotH - plotH * s.values().get(i) / max;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        dots.append(
            String.format(
                Locale.ROOT,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"><title>%s</title></circle>",
                x,
                y,
                3 + 1.5 * under,
                s.color(),
                Html.esc(s.name() + " " + xLabels.get(i) + ": " + s.values().get(i))));
      }
      for (StringBuilder run : runs) {
        svg.append("<polyline fill=\"none\" stroke-width=\"")
            .append(2 + 3 * under)
            .append("\" stroke=\"")
            .append(s.color())
            .append("\" points=\"")
            .append(run.toString().strip())
            .append("\"/>");
      }
      svg.append(dots);
    }
    for (int i = 0; i < xLabels.size(); i++) {
      xLabel(svg, xLabels, i, LEFT + 30 + step * i, height, n);
    }
    legend(svg, series);
    return svg.append("</svg>").toString();
  }

  /** Horizontal bars, one row per label, each row one bar per series side by side. */
  static String bars(String label, List<String> labels, List<Series> series) {
    int rowH = 14 * series.size() + 10;
    int height = TOP + rowH * Math.max(1, labels.size()) + 24;
    long max = 1;
    for (Series s : series) {
      for (long v : s.values()) {
        max = Math.max(max, v);
      }
    }
    int textW = 230;
    double plotW = WIDTH - textW - RIGHT - 50;
    StringBuilder svg = open(label, height);
    for (int i = 0; i < labels.size(); i++) {
      double y0 = TOP + rowH * i;
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"lbl\">%s</text>",
              textW - 8,
              y0 + rowH / 2.0 + 2,
              Html.esc(shorten(labels.get(i), 34))));
      for (int k = 0; k < series.size(); k++) {
        Series s = series.get(k);
        long v = s.values().get(i);
        double w = plotW * v / max;
        double y = y0 + 4 + 14 * k;
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"12\" fill=\"%s\"><title>%s</title></rect>"
                    + "<text x=\"%.1f\" y=\"%.1f\" class=\"val\">%d</text>",
                textW,
                y,
                Math.max(w, 0.5),
                s.color(),
                Html.esc(labels.get(i) + " " + s.name() + ": " + v),
                textW + w + 4,
                y + 10,
                v));
      }
    }
    legend(svg, series);
    return svg.append("</svg>").toString();
  }

  private static StringBuilder open(String label, int height) {
    return new StringBuilder(
        String.format(
            Locale.ROOT,
            "<svg class=\"chart\" role=\"img\" aria-label=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\""
                + " height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">",
            Html.esc(label),
            WIDTH,
            height,
            WIDTH,
            height));
  }

  /**
   * The axis top for values up to {@code max}: 2, 4 or 10 times a power of ten, so the ticks at its
   * half and top read round (0, 5000, 10000 for 8696, not 0, 4348, 8696) and the middle one is a
   * whole number (0, 1, 2 for 1).
   */
  static long niceTop(long max) {
    long unit = 1;
    while (unit * 10 < max) {
      unit *= 10;
    }
    // unit * 10 >= max, so one of these is the top.
    return unit * 2 >= max ? unit * 2 : unit * 4 >= max ? unit * 4 : unit * 10;
  }

  private static void axis(StringBuilder svg, long max, int height) {
    double plotH = height - TOP - BOTTOM;
    for (int k = 0; k <= 2; k++) {
      double y = TOP + plotH - plotH * k / 2;
      long v = Math.round(max * k / 2.0);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%d</text>",
              LEFT,
              y,
              WIDTH - RIGHT,
              y,
              LEFT - 6,
              y + 4,
              v));
    }
  }

  /**
   * Widest advance of one character of an 11px tick label (digits, '-', ':' and letters of the
   * system sans-serif fonts measure 5.5 to 6.5px): a safe bound for keeping a label in the chart.
   */
  static final double CHAR_WIDTH = 7;

  /**
   * Labels at most ~12 x positions so they never overlap. A label is centred under its mark unless
   * that would put it past an edge of the chart (the last column of a run chart with many runs sits
   * a few pixels from the right edge, and its centred "12-07 08:25" was cut to "12-07 08:2"): then
   * it ends at the right edge, or starts at the left one.
   */
  private static void xLabel(
      StringBuilder svg, List<String> labels, int i, double x, int h, int n) {
    int every = Math.max(1, (int) Math.ceil(n / 12.0));
    if (i % every != 0) {
      return;
    }
    String text = labels.get(i);
    double half = text.length() * CHAR_WIDTH / 2;
    String anchor = "middle";
    if (x + half > WIDTH - EDGE) {
      anchor = "end";
      x = WIDTH - EDGE;
    } else if (x - half < EDGE) {
      anchor = "start";
      x = EDGE;
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" class=\"tick\">%s</text>",
            x,
            h - 12,
            anchor,
            Html.esc(text)));
  }

  /** Space kept between an x label and the chart's left or right edge. */
  private static final int EDGE = 2;

  private static void legend(StringBuilder svg, List<Series> series) {
    double x = WIDTH - RIGHT;
    for (int k = series.size() - 1; k >= 0; k--) {
      Series s = series.get(k);
      x -= 14 + 7 * s.name().length();
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"2\" width=\"9\" height=\"9\" fill=\"%s\"/>"
                  + "<text x=\"%.1f\" y=\"10\" class=\"tick\">%s</text>",
              x,
              s.color(),
              x + 12,
              Html.esc(s.name())));
    }
  }

  static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}
