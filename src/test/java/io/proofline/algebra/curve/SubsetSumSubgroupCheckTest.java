package io.proofline.algebra.curve;

import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batched subgroup test: its sums are the subset sums it claims, subgroup points pass, and a single point outside
 * the subgroup (a random point of the curve, or on BLS12-381 G1 a subgroup point plus a point of order 3, which a
 * random linear combination misses a third of the time) fails it every time.
 */
class SubsetSumSubgroupCheckTest {

    private static final long SEED = 20261204L;

    static Stream<CurveGroup> groups() {
        return Stream.of(Bn254Curves.G1, Bn254Curves.G2, Bls12381Curves.G1, Bls12381Curves.G2);
    }

    static Stream<CurveGroup> groupsWithCofactor() {
        return Stream.of(Bn254Curves.G2, Bls12381Curves.G1, Bls12381Curves.G2);
    }

    /** count subgroup points: [k]G, [k]G + G, ... (consecutive multiples, cheap to make). */
    private static long[] subgroupPoints(CurveOps ops, int count, SplittableRandom rnd) {
        int aw = ops.group().affineWidth();
        long[] points = new long[count * aw];
        long[] p = TestPoints.randomSubgroupPoint(ops, rnd);
        for (int i = 0; i < count; i++) {
            System.arraycopy(p, 0, points, i * aw, aw);
            p = ops.addAffine(p, ops.group().generator());
        }
        return points;
    }

    private static boolean passes(CurveGroup g, long[] points, int count, SplittableRandom rnd) {
        CurveOps ops = g.newOps();
        int aw = g.affineWidth();
        // two accumulators merged, as two threads would
        SubsetSumSubgroupCheck first = new SubsetSumSubgroupCheck(g);
        SubsetSumSubgroupCheck second = new SubsetSumSubgroupCheck(g);
        for (int i = 0; i < count; i++) {
            (i % 2 == 0 ? first : second).add(points, i * aw, rnd.nextLong());
        }
        long[] sums = first.sums();
        SubsetSumSubgroupCheck.merge(ops, sums, second.sums());
        return SubsetSumSubgroupCheck.allInSubgroup(ops, sums);
    }

    @ParameterizedTest
    @MethodSource("groups")
    void sumsAreTheSubsetSumsOfTheSelectionBits(CurveGroup g) {
        SplittableRandom rnd = new SplittableRandom(SEED);
        CurveOps ops = g.newOps();
        int aw = g.affineWidth();
        int count = 12;
        long[] points = subgroupPoints(ops, count, rnd);
        long[] selection = new long[count];
        SubsetSumSubgroupCheck batch = new SubsetSumSubgroupCheck(g);
        for (int i = 0; i < count; i++) {
            selection[i] = rnd.nextLong();
            batch.add(points, i * aw, selection[i]);
        }
        batch.add(new long[aw], 0, -1L); // the point at infinity changes no sum
        long[] sums = batch.sums();
        for (int t = 0; t < SubsetSumSubgroupCheck.TRIALS; t++) {
            long[] expected = new long[aw];
            for (int i = 0; i < count; i++) {
                if ((selection[i] >>> t & 1) != 0) {
                    expected = ops.addAffine(expected, java.util.Arrays.copyOfRange(points, i * aw, (i + 1) * aw));
                }
            }
            long[] actual = new long[aw];
            ops.jacobianToAffine(sums, t * 3 * ops.fieldWidth(), actual, 0);
            assertArrayEquals(expected, actual, g + " sum " + t);
        }
    }

