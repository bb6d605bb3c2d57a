package dev.mlv.refresh;

import java.util.Locale;

/**
 * How a view is refreshed in one run, decided per view before it runs, with a stable reason code
 * ({@code NO_NEW_COMMITS}, {@code FULL_REQUESTED}, ...) and a sentence for people.
 */
public sealed interface Strategy {
  String code();

  String detail();

  /** {@code skip}, {@code incremental} or {@code full}. */
  default String label() {
    return getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  /** Nothing upstream changed: the view is left as it is. */
  record Skip(String code, String detail) implements Strategy {}

  /** Only the rows appended to the sources since the last refresh are processed. */
  record Incremental(String code, String detail) implements Strategy {}

  /** The SELECT runs over all the data and replaces the table in one commit. */
  record Full(String code, String detail) implements Strategy {}
}
