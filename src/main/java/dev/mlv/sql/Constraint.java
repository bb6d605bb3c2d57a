package dev.mlv.sql;

import dev.mlv.diag.Position;

/** {@code CONSTRAINT name CHECK (expression) ON MISMATCH DROP|FAIL}. */
public record Constraint(
    String name, String expression, OnMismatch onMismatch, Position position) {}
