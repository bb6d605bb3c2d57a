package dev.mlv.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MlvExceptionTest {
  @Test
  void theMessageListsFindingsInTheOrderValidatePrintsThem() {
    Diagnostic u4 =
        Diagnostic.error("A", new Position(Path.of("views/u4.sql"), 1, 42), "four", null);
    Diagnostic u2late =
        Diagnostic.warning("B", new Position(Path.of("views/u2.sql"), 3, 1), "two late", null);
    Diagnostic u2 =
        Diagnostic.error("C", new Position(Path.of("views/u2.sql"), 2, 12), "two", null);
    MlvException e = new MlvException(List.of(u4, u2late, u2));

    assertThat(e.getMessage().lines().filter(l -> l.startsWith("views/")))
        .extracting(l -> l.substring(0, l.indexOf(": ")))
        .containsExactly("views/u2.sql:2:12", "views/u2.sql:3:1", "views/u4.sql:1:42");
    // What the checks found is kept as they gave it; renderers sort on their own.
    assertThat(e.diagnostics()).containsExactly(u4, u2late, u2);
  }
}
