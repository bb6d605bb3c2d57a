package dev.mlv.project;

import dev.mlv.diag.Position;

/** Another lakehouse the lineage reaches, and the workspace it lives in. */
public record LakehouseRef(String name, String workspace, Position position) {}
