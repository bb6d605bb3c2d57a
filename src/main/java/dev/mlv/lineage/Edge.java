package dev.mlv.lineage;

import dev.mlv.diag.Position;

/** {@code from} (upstream) is read by {@code to}; {@code position} is where the SQL reads it. */
public record Edge(ObjectId from, ObjectId to, Position position) {}
