package dev.mlv.quality;

import dev.mlv.diag.DiagnosticRenderer;
import dev.mlv.lineage.ObjectId;
import java.util.Locale;
import java.util.Map;

/**
 * A view that dropped more rows in a run than its quality gate allows: which gate, the counts, and
 * the constraints that dropped rows with their violation counts.
 */
public record GateBreach(
    ObjectId view, Gate gate, long dropped, long rowsIn, double limit, Map<String, Long> violated) {

  /** The two gates of mlv.yml. */
  public enum Gate {
    MAX_DROPPED_ROWS("max_dropped_rows"),
    MAX_DROPPED_RATIO("max_dropped_ratio");

    private final String key;

    Gate(String key) {
      this.key = key;
    }

    /** The mlv.yml key that sets the gate. */
    public String key() {
      return key;
    }
  }

  public GateBreach {
    violated = Map.copyOf(violated);
  }

  /** The share of the rows the view read that it dropped. */
  public double ratio() {
    return rowsIn == 0 ? 0 : (double) dropped / rowsIn;
  }

  /** One line naming the view, the gate, the counts and the constraints behind the drops. */
  public String message(String viewName) {
    String counts =
        gate == Gate.MAX_DROPPED_ROWS
            ? "dropped "
                + DiagnosticRenderer.plural(dropped, "row")
                + ", more than "
                + gate.key()
                + " "
                + (long) limit
            : String.format(
                Locale.ROOT,
                "dropped %d of %s (%.2f%%), more than %s %s",
                dropped,
                DiagnosticRenderer.plural(rowsIn, "row"),
                ratio() * 100,
                gate.key(),
                QualityGates.formatRatio(limit));
    StringBuilder by = new StringBuilder();
    violated.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(
            e ->
                by.append(by.length() == 0 ? "" : ", ")
                    .append(e.getKey())
                    .append(' ')
                    .append(e.getValue()));
    return "quality gate: "
        + viewName
        + " "
        + counts
        + (by.length() == 0 ? "" : "; violations by constraint: " + by);
  }
}
