package io.proofline.gpu.selftest;

import io.proofline.algebra.field.PrimeField;

/**
 * A textbook CPU NTT (iterative radix-2 Cooley–Tukey, O(n log n)) to check the GPU's: bit-reverse, then for each
 * length len = 2, 4, …, n multiply by successive powers of ω^(n/len). A unit test checks it against the O(n²)
 * definition. Elements are flat Montgomery limbs.
 */
public final class ReferenceNtt {

    private ReferenceNtt() {
    }

    /** In place: x ← (Σ_j x_j·ω^(ij))_i for an n-th root of unity ω, n = 2^logN. */
    public static void transform(PrimeField f, long[] x, int logN, long[] omega) {
        int w = f.limbs();
        int n = 1 << logN;
        long[] tmp = new long[w];
        for (int i = 0; i < n; i++) {
            int r = Integer.reverse(i) >>> (32 - logN);
            if (logN > 0 && i < r) {
                System.arraycopy(x, i * w, tmp, 0, w);
                System.arraycopy(x, r * w, x, i * w, w);
                System.arraycopy(tmp, 0, x, r * w, w);
            }
        }
        long[] step = new long[w];
        long[] tw = new long[w];
        long[] v = new long[w];
        for (int len = 2; len <= n; len <<= 1) {
            long[] root = f.pow(omega, java.math.BigInteger.valueOf(n / len));
            System.arraycopy(root, 0, step, 0, w);
            for (int start = 0; start < n; start += len) {
                f.setOne(tw, 0);
                for (int j = 0; j < len / 2; j++) {
                    int u = (start + j) * w;
                    int t = (start + j + len / 2) * w;
                    f.mul(x, t, tw, 0, v, 0);
                    f.sub(x, u, v, 0, x, t);
                    f.add(x, u, v, 0, x, u);
                    f.mul(tw, 0, step, 0, tw, 0);
                }
            }
        }
    }

    /** In place: the inverse transform, including 1/n. */
    public static void inverse(PrimeField f, long[] x, int logN, long[] omega) {
        transform(f, x, logN, f.inv(omega));
        long[] nInverse = f.inv(f.fromLong(1L << logN));
        int w = f.limbs();
        for (int i = 0; i < (1 << logN); i++) {
            f.mul(x, i * w, nInverse, 0, x, i * w);
        }
    }
}
