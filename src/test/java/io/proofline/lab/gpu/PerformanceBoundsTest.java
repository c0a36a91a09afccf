package io.proofline.lab.gpu;

import io.proofline.gpu.GpuCurve;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The model reproduces the figures DESIGN §8 and docs/gpu-notes.md derive by hand. */
class PerformanceBoundsTest {

    @Test
    void msmBoundsAreDesignsFigures() {
        // DESIGN §8: BN254 2^20 4.7 ms (XYZZ) / 2.8 ms (batch-affine), 2^24 61 / 37 ms; BLS12-381 2^20 10.3 / 6.2,
        // 2^24 134 / 81 ms.
        assertBound(4.7, 2.8, PerformanceBounds.msm(GpuCurve.BN254, 1 << 20));
        assertBound(61, 37, PerformanceBounds.msm(GpuCurve.BN254, 1 << 24));
        assertBound(10.3, 6.2, PerformanceBounds.msm(GpuCurve.BLS12_381, 1 << 20));
        assertBound(134, 81, PerformanceBounds.msm(GpuCurve.BLS12_381, 1 << 24));
    }

    private static void assertBound(double xyzz, double batchAffine, PerformanceBounds.MsmBound b) {
        // DESIGN rounds to two or three figures.
        assertEquals(xyzz, b.xyzzMs(), xyzz * 0.02, "XYZZ bound");
        assertEquals(batchAffine, b.batchAffineMs(), batchAffine * 0.03, "batch-affine bound");
    }

    @Test
    void nttBoundIsTheArithmeticAt2To20AndGrowsAsNLogN() {
        // docs/gpu-notes.md: 20 stages × 2^19 butterflies = 10.5M multiplications → 0.18 ms at 57 G/s.
        assertEquals(0.184, PerformanceBounds.ntt(20), 0.002);
        assertEquals(PerformanceBounds.ntt(20) * 2 * 21 / 20, PerformanceBounds.ntt(21), 1e-9);
    }

    @Test
    void proveStartBoundAddsItsMsmsAndSixNtts() {
        int m = (1 << 16) + 6;
        double expected = 2 * PerformanceBounds.msm(GpuCurve.BN254, m).batchAffineMs()
                + PerformanceBounds.msm(GpuCurve.BN254, m - 3).batchAffineMs()
                + PerformanceBounds.msm(GpuCurve.BN254, 1 << 17).batchAffineMs() + 6 * PerformanceBounds.ntt(17);
        assertEquals(expected, PerformanceBounds.proveStart(GpuCurve.BN254, m, 2, 17), 1e-12);
    }

    @Test
    void icicleFiguresExistOnlyWhereDesignGivesThem() {
        assertEquals(14.8, PerformanceBounds.icicleMsm(GpuCurve.BN254, 1 << 20).orElseThrow());
        assertEquals(24.7, PerformanceBounds.icicleMsm(GpuCurve.BLS12_381, 1 << 20).orElseThrow());
        assertEquals(0.37, PerformanceBounds.icicleNtt(20).orElseThrow());
        assertFalse(PerformanceBounds.icicleMsm(GpuCurve.BN254, 1 << 22).isPresent());
        assertTrue(PerformanceBounds.icicleNtt(16).isEmpty());
    }
}
