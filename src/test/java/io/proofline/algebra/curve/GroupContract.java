package io.proofline.algebra.curve;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Group laws and checks that every curve group must satisfy; one subclass per group. */
abstract class GroupContract {

    abstract CurveGroup group();

    /** Whether random curve points are expected outside the subgroup (false when the cofactor is 1). */
    boolean hasCofactor() {
        return true;
    }

    private final long seed = new SplittableRandom().nextLong();
    final SplittableRandom rnd = new SplittableRandom(seed);

    String seedMsg() {
        return group().name() + " seed=" + seed;
    }

    @Test
    void generatorIsOnCurveAndHasOrderR() {
        CurveOps ops = group().newOps();
        long[] g = group().generator();
        assertTrue(ops.isOnCurve(g, 0));
        assertTrue(ops.isInSubgroupSlow(g, 0));
        assertTrue(ops.isInSubgroup(g, 0));
        assertFalse(ops.isInfinityAffine(g, 0));
    }

    @Test
    void addIsAssociativeAndCommutativeWithIdentityAndInverse() {
        CurveOps ops = group().newOps();
        for (int i = 0; i < 10; i++) {
            long[] a = TestPoints.randomSubgroupPoint(ops, rnd);
            long[] b = TestPoints.randomSubgroupPoint(ops, rnd);
            long[] c = TestPoints.randomSubgroupPoint(ops, rnd);
            assertArrayEquals(ops.addAffine(ops.addAffine(a, b), c), ops.addAffine(a, ops.addAffine(b, c)), seedMsg());
            assertArrayEquals(ops.addAffine(a, b), ops.addAffine(b, a), seedMsg());
            long[] inf = new long[a.length];
            assertArrayEquals(a, ops.addAffine(a, inf), seedMsg());
            assertArrayEquals(a, ops.addAffine(inf, a), seedMsg());
            long[] neg = new long[a.length];
            ops.negateAffine(a, 0, neg, 0);
            assertArrayEquals(inf, ops.addAffine(a, neg), seedMsg());
            assertTrue(ops.isOnCurve(ops.addAffine(a, b), 0), seedMsg());
        }
    }

    @Test
    void doublingEqualsAddingToItselfInEveryRepresentation() {
        CurveOps ops = group().newOps();
        int w = group().fieldWidth();
        for (int i = 0; i < 10; i++) {
            long[] a = TestPoints.randomSubgroupPoint(ops, rnd);
            long[] ja = new long[3 * w];
            ops.affineToJacobian(a, 0, ja, 0);
            long[] dbl = new long[3 * w];
            ops.doubleJacobian(ja, 0, dbl, 0);
            long[] sum = new long[3 * w];
            ops.addJacobian(ja, 0, ja, 0, sum, 0);
            assertTrue(ops.equalJacobian(dbl, 0, sum, 0), seedMsg());
            long[] mixed = new long[3 * w];
            ops.addAffineToJacobian(ja, 0, a, 0, mixed, 0);
            assertTrue(ops.equalJacobian(dbl, 0, mixed, 0), seedMsg());
            // XYZZ: affine doubling, full doubling, mixed add onto itself all agree
            long[] x = new long[4 * w];
            ops.addAffineToXyzz(x, 0, a, 0, x, 0);       // from infinity: x = a
            long[] x2 = new long[4 * w];
            ops.doubleXyzz(x, 0, x2, 0);
            long[] x3 = new long[4 * w];
            ops.addAffineToXyzz(x, 0, a, 0, x3, 0);
            long[] x4 = new long[4 * w];
            ops.addXyzz(x, 0, x, 0, x4, 0);
            long[] expected = new long[2 * w];
            ops.jacobianToAffine(dbl, 0, expected, 0);
            for (long[] p : new long[][] {x2, x3, x4}) {
                long[] aff = new long[2 * w];
                ops.xyzzToAffine(p, 0, aff, 0);
                assertArrayEquals(expected, aff, seedMsg());
            }
        }
    }

