package io.proofline.gpu;

import io.proofline.snark.SnarkCurve;

/** The kernels' curve for a snark curve: the one whose fields are the same objects. */
final class GpuCurves {

    private GpuCurves() {
    }

    static GpuCurve of(SnarkCurve curve) {
        for (GpuCurve c : GpuCurve.values()) {
            if (c.fq() == curve.fq() && c.fr() == curve.fr()) {
                return c;
            }
        }
        throw new IllegalArgumentException("no GPU kernels for curve " + curve);
    }
}
