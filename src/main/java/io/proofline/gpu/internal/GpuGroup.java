package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.QuadraticField;

/**
 * One of a curve's two groups as the MSM kernels see it: G1 over Fq, or G2 over Fq2 = Fq[u]/(u² + 1)
 * (native-cuda/ff/fq2_t.cuh). Points are affine {@code x‖y} and XYZZ {@code X‖Y‖ZZ‖ZZZ} runs of coordinates, each
 * coordinate {@code degree} Montgomery elements of Fq — the zkey's layout and the host's, unchanged.
 *
 * @param curve  the curve whose kernels run (names {@code <curve>_g1_*} or {@code <curve>_g2_*})
 * @param degree 1 for G1, 2 for G2
 */
public record GpuGroup(GpuCurve curve, int degree) {

    public GpuGroup {
        if (degree != 1 && degree != 2) {
            throw new IllegalArgumentException("G" + degree + " is not a pairing group");
        }
    }

    public static GpuGroup g1(GpuCurve curve) {
        return new GpuGroup(curve, 1);
    }

    public static GpuGroup g2(GpuCurve curve) {
        return new GpuGroup(curve, 2);
    }

    /** The name of this group's instance of a kernel, e.g. {@code bn254_g2_accumulate_chunks}. */
    public String kernel(String name) {
        return curve.kernel("g" + degree + "_" + name);
    }

    /**
     * Arithmetic on one coordinate, for the host's last steps: Fq itself, or a fresh Fq2 (whose scratch makes it
     * single-threaded: one per user).
     */
    public FieldOps coordinateField() {
        return degree == 1 ? curve.fq() : new QuadraticField(curve.fq());
    }

    /** Longs per coordinate. */
    public int coordinateLongs() {
        return degree * curve.fq().limbs();
    }

    public int affineBytes() {
        return 2 * degree * curve.fqBytes();
    }

    public int xyzzBytes() {
        return 4 * degree * curve.fqBytes();
    }

    @Override
    public String toString() {
        return curve + " G" + degree;
    }
}
