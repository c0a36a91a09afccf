package io.proofline.lab.gpu;

import io.proofline.gpu.GpuCurve;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parts of bench gpu that run on the host: its rows. */
class GpuBenchmarkTest {

    @Test
    void aRowGivesMedianRangeBoundRatiosAndThePeerUnderTheHeader() {
        PerformanceBounds.MsmBound b = PerformanceBounds.msm(GpuCurve.BN254, 1 << 20);
        String row = GpuBenchmark.formatRow("msm", GpuCurve.BN254, 20, new double[] {13.0, 13.5, 14.0, 14.8, 20.0},
                15.2, b.batchAffineMs(), b.xyzzMs(), PerformanceBounds.icicleMsm(GpuCurve.BN254, 1 << 20), "ok");
        List<String> cells = List.of(row.trim().split("\\s+"));
        assertEquals(List.of("msm", "bn254", "2^20", "14.000", "13.000", "20.000", "5", "15.2", "2.822", "(4.703)",
                "x4.96", "(x2.98)", "14.8", "x0.95", "ok"), cells, row);
        // Columns line up with the header: the median ends where "median ms" ends.
        String header = GpuBenchmark.header();
        assertEquals(header.indexOf("median ms") + "median ms".length(), row.indexOf("14.000") + "14.000".length());
    }

    @Test
    void rowsWithoutAHostFigureOrPeerSayDash() {
        String row = GpuBenchmark.formatRow("ntt", GpuCurve.BLS12_381, 18, new double[] {0.1}, Double.NaN,
                PerformanceBounds.ntt(18), Double.NaN, OptionalDouble.empty(), "forward");
        assertTrue(row.matches("ntt\\s+bls12_381\\s+2\\^18\\s+0\\.100\\s+0\\.100\\s+0\\.100\\s+1\\s+-\\s+\\S+\\s+x\\S+\\s+-\\s+-\\s+forward"),
                row);
    }
}
