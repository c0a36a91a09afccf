package io.proofline.algebra.curve;

import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;
import io.proofline.algebra.field.SquareRoots;

import java.math.BigInteger;
import java.util.SplittableRandom;

/** Random points for tests: subgroup points as [k]G, and arbitrary curve points by solving y² = x³ + b. */
final class TestPoints {

    private TestPoints() {
    }

    static BigInteger randomScalar(CurveGroup g, SplittableRandom rnd) {
        return new BigInteger(g.order().bitLength() + 8, new java.util.Random(rnd.nextLong())).mod(g.order());
    }

    static long[] randomSubgroupPoint(CurveOps ops, SplittableRandom rnd) {
        return ops.mulAffine(ops.group().generator(), randomScalar(ops.group(), rnd));
    }

    /** A uniformly random point of E (almost surely outside the subgroup when the cofactor is large). */
    static long[] randomCurvePoint(CurveGroup g, SplittableRandom rnd) {
        PrimeField fp = g.baseField();
        int w = g.fieldWidth();
        while (true) {
            long[] p = new long[2 * w];
            long[] rhs = new long[w];
            if (g.overFp2()) {
                QuadraticField f2 = new QuadraticField(fp);
                System.arraycopy(fp.random(rnd), 0, p, 0, w / 2);
                System.arraycopy(fp.random(rnd), 0, p, w / 2, w / 2);
                f2.sqr(p, 0, rhs, 0);
                f2.mul(rhs, 0, p, 0, rhs, 0);
                f2.add(rhs, 0, g.b(), 0, rhs, 0);
                if (SquareRoots.sqrt(f2, rhs, 0, p, w)) {
                    return p;
                }
            } else {
                System.arraycopy(fp.random(rnd), 0, p, 0, w);
                fp.sqr(p, 0, rhs, 0);
                fp.mul(rhs, 0, p, 0, rhs, 0);
                fp.add(rhs, 0, g.b(), 0, rhs, 0);
                if (SquareRoots.sqrt(fp, rhs, 0, p, w)) {
                    return p;
                }
            }
        }
    }

    /** Reference [k]P by plain double-and-add on affine points (BigInteger scalar, least significant bit first). */
    static long[] referenceMul(CurveOps ops, long[] p, BigInteger k) {
        long[] acc = new long[p.length];
        long[] base = p.clone();
        for (int i = 0; i < k.bitLength(); i++) {
            if (k.testBit(i)) {
                acc = ops.addAffine(acc, base);
            }
            base = ops.addAffine(base, base);
        }
        return acc;
    }
}
