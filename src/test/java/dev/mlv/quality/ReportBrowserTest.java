package dev.mlv.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Opens the HTML report of a known history in headless Chromium: the page's own script must have
 * found every chart and the lineage and recorded no error, and the browser saves a screenshot to
 * {@code target/report-browser/report.png}. Skipped where no Chromium is installed ({@code .ci/run}
 * installs Debian's {@code chromium}).
 */
class ReportBrowserTest {
  private static final Path OUT = Path.of("target/report-browser");
  private static Optional<Path> chromium;
  private static Path html;

  @BeforeAll
  static void writeReport() throws IOException {
    chromium = findChromium();
    Files.createDirectories(OUT);
    html = OUT.resolve("report.html").toAbsolutePath();
    Files.writeString(
        html, HtmlReportRenderer.render(KnownHistory.report()), StandardCharsets.UTF_8);
  }

  private static Optional<Path> findChromium() {
    String override = System.getenv("MLV_CHROMIUM");
    if (override != null && !override.isBlank()) {
      return Optional.of(Path.of(override));
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  private static void assumeChromium() {
    assumeTrue(
        chromium.isPresent(),
        "Chromium is not installed (no chromium, chromium-browser or google-chrome on PATH, and"
            + " MLV_CHROMIUM unset): the browser test of the HTML report is skipped. Install it"
            + " with 'apt-get install -y chromium'; .ci/run does.");
  }

  /** Runs headless Chromium with a fresh profile; returns stdout, with stderr kept in a file. */
  private static String chromium(String name, String... args) throws Exception {
    return chromium(html, name, args);
  }

  private static String chromium(Path page, String name, String... args) throws Exception {
    Path profile = Files.createTempDirectory("mlv-chromium");
    List<String> cmd = new ArrayList<>();
    cmd.add(chromium.get().toString());
    cmd.addAll(
        List.of(
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--disable-extensions",
            "--disable-dev-shm-usage",
            "--user-data-dir=" + profile,
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=3000"));
    cmd.addAll(List.of(args));
    cmd.add(page.toUri().toString());
    Path stdout = OUT.resolve(name + ".out");
    Path stderr = OUT.resolve(name + ".err");
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    try {
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished within 90 s").isTrue();
    } finally {
      p.destroyForcibly();
      try (Stream<Path> walk = Files.walk(profile)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
    String err = Files.readString(stderr, StandardCharsets.UTF_8);
    // Chromium logs page console errors and uncaught exceptions as CONSOLE lines.
    assertThat(err).as("console errors in " + stderr).doesNotContain("Uncaught");
    return Files.readString(stdout, StandardCharsets.UTF_8);
  }

  private static String attribute(String tag, String name) {
    Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(tag);
    return m.find() ? m.group(1) : null;
  }

  @Test
  void chartsAndLineageRenderWithoutScriptErrors() throws Exception {
    assumeChromium();
    String dom = chromium("dump-dom", "--dump-dom");

    Matcher m = Pattern.compile("<div id=\"mlv-report-check\"[^>]*>").matcher(dom);
    assertThat(m.find()).as("the check marker in the rendered DOM").isTrue();
    String marker = m.group();
    assertThat(attribute(marker, "data-errors")).as(marker).isNull();
    assertThat(attribute(marker, "data-status")).as(marker).isEqualTo("ok");
    assertThat(attribute(marker, "data-charts")).as(marker).isEqualTo("7");
    assertThat(attribute(marker, "data-lineage-nodes")).as(marker).isEqualTo("4");
    assertThat(dom).contains("<rect", "<polyline", "marker-end=\"url(#arrow)\"");
  }

  /** The check marker's attributes, as the page's script set them after rendering. */
  private static String marker(String dom) {
    Matcher m = Pattern.compile("<div id=\"mlv-report-check\"[^>]*>").matcher(dom);
    assertThat(m.find()).as("the check marker in the rendered DOM").isTrue();
    return m.group();
  }

  @Test
  void aDeepLineageScrollsInsteadOfShrinkingItsLabels() throws Exception {
    assumeChromium();
    QualityReport known = KnownHistory.report();
    List<QualityReport.LineageNode> chain = new ArrayList<>();
    List<QualityReport.LineageEdge> edges = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      chain.add(
          new QualityReport.LineageNode(
              "ws.lh.silver.a_rather_long_view_name_" + i, "view", i, "Completed"));
      if (i > 0) {
        edges.add(new QualityReport.LineageEdge(chain.get(i - 1).name(), chain.get(i).name()));
      }
    }
    Path wide = OUT.resolve("wide.html").toAbsolutePath();
    Files.writeString(
        wide,
        HtmlReportRenderer.render(
            new QualityReport(
                known.project(),
                known.generatedAt(),
                known.days(),
                known.runs(),
                known.views(),
                chain,
                edges)),
        StandardCharsets.UTF_8);
    String dom = chromium(wide, "wide", "--dump-dom", "--window-size=1180,1500");

    String marker = marker(dom);
    assertThat(attribute(marker, "data-lineage-nodes")).as(marker).isEqualTo("12");
    // Drawn at its own size (1.00), not squeezed to the page's width as it was (about 0.35).
    assertThat(attribute(marker, "data-lineage-scale")).as(marker).isEqualTo("1.00");
    // The end of a long name tells the nodes apart, and its schema says where they live.
    assertThat(dom)
        .contains("ws.lh.silver.a_rather…_name_11</text>")
        .doesNotContain("a_rather_long_v…");
  }

  /**
   * Found by QA: with many runs the last x label of "Runs over time" was cut to "12-07 08:2". The
   * page's script measures every chart text against its chart's viewBox in the browser's own
   * layout.
   */
  @Test
  void noChartTextIsCutOffWithManyRuns() throws Exception {
    assumeChromium();
    QualityReport known = KnownHistory.report();
    List<QualityReport.RunPoint> runs = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      runs.add(
          new QualityReport.RunPoint(
              "run-" + i,
              KnownHistory.NOW.minus(java.time.Duration.ofMinutes(5L * (25 - i))),
              "Completed",
              2,
              10 + i,
              i % 3,
              i % 4,
              1000,
              0));
    }
    Path many = OUT.resolve("many-runs.html").toAbsolutePath();
    Files.writeString(
        many,
        HtmlReportRenderer.render(
            new QualityReport(
                known.project(),
                known.generatedAt(),
                known.days(),
                runs,
                known.views(),
                known.lineage(),
                known.edges())),
        StandardCharsets.UTF_8);
    String dom = chromium(many, "many-runs", "--dump-dom", "--window-size=1180,1500");

    String marker = marker(dom);
    assertThat(attribute(marker, "data-status")).as(marker).isEqualTo("ok");
    assertThat(attribute(marker, "data-clipped-text")).as(marker).isNull();
    // And in the known report too.
    assertThat(attribute(marker(chromium("dump-dom-clip", "--dump-dom")), "data-clipped-text"))
        .isNull();
  }

  @Test
  void screenshot() throws Exception {
    assumeChromium();
    Path png = OUT.resolve("report.png").toAbsolutePath();
    Files.deleteIfExists(png);
    chromium("screenshot", "--screenshot=" + png, "--window-size=1180,1500", "--hide-scrollbars");

    assertThat(png).exists();
    byte[] bytes = Files.readAllBytes(png);
    assertThat(bytes.length).as("a screenshot with content").isGreaterThan(20_000);
    assertThat(new String(bytes, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
  }
}
