package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import io.proofline.snark.SnarkCurves;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each snark curve finds its kernels' curve, whose element and point sizes match the key's layout. */
class GpuCurvesTest {

    @Test
    void snarkCurvesMapToTheirKernels() {
        assertEquals(GpuCurve.BN254, GpuCurves.of(SnarkCurves.BN128));
        assertEquals(GpuCurve.BLS12_381, GpuCurves.of(SnarkCurves.BLS12381));
        assertEquals(SnarkCurves.BN128.g1Bytes(), GpuCurve.BN254.affineBytes());
        assertEquals(SnarkCurves.BLS12381.g1Bytes(), GpuCurve.BLS12_381.affineBytes());
        assertEquals(GpuMsm.SCALAR_BYTES, SnarkCurves.BLS12381.fr().bytes());
    }
}
