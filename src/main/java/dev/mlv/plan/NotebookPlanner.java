package dev.mlv.plan;

import dev.mlv.lineage.ObjectId;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectView;
import dev.mlv.sql.Fingerprint;
import dev.mlv.target.DeployedNotebook;
import dev.mlv.target.DeployedState;
import dev.mlv.target.DeployedView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Plans PySpark views on a target that deploys each source file as one notebook item: a view is
 * compared with what its deployed notebook defines (not with the catalog's SQL), and each file gets
 * one notebook change. A notebook removed while its views still exist is a change of its own, since
 * those views fail on their next refresh.
 */
public final class NotebookPlanner {
  /** Display names of managed notebooks start with this, so they stand out in the workspace. */
  public static final String NAME_PREFIX = "mlv_";

  private NotebookPlanner() {}

  /** The file a PySpark view is defined in, relative to the project root, with '/' separators. */
  public static String source(Project project, ProjectView v) {
    Path file = v.definition().position().file();
    Path root = project.config().root();
    Path rel = file.isAbsolute() && file.startsWith(root) ? root.relativize(file) : file;
    return rel.toString().replace('\\', '/');
  }

  /**
   * The notebook's display name: readable (project, target, file) and unique per file, since two
   * paths can sanitise to the same text.
   */
  public static String displayName(String project, String target, String source) {
    String stem = source.replaceFirst("\\.(?i:py|ipynb)$", "");
    String readable =
        (clean(project) + "_" + clean(target) + "_" + clean(stem)).replaceAll("_+", "_");
    if (readable.length() > 100) {
      readable = readable.substring(0, 100);
    }
    return NAME_PREFIX + readable + "_" + Fingerprint.of(source).substring(0, 6);
  }

  private static String clean(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
  }

  /** The PySpark views of the project, grouped by source file, in file order. */
  static Map<String, List<ObjectId>> files(Project project) {
    Map<String, List<ObjectId>> out = new TreeMap<>();
    for (ProjectView v : project.views().values()) {
      if (v.definition().isPython()) {
        out.computeIfAbsent(source(project, v), k -> new ArrayList<>()).add(v.id());
      }
    }
    return out;
  }

  private static Optional<DeployedNotebook> notebook(DeployedState state, String source) {
    return state.notebooks().orElse(List.of()).stream()
        .filter(n -> n.source().equals(source))
        .findFirst();
  }

  /** The change for one PySpark view, judged against its file's deployed notebook. */
  static Change view(Project project, ProjectView v, DeployedState state) {
    ObjectId id = v.id();
    String source = source(project, v);
    String statement = v.definition().statement();
    String fp = v.definition().fingerprint();
    Optional<DeployedNotebook> nb = notebook(state, source);
    Optional<DeployedView> inCatalog = state.view(id);
    String previous = inCatalog.map(DeployedView::definition).orElse("");
    if (nb.isEmpty()) {
      if (inCatalog.isPresent()) {
        return new Change.Replace(
            id,
            statement,
            fp,
            previous,
            "",
            "its notebook is gone from the workspace while the view exists; the view fails on its"
                + " next refresh until apply recreates the notebook and runs it");
      }
      return new Change.Create(id, statement, fp, "new PySpark view, deployed in a notebook");
    }
    String deployedFp = nb.get().fingerprints().get(id);
    if (deployedFp == null) {
      return inCatalog.isPresent()
          ? new Change.Replace(
              id, statement, fp, previous, "", "the view is not in its deployed notebook")
          : new Change.Create(id, statement, fp, "new PySpark view in notebook " + nb.get().id());
    }
    if (!deployedFp.equals(fp)) {
      String before = nb.get().definitions().getOrDefault(id, "");
      return new Change.Replace(
          id,
          statement,
          fp,
          before,
          LineDiff.unified(before, statement, "notebook", "project"),
          "the function, a helper it calls or a decorator argument changed");
    }
    if (inCatalog.isEmpty()) {
      return new Change.Create(
          id,
          statement,
          fp,
          "in its notebook but not registered: the notebook has not run, or its last run failed");
    }
    return new Change.NoOp(id, "unchanged");
  }

  /** One change per source file with a selected PySpark view, and for managed orphans. */
  static List<NotebookChange> notebooks(
      Project project,
      String target,
      DeployedState state,
      SortedSet<ObjectId> selection,
      boolean wholeProject,
      boolean prune,
      List<Change> changes) {
    if (state.notebooks().isEmpty()) {
      return List.of();
    }
    Map<ObjectId, Change> byId = new LinkedHashMap<>();
    changes.forEach(c -> byId.put(c.id(), c));
    List<NotebookChange> out = new ArrayList<>();
    Map<String, List<ObjectId>> files = files(project);
    for (Map.Entry<String, List<ObjectId>> f : files.entrySet()) {
      List<ObjectId> views = f.getValue();
      if (views.stream().noneMatch(selection::contains)) {
        continue;
      }
      String source = f.getKey();
      String name = displayName(project.config().name(), target, source);
      Optional<DeployedNotebook> nb = notebook(state, source);
      List<String> names = views.stream().map(v -> project.names().display(v)).toList();
      if (nb.isEmpty()) {
        List<String> existing =
            views.stream()
                .filter(v -> state.view(v).isPresent())
                .map(v -> project.names().display(v))
                .toList();
        out.add(
            existing.isEmpty()
                ? new NotebookChange.Create(
                    source, name, views, "defines " + String.join(", ", names))
                : new NotebookChange.Recreate(
                    source,
                    name,
                    views,
                    "the notebook was removed from the workspace while its views "
                        + String.join(", ", existing)
                        + " still exist; they fail on their next refresh without it"));
        continue;
      }
      List<String> changed = new ArrayList<>();
      for (ObjectId v : views) {
        Change c = byId.get(v);
        if (c instanceof Change.Create || c instanceof Change.Replace) {
          changed.add(project.names().display(v));
        }
      }
      Set<ObjectId> left = new TreeSet<>(nb.get().fingerprints().keySet());
      views.forEach(left::remove);
      if (!prune) {
        // Without --prune a view that left the file is kept, and so is the code that refreshes it.
        left.clear();
      }
      String id = nb.get().id();
      if (!changed.isEmpty() || !left.isEmpty()) {
        List<String> why = new ArrayList<>();
        if (!changed.isEmpty()) {
          why.add("changed: " + String.join(", ", changed));
        }
        if (!left.isEmpty()) {
          why.add(
              "left the file: "
                  + String.join(", ", left.stream().map(v -> project.names().display(v)).toList()));
        }
        out.add(new NotebookChange.Update(source, name, id, views, String.join("; ", why)));
      } else {
        out.add(new NotebookChange.NoOp(source, name, id, views, "unchanged"));
      }
    }
    if (wholeProject) {
      for (DeployedNotebook nb : state.notebooks().get()) {
        if (files.containsKey(nb.source())) {
          continue;
        }
        List<ObjectId> views = List.copyOf(new TreeSet<>(nb.fingerprints().keySet()));
        if (prune) {
          out.add(
              new NotebookChange.Delete(
                  nb.source(),
                  nb.displayName(),
                  nb.id(),
                  views,
                  "its file left the project (--prune)"));
        } else {
          out.add(
              new NotebookChange.NoOp(
                  nb.source(),
                  nb.displayName(),
                  nb.id(),
                  views,
                  "its file left the project; kept, since its views would break (--prune deletes"
                      + " both)"));
        }
      }
    }
    return out;
  }
}