    @Test
    void mixedAndXyzzAdditionsEqualFullJacobianAddition() {
        CurveOps ops = group().newOps();
        int w = group().fieldWidth();
        for (int i = 0; i < 10; i++) {
            long[] a = TestPoints.randomSubgroupPoint(ops, rnd);
            long[] b = TestPoints.randomSubgroupPoint(ops, rnd);
            long[] c = TestPoints.randomSubgroupPoint(ops, rnd);
            // Jacobian with Z ≠ 1: p = a + b
            long[] p = new long[3 * w];
            ops.affineToJacobian(a, 0, p, 0);
            ops.addAffineToJacobian(p, 0, b, 0, p, 0);
            long[] jc = new long[3 * w];
            ops.affineToJacobian(c, 0, jc, 0);
            ops.doubleJacobian(jc, 0, jc, 0);             // 2c, Z ≠ 1
            long[] full = new long[3 * w];
            ops.addJacobian(p, 0, jc, 0, full, 0);
            long[] viaMixed = new long[3 * w];
            ops.addAffineToJacobian(p, 0, c, 0, viaMixed, 0);
            ops.addAffineToJacobian(viaMixed, 0, c, 0, viaMixed, 0);
            assertTrue(ops.equalJacobian(full, 0, viaMixed, 0), seedMsg());
            // XYZZ path: (a + b) + c + c with full XYZZ add of 2c
            long[] xp = new long[4 * w];
            ops.addAffineToXyzz(xp, 0, a, 0, xp, 0);
            ops.addAffineToXyzz(xp, 0, b, 0, xp, 0);
            long[] xc = new long[4 * w];
            ops.doubleAffineToXyzz(c, 0, xc, 0);
            ops.addXyzz(xp, 0, xc, 0, xp, 0);
            long[] viaXyzz = new long[3 * w];
            ops.xyzzToJacobian(xp, 0, viaXyzz, 0);
            assertTrue(ops.equalJacobian(full, 0, viaXyzz, 0), seedMsg());
            // adding the negation gives infinity in XYZZ too
            long[] negC = new long[2 * w];
            ops.negateAffine(c, 0, negC, 0);
            long[] xq = new long[4 * w];
            ops.addAffineToXyzz(xq, 0, c, 0, xq, 0);
            ops.addAffineToXyzz(xq, 0, negC, 0, xq, 0);
            assertTrue(ops.isInfinityXyzz(xq, 0), seedMsg());
        }
    }

    @Test
    void scalarMulMatchesDoubleAndAddAndDistributes() {
        CurveOps ops = group().newOps();
        for (int i = 0; i < 5; i++) {
            long[] p = TestPoints.randomSubgroupPoint(ops, rnd);
            BigInteger a = TestPoints.randomScalar(group(), rnd);
            BigInteger b = TestPoints.randomScalar(group(), rnd);
            assertArrayEquals(TestPoints.referenceMul(ops, p, a), ops.mulAffine(p, a), seedMsg());
            assertArrayEquals(ops.mulAffine(p, a.add(b)), ops.addAffine(ops.mulAffine(p, a), ops.mulAffine(p, b)), seedMsg());
            assertArrayEquals(ops.mulAffine(p, a.multiply(b)), ops.mulAffine(ops.mulAffine(p, b), a), seedMsg());
            assertArrayEquals(ops.mulAffine(p, a.negate()), ops.mulAffine(p, group().order().subtract(a)), seedMsg());
        }
        long[] g = group().generator();
        for (long k = 0; k < 20; k++) {
            assertArrayEquals(TestPoints.referenceMul(ops, g, BigInteger.valueOf(k)), ops.mulAffine(g, BigInteger.valueOf(k)));
        }
    }

    @Test
    void batchToAffineMatchesOneByOne() {
        CurveOps ops = group().newOps();
        int w = group().fieldWidth();
        int n = 7;
        long[] jac = new long[n * 3 * w];
        for (int i = 0; i < n; i++) {
            if (i == 3) {
                continue; // infinity in the middle
            }
            long[] a = TestPoints.randomSubgroupPoint(ops, rnd);
            ops.affineToJacobian(a, 0, jac, i * 3 * w);
            ops.doubleJacobian(jac, i * 3 * w, jac, i * 3 * w);
        }
        long[] batch = new long[n * 2 * w];
        ops.batchJacobianToAffine(jac, 0, n, batch, 0);
        for (int i = 0; i < n; i++) {
            long[] one = new long[2 * w];
            ops.jacobianToAffine(jac, i * 3 * w, one, 0);
            assertArrayEquals(one, java.util.Arrays.copyOfRange(batch, i * 2 * w, (i + 1) * 2 * w), seedMsg());
        }
    }

    @Test
    void fastSubgroupCheckAgreesWithSlowCheck() {
        CurveOps ops = group().newOps();
        for (int i = 0; i < 10; i++) {
            long[] in = TestPoints.randomSubgroupPoint(ops, rnd);
            assertTrue(ops.isInSubgroup(in, 0), seedMsg());
            assertTrue(ops.isInSubgroupSlow(in, 0), seedMsg());
            long[] any = TestPoints.randomCurvePoint(group(), rnd);
            assertTrue(ops.isOnCurve(any, 0), seedMsg());
            boolean slow = ops.isInSubgroupSlow(any, 0);
            assertEquals(slow, ops.isInSubgroup(any, 0), seedMsg());
            assertEquals(!hasCofactor(), slow, seedMsg());
        }
    }

    @Test
    void notOnCurvePointIsRejected() {
        CurveOps ops = group().newOps();
        long[] p = group().generatorCopy();
        p[0] ^= 1; // still reduced (a Montgomery limb change), now off the curve
        assertFalse(ops.isOnCurve(p, 0));
        assertEquals(InvalidPointException.Reason.NOT_ON_CURVE, ops.check(p, 0, true));
    }
}
