package dev.mlv.refresh;

/**
 * What a file-ingesting view's refresh did with its source folder: files read, and files whose rows
 * were removed (replaced or deleted files under MIRROR).
 */
public record FileCounts(long ingested, long removed) {}
