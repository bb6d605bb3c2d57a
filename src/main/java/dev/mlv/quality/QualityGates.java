package dev.mlv.quality;

import dev.mlv.lineage.ObjectId;
import dev.mlv.project.QualitySettings;
import dev.mlv.refresh.RunReport;
import dev.mlv.refresh.ViewRun;
import dev.mlv.refresh.ViewStatus;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Checks a finished run against the views' quality gates. A gate is exceeded when a view drops more
 * rows than {@code max_dropped_rows}, or a larger share of the rows it read than {@code
 * max_dropped_ratio}; reaching the limit exactly passes.
 */
public final class QualityGates {
  private QualityGates() {}

  public static List<GateBreach> check(
      RunReport run, Function<ObjectId, QualitySettings> settings) {
    List<GateBreach> out = new ArrayList<>();
    for (ViewRun v : run.views()) {
      if (v.status() != ViewStatus.Completed) {
        continue;
      }
      QualitySettings q = settings.apply(v.id());
      if (q == null || !v.dropsMeasured()) {
        continue; // unknown drops are reported by unchecked(), never passed as 0
      }
      long rowsIn = v.rowsWritten() + v.rowsDropped();
      Map<String, Long> violated = new LinkedHashMap<>();
      v.violations()
          .forEach(
              (k, n) -> {
                if (n > 0) {
                  violated.put(k, n);
                }
              });
      if (q.maxDroppedRows().isPresent() && v.rowsDropped() > q.maxDroppedRows().getAsLong()) {
        out.add(
            new GateBreach(
                v.id(),
                GateBreach.Gate.MAX_DROPPED_ROWS,
                v.rowsDropped(),
                rowsIn,
                q.maxDroppedRows().getAsLong(),
                violated));
      }
      // Compared as dropped > limit * rowsIn, so a ratio at the limit is not lost to rounding.
      if (q.maxDroppedRatio().isPresent()
          && rowsIn > 0
          && BigDecimal.valueOf(v.rowsDropped())
                  .compareTo(
                      BigDecimal.valueOf(q.maxDroppedRatio().getAsDouble())
                          .multiply(BigDecimal.valueOf(rowsIn)))
              > 0) {
        out.add(
            new GateBreach(
                v.id(),
                GateBreach.Gate.MAX_DROPPED_RATIO,
                v.rowsDropped(),
                rowsIn,
                q.maxDroppedRatio().getAsDouble(),
                violated));
      }
    }
    return List.copyOf(out);
  }

  /**
   * The gates of completed views whose drops were not measured, which {@link #check} can neither
   * pass nor breach.
   */
  public static List<UncheckedGate> unchecked(
      RunReport run, Function<ObjectId, QualitySettings> settings) {
    List<UncheckedGate> out = new ArrayList<>();
    for (ViewRun v : run.views()) {
      QualitySettings q = settings.apply(v.id());
      if (v.status() != ViewStatus.Completed || v.dropsMeasured() || q == null) {
        continue;
      }
      String why = v.dropsNotMeasured().get();
      if (q.maxDroppedRows().isPresent()) {
        out.add(new UncheckedGate(v.id(), GateBreach.Gate.MAX_DROPPED_ROWS, why));
      }
      if (q.maxDroppedRatio().isPresent()) {
        out.add(new UncheckedGate(v.id(), GateBreach.Gate.MAX_DROPPED_RATIO, why));
      }
    }
    return List.copyOf(out);
  }

  /**
   * The run with each breach's message as the error of its view, which stays Completed: its data
   * was written, but the run's record must say why the command exited 4. Applying it twice changes
   * nothing.
   */
  public static RunReport annotate(
      RunReport run, List<GateBreach> breaches, Function<ObjectId, String> display) {
    if (breaches.isEmpty()) {
      return run;
    }
    List<ViewRun> views = new ArrayList<>();
    for (ViewRun v : run.views()) {
      List<String> lines =
          breaches.stream()
              .filter(b -> b.view().equals(v.id()))
              .map(b -> b.message(display.apply(b.view())))
              .toList();
      views.add(lines.isEmpty() ? v : v.withError(String.join("\n", lines)));
    }
    return new RunReport(
        run.id(), run.status(), run.startedAt(), run.endedAt(), run.target(), views);
  }

  static String formatRatio(double ratio) {
    return BigDecimal.valueOf(ratio).stripTrailingZeros().toPlainString();
  }
}
