package dev.mlv.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.lineage.NameResolver;
import dev.mlv.lineage.ObjectId;
import dev.mlv.refresh.Strategy;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The live DAG-walk view, driven with a fake clock and terminal width. */
class ProgressTest {
  static final NameResolver NAMES = new NameResolver("ws", "lh", "dbo", Map.of());
  static final ObjectId SILVER = new ObjectId("ws", "lh", "silver", "orders_clean");
  static final ObjectId GOLD = new ObjectId("ws", "lh", "gold", "daily_revenue_by_customer");
  static final long S = 1_000_000_000L;

  static ViewRun completed(ObjectId id, long rows, long ms) {
    return new ViewRun(
        id, ViewStatus.Completed, "full", "NEW_VIEW", rows, 0, Map.of(), ms, Optional.empty());
  }

  @Test
  void oneFileAndOneRowAreSingular() {
    ViewRun one =
        new ViewRun(
            SILVER,
            ViewStatus.Completed,
            "incremental",
            "NEW_FILES",
            1,
            0,
            Map.of(),
            5,
            Optional.empty(),
            Optional.of(new dev.mlv.refresh.FileCounts(1, 0)));
    assertThat(ProgressView.line(one, "silver.orders_clean", false))
        .isEqualTo("  completed silver.orders_clean (1 file, 1 row, 5 ms)");
  }

  @Test
  void showsRunningViewsAndASummaryCutToTheWidth() {
    ProgressView view = new ProgressView(NAMES, false, 0);
    view.started(SILVER, new Strategy.Full("NEW_VIEW", ""), 0);
    view.started(GOLD, new Strategy.Incremental("APPEND_ONLY", ""), S);
    assertThat(view.live(3 * S, 200, 20))
        .containsExactly(
            "  running   silver.orders_clean (full, 3.0 s)",
            "  running   gold.daily_revenue_by_customer (incremental, 2.0 s)",
            "  0 done, 2 running, 0 failed, 0 skipped | 0 rows | 3.0 s");
    assertThat(view.finished(completed(SILVER, 1234, 3500), 4 * S))
        .isEqualTo("  completed silver.orders_clean (1234 rows, 3500 ms)");
    assertThat(view.live(5 * S, 30, 20))
        .containsExactly("  running   gold.daily_revenu~", "  1 done, 1 running, 0 failed~");
    ViewRun failed =
        new ViewRun(
            GOLD,
            ViewStatus.Failed,
            "incremental",
            "",
            0,
            0,
            Map.of(),
            10,
            Optional.of("DIVIDE_BY_ZERO\nat row 3"));
    assertThat(view.finished(failed, 6 * S))
        .isEqualTo("  failed    gold.daily_revenue_by_customer: DIVIDE_BY_ZERO");
    assertThat(view.live(6 * S, 200, 20))
        .containsExactly("  1 done, 0 running, 1 failed, 0 skipped | 1234 rows | 6.0 s");
  }

  @Test
  void manyRunningViewsFoldIntoOneLineWhenTheScreenIsShort() {
    ProgressView view = new ProgressView(NAMES, false, 0);
    for (int i = 0; i < 6; i++) {
      view.started(new ObjectId("ws", "lh", "silver", "v" + i), new Strategy.Full("X", ""), 0);
    }
    assertThat(view.live(S, 80, 4))
        .containsExactly(
            "  running   silver.v0 (full, 1.0 s)",
            "  running   silver.v1 (full, 1.0 s)",
            "  ... and 4 more running",
            "  0 done, 6 running, 0 failed, 0 skipped | 0 rows | 1.0 s");
  }

  @Test
  void redrawsInPlaceAndLeavesOneLinePerFinishedView() {
    StringWriter sink = new StringWriter();
    AtomicLong clock = new AtomicLong();
    LiveProgress live =
        new LiveProgress(
            new PrintWriter(sink),
            new ProgressView(NAMES, true, 0),
            clock::get,
            () -> 100,
            () -> 40,
            () -> {});
    live.viewStarted(SILVER, new Strategy.Full("NEW_VIEW", ""));
    clock.set(2 * S);
    live.redraw();
    live.viewFinished(completed(SILVER, 3, 2000));
    live.close();
    String out = sink.toString();
    // first frame: 2 lines; each later frame moves up over the previous one and clears it
    assertThat(out).startsWith("\r\033[J");
    assertThat(out).contains("\r\033[2A\033[J");
    assertThat(out).contains("\033[32mcompleted\033[0m silver.orders_clean (3 rows, 2000 ms)\n");
    assertThat(out).contains("\033[36mrunning  \033[0m silver.orders_clean (full, 2.0 s)");
    // closing erases the live lines (the one summary line) and leaves the finished line
    assertThat(out).endsWith("\r\033[1A\033[J");
  }

  @Test
  void colourFollowsTheFlagAndNoColor() {
    ProgressOptions o = new ProgressOptions();
    assertThat(o.colored(true, null)).isTrue();
    assertThat(o.colored(true, "1")).isFalse();
    assertThat(o.colored(true, "")).isTrue();
    assertThat(o.colored(false, null)).isFalse();
    o.color = ProgressOptions.ColorMode.always;
    assertThat(o.colored(false, "1")).isTrue();
    o.color = ProgressOptions.ColorMode.never;
    assertThat(o.colored(true, null)).isFalse();
    ProgressOptions off = new ProgressOptions();
    off.noColor = true;
    assertThat(off.colored(true, null)).isFalse();
  }

  @Test
  void notATerminalMeansOneLinePerEventWithoutColour() {
    CliRun help = CliRun.of("refresh", "--help");
    assertThat(help.out()).contains("--no-progress").contains("--color=WHEN");
    assertThat(CliRun.of("refresh", "--color", "sometimes").exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  /** --debug: the stack trace of what failed a view, which the run's report keeps as text only. */
  @Test
  void withDebugTheExceptionBehindAFailedViewIsPrintedWithItsStackTrace() {
    StringWriter sink = new StringWriter();
    PrintWriter err = new PrintWriter(sink);
    RunOutput.Progress quiet = RunOutput.withStackTraces(RunOutput.quiet(err), err, NAMES);
    quiet.viewFailed(
        SILVER,
        new dev.mlv.diag.MlvException(
            "REFRESH_FAILED", "refresh failed", new IllegalStateException("[DELTA_X] broken")));
    assertThat(sink.toString())
        .startsWith(
            "debug: silver.orders_clean failed with java.lang.IllegalStateException: [DELTA_X]"
                + " broken\n\tat dev.mlv.cli.ProgressTest.");
    // mlv's own error without an engine exception behind it: its diagnostic says all there is.
    sink.getBuffer().setLength(0);
    quiet.viewFailed(SILVER, new dev.mlv.diag.MlvException("SOURCE_MISSING", "gone"));
    assertThat(sink.toString()).isEmpty();

    // With progress shown, the trace is one of its messages, so a live view draws it above itself.
    StringBuilder messages = new StringBuilder();
    RunOutput.Progress shown =
        RunOutput.withStackTraces(
            new RunOutput.Progress() {
              @Override
              public void message(String text) {
                messages.append(text);
              }
            },
            err,
            NAMES);
    shown.viewFailed(GOLD, new ArithmeticException("x"));
    assertThat(messages.toString())
        .startsWith(
            "debug: gold.daily_revenue_by_customer failed with java.lang.ArithmeticException: x\n"
                + "\tat ");
    assertThat(sink.toString()).isEmpty();
  }
}
