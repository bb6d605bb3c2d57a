package dev.mlv.target.fabric;

import dev.mlv.diag.MlvException;
import dev.mlv.lineage.ObjectId;
import dev.mlv.plan.NotebookChange;
import dev.mlv.plan.NotebookPlanner;
import dev.mlv.plan.Plan;
import dev.mlv.project.FabricTarget;
import dev.mlv.project.Project;
import dev.mlv.project.ProjectConfig;
import dev.mlv.project.ProjectView;
import dev.mlv.pyspark.NotebookCells;
import dev.mlv.pyspark.PySparkReader;
import dev.mlv.refresh.RunListener;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.TableExtractor;
import dev.mlv.sql.ViewDefinition;
import dev.mlv.target.DeployedNotebook;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PySpark views on Fabric: each source file is one notebook item, named after the project, target
 * and file, and marked as mlv's by its description (project, lakehouse and file). Apply writes the
 * file's cells into the notebook and runs it once, which is how Fabric registers {@code @fmlv}
 * views; plan reads each managed notebook's definition back with mlv's own PySpark reader.
 */
final class FabricNotebooks {
  private static final Pattern MARKER =
      Pattern.compile("\\[mlv project=([^;\\]]*); lakehouse=([^;\\]]*); source=([^\\]]*)\\]");

  private final NotebookClient client;
  private final ProjectConfig config;
  private final FabricTarget target;
  private final java.util.function.Consumer<ObjectId> drop;

  /** What the apply of {@code applying} already did per source file: nothing failed, or why. */
  private final Map<String, Optional<MlvException>> done = new HashMap<>();

  private Plan applying;

  /**
   * {@code drop} drops a view in the lakehouse (over Livy), for a changed view's old definition.
   */
  FabricNotebooks(
      FabricHttp http,
      ProjectConfig config,
      FabricTarget target,
      java.util.function.Consumer<ObjectId> drop) {
    this.client = new NotebookClient(http, target.workspaceId());
    this.config = config;
    this.target = target;
    this.drop = drop;
  }

  static boolean isPython(Project project, ObjectId id) {
    ProjectView v = project.views().get(id);
    return v != null && v.definition().isPython();
  }

  /**
   * The marker first, since Fabric keeps at most 256 characters of a description; the sentence for
   * people who find the notebook in the workspace fills what is left.
   */
  String description(String source) {
    String marker =
        "[mlv project="
            + config.name()
            + "; lakehouse="
            + target.lakehouseId()
            + "; source="
            + source
            + "]";
    String why = " Materialized lake views deployed by mlv; deleting this notebook breaks them.";
    return marker + why.substring(0, Math.max(0, Math.min(why.length(), 256 - marker.length())));
  }

  // ---- state ----

  /** The notebooks mlv deployed for this project and lakehouse, with the views each defines. */
  List<DeployedNotebook> deployed(Project project) {
    List<DeployedNotebook> out = new ArrayList<>();
    PySparkReader reader = new PySparkReader(TableExtractor::new);
    for (NotebookClient.Item item : client.list()) {
      Matcher m = MARKER.matcher(item.description());
      if (!m.find()
          || !m.group(1).equals(config.name())
          || !m.group(2).equals(target.lakehouseId().toString())) {
        continue;
      }
      String source = m.group(3);
      Map<ObjectId, String> fingerprints = new HashMap<>();
      Map<ObjectId, String> definitions = new HashMap<>();
      Optional<String> content = client.content(item.id(), item.displayName());
      if (content.isPresent()) {
        PySparkReader.Result read =
            reader.read(Path.of(item.displayName(), NotebookContent.PART), content.get());
        for (SqlStatement st : read.statements()) {
          if (st instanceof SqlStatement.CreateView cv && cv.definition().isPython()) {
            ViewDefinition def = cv.definition();
            ObjectId id = project.names().resolve(def.name());
            fingerprints.put(id, def.fingerprint());
            definitions.put(id, def.statement());
          }
        }
      }
      out.add(
          new DeployedNotebook(item.id(), item.displayName(), source, fingerprints, definitions));
    }
    return out;
  }

  // ---- apply ----

  /**
   * Deploys and runs the notebook of the file that defines {@code view}, once per apply however
   * many of its views change; throws the run's failure for each of them.
   */
  void deployFor(Project project, Plan plan, ObjectId view, RunListener listener) {
    startOf(plan);
    String source = NotebookPlanner.source(project, project.views().get(view));
    Optional<NotebookChange> change =
        plan.notebooks().stream().filter(n -> n.source().equals(source)).findFirst();
    if (change.isEmpty()) {
      throw new MlvException(
          "PLAN_STALE",
          "the plan has no notebook change for "
              + source
              + ", which defines "
              + view.shortName()
              + "; run 'mlv plan' again");
    }
    Optional<MlvException> outcome =
        done.computeIfAbsent(source, s -> attempt(project, plan, change.get(), listener));
    if (outcome.isPresent()) {
      throw outcome.get();
    }
  }

