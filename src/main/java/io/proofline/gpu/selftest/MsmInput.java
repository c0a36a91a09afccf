package io.proofline.gpu.selftest;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;
import java.util.SplittableRandom;

/**
 * An MSM instance whose answer is known without any MSM: every point is kᵢ·G for a known kᵢ, so
 * Σ sᵢ·Pᵢ = (Σ sᵢ·kᵢ mod r)·G, one scalar multiplication on the CPU.
 *
 * @param points      affine x‖y Montgomery limbs, n of them
 * @param scalars     canonical little-endian limbs, n of them
 * @param expectedLog Σ sᵢ·kᵢ mod r
 * @param logs        the kᵢ, Montgomery limbs
 */
public record MsmInput(long[] points, long[] scalars, BigInteger expectedLog, long[] logs) {

    /** Distinct points made for a large progression; beyond this they repeat. */
    public static final int DISTINCT_POINTS = 1 << 14;

    /**
     * @param progression kᵢ = a + i·d (one point addition each, for large n) instead of independent random kᵢ
     */
    public static MsmInput create(ReferenceG1 g1, PrimeField fr, int n, ScalarMix mix, boolean progression,
                           SplittableRandom random) {
        int w = fr.limbs();
        long[][] logs = new long[n][];
        long[][] jacobian = new long[n][];
        long[] g = g1.fromAffine(g1.generator());
        if (progression && n > DISTINCT_POINTS) {
            // Above 2^14 points the progression repeats (the reference's allocating additions would dominate the
            // run); copies of a point get independent scalars, so they still land in different buckets.
            MsmInput base = create(g1, fr, DISTINCT_POINTS, ScalarMix.UNIFORM, true, random);
            long[] baseLogs = base.logs();
            int pw = 2 * g1.fq().limbs();
            long[] points = new long[n * pw];
            long[] tiledLogs = new long[n * w];
            for (int i = 0; i < n; i++) {
                int j = i % DISTINCT_POINTS;
                System.arraycopy(base.points(), j * pw, points, i * pw, pw);
                System.arraycopy(baseLogs, j * w, tiledLogs, i * w, w);
            }
            return withScalars(fr, points, tiledLogs, n, mix, random);
        }
        if (progression) {
            long[] a = fr.random(random);
            long[] d = fr.random(random);
            long[] step = g1.multiply(g, fr.toBigInteger(d));
            logs[0] = a;
            jacobian[0] = g1.multiply(g, fr.toBigInteger(a));
            for (int i = 1; i < n; i++) {
                logs[i] = fr.add(logs[i - 1], d);
                jacobian[i] = g1.add(jacobian[i - 1], step);
            }
        } else {
            for (int i = 0; i < n; i++) {
                logs[i] = fr.random(random);
                jacobian[i] = g1.multiply(g, fr.toBigInteger(logs[i]));
            }
        }
        // Edge cases the buckets must survive: a point at infinity, and one point twice (same scalar below too,
        // so both land in the same buckets and the bucket sum takes the doubling path).
        if (n > 4) {
            logs[3] = fr.zero();
            jacobian[3] = g1.infinity();
        }
        if (n > 5) {
            logs[5] = logs[4];
            jacobian[5] = jacobian[4];
        }
        long[] points = g1.batchToAffine(jacobian);
        long[] flatLogs = new long[n * w];
        for (int i = 0; i < n; i++) {
            System.arraycopy(logs[i], 0, flatLogs, i * w, w);
        }
        return withScalars(fr, points, flatLogs, n, mix, random);
    }

    /** Points whose logs are known, with fresh scalars drawn by the mix (scalar 5 repeats scalar 4). */
    private static MsmInput withScalars(PrimeField fr, long[] points, long[] logs, int n, ScalarMix mix,
                                        SplittableRandom random) {
        int w = fr.limbs();
        long[] scalars = new long[n * w];
        long[] sum = fr.zero();
        long[] term = new long[w];
        long[] canonical = new long[w];
        long[] previous = null;
        long[] equal = mix == ScalarMix.EQUAL ? fr.random(random) : null;
        for (int i = 0; i < n; i++) {
            long[] s = equal != null ? equal : scalar(fr, mix, random);
            if (i == 5 && previous != null) {
                s = previous;
            }
            previous = s;
            fr.fromMontgomery(s, 0, canonical, 0);
            System.arraycopy(canonical, 0, scalars, i * w, w);
            fr.mul(s, 0, logs, i * w, term, 0);
            fr.add(sum, 0, term, 0, sum, 0);
        }
        return new MsmInput(points, scalars, fr.toBigInteger(sum), logs);
    }

    /** A scalar in Montgomery form, drawn by the mix (not EQUAL, which draws one value for a whole input). */
    public static long[] scalar(PrimeField fr, ScalarMix mix, SplittableRandom random) {
        switch (mix) {
            case EQUAL -> throw new IllegalArgumentException("EQUAL scalars are drawn once per input");
            case UNIFORM -> {
                return fr.random(random);
            }
            case ONES -> {
                return fr.one();
            }
            case SMALL -> {
                return fr.fromLong(random.nextInt(256));
            }
            case WITNESS -> {
            }
        }
        int kind = random.nextInt(100);
        if (kind < 25) {
            return fr.zero();
        } else if (kind < 50) {
            return fr.one();
        } else if (kind < 60) {
            return fr.fromLong(random.nextInt(1 << 16));
        } else if (kind < 65) {
            return fr.neg(fr.one());
        }
        return fr.random(random);
    }
}
