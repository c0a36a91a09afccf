package io.proofline.algebra.curve;

import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.field.PrimeField;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Batch-affine buckets against discrete logs: every point added is [a]G with a known a, so the expected weighted
 * bucket sum is [Σ (b+1)·Σ aᵢ]G. Few buckets, tiny batches and a small pool of points force every special case
 * many times: collisions (deferred to the next batch, and XYZZ overflow once a batch's worth is deferred), P = B (doubling), P = −B (the bucket empties), re-filling an emptied
 * bucket, and batches flushed part-full.
 */
class BatchAffineBucketsTest {

    static Stream<CurveGroup> groups() {
        return Stream.of(Bn254Curves.G1, Bn254Curves.G2, Bls12381Curves.G1, Bls12381Curves.G2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    void weightedSumMatchesDiscreteLogs(CurveGroup g) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        CurveOps ops = g.newOps();
        BigInteger r = g.order();
        // a pool of points ±[a]G with small a, so that equal and opposite points meet in a bucket often
        int poolSize = 5;
        BigInteger[] logs = new BigInteger[poolSize];
        long[][] pool = new long[poolSize][];
        for (int i = 0; i < poolSize; i++) {
            logs[i] = TestPoints.randomScalar(g, rnd);
            pool[i] = ops.mulAffine(g.generator(), logs[i]);
        }
        int buckets = 1 + rnd.nextInt(6);
        int capacity = 1 + rnd.nextInt(4);
        BatchAffineBuckets batch = new BatchAffineBuckets(ops, buckets, capacity);
        BigInteger[] expected = new BigInteger[buckets];
        java.util.Arrays.fill(expected, BigInteger.ZERO);
        int additions = 300;
        for (int n = 0; n < additions; n++) {
            int b = rnd.nextInt(buckets);
            int which = rnd.nextInt(poolSize);
            boolean negate = rnd.nextBoolean();
            batch.add(b, pool[which], 0, negate);
            expected[b] = expected[b].add(negate ? logs[which].negate() : logs[which]);
            if (rnd.nextInt(50) == 0) {
                batch.flush();                           // a part-full batch
            }
        }
        BigInteger total = BigInteger.ZERO;
        for (int b = 0; b < buckets; b++) {
            total = total.add(expected[b].multiply(BigInteger.valueOf(b + 1)));
        }
        long[] got = new long[g.affineWidth()];
        ops.xyzzToAffine(batch.weightedSum(), 0, got, 0);
        assertArrayEquals(ops.mulAffine(g.generator(), total.mod(r)), got,
                g.name() + " buckets=" + buckets + " capacity=" + capacity + " seed=" + seed);
    }

    static Stream<CurveGroup> laneGroups() {
        return Stream.of(Bn254Curves.G1, Bn254Curves.G2, Bls12381Curves.G1, Bls12381Curves.G2);
    }

    /**
     * The Vector API lane path (BN254 and BLS12-381, G1 and G2, batches of at least {@link LaneSlopes#MIN_BATCH}) against discrete
     * logs and against the scalar path on the same additions: a small pool of ±points, so that the lane batches hold
     * doublings and cancellations, and flushes at random so that batches end part-full (padded lanes).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("laneGroups")
    void lanePathMatchesDiscreteLogsAndTheScalarPath(CurveGroup g) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        CurveOps ops = g.newOps();
        int poolSize = 6;
        BigInteger[] logs = new BigInteger[poolSize];
        long[][] pool = new long[poolSize][];
        for (int i = 0; i < poolSize; i++) {
            logs[i] = TestPoints.randomScalar(g, rnd);
            pool[i] = ops.mulAffine(g.generator(), logs[i]);
        }
        int buckets = 200;
        int capacity = LaneSlopes.MIN_BATCH + rnd.nextInt(100);
        BatchAffineBuckets lanes = new BatchAffineBuckets(ops, buckets, capacity, true);
        BatchAffineBuckets scalar = new BatchAffineBuckets(g.newOps(), buckets, capacity, false);
        org.junit.jupiter.api.Assertions.assertTrue(lanes.usesLanes(),
                "run the JVM with --add-modules jdk.incubator.vector (pom.xml's surefire.argLine)");
        BigInteger[] expected = new BigInteger[buckets];
        java.util.Arrays.fill(expected, BigInteger.ZERO);
        for (int n = 0; n < (g.overFp2() ? 6_000 : 20_000); n++) {
            int b = rnd.nextInt(buckets);
            int which = rnd.nextInt(poolSize);
            boolean negate = rnd.nextBoolean();
            lanes.add(b, pool[which], 0, negate);
            scalar.add(b, pool[which], 0, negate);
            expected[b] = expected[b].add(negate ? logs[which].negate() : logs[which]);
            if (rnd.nextInt(2000) == 0) {
                lanes.flush();
                scalar.flush();
            }
        }
        BigInteger total = BigInteger.ZERO;
        for (int b = 0; b < buckets; b++) {
            total = total.add(expected[b].multiply(BigInteger.valueOf(b + 1)));
        }
        long[] got = new long[g.affineWidth()];
        ops.xyzzToAffine(lanes.weightedSum(), 0, got, 0);
        long[] want = ops.mulAffine(g.generator(), total.mod(g.order()));
        assertArrayEquals(want, got, g.name() + " lanes, capacity=" + capacity + " seed=" + seed);
        ops.xyzzToAffine(scalar.weightedSum(), 0, got, 0);
        assertArrayEquals(want, got, g.name() + " scalar, capacity=" + capacity + " seed=" + seed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    void doublingAndCancellationInOneBatch(CurveGroup g) {
        CurveOps ops = g.newOps();
        long[] p = ops.mulAffine(g.generator(), BigInteger.valueOf(7));
        long[] q = ops.mulAffine(g.generator(), BigInteger.valueOf(11));
        BatchAffineBuckets batch = new BatchAffineBuckets(ops, 3, 4);
        batch.add(0, p, 0, false);       // bucket 0 = P
        batch.add(1, q, 0, false);       // bucket 1 = Q
        batch.add(2, q, 0, false);       // bucket 2 = Q
        batch.add(0, p, 0, false);       // P + P: doubling
        batch.add(1, q, 0, true);        // Q − Q: infinity
        batch.add(2, p, 0, true);        // Q − P: plain addition
        batch.add(2, p, 0, false);       // collision: deferred to the next batch, so bucket 2 = Q
        batch.flush();
        batch.add(1, p, 0, false);       // the emptied bucket is filled again: bucket 1 = P
        long[] got = new long[g.affineWidth()];
        ops.xyzzToAffine(batch.weightedSum(), 0, got, 0);
        // 1·14 + 2·7 + 3·11 = 61
        assertArrayEquals(ops.mulAffine(g.generator(), BigInteger.valueOf(61)), got, g.name());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    void collisionsBeyondOneBatchOverflowToXyzz(CurveGroup g) {
        CurveOps ops = g.newOps();
        long[] p = ops.mulAffine(g.generator(), BigInteger.valueOf(7));
        long[] q = ops.mulAffine(g.generator(), BigInteger.valueOf(11));
        BatchAffineBuckets batch = new BatchAffineBuckets(ops, 2, 2);
        batch.add(0, p, 0, false);       // bucket 0 = P
        batch.add(1, q, 0, false);       // bucket 1 = Q
        batch.add(0, q, 0, false);       // pending
        batch.add(0, p, 0, false);       // deferred
        batch.add(0, q, 0, false);       // deferred (the deferred list is now full)
        batch.add(0, p, 0, false);       // overflow (XYZZ)
        batch.add(1, p, 0, false);       // pending: the batch is full, runs, and the deferred points are re-added
        long[] got = new long[g.affineWidth()];
        ops.xyzzToAffine(batch.weightedSum(), 0, got, 0);
        // bucket 0 = 3·7 + 2·11 = 43, bucket 1 = 11 + 7 = 18: 1·43 + 2·18 = 79
        assertArrayEquals(ops.mulAffine(g.generator(), BigInteger.valueOf(79)), got, g.name());
    }

    /**
     * The segmented reduction (batched affine running sums per segment) against discrete logs, with few buckets per
     * segment and a small pool of ±points, so that a segment's running sum meets equal and opposite points (the
     * doubling and cancelling cases) and some buckets and segments stay empty.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    void segmentedSumMatchesDiscreteLogs(CurveGroup g) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        CurveOps ops = g.newOps();
        BigInteger r = g.order();
        int poolSize = 3;
        BigInteger[] logs = new BigInteger[poolSize];
        long[][] pool = new long[poolSize][];
        for (int i = 0; i < poolSize; i++) {
            logs[i] = TestPoints.randomScalar(g, rnd);
            pool[i] = ops.mulAffine(g.generator(), logs[i]);
        }
        for (int round = 0; round < 4; round++) {
            int segments = 1 << rnd.nextInt(4);
            int buckets = segments << rnd.nextInt(4);
            BatchAffineBuckets batch = new BatchAffineBuckets(ops, buckets, 1 + rnd.nextInt(8));
            BigInteger[] expected = new BigInteger[buckets];
            java.util.Arrays.fill(expected, BigInteger.ZERO);
            int additions = rnd.nextInt(3 * buckets);
            for (int n = 0; n < additions; n++) {
                int b = rnd.nextInt(buckets);
                int which = rnd.nextInt(poolSize);
                boolean negate = rnd.nextBoolean();
                batch.add(b, pool[which], 0, negate);
                batch.flush();                           // no collisions: the segmented sum needs no overflow
                expected[b] = expected[b].add(negate ? logs[which].negate() : logs[which]);
            }
            BigInteger total = BigInteger.ZERO;
            for (int b = 0; b < buckets; b++) {
                total = total.add(expected[b].multiply(BigInteger.valueOf(b + 1)));
            }
            long[] got = new long[g.affineWidth()];
            ops.xyzzToAffine(batch.segmentedSum(segments), 0, got, 0);
            assertArrayEquals(ops.mulAffine(g.generator(), total.mod(r)), got,
                    g.name() + " buckets=" + buckets + " segments=" + segments + " seed=" + seed);
        }
    }

    /** A large enough MSM that {@link Msm} takes the batch-affine path, checked by discrete logs. */
    @Tag("slow")
    @Test
    void largeMsmTakesTheBatchAffinePath() {
        for (CurveGroup g : new CurveGroup[] {Bn254Curves.G1, Bls12381Curves.G1}) {
            int n = 1 << 15;
            int c = Msm.windowBits(n, g.order().bitLength(), g.fieldWidth());
            assert (1 << (c - 1)) >= Msm.BATCH_AFFINE_MIN_BUCKETS : "c = " + c;
            long seed = new SplittableRandom().nextLong();
            SplittableRandom rnd = new SplittableRandom(seed);
            CurveOps ops = g.newOps();
            BigInteger r = g.order();
            BigInteger a0 = TestPoints.randomScalar(g, rnd), step = TestPoints.randomScalar(g, rnd);
            int jw = 3 * g.fieldWidth(), aw = g.affineWidth();
            long[] jac = new long[n * jw];
            long[] stepPoint = ops.mulAffine(g.generator(), step);
            ops.affineToJacobian(ops.mulAffine(g.generator(), a0), 0, jac, 0);
            for (int i = 1; i < n; i++) {
                ops.addAffineToJacobian(jac, (i - 1) * jw, stepPoint, 0, jac, i * jw);
            }
            long[] bases = new long[n * aw];
            ops.batchJacobianToAffine(jac, 0, n, bases, 0);
            long[] scalars = new long[4 * n];
            BigInteger log = BigInteger.ZERO;
            for (int i = 0; i < n; i++) {
                // a few repeated scalars too, so that buckets collide within batches
                BigInteger k = rnd.nextInt(16) == 0 ? BigInteger.valueOf(12345) : TestPoints.randomScalar(g, rnd);
                System.arraycopy(PrimeField.toLimbs(k, 4), 0, scalars, 4 * i, 4);
                log = log.add(k.multiply(a0.add(step.multiply(BigInteger.valueOf(i)))));
            }
            assertArrayEquals(ops.mulAffine(g.generator(), log.mod(r)), Msm.compute(g, bases, scalars),
                    g.name() + " seed=" + seed);
        }
    }
}
