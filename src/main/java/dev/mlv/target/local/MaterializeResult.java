package dev.mlv.target.local;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one refresh wrote: rows written and dropped, violations per constraint name in declaration
 * order (a row breaking two DROP rules is dropped once and counted twice, so the violations add up
 * to at least the drops), and the Delta version of the commit.
 */
public record MaterializeResult(
    long rowsWritten, long rowsDropped, Map<String, Long> violations, long version) {

  public MaterializeResult {
    violations = Collections.unmodifiableMap(new LinkedHashMap<>(violations));
  }
}
