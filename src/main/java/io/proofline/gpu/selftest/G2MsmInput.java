package io.proofline.gpu.selftest;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.curve.Msm;
import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.GpuCurve;

import java.math.BigInteger;
import java.util.SplittableRandom;

/**
 * A G2 MSM instance and its answer by the CPU's {@link Msm} (an independent implementation: batch-affine buckets,
 * Jacobian arithmetic, 64-bit limbs). The points are {@value #DISTINCT} random multiples kⱼ·G2, tiled to n with
 * independent scalars (G2 scalar multiplications on the host are slow; distinctness does not change the device's
 * work), plus a point at infinity and a repeated (point, scalar) pair that takes the buckets' doubling path.
 *
 * @param points   affine x‖y over Fq2, Montgomery limbs, n of them
 * @param scalars  canonical little-endian limbs, n of them
 * @param expected Σ sᵢ·Pᵢ, affine (all zeros for infinity)
 */
public record G2MsmInput(long[] points, long[] scalars, long[] expected) {

    static final int DISTINCT = 64;

    public static G2MsmInput create(GpuCurve curve, int n, ScalarMix mix, SplittableRandom random) {
        CurveGroup g2 = curve.snarkCurve().g2();
        CurveOps ops = g2.newOps();
        PrimeField fr = curve.fr();
        int pw = g2.affineWidth();
        long[] distinct = new long[DISTINCT * pw];
        for (int j = 0; j < DISTINCT; j++) {
            BigInteger k = fr.toBigInteger(fr.random(random));
            System.arraycopy(ops.mulAffine(g2.generatorCopy(), k), 0, distinct, j * pw, pw);
        }
        long[] points = new long[n * pw];
        for (int i = 0; i < n; i++) {
            System.arraycopy(distinct, (i % DISTINCT) * pw, points, i * pw, pw);
        }
        int w = fr.limbs();
        long[] scalars = new long[n * w];
        for (int i = 0; i < n; i++) {
            fr.fromMontgomery(MsmInput.scalar(fr, mix, random), 0, scalars, i * w);
        }
        if (n > 4) {
            java.util.Arrays.fill(points, 3 * pw, 4 * pw, 0L);  // infinity
        }
        if (n > 5) {
            System.arraycopy(points, 4 * pw, points, 5 * pw, pw);
            System.arraycopy(scalars, 4 * w, scalars, 5 * w, w);
        }
        return new G2MsmInput(points, scalars, Msm.compute(g2, points, scalars));
    }
}
