package dev.mlv.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
  private static final List<String> KEYS = List.of("name", "workspace", "lakehouse", "schema");

  @Test
  void distanceCountsEditsAndSwaps() {
    assertThat(Suggestions.distance("name", "name")).isZero();
    assertThat(Suggestions.distance("nmae", "name")).isEqualTo(1);
    assertThat(Suggestions.distance("shema", "schema")).isEqualTo(1);
    assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
    assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
  }

  @Test
  void suggestsOnlyPlausibleTypos() {
    assertThat(Suggestions.nearest("Workspce", KEYS)).contains("workspace");
    assertThat(Suggestions.nearest("workspace_id", List.of("workspaceId", "lakehouseId")))
        .contains("workspaceId");
    assertThat(Suggestions.nearest("colour", KEYS)).isEmpty();
    assertThat(Suggestions.hint("colour", KEYS))
        .isEqualTo("expected one of: name, workspace, lakehouse, schema");
  }
}
