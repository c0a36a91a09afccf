package io.proofline.algebra.pairing;

import io.proofline.algebra.field.FieldOps;

import java.math.BigInteger;

/**
 * Textbook affine arithmetic on y² = x³ + b over any {@link FieldOps} (𝔽p for G1, 𝔽p² for G2), for making test
 * points: slow (an inversion per step) and independent of the code under test. Infinity is all zeros.
 */
final class AffineTestCurve {

    private final FieldOps f;
    private final long[] b;
    private final int w;

    AffineTestCurve(FieldOps f, long[] b) {
        this.f = f;
        this.b = b;
        this.w = f.width();
    }

    boolean isInfinity(long[] p) {
        for (long l : p) {
            if (l != 0) {
                return false;
            }
        }
        return true;
    }

    boolean isOnCurve(long[] p) {
        if (isInfinity(p)) {
            return true;
        }
        long[] lhs = new long[w], rhs = new long[w];
        f.sqr(p, w, lhs, 0);
        f.sqr(p, 0, rhs, 0);
        f.mul(rhs, 0, p, 0, rhs, 0);
        f.add(rhs, 0, b, 0, rhs, 0);
        return f.equal(lhs, 0, rhs, 0);
    }

    long[] negate(long[] p) {
        long[] r = p.clone();
        if (!isInfinity(p)) {
            f.neg(p, w, r, w);
        }
        return r;
    }

    long[] add(long[] p, long[] q) {
        if (isInfinity(p)) {
            return q.clone();
        }
        if (isInfinity(q)) {
            return p.clone();
        }
        long[] lambda = new long[w], t = new long[w];
        if (f.equal(p, 0, q, 0)) {
            if (!f.equal(p, w, q, w) || f.isZero(p, w)) {
                return new long[2 * w];
            }
            f.sqr(p, 0, lambda, 0);            // 3x² / 2y
            f.add(lambda, 0, lambda, 0, t, 0);
            f.add(lambda, 0, t, 0, lambda, 0);
            f.add(p, w, p, w, t, 0);
        } else {
            f.sub(q, w, p, w, lambda, 0);      // (y2 − y1) / (x2 − x1)
            f.sub(q, 0, p, 0, t, 0);
        }
        f.inv(t, 0, t, 0);
        f.mul(lambda, 0, t, 0, lambda, 0);
        long[] r = new long[2 * w];
        f.sqr(lambda, 0, r, 0);
        f.sub(r, 0, p, 0, r, 0);
        f.sub(r, 0, q, 0, r, 0);
        f.sub(p, 0, r, 0, t, 0);
        f.mul(lambda, 0, t, 0, r, w);
        f.sub(r, w, p, w, r, w);
        return r;
    }

    long[] mul(long[] p, BigInteger k) {
        long[] acc = new long[2 * w];
        for (int i = k.bitLength() - 1; i >= 0; i--) {
            acc = add(acc, acc);
            if (k.testBit(i)) {
                acc = add(acc, p);
            }
        }
        return acc;
    }
}
