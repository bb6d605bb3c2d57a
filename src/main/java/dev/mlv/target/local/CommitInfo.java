package dev.mlv.target.local;

import java.time.Instant;

/**
 * One Delta commit as the refresh strategy needs it: the operation ({@code WRITE}, {@code MERGE},
 * {@code DELETE}, {@code CREATE OR REPLACE TABLE AS SELECT}, ...) and whether it only appended
 * (added files, removed none); a metadata-only commit such as {@code SET TBLPROPERTIES} is not an
 * append. A commit whose only other action is a writer's {@code txn} mark (Structured Streaming)
 * counts as an append. {@code addedBytes} sums the sizes of the files it added; {@code
 * userMetadata} is the writer's note, or null; {@code removedFiles} tells a rewrite from a commit
 * that changed only metadata. {@code dataChange} is false for a commit whose added and removed
 * files all carry {@code dataChange=false} (OPTIMIZE, REORG ... APPLY (PURGE)) and for one with no
 * file, metadata or protocol action at all (VACUUM START and VACUUM END): it changes no row, so it
 * counts as an append of nothing, with no added bytes; its {@code removedFiles} tells a rewrite of
 * files (OPTIMIZE) from a commit that touched none. {@code newFiles} are the paths (as the log
 * writes them) of the files it added with dataChange=true, whose rows the change data feed reads as
 * this commit's inserts. {@code rowsChanged} is true when it added or removed a file with
 * dataChange=true: rows were written, which a metadata-only commit such as {@code SET
 * TBLPROPERTIES} does not do.
 */
public record CommitInfo(
    long version,
    String operation,
    boolean appendOnly,
    Instant timestamp,
    long addedBytes,
    String userMetadata,
    boolean removedFiles,
    boolean dataChange,
    java.util.List<String> newFiles,
    boolean rowsChanged) {}
