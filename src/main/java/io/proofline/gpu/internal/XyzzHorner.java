package io.proofline.gpu.internal;

import io.proofline.algebra.field.FieldOps;

/**
 * The last step of Pippenger on the host: Σ_w 2^(c·w)·window_w + extra, by Horner from the top window, in XYZZ
 * coordinates (x = X/ZZ, y = Y/ZZZ) with the GPU's formulas: dbl-2008-s-1 (6M + 3S, a = 0) and add-2008-s
 * (12M + 2S), EFD "xyzz".
 *
 * <p>Why on the host: it is a chain of (W−1)·c ≈ 240 dependent doublings. On the GPU that runs on one thread, where
 * every multiplication is a serial carry chain of ~4N² multiply-adds (≈ 0.5 µs), so ≈ 1 ms; the CPU's 64-bit
 * multiplier does the same chain in ≈ 0.1 ms. The coordinates are any {@link FieldOps} (Fq for G1, Fq2 for G2).
 * Scratch is per instance: one instance per thread.
 */
final class XyzzHorner {

    private final FieldOps fq;
    private final int w;
    private final long[] acc;
    private final long[] t;

    XyzzHorner(FieldOps fq) {
        this.fq = fq;
        this.w = fq.width();
        this.acc = new long[4 * w];
        this.t = new long[12 * w];
    }

    /** Points are X‖Y‖ZZ‖ZZZ runs of 4·width longs; {@code windows} of them in {@code sums}, one in {@code extra}. */
    long[] combine(long[] sums, int windows, int c, long[] extra) {
        System.arraycopy(sums, (windows - 1) * 4 * w, acc, 0, 4 * w);
        for (int window = windows - 2; window >= 0; window--) {
            for (int d = 0; d < c; d++) {
                dbl();
            }
            add(sums, window * 4 * w);
        }
        add(extra, 0);
        return acc.clone();
    }

    private int x(int k) {
        return k * w;
    }

    /** acc ← 2·acc: U = 2Y, V = U², W = U·V, S = X·V, M = 3X², X3 = M² − 2S, Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ,
     *  ZZZ3 = W·ZZZ. */
    private void dbl() {
        if (fq.isZero(acc, x(2))) {
            return;
        }
        int U = 0, V = w, W = 2 * w, S = 3 * w, M = 4 * w, T = 5 * w;
        fq.add(acc, x(1), acc, x(1), t, U);
        fq.mul(t, U, t, U, t, V);
        fq.mul(t, U, t, V, t, W);
        fq.mul(acc, x(0), t, V, t, S);
        fq.mul(acc, x(0), acc, x(0), t, T);
        fq.add(t, T, t, T, t, M);
        fq.add(t, M, t, T, t, M);
        // X3 = M² − 2S
        fq.mul(t, M, t, M, t, T);
        fq.sub(t, T, t, S, t, T);
        fq.sub(t, T, t, S, acc, x(0));
        // Y3 = M(S − X3) − W·Y
        fq.sub(t, S, acc, x(0), t, S);
        fq.mul(t, M, t, S, t, S);
        fq.mul(t, W, acc, x(1), t, T);
        fq.sub(t, S, t, T, acc, x(1));
        fq.mul(acc, x(2), t, V, acc, x(2));
        fq.mul(acc, x(3), t, W, acc, x(3));
    }

    /** acc ← acc + q (q at {@code qo} in {@code q}): add-2008-s, with the equal-x cases handled. */
    private void add(long[] q, int qo) {
        if (fq.isZero(q, qo + 2 * w)) {
            return;
        }
        if (fq.isZero(acc, x(2))) {
            System.arraycopy(q, qo, acc, 0, 4 * w);
            return;
        }
        int U1 = 0, U2 = w, S1 = 2 * w, S2 = 3 * w, P = 4 * w, R = 5 * w, PP = 6 * w, PPP = 7 * w, Q = 8 * w,
                T = 9 * w;
        fq.mul(acc, x(0), q, qo + 2 * w, t, U1);
        fq.mul(q, qo, acc, x(2), t, U2);
        fq.mul(acc, x(1), q, qo + 3 * w, t, S1);
        fq.mul(q, qo + w, acc, x(3), t, S2);
        fq.sub(t, U2, t, U1, t, P);
        fq.sub(t, S2, t, S1, t, R);
        if (fq.isZero(t, P)) {
            if (fq.isZero(t, R)) {
                dbl();
            } else {
                java.util.Arrays.fill(acc, 0L);
            }
            return;
        }
        fq.mul(t, P, t, P, t, PP);
        fq.mul(t, P, t, PP, t, PPP);
        fq.mul(t, U1, t, PP, t, Q);
        // X3 = R² − PPP − 2Q
        fq.mul(t, R, t, R, t, T);
        fq.sub(t, T, t, PPP, t, T);
        fq.sub(t, T, t, Q, t, T);
        fq.sub(t, T, t, Q, acc, x(0));
        // Y3 = R(Q − X3) − S1·PPP
        fq.sub(t, Q, acc, x(0), t, Q);
        fq.mul(t, R, t, Q, t, Q);
        fq.mul(t, S1, t, PPP, t, T);
        fq.sub(t, Q, t, T, acc, x(1));
        // ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP
        fq.mul(acc, x(2), q, qo + 2 * w, acc, x(2));
        fq.mul(acc, x(2), t, PP, acc, x(2));
        fq.mul(acc, x(3), q, qo + 3 * w, acc, x(3));
        fq.mul(acc, x(3), t, PPP, acc, x(3));
    }
}
