package dev.mlv.plan;

import dev.mlv.lineage.ObjectId;
import java.util.List;
import java.util.Optional;

/**
 * What {@code apply} does to the notebook item that holds the PySpark views of one source file, on
 * a target that deploys them as notebooks (Fabric). {@code source} is the file's path in the
 * project, {@code views} the views the file defines (or, for a delete, the deployed notebook
 * defined).
 */
public sealed interface NotebookChange {

  String source();

  String displayName();

  /** The deployed notebook item, when there is one. */
  Optional<String> notebookId();

  List<ObjectId> views();

  String reason();

  /** A file whose notebook does not exist yet: create it, then run it to register its views. */
  record Create(String source, String displayName, List<ObjectId> views, String reason)
      implements NotebookChange {
    public Create {
      views = List.copyOf(views);
    }

    @Override
    public Optional<String> notebookId() {
      return Optional.empty();
    }
  }

  /**
   * A managed notebook that someone removed while its views still exist: they fail on their next
   * refresh, so apply creates the notebook again and runs it.
   */
  record Recreate(String source, String displayName, List<ObjectId> views, String reason)
      implements NotebookChange {
    public Recreate {
      views = List.copyOf(views);
    }

    @Override
    public Optional<String> notebookId() {
      return Optional.empty();
    }
  }

  /** A view of the file changed, appeared or left: new definition, then one run. */
  record Update(String source, String displayName, String id, List<ObjectId> views, String reason)
      implements NotebookChange {
    public Update {
      views = List.copyOf(views);
    }

    @Override
    public Optional<String> notebookId() {
      return Optional.of(id);
    }
  }

  /** A managed notebook whose file left the project (only with --prune, like its views). */
  record Delete(String source, String displayName, String id, List<ObjectId> views, String reason)
      implements NotebookChange {
    public Delete {
      views = List.copyOf(views);
    }

    @Override
    public Optional<String> notebookId() {
      return Optional.of(id);
    }
  }

  /** Deployed and in step with the file, or an orphan kept because --prune was not given. */
  record NoOp(String source, String displayName, String id, List<ObjectId> views, String reason)
      implements NotebookChange {
    public NoOp {
      views = List.copyOf(views);
    }

    @Override
    public Optional<String> notebookId() {
      return Optional.of(id);
    }
  }
}
