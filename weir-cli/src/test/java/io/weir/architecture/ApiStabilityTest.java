package io.weir.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.weir.api.annotation.Internal;
import io.weir.api.annotation.Public;
import io.weir.api.annotation.PublicEvolving;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every public type of the API says how stable it is, and jobs use no internal one. */
class ApiStabilityTest {
  private static final List<Class<? extends java.lang.annotation.Annotation>> MARKS =
      List.of(Public.class, PublicEvolving.class, Internal.class);

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.weir");
  }

  @Test
  void when_apiIsChecked_then_everyPublicTopLevelTypeHasExactlyOneStabilityMark() {
    classes()
        .that()
        .resideInAPackage("io.weir.api..")
        .and()
        .resideOutsideOfPackage("io.weir.api.annotation..")
        .and()
        .areTopLevelClasses()
        .and()
        .haveModifier(JavaModifier.PUBLIC)
        .should(haveExactlyOneStabilityMark())
        .check(classes);
  }

  @Test
  void when_examplesAreChecked_then_theyUseNoInternalApiType() {
    noClasses()
        .that()
        .resideInAPackage("io.weir.examples..")
        .should()
        .dependOnClassesThat(annotatedAsInternal())
        .check(classes);
  }

  private static ArchCondition<JavaClass> haveExactlyOneStabilityMark() {
    return new ArchCondition<>("have exactly one of @Public, @PublicEvolving, @Internal") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        long marks = MARKS.stream().filter(type::isAnnotatedWith).count();
        events.add(
            new SimpleConditionEvent(
                type, marks == 1, type.getName() + " has " + marks + " stability marks"));
      }
    };
  }

  private static DescribedPredicate<JavaClass> annotatedAsInternal() {
    return DescribedPredicate.describe(
        "annotated @Internal", type -> type.isAnnotatedWith(Internal.class));
  }
}
