package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.diag.Suggestions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${NAME}} with a project variable and {@code ${env:NAME}} with an environment
 * variable in string values; {@code $${} writes a literal {@code ${}. Problems become
 * diagnostics, and a failed value is empty so the caller skips checks that would only repeat it.
 * An unset environment variable goes to its own sink: inside a target it matters only when a command
 * uses that target.
 */
final class Interpolator {
  static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern WHOLE_ENV_REF =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  private final Map<String, String> vars;
  private final Map<String, String> env;
  private final List<Diagnostic> sink;
  private final List<Diagnostic> unsetEnv;

  Interpolator(Map<String, String> vars, Map<String, String> env, List<Diagnostic> sink) {
    this(vars, env, sink, sink);
  }

  private Interpolator(
      Map<String, String> vars,
      Map<String, String> env,
      List<Diagnostic> sink,
      List<Diagnostic> unsetEnv) {
    this.vars = vars;
    this.env = env;
    this.sink = sink;
    this.unsetEnv = unsetEnv;
  }

  /** This interpolator, with unset environment variables reported to {@code unset} instead. */
  Interpolator deferringUnsetEnv(List<Diagnostic> unset) {
    return new Interpolator(vars, env, sink, unset);
  }

  /** The diagnostic for an unset environment variable {@code name} that {@code what} needs. */
  static Diagnostic unsetEnv(String name, Position at, String what) {
    return Diagnostic.error(
        "CONFIG_ENV",
        at,
        what + " needs environment variable " + name + ", which is not set",
        "set " + name + " in the environment before running mlv");
  }

  /** The env var name when {@code raw} is exactly one {@code ${env:NAME}} reference. */
  static Optional<String> wholeEnvReference(String raw) {
    var m = WHOLE_ENV_REF.matcher(raw.strip());
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  Optional<String> expand(String raw, Position at, String what) {
    StringBuilder out = new StringBuilder();
    boolean ok = true;
    int i = 0;
    while (i < raw.length()) {
      if (raw.startsWith("$${", i)) {
        out.append("${");
        i += 3;
      } else if (raw.startsWith("${", i)) {
        int close = raw.indexOf('}', i + 2);
        if (close < 0) {
          sink.add(
              Diagnostic.error(
                  "CONFIG_VALUE",
                  at,
                  what + " has an unclosed '${'",
                  "close it with '}', or write '$${' for a literal '${'"));
          return Optional.empty();
        }
        Optional<String> value = lookup(raw.substring(i + 2, close), at, what);
        ok &= value.isPresent();
        value.ifPresent(out::append);
        i = close + 1;
      } else {
        out.append(raw.charAt(i));
        i++;
      }
    }
    return ok ? Optional.of(out.toString()) : Optional.empty();
  }

  private Optional<String> lookup(String reference, Position at, String what) {
    boolean fromEnv = reference.startsWith("env:");
    String name = fromEnv ? reference.substring(4) : reference;
    if (!NAME.matcher(name).matches()) {
      sink.add(
          Diagnostic.error(
              "CONFIG_VALUE",
              at,
              what + " refers to '${" + reference + "}', which is not a variable name",
              "use ${NAME} for a project variable or ${env:NAME} for an environment variable"));
      return Optional.empty();
    }
    if (fromEnv) {
      String value = env.get(name);
      if (value == null) {
        unsetEnv.add(unsetEnv(name, at, what));
        return Optional.empty();
      }
      return Optional.of(value);
    }
    String value = vars.get(name);
    if (value != null && value.contains("${")) {
      return Optional.empty(); // a variable refused where it is defined (CONFIG_VALUE there)
    }
    if (value == null) {
      String hint =
          Suggestions.nearest(name, vars.keySet())
              .map(n -> "did you mean '${" + n + "}'?")
              .orElse("define it under 'vars:', or use ${env:" + name + "} for the environment");
      sink.add(
          Diagnostic.error(
              "CONFIG_VAR", at, what + " uses undefined variable '" + name + "'", hint));
      return Optional.empty();
    }
    return Optional.of(value);
  }
}
