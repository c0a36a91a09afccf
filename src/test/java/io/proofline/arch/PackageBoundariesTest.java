package io.proofline.arch;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.proofline.engine.ProvingEngine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The boundaries the folders promise: top-level packages depend on each other in one direction only, the engine's
 * pipeline is reached through its API alone and its memory and device rooms never reach into it, each
 * {@code internal} package is used by its own parent alone, the service's layers sit on top of the core, and the lab
 * (benchmarks, timing harnesses, the pre-fix admission) stays out of the product.
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
    static final ArchRule onlyTheEngineUsesItsPipeline = noClasses()
            .that().resideOutsideOfPackages("io.proofline.engine", "io.proofline.engine.pipeline")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.engine.pipeline")
            .because("engine.pipeline is the machinery behind the ProvingEngine API");

    @ArchTest
    static final ArchRule theEngineApiReachesItsPipelineOnlyToStartIt = noClasses()
            .that().resideInAPackage("io.proofline.engine").and().doNotBelongToAnyOf(ProvingEngine.class)
            .should().dependOnClassesThat().resideInAPackage("io.proofline.engine.pipeline")
            .because("the API is what the pipeline builds on; ProvingEngine's builder starting the implementation is "
                    + "the one way in");

    @ArchTest
    static final ArchRule memoryAndDevicesNeverReachIntoThePipeline = noClasses()
            .that().resideInAnyPackage("io.proofline.engine.memory", "io.proofline.engine.device")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.engine.pipeline")
            .because("the budget, its buffers and the device port are what the pipeline is built from");

    @ArchTest
    static final ArchRule theProductNeverUsesTheLab = noClasses()
            .that().resideOutsideOfPackage("io.proofline.lab..")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.lab..")
            .because("the lab (src/lab/java) ships in its own jar; the service jar and the core carry none of it");

    @ArchTest
    static final ArchRule onlyTheWitnessCalculatorUsesItsInternals = noClasses()
            .that().resideOutsideOfPackages("io.proofline.witness", "io.proofline.witness.internal")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.witness.internal")
            .because("witness.internal is circom's wasm runtime behind CircomWitnessCalculator");

    @ArchTest
    static final ArchRule onlyTheGpuPackagesUseTheGpuInternals = noClasses()
            .that().resideOutsideOfPackages("io.proofline.gpu..", "io.proofline.lab.gpu")
            .should().dependOnClassesThat().resideInAPackage("io.proofline.gpu.internal..")
            .because("callers reach the GPU through its backend and self-test API, never its kernels and buffers; "
                    + "the lab's GPU timing harness (lab.gpu) is the exception: timing kernels needs their streams, "
                    + "buffers and events, and the prove start's steps come through the worker's probe");

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
            .because("the CLI's commands ship in the jar for users to run, never in the service's path");
}
