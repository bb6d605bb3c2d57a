package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.pyspark.NotebookCells;
import dev.mlv.pyspark.PySparkReader;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.TableExtractor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class NotebookContentTest {
  final UUID ws = UUID.fromString("11111111-2222-4333-8444-555555555555");
  final UUID lh = UUID.fromString("66666666-7777-4888-9999-000000000000");

  private static List<String> fingerprints(Path file, String text) {
    return new PySparkReader(TableExtractor::new)
        .read(file, text).statements().stream()
            .filter(s -> s instanceof SqlStatement.CreateView)
            .map(s -> ((SqlStatement.CreateView) s).definition())
            .map(d -> d.name().dotted() + " " + d.fingerprint())
            .toList();
  }

  @Test
  void theNotebookSourceReadsBackToTheSameViewsAndFingerprints() throws IOException {
    Path file = Path.of("examples/medallion/views/gold/formula_ranking.py");
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String content = NotebookContent.python(NotebookCells.of(file, text), ws, lh, "lh_oud_mlv");

    assertThat(content)
        .startsWith("# Fabric notebook source\n\n# METADATA ********************\n\n# META {\n")
        .contains("# META       \"default_lakehouse\": \"" + lh + "\",\n")
        .contains("# META       \"default_lakehouse_name\": \"lh_oud_mlv\",\n")
        .contains("# META       \"default_lakehouse_workspace_id\": \"" + ws + "\"\n");
    assertThat(content.split("\n# CELL \\*{20}\n", -1)).hasSize(4);
    assertThat(fingerprints(Path.of("notebook-content.py"), content))
        .hasSize(1)
        .isEqualTo(fingerprints(file, text));
  }

  @Test
  void aSqlMagicCellIsWrittenBehindMagicInTheSparkSqlLanguage() {
    String content =
        NotebookContent.python(
            List.of("import fmlv\n", "%%sql\nCREATE MATERIALIZED LAKE VIEW s.v AS SELECT 1\n"),
            ws,
            lh,
            "lh");
    assertThat(content)
        .contains(
            "# CELL ********************\n\n# MAGIC %%sql\n"
                + "# MAGIC CREATE MATERIALIZED LAKE VIEW s.v AS SELECT 1\n\n"
                + "# METADATA ********************\n\n# META {\n# META   \"language\": \"sparksql\",");
    assertThat(NotebookCells.of(Path.of("notebook-content.py"), content))
        .containsExactly("import fmlv\n", "%%sql\nCREATE MATERIALIZED LAKE VIEW s.v AS SELECT 1\n");
  }
}
