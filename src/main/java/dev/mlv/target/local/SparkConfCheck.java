package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.project.SparkTarget;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.internal.SQLConf;

/**
 * Spark's own check of a local target's SQL {@code conf} values, run before Spark starts. Given to
 * the first session, a value Spark refuses fails the session's construction deep inside Spark (an
 * internal error naming SessionStateBuilder, the reason only in its causes) and stays in the shared
 * SparkContext; given to a later session, it was silently dropped. Found by QA.
 */
final class SparkConfCheck {
  private SparkConfCheck() {}

  /** Throws CONFIG_VALUE at each conf value of {@code target} that Spark's SQL conf refuses. */
  static void check(SparkTarget target) {
    if (target.conf().isEmpty()) {
      return;
    }
    // A SQLConf of its own converts each value as a session would, with no SparkContext.
    SQLConf probe = new SQLConf();
    List<Diagnostic> problems = new ArrayList<>();
    List<Throwable> causes = new ArrayList<>();
    target
        .conf()
        .forEach(
            (key, value) -> {
              try {
                probe.setConfString(key, value);
              } catch (RuntimeException e) {
                problems.add(refused(target, key, e));
                causes.add(e);
              }
            });
    if (problems.size() == 1) {
      throw new MlvException(problems.get(0), causes.get(0));
    }
    if (!problems.isEmpty()) {
      throw new MlvException(problems);
    }
  }

  static Diagnostic refused(SparkTarget target, String key, Throwable e) {
    // Spark's message quotes the value; mlv does not add it again, as a conf value may be a secret
    // read from ${env:...} (a setting Spark checks never is one).
    return Diagnostic.error(
        "CONFIG_VALUE",
        target.confAt().get(key),
        "targets."
            + target.name()
            + ".conf."
            + key
            + " is refused by Spark: "
            + SparkMessages.explanation(e),
        "fix the value in mlv.yml, or remove the entry to keep mlv's default");
  }
}
