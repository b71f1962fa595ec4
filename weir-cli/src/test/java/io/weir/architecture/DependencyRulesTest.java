package io.weir.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module rules of the design: what may depend on what. No frozen violations. */
class DependencyRulesTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // Test helpers shipped as a test jar are tests too.
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.weir");
  }

  @Test
  void when_apiIsChecked_then_itDependsOnNothingButTheJdk() {
    classes()
        .that()
        .resideInAPackage("io.weir.api..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("io.weir.api..", "java..")
        .check(classes);
  }

  @Test
  void when_durableFilesAreChecked_then_theyDependOnNothingButTheJdk() {
    classes()
        .that()
        .resideInAPackage("io.weir.files..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("io.weir.files..", "java..")
        .check(classes);
  }

  @Test
  void when_anyModuleIsChecked_then_nothingDependsOnTheCommandLine() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.weir.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.weir.cli..")
        .check(classes);
  }

  @Test
  void when_runtimeIsChecked_then_itKnowsNoConnectorOrExample() {
    noClasses()
        .that()
        .resideInAPackage("io.weir.runtime..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.weir.kafka..", "io.weir.examples..")
        .check(classes);
  }

  @Test
  void when_clusterIsChecked_then_onlyTheCommandLineKnowsIt() {
    noClasses()
        .that()
        .resideInAnyPackage("io.weir.api..", "io.weir.runtime..", "io.weir.kafka..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.weir.cluster..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("io.weir.cluster..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.weir.kafka..", "io.weir.examples..")
        .check(classes);
  }

  @Test
  void
      when_connectorsAreChecked_then_theyUseTheRuntimeOnlyThroughFailpointsMonitorsAndStartupPhases() {
    classes()
        .that()
        .resideInAPackage("io.weir.kafka..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.weir.api..",
            "io.weir.kafka..",
            "io.weir.runtime.failpoint..",
            "io.weir.runtime.monitor..",
            "io.weir.runtime.startup..",
            "org.apache.kafka..",
            "com.fasterxml.jackson..",
            "org.slf4j..",
            "java..")
        .check(classes);
  }

  @Test
  void when_nexmarkIsChecked_then_onlyTheCommandLineAndTheBenchKnowItAndOnlyItsOracleKnowsDuckDb() {
    noClasses()
        .that()
        .resideOutsideOfPackages("io.weir.nexmark..", "io.weir.cli..", "io.weir.lab.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.weir.nexmark..")
        .check(classes);
    noClasses()
        .that()
        .resideOutsideOfPackage("io.weir.nexmark.oracle..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.duckdb..")
        .check(classes);
  }

  @Test
  void when_webIsChecked_then_itReadsJobsOnlyThroughTheMonitor() {
    noClasses()
        .that()
        .resideInAPackage("io.weir.web..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.weir.kafka..",
            "io.weir.cluster..",
            "io.weir.runtime.task..",
            "io.weir.runtime.execution..")
        .check(classes);
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.weir.api..", "io.weir.runtime..", "io.weir.kafka..", "io.weir.cluster..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.weir.web..")
        .check(classes);
  }

  @Test
  void when_postgresConnectorIsChecked_then_itUsesTheApiAndNoOtherWeirModule() {
    classes()
        .that()
        .resideInAPackage("io.weir.postgres..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("io.weir.api..", "io.weir.postgres..", "org.slf4j..", "java..")
        .check(classes);
  }

  @Test
  void when_rocksDbBackendIsChecked_then_itUsesTheApiAndTheRuntimesStateAndStorageOnly() {
    classes()
        .that()
        .resideInAPackage("io.weir.rocksdb..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.weir.api..",
            "io.weir.rocksdb..",
            "io.weir.runtime.state..",
            "io.weir.runtime.checkpoint.storage..",
            "org.rocksdb..",
            "org.slf4j..",
            "java..")
        .check(classes);
  }

  @Test
  void when_operatorsAreChecked_then_theyDoNotReachIntoTasksOrExecution() {
    noClasses()
        .that()
        .resideInAnyPackage("io.weir.runtime.operators..", "io.weir.runtime.state..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.weir.runtime.task..", "io.weir.runtime.execution..")
        .check(classes);
  }

  @Test
  void when_productIsChecked_then_nothingDependsOnTheTestHarness() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.weir.testing..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.weir.testing..")
        .check(classes);
  }

  @Test
  void when_testHarnessIsChecked_then_itUsesTheApiAndTheRuntimeOnly() {
    classes()
        .that()
        .resideInAPackage("io.weir.testing..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.weir.api..", "io.weir.runtime..", "io.weir.testing..", "org.junit..", "java..")
        .check(classes);
  }

  @Test
  void when_labIsChecked_then_onlyTheCommandLineKnowsIt() {
    noClasses()
        .that()
        .resideOutsideOfPackages("io.weir.lab..", "io.weir.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.weir.lab..")
        .check(classes);
  }

  @Test
  void when_packagesAreChecked_then_noneDependsOnItselfThroughOthers() {
    slices().matching("io.weir.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void when_connectorsAndEngineAreChecked_then_theyStartNoDevelopmentServer() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.weir.api..",
            "io.weir.runtime..",
            "io.weir.kafka..",
            "io.weir.avro..",
            "io.weir.postgres..",
            "io.weir.rocksdb..",
            "io.weir.cluster..",
            "io.weir.web..",
            "io.weir.examples..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.weir.devservers..")
        .check(classes);
  }

  @Test
  void when_devServersAreChecked_then_theyKnowNoOtherWeirModule() {
    classes()
        .that()
        .resideInAPackage("io.weir.devservers..")
        .should()
        .onlyDependOnClassesThat()
        .resideOutsideOfPackages(
            "io.weir.api..",
            "io.weir.runtime..",
            "io.weir.kafka..",
            "io.weir.postgres..",
            "io.weir.cluster..",
            "io.weir.lab..")
        .check(classes);
  }
}
