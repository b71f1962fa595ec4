package io.weir.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.weir.api.source.SourceFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No source task holds a lock shared with a user thread: tasks run on one thread each and hand work
 * to it as mail. A pushing {@link SourceFunction}'s checkpoint lock lives in its adapter beside the
 * operator; a task can neither ask for it, nor wait on or notify a monitor, nor yield to another
 * thread spinning for one.
 */
class SourceTaskLockRulesTest {
  private static final String TASKS = "io.weir.runtime.task..";
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.weir.runtime");
  }

  @Test
  void when_tasksAreChecked_then_noneKnowsASourceFunctionsCheckpointLock() {
    noClasses()
        .that()
        .resideInAPackage(TASKS)
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(SourceFunction.class, SourceFunction.SourceContext.class)
        .because("a source function's lock stays inside its adapter")
        .check(classes);
  }

  @Test
  void when_tasksAreChecked_then_noneWaitsOnOrNotifiesAMonitorOrYields() {
    noClasses()
        .that()
        .resideInAPackage(TASKS)
        .should()
        .callMethod(Object.class, "wait")
        .orShould()
        .callMethod(Object.class, "wait", long.class)
        .orShould()
        .callMethod(Object.class, "notify")
        .orShould()
        .callMethod(Object.class, "notifyAll")
        .orShould()
        .callMethod(Thread.class, "yield")
        .because("a task's thread parks for mail or input, it does not hand a lock over")
        .check(classes);
  }
}