  /**
   * The notebook changes no view change led to (a view only left its file, a notebook to delete),
   * after the views; false when one of them failed (it was reported as a message). A notebook whose
   * views were skipped because something upstream failed is left alone: its run would fail too.
   */
  boolean finish(Project project, Plan plan, RunListener listener) {
    startOf(plan);
    Set<ObjectId> changed = new HashSet<>();
    for (dev.mlv.plan.Change c : plan.changes()) {
      if (c instanceof dev.mlv.plan.Change.Create || c instanceof dev.mlv.plan.Change.Replace) {
        changed.add(c.id());
      }
    }
    boolean ok = true;
    for (NotebookChange n : plan.notebooks()) {
      if (done.containsKey(n.source())
          || n instanceof NotebookChange.NoOp
          || n.views().stream().anyMatch(changed::contains)) {
        continue;
      }
      Optional<MlvException> outcome = attempt(project, plan, n, listener);
      done.put(n.source(), outcome);
      if (outcome.isPresent()) {
        listener.message("  " + outcome.get().getMessage());
        ok = false;
      }
    }
    return ok;
  }

  /** A target object may apply several plans in its life: each starts with nothing done. */
  private void startOf(Plan plan) {
    if (applying != plan) {
      applying = plan;
      done.clear();
    }
  }

  private Optional<MlvException> attempt(
      Project project, Plan plan, NotebookChange n, RunListener listener) {
    try {
      apply(project, plan, n, listener);
      return Optional.empty();
    } catch (MlvException e) {
      return Optional.of(e);
    }
  }

  private void apply(Project project, Plan plan, NotebookChange n, RunListener listener) {
    if (n instanceof NotebookChange.Delete d) {
      listener.message("  deleting notebook " + d.displayName() + " (" + d.source() + ")");
      client.delete(d.id(), d.displayName());
      return;
    }
    if (n instanceof NotebookChange.NoOp) {
      return;
    }
    String content = content(n.source());
    String id;
    // An updated notebook whose run fails gets its old code back: plan compares the project with
    // the notebook, so the new code left in place would read as deployed (no change) while the
    // views registered still run the old one.
    Optional<String> before = Optional.empty();
    if (n instanceof NotebookChange.Update u) {
      before = client.content(u.id(), u.displayName());
      listener.message("  updating notebook " + u.displayName() + " (" + u.source() + ")");
      client.update(u.id(), u.displayName(), content);
      id = u.id();
      // fmlv keeps a registered view unless its decorator says replace=True, as Fabric's guide
      // says: a changed view without it is dropped first so that the run registers the new code.
      for (dev.mlv.plan.Change c : plan.changes()) {
        ProjectView v = project.views().get(c.id());
        if (c instanceof dev.mlv.plan.Change.Replace
            && u.views().contains(c.id())
            && v != null
            && !v.definition().orReplace()) {
          listener.message(
              "  dropping "
                  + project.names().display(c.id())
                  + " first: its decorator has no replace=True");
          drop.accept(c.id());
        }
      }
    } else {
      listener.message(
          "  "
              + (n instanceof NotebookChange.Recreate ? "recreating" : "creating")
              + " notebook "
              + n.displayName()
              + " ("
              + n.source()
              + ")");
      id = client.create(n.displayName(), description(n.source()), content);
    }
    listener.message(
        "  running notebook "
            + n.displayName()
            + " once ("
            + NotebookClient.JOB_TYPE
            + " job) to register its views");
    Set<String> seen = new HashSet<>();
    JobClient.JobInstance j =
        client.run(
            id,
            n.displayName(),
            target.workspaceId(),
            target.lakehouseId(),
            config.lakehouse(),
            config.defaults().refreshTimeout(),
            job -> {
              if (seen.add(job.status())) {
                listener.message("  notebook job " + job.id() + ": " + job.status());
              }
            });
    if (!j.status().equals("Completed")) {
      if (before.isPresent()) {
        listener.message(
            "  restoring notebook "
                + n.displayName()
                + " to its previous code, since its run failed: the next plan shows the change"
                + " again");
        client.update(id, n.displayName(), before.get());
      }
      throw new MlvException(
          "NOTEBOOK_RUN_FAILED",
          "notebook "
              + n.displayName()
              + " ("
              + n.source()
              + ") did not register its views: its "
              + NotebookClient.JOB_TYPE
              + " job "
              + j.id()
              + " ended "
              + j.status()
              + j.failure().map(f -> " with " + f).orElse(""));
    }
  }

  /** The notebook source for a project file: its cells in order, the lakehouse as default. */
  String content(String source) {
    Path file = config.root().resolve(source);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MlvException("NOTEBOOK_SOURCE", "cannot read " + source + ": " + e.getMessage());
    }
    return NotebookContent.python(
        NotebookCells.of(file, text),
        target.workspaceId(),
        target.lakehouseId(),
        config.lakehouse());
  }
}
