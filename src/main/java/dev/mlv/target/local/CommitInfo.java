package dev.mlv.target.local;

import java.time.Instant;

/**
 * One Delta commit as the refresh strategy needs it: the operation ({@code WRITE}, {@code MERGE},
 * {@code DELETE}, {@code CREATE OR REPLACE TABLE AS SELECT}, ...) and whether it only appended
 * (added files, removed none); a metadata-only commit such as {@code SET TBLPROPERTIES} is not an
 * append.
 */
public record CommitInfo(long version, String operation, boolean appendOnly, Instant timestamp) {}
