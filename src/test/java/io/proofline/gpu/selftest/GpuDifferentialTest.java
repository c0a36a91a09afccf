package io.proofline.gpu.selftest;

import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuUnavailableException;
import io.proofline.gpu.internal.GpuDevices;
import io.proofline.gpu.internal.KernelModule;
import io.proofline.snark.SnarkCurves;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The GPU kernels against the CPU on fresh random inputs, both curves: every kernel the self-test checks (field
 * operations, NTTs, the coset H step, G1 and G2 MSMs of uniform and skewed scalars; {@link GpuSelfTest}) up to
 * 2^{@value #DEFAULT_LOG} elements, or 2^k with {@code -Dproofline.test.gpu.log=k}, and whole proofs whose G1 sums must
 * equal the CPU backend's and which must verify ({@link GpuProofCheck}). Runs where a GPU and the kernels are present
 * (the jar built with nvcc, or {@code -Dproofline.test.gpu.kernels=DIR}); elsewhere it is skipped with the reason.
 */
@Tag("gpu")
class GpuDifferentialTest {

    private static final int DEFAULT_LOG = 12;
    private static final int LOG = Integer.getInteger("proofline.test.gpu.log", DEFAULT_LOG);
    private static final GpuConfig CONFIG = new GpuConfig(GpuConfig.DEFAULTS.b2(), GpuConfig.DEFAULTS.msmMaxWindow(),
            Optional.ofNullable(System.getProperty("proofline.test.gpu.kernels")).map(java.nio.file.Path::of),
            GpuConfig.DEFAULTS.deviceMemoryBudgetBytes());

    /** Why the test cannot run here (no GPU, no kernels), or empty. */
    private static String unavailable;

    @BeforeAll
    static void lookForAGpuAndKernels() {
        try {
            GpuDevices.discover();
            KernelModule.fatbins(CONFIG.kernels());
        } catch (GpuUnavailableException e) {
            unavailable = e.getMessage();
        }
    }

    @BeforeEach
    void requireAGpuAndKernels() {
        assumeTrue(unavailable == null, () -> "GPU differential test skipped: " + unavailable);
    }

    @Test
    void everyKernelAgreesWithTheCpu() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        long seed = System.nanoTime();
        int failed;
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            failed = new GpuSelfTest(out, new GpuSelfTest.Options(seed, LOG), CONFIG).run();
        }
        assertEquals(0, failed, "seed " + seed + ":\n" + text.toString(StandardCharsets.UTF_8));
    }

    @Test
    void wholeProofsMatchTheCpuAndVerify() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int failed;
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            failed = new GpuProofCheck(out, null, 300, CONFIG).run(List.of(
                    new GpuProofCheck.Case(SnarkCurves.BN128, Math.min(LOG, 14)),
                    new GpuProofCheck.Case(SnarkCurves.BLS12381, Math.min(LOG, 12))));
        }
        assertEquals(0, failed, text.toString(StandardCharsets.UTF_8));
    }
}
