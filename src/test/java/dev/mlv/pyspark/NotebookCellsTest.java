package dev.mlv.pyspark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NotebookCellsTest {

  @Test
  void markedCellsAreKeptInOrderAndCommentOnlyCellsAreLeftOut() {
    String py =
        "# %%\n# just a title\n\n# %%\nimport fmlv\n\n# %%\ndef helper(df):\n    return df\n\n"
            + "# %% [markdown]\n# notes\n\n# %%\n@fmlv.materialized_lake_view(name=\"s.v\")\n"
            + "def v():\n    return helper(spark.read.table(\"s.t\"))\n";
    assertThat(NotebookCells.of(Path.of("a.py"), py))
        .containsExactly(
            "import fmlv\n",
            "def helper(df):\n    return df\n",
            "@fmlv.materialized_lake_view(name=\"s.v\")\n"
                + "def v():\n    return helper(spark.read.table(\"s.t\"))\n");
  }

  @Test
  void aPlainModuleIsSplitSoThatEachViewHasACellOfItsOwn() {
    String py =
        "import fmlv\n\ndef helper(df):\n    return df\n\n"
            + "@fmlv.materialized_lake_view(name=\"s.a\")\n@fmlv.check(\"c\", \"x > 0\")\n"
            + "def a():\n    return helper(spark.table(\"s.t\"))\n\n"
            + "@fmlv.materialized_lake_view(name=\"s.b\")\ndef b():\n    return spark.table(\"s.a\")\n"
            + "\nX = 1\n";
    assertThat(NotebookCells.of(Path.of("m.py"), py))
        .containsExactly(
            "import fmlv\n\ndef helper(df):\n    return df\n",
            "@fmlv.materialized_lake_view(name=\"s.a\")\n@fmlv.check(\"c\", \"x > 0\")\n"
                + "def a():\n    return helper(spark.table(\"s.t\"))\n",
            "@fmlv.materialized_lake_view(name=\"s.b\")\ndef b():\n    return spark.table(\"s.a\")\n",
            "X = 1\n");
  }

  @Test
  void notebookCellsAndMagicCellsComeOutAsWritten() {
    String ipynb =
        "{\"cells\": ["
            + "{\"cell_type\": \"markdown\", \"source\": [\"# Title\"]},"
            + "{\"cell_type\": \"code\", \"source\": [\"import fmlv\\n\"]},"
            + "{\"cell_type\": \"code\", \"source\": [\"%%sql\\n\", \"SELECT 1\"]}"
            + "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}";
    assertThat(NotebookCells.of(Path.of("n.ipynb"), ipynb))
        .containsExactly("import fmlv\n", "%%sql\nSELECT 1\n");
    // Fabric's own format exports a magic cell behind "# MAGIC".
    String fabric =
        "# CELL ****\n\n# MAGIC %%sql\n# MAGIC SELECT 1\n\n# METADATA ****\n# META {}\n";
    assertThat(NotebookCells.of(Path.of("f.py"), fabric)).containsExactly("%%sql\nSELECT 1\n");
  }

  @Test
  void jsonThatIsNoNotebookIsAnError() {
    for (String json : new String[] {"{\"cells\": 5}", "{\"metadata\": {}}", "[1]"}) {
      Cells.Split split = Cells.of(Path.of("n.ipynb"), json);
      assertThat(split.cells()).as(json).isEmpty();
      assertThat(split.diagnostics())
          .as(json)
          .singleElement()
          .satisfies(d -> assertThat(d.ruleId()).isEqualTo("NOTEBOOK_JSON"));
    }
    // At the value that is wrong, not after it.
    assertThat(Cells.of(Path.of("n.ipynb"), "{\"cells\": 5}").diagnostics())
        .extracting(d -> d.position().toString())
        .containsExactly("n.ipynb:1:11");
    assertThat(Cells.of(Path.of("n.ipynb"), "[1]").diagnostics())
        .extracting(d -> d.position().toString())
        .containsExactly("n.ipynb:1:1");
  }
}
