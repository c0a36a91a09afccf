package io.proofline.arch;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The core (algebra, snark, witness, engine, gpu) runs without Spring: the CLI, benchmarks and GPU harness use it
 * alone, and the CLI itself starts no Spring context either.
 */
@AnalyzeClasses(packages = "io.proofline", importOptions = ImportOption.DoNotIncludeTests.class)
class CoreIsSpringFreeTest {

    @ArchTest
    static final ArchRule coreDoesNotDependOnSpring = noClasses()
            .that().resideInAnyPackage("io.proofline.algebra..", "io.proofline.snark..", "io.proofline.witness..",
                    "io.proofline.engine..", "io.proofline.gpu..", "io.proofline.cli..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
            .because("the core packages must run without a Spring context (DESIGN §4, §6)");

    @ArchTest
    static final ArchRule algebraDependsOnNothingAbove = noClasses()
            .that().resideInAPackage("io.proofline.algebra..")
            .should().dependOnClassesThat().resideInAnyPackage("io.proofline.snark..", "io.proofline.engine..",
                    "io.proofline.gpu..", "io.proofline.service..", "io.proofline.web..", "io.proofline.cli..")
            .because("algebra is the bottom layer: algebra -> snark -> engine -> service -> web");
}