    @ParameterizedTest
    @MethodSource("groups")
    void oneBucketHitAgainAndAgainStillSumsExactly(CurveGroup g) {
        // every copy goes to the same bucket of each window: additions collide within a batch (deferred, then the
        // overflow accumulators), and equal points double
        CurveOps ops = g.newOps();
        long[] p = TestPoints.randomSubgroupPoint(ops, new SplittableRandom(SEED + 4));
        long alternate = 0x5555_5555_5555_5555L;
        SubsetSumSubgroupCheck batch = new SubsetSumSubgroupCheck(g);
        for (int i = 0; i < 700; i++) {
            batch.add(p, 0, -1L);
        }
        for (int i = 0; i < 300; i++) {
            batch.add(p, 0, alternate);
        }
        long[] sums = batch.sums();
        long[] all = ops.mulAffine(p, BigInteger.valueOf(1000));
        long[] most = ops.mulAffine(p, BigInteger.valueOf(700));
        for (int t = 0; t < SubsetSumSubgroupCheck.TRIALS; t++) {
            long[] actual = new long[g.affineWidth()];
            ops.jacobianToAffine(sums, t * 3 * ops.fieldWidth(), actual, 0);
            assertArrayEquals((alternate >>> t & 1) != 0 ? all : most, actual, g + " sum " + t);
        }
        assertTrue(SubsetSumSubgroupCheck.allInSubgroup(ops, sums));
    }

    @ParameterizedTest
    @MethodSource("groups")
    void subgroupPointsPass(CurveGroup g) {
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        int count = 300;
        long[] points = subgroupPoints(g.newOps(), count, rnd);
        // the same point twice in a bucket doubles it (the addition's p == q case)
        System.arraycopy(points, 0, points, g.affineWidth(), g.affineWidth());
        assertTrue(passes(g, points, count, rnd));
    }

    @ParameterizedTest
    @MethodSource("groupsWithCofactor")
    void oneCurvePointOutsideTheSubgroupFails(CurveGroup g) {
        SplittableRandom rnd = new SplittableRandom(SEED + 2);
        CurveOps ops = g.newOps();
        int count = 300;
        long[] points = subgroupPoints(ops, count, rnd);
        for (int run = 0; run < 5; run++) {
            long[] bad = TestPoints.randomCurvePoint(g, rnd);
            assertTrue(ops.isOnCurve(bad, 0));
            assertFalse(ops.isInSubgroupSlow(bad, 0));
            long[] withBad = points.clone();
            System.arraycopy(bad, 0, withBad, rnd.nextInt(count) * g.affineWidth(), bad.length);
            assertFalse(passes(g, withBad, count, rnd), g + " run " + run);
        }
    }

    @Test
    void aSubgroupPointPlusAPointOfOrderThreeFailsOnBls12381G1() {
        CurveGroup g = Bls12381Curves.G1;
        CurveOps ops = g.newOps();
        SplittableRandom rnd = new SplittableRandom(SEED + 3);
        // #E(Fq) = q + 1 − t with trace t = x + 1 for BLS12 curves; E(Fq) has a point of order 3 since 3 | #E / r.
        BigInteger order = g.baseField().modulus().subtract(Bls12381Curves.X);
        BigInteger cofactor = order.divide(g.order());
        assertTrue(order.mod(g.order()).signum() == 0 && cofactor.mod(BigInteger.valueOf(3)).signum() == 0);
        long[] three;
        do {
            three = ops.mulAffine(TestPoints.randomCurvePoint(g, rnd), order.divide(BigInteger.valueOf(3)));
        } while (ops.isInfinityAffine(three, 0));
        assertTrue(ops.isInfinityAffine(ops.mulAffine(three, BigInteger.valueOf(3)), 0));
        int count = 200;
        long[] points = subgroupPoints(ops, count, rnd);
        int j = rnd.nextInt(count);
        long[] bad = ops.addAffine(java.util.Arrays.copyOfRange(points, j * 2 * ops.fieldWidth(),
                (j + 1) * 2 * ops.fieldWidth()), three);
        assertFalse(ops.isInSubgroup(bad, 0));
        System.arraycopy(bad, 0, points, j * bad.length, bad.length);
        for (int run = 0; run < 20; run++) { // a single random linear combination would pass about 7 of these
            assertFalse(passes(g, points, count, rnd), "run " + run);
        }
    }
}
