package dev.mlv.cli;

import dev.mlv.project.ProjectConfig;
import dev.mlv.target.Target;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What commands run inside {@code mlv shell} share: the targets the shell keeps open between
 * commands, so Spark starts once per shell rather than once per command, and the shell's line
 * reader for questions such as apply's confirmation. Commands still close what {@link Targets#open}
 * gives them; inside a shell that is a lease whose {@code close} does nothing, and the shell closes
 * the real target when it exits. A local-only command (seed) gets the open local target itself: its
 * close only drops its Spark session, and the next use opens another on the running Spark.
 */
final class ShellSession implements AutoCloseable {
  private final CommandSpec opener;
  private final Map<String, Open> open = new LinkedHashMap<>();
  // The targets the command running now has used, for its Ctrl-C.
  private final java.util.Set<Target> used = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final java.util.function.UnaryOperator<String> ask;
  private final org.jline.terminal.Terminal terminal;

  private record Open(ProjectConfig config, Target target) {}

  /**
   * @param opener the spec of the shell command itself; targets are opened as it would open them
   * @param terminal the shell's terminal
   * @param ask shows a prompt and returns the answer, or null at end of input
   */
  ShellSession(
      CommandSpec opener,
      org.jline.terminal.Terminal terminal,
      java.util.function.UnaryOperator<String> ask) {
    this.opener = opener;
    this.terminal = terminal;
    this.ask = ask;
  }

  /** The shell's terminal, for progress drawn on it; null in tests without one. */
  org.jline.terminal.Terminal terminal() {
    return terminal;
  }

  /** Asks the person at the shell; null when the input ended. */
  String ask(String prompt) {
    return ask.apply(prompt);
  }

  /** The open target {@code name} of {@code config}, opened now if it is not open yet. */
  synchronized Target target(ProjectConfig config, String name) {
    Open o = open.get(name);
    if (o != null && !o.config().equals(config)) {
      // mlv.yml changed since the target was opened: the old one may point elsewhere.
      o.target().close();
      o = null;
    }
    if (o == null) {
      o = new Open(config, Targets.open(config, name, opener));
      open.put(name, o);
    }
    used.add(o.target());
    return o.target();
  }

  /** A command starts: the targets it uses are those its Ctrl-C stops. */
  void commandStarting() {
    used.clear();
  }

  /**
   * Ctrl-C during the command, from the signal's thread: each target it used stops its part of it
   * ({@link Target#cancelCommand}); a command that used none has its thread interrupted.
   */
  void cancelCommand(Thread command) {
    List<Target> targets = List.copyOf(used);
    if (targets.isEmpty()) {
      command.interrupt();
    }
    targets.forEach(t -> t.cancelCommand(command));
  }

  /** A view of the open target that a command may close without closing the target. */
  Target lease(ProjectConfig config, String name) {
    Target shared = target(config, name);
    InvocationHandler h =
        (proxy, method, args) -> {
          if (method.getName().equals("close") && method.getParameterCount() == 0) {
            return null;
          }
          try {
            return method.invoke(shared, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return (Target)
        Proxy.newProxyInstance(Target.class.getClassLoader(), new Class<?>[] {Target.class}, h);
  }

  @Override
  public synchronized void close() {
    open.values().forEach(o -> o.target().close());
    open.clear();
  }
}
