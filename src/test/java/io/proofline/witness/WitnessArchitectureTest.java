package io.proofline.witness;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The witness package is core: the CLI and the engine run it without Spring (DESIGN §4, §6). */
@AnalyzeClasses(packages = "io.proofline", importOptions = ImportOption.DoNotIncludeTests.class)
class WitnessArchitectureTest {

    @ArchTest
    static final ArchRule witnessDoesNotDependOnSpring = noClasses()
            .that().resideInAPackage("io.proofline.witness..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
            .because("witness computation runs in the CLI and the engine without a Spring context");

    @ArchTest
    static final ArchRule chicoryStaysInsideTheWitnessPackage = noClasses()
            .that().resideOutsideOfPackage("io.proofline.witness..")
            .should().dependOnClassesThat().resideInAnyPackage("com.dylibso.chicory..", "io.proofline.witness.internal..")
            .because("callers use CircomWitnessCalculator; the wasm runtime is an implementation detail");
}
