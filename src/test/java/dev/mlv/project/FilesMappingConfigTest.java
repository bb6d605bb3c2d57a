package dev.mlv.project;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local target's {@code files:} mapping of OneLake folders to project folders. */
class FilesMappingConfigTest {
  private static final String URL =
      "abfss://Sales_WS@onelake.dfs.fabric.microsoft.com/Sales_LH.Lakehouse/Files/orders/";

  @TempDir Path root;

  private LoadResult load(String targets) throws IOException {
    // The default view folder, which must exist; these projects have no views yet.
    Files.createDirectories(root.resolve("views"));
    Files.writeString(
        root.resolve("mlv.yml"),
        "name: t\nworkspace: ws\nlakehouse: lh\nschema: dbo\ntargets:\n  local:\n"
            + "    type: spark\n"
            + targets);
    return ProjectLoader.load(root, Map.of());
  }

  @Test
  void aOneLakeFolderMapsToAFolderOfTheProject() throws IOException {
    LoadResult r = load("    files:\n      \"" + URL + "\": landing/orders\n");
    assertThat(r.hasErrors()).as(r.diagnostics().toString()).isFalse();
    SparkTarget t = (SparkTarget) r.orThrow().target("local").orElseThrow();
    assertThat(t.files()).containsExactly(Map.entry(URL, root.resolve("landing/orders")));
  }

  @Test
  void aKeyThatIsNotAOneLakeFolderAndAPathOutsideTheProjectArePositionedErrors()
      throws IOException {
    LoadResult r =
        load("    files:\n      landing: landing\n      \"" + URL + "\": ../elsewhere\n");
    assertThat(r.diagnostics())
        .extracting(d -> d.position().line() + ":" + d.position().column() + " " + d.ruleId())
        .containsExactly("9:7 CONFIG_VALUE", "10:" + (URL.length() + 11) + " CONFIG_PATH");
    assertThat(r.diagnostics().get(0).message()).contains("is not a OneLake folder URL");
  }

  @Test
  void aFileGivenForTheFolderIsAPositionedError() throws IOException {
    Files.createDirectories(root.resolve("landing"));
    Files.writeString(root.resolve("landing/orders.csv"), "id\n1\n");
    LoadResult r = load("    files:\n      \"" + URL + "\": landing/orders.csv\n");
    assertThat(r.diagnostics())
        .extracting(d -> d.position().line() + ":" + d.position().column() + " " + d.ruleId())
        .containsExactly("9:" + (URL.length() + 11) + " CONFIG_PATH");
    assertThat(r.diagnostics().get(0).message())
        .endsWith(
            " is the file landing/orders.csv; a OneLake folder maps to a folder of the project");
    // A folder no file has landed in yet is fine.
    assertThat(load("    files:\n      \"" + URL + "\": landing/later\n").hasErrors()).isFalse();
  }

  @Test
  void aMisspelledFilesKeySuggestsIt() throws IOException {
    LoadResult r = load("    fils: {}\n");
    assertThat(r.diagnostics().get(0).hint()).isEqualTo("did you mean 'files'?");
  }

  @Test
  void oneLakeFoldersCompareWorkspaceAndLakehouseWithoutCase() {
    OneLakeFolder mapped = OneLakeFolder.parse(URL).orElseThrow();
    OneLakeFolder below =
        OneLakeFolder.parse(
                "abfss://sales_ws@onelake.dfs.fabric.microsoft.com/sales_lh/Files/orders/2025/")
            .orElseThrow();
    assertThat(mapped.relativize(below)).contains("2025");
    assertThat(mapped.relativize(mapped)).contains("");
    assertThat(
            mapped.relativize(
                OneLakeFolder.parse(
                        "abfss://sales_ws@onelake.dfs.fabric.microsoft.com/sales_lh/Files/ordersx")
                    .orElseThrow()))
        .isEmpty();
    assertThat(OneLakeFolder.parse("abfss://w@host/lh.Lakehouse/Tables/x")).isEmpty();
  }
}
