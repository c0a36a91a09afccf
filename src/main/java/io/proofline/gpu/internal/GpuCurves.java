package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import io.proofline.snark.SnarkCurve;

/** The kernels' curve for a snark curve: the one with the same field moduli. */
final class GpuCurves {

    private GpuCurves() {
    }

    static GpuCurve of(SnarkCurve curve) {
        for (GpuCurve c : GpuCurve.values()) {
            if (c.fq().modulus().equals(curve.fq().modulus()) && c.fr().modulus().equals(curve.fr().modulus())) {
                return c;
            }
        }
        throw new IllegalArgumentException("no GPU kernels for curve " + curve);
    }
}
