package dev.mlv.project;

import dev.mlv.lineage.ObjectId;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.ViewDefinition;
import java.util.Optional;

/**
 * A view of the project: its resolved id, its parsed definition, what the SELECT reads and uses
 * ({@code facts}, empty for a file view) and the settings it gets from mlv.yml.
 */
public record ProjectView(
    ObjectId id,
    ViewDefinition definition,
    Optional<QueryFacts> facts,
    ViewSettings.Effective settings) {}
