package io.proofline.arch;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.proofline.engine.ProvingEngine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The boundaries the folders promise: top-level packages depend on each other in one direction only, each
 * {@code internal} package is used by its own parent alone, the service's layers sit on top of the core, and the
 * benchmarks stay out of the service's path.
 */
@AnalyzeClasses(packages = "io.proofline", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageBoundariesTest {

    private static final String[] CORE = {"io.proofline.algebra..", "io.proofline.snark..", "io.proofline.engine..",
            "io.proofline.gpu..", "io.proofline.witness..", "io.proofline.cli.."};

    @ArchTest
    static final ArchRule topLevelPackagesAreFreeOfCycles = slices().matching("io.proofline.(*)..")
            .should().beFreeOfCycles()
            .because("algebra -> snark -> engine -> service -> web reads one way; a cycle makes two packages one");

    @ArchTest
    static final ArchRule onlyTheEngineUsesItsInternals = noClasses()
            .that().resideOutsideOfPackages("io.proofline.engine", "io.proofline.engine.internal")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.engine.internal")
            .because("engine.internal is the pipeline's machinery behind the ProvingEngine API");

    @ArchTest
    static final ArchRule theEngineApiReachesItsInternalsOnlyToStartThem = noClasses()
            .that().resideInAPackage("io.proofline.engine").and().doNotBelongToAnyOf(ProvingEngine.class)
            .should().dependOnClassesThat().resideInAPackage("io.proofline.engine.internal")
            .because("the API is what internal builds on; ProvingEngine's builder starting the implementation is the "
                    + "one way in (shared helpers such as ProcFiles live in engine itself)");

    @ArchTest
    static final ArchRule onlyTheWitnessCalculatorUsesItsInternals = noClasses()
            .that().resideOutsideOfPackages("io.proofline.witness", "io.proofline.witness.internal")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.witness.internal")
            .because("witness.internal is circom's wasm runtime behind CircomWitnessCalculator");

    @ArchTest
    static final ArchRule onlyTheGpuPackagesUseTheGpuInternals = noClasses()
            .that().resideOutsideOfPackage("io.proofline.gpu..")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.gpu.internal..")
            .because("callers reach the GPU through its backend and self-test API, never its kernels and buffers");

    @ArchTest
    static final ArchRule coreNeverUsesTheServiceLayers = noClasses()
            .that().resideInAnyPackage(CORE)
            .should().dependOnClassesThat().resideInAnyPackage("io.proofline.service..", "io.proofline.web..",
                    "io.proofline.ops..")
            .because("the core and the CLI run without the service; the service is built on them, not beside them");

    @ArchTest
    static final ArchRule benchmarksStayOutOfTheService = noClasses()
            .that().resideInAnyPackage("io.proofline.service..", "io.proofline.web..", "io.proofline.ops..")
            .should().dependOnClassesThat().resideInAnyPackage("io.proofline.cli..")
            .because("benchmarks (cli.bench) and commands ship in the jar for users to run, never in the service's path");
}
