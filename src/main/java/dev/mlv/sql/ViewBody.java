package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.Map;

/** What a view is made of: a SELECT over tables, a folder of files, or a PySpark function. */
public sealed interface ViewBody {

  Position position();

  /**
   * {@code AS select}: the text as written, its normalised form (comments, whitespace and keyword
   * case removed) and the fingerprint of that form.
   */
  record Select(String sql, Position position, String normalized, String fingerprint)
      implements ViewBody {}

  /**
   * {@code USING OneLake_Files OPTIONS (...)}: option keys folded to lower case; {@code position}
   * is that of {@code OneLake_Files}, {@code optionPositions} where each option's key is written.
   */
  record Files(
      Map<String, String> options, Position position, Map<String, Position> optionPositions)
      implements ViewBody {
    public Files {
      options = Map.copyOf(options);
      optionPositions = Map.copyOf(optionPositions);
    }

    public Files(Map<String, String> options, Position position) {
      this(options, position, Map.of());
    }

    /** Where option {@code key} is written, or the clause's position when it is not. */
    public Position positionOf(String key) {
      return optionPositions.getOrDefault(key, position);
    }

    public String format() {
      return options.getOrDefault("format", "");
    }

    public String path() {
      return options.getOrDefault("path", "");
    }
  }

  /**
   * A function decorated with {@code @fmlv.materialized_lake_view} in a .py file or notebook:
   * {@code source} is the function with the helpers it calls, as mlv read them, and {@code
   * fingerprint} covers that code without its comments and formatting.
   */
  record Python(String function, String source, Position position, String fingerprint)
      implements ViewBody {}
}
