package dev.mlv.target.local;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.MlvException;
import dev.mlv.project.SparkTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

  /**
   * What to throw when Spark failed to start: a core setting (spark.memory.fraction, say) is
   * checked only by the SparkContext as it starts, so a refused value named in the failure is a
   * CONFIG_VALUE at its place in mlv.yml. A failure naming no key while the target sets core
   * settings (a spark.serializer class that is not there, more spark.task.cpus than cores) is put
   * on those settings, at the first; with none, the failure is not about mlv.yml (empty).
   */
  static Optional<MlvException> startFailed(SparkTarget target, Exception e) {
    if (e instanceof MlvException) {
      return Optional.empty();
    }
    Optional<MlvException> named = namedKey(target, e);
    if (named.isPresent()) {
      return named;
    }
    List<String> core =
        target.conf().keySet().stream()
            .filter(k -> !k.startsWith("spark.sql.") && target.confAt().containsKey(k))
            .sorted(
                java.util.Comparator.comparing((String k) -> target.confAt().get(k).line())
                    .thenComparing(k -> target.confAt().get(k).column()))
            .toList();
    if (core.isEmpty()) {
      return Optional.empty();
    }
    Throwable t = SparkMessages.telling(e);
    String why = SparkMessages.explanation(t);
    if (t.getClass().getName().startsWith("java.")) {
      why = t.getClass().getSimpleName() + ": " + why;
    }
    return Optional.of(
        new MlvException(
            Diagnostic.error(
                "CONFIG_VALUE",
                target.confAt().get(core.get(0)),
                "Spark could not start with targets."
                    + target.name()
                    + ".conf ("
                    + String.join(", ", core)
                    + "): "
                    + why,
                "fix or remove these settings in mlv.yml; `mlv --debug` shows Spark's full error"),
            e));
  }

  private static Optional<MlvException> namedKey(SparkTarget target, Exception e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String m = t.getMessage();
      if (m == null) {
        continue;
      }
      for (String key : target.conf().keySet()) {
        if (target.confAt().containsKey(key) && names(m, key)) {
          return Optional.of(new MlvException(refused(target, key, t), e));
        }
      }
    }
    return Optional.empty();
  }

  /** Whether {@code message} names {@code key} as a whole word (not spark.memory.fractionX). */
  private static boolean names(String message, String key) {
    int at = message.indexOf(key);
    while (at >= 0) {
      int end = at + key.length();
      boolean before = at == 0 || !keyChar(message.charAt(at - 1));
      // A full stop after the key ends the sentence: "... (was 2.0) for spark.x.y."
      boolean after =
          end == message.length()
              || !keyChar(message.charAt(end))
              || (message.charAt(end) == '.'
                  && (end + 1 == message.length()
                      || !Character.isLetterOrDigit(message.charAt(end + 1))));
      if (before && after) {
        return true;
      }
      at = message.indexOf(key, at + 1);
    }
    return false;
  }

  private static boolean keyChar(char c) {
    return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-';
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
