package dev.mlv.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rules of ARCHITECTURE.md that a compiler does not check. */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void load() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.mlv");
  }

  @Test
  void sparkStaysInItsRoom() {
    noClasses()
        .that()
        .resideOutsideOfPackages("dev.mlv.target.local..", "dev.mlv.sql.fallback..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.spark..", "io.delta.sql..", "io.delta.tables..", "scala..")
        .because("validate, lineage and plan must not load Spark (ARCHITECTURE.md rule 3)")
        .check(classes);
  }

  @Test
  void azureIdentityStaysInTheFabricTarget() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.mlv.target.fabric..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.azure..", "com.microsoft.aad..", "com.microsoft.azure..")
        .because("only the Fabric target talks to Entra ID")
        .check(classes);
  }

  @Test
  void theCliSitsOnTop() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.mlv.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.mlv.cli..")
        .because("nothing below cli knows about the command line")
        .check(classes);
  }

  @Test
  void picocliOnlyInTheCli() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.mlv.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("picocli..")
        .check(classes);
  }

  @Test
  void noDumpingGroundPackages() {
    noClasses()
        .should()
        .resideInAnyPackage("..util..", "..utils..", "..common..", "..helpers..")
        .check(classes);
  }

  @Test
  void theModelDoesNotDependOnTargets() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.mlv.sql..",
            "dev.mlv.lineage..",
            "dev.mlv.project..",
            "dev.mlv.check..",
            "dev.mlv.diag..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.mlv.target..", "dev.mlv.plan..", "dev.mlv.refresh..")
        .check(classes);
  }
}
