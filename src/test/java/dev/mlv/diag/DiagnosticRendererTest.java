package dev.mlv.diag;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiagnosticRendererTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * An error with no place (an unknown option, an unknown run id) has a null line and column, as
   * its file is null (found by QA: "line": 0, "column": 0); one with a place keeps it, with or
   * without a file.
   */
  @Test
  void aDiagnosticWithNoPlaceHasANullLineAndColumn() throws Exception {
    JsonNode doc =
        JSON.readTree(
            DiagnosticRenderer.jsonFailure(
                "runs",
                List.of(
                    Diagnostic.error("USAGE", null, "unknown option '--bogus'", null),
                    Diagnostic.error("SQL_PARSE", new Position(null, 3, 7), "bad input", null),
                    Diagnostic.error(
                        "SQL_PARSE", new Position(Path.of("views/a.sql"), 2, 42), "bad", null))));
    JsonNode d = doc.path("diagnostics");
    assertThat(d.get(0).path("file").isNull()).isTrue();
    assertThat(d.get(0).path("line").isNull()).as(d.toString()).isTrue();
    assertThat(d.get(0).path("column").isNull()).isTrue();
    assertThat(d.get(1).path("file").isNull()).isTrue();
    assertThat(d.get(1).path("line").asInt()).isEqualTo(3);
    assertThat(d.get(1).path("column").asInt()).isEqualTo(7);
    assertThat(d.get(2).path("file").asText()).isEqualTo("views/a.sql");
    assertThat(d.get(2).path("line").asInt()).isEqualTo(2);
    assertThat(d.get(2).path("column").asInt()).isEqualTo(42);
  }
}
