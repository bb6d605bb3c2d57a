package dev.mlv.check;

import dev.mlv.diag.Diagnostic;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.project.RefreshPolicy;
import dev.mlv.sql.RefreshAnalyzer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code refresh_policy: incremental} is strict: a view whose SQL can never be refreshed
 * incrementally is an error in {@code validate} and {@code plan}, at the construct that prevents
 * it.
 */
public final class RefreshPolicyCheck {
  public static final String RULE = "REFRESH_POLICY_INCREMENTAL";

  private RefreshPolicyCheck() {}

  public static List<Diagnostic> check(Project project) {
    List<Diagnostic> out = new ArrayList<>();
    for (ProjectView v : project.views().values()) {
      check(project, v).ifPresent(out::add);
    }
    return out;
  }

  /** The error for one view, when its policy is incremental and its SQL rules that out. */
  public static Optional<Diagnostic> check(Project project, ProjectView v) {
    if (v.settings().refreshPolicy() != RefreshPolicy.INCREMENTAL) {
      return Optional.empty();
    }
    return RefreshAnalyzer.analyze(v.definition())
        .blocker()
        .map(
            b ->
                Diagnostic.error(
                    RULE,
                    b.position(),
                    "view "
                        + project.names().display(v.id())
                        + " has refresh_policy incremental, but "
                        + b.construct()
                        + " always needs a full refresh ("
                        + b.code()
                        + ": "
                        + b.note()
                        + ")",
                    "rewrite the construct, or set refresh_policy to auto or full in mlv.yml"));
  }
}
