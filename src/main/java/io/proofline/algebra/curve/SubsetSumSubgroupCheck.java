package io.proofline.algebra.curve;

import java.util.Arrays;

/**
 * A batched test that many points, each already known to be on the curve, all lie in the order-r subgroup G:
 * {@value #TRIALS} random subset sums S_1..S_64 are formed, and each is tested on its own with the definition
 * [r]S == O. It costs ⌈{@value #TRIALS} / {@value #WINDOW_BITS}⌉ = 6 mixed additions per point instead of the
 * 64- to 128-bit scalar multiplication of the per-point endomorphism test ({@link CurveOps#isInSubgroup}).
 *
 * <p><b>Soundness.</b> Point i joins sum t when bit t of its selection word ρ_i is set, the words being independent,
 * uniform and unknown to whoever chose the points (the caller draws them after the points are fixed). Suppose some
 * P_j ∉ G. Fix every bit except bit t of ρ_j: then S_t is either A or A + P_j for a fixed A. Both cannot be in G,
 * since G is a subgroup and then P_j = (A + P_j) − A would be too; so Pr[S_t ∈ G] ≤ 1/2, and the 64 sums use
 * independent bits, so a key with a point outside G passes with probability at most 2^−64. The argument needs
 * nothing about the curve beyond the group law (the points are on the curve, so the addition formulas are the group
 * law) and that G is a subgroup: unlike a random <em>linear</em> combination Σ ρ_i·P_i, a component of small order
 * (BLS12-381 G1's cofactor has the factor 3, so one random combination misses it with probability 1/3) does not
 * weaken it, and the final test of each sum is the definition, not a curve-specific theorem.
 *
 * <p><b>Cost.</b> The 64 bits of ρ_i are cut into windows of {@value #WINDOW_BITS} bits (the last shorter); window k
 * keeps a bucket per value of its bits, and point i is added to the bucket of its value in each window (bucket 0 is
 * never read: 6 additions at most). The buckets are affine and filled by batches of additions that share one
 * inversion ({@link BatchAffineBuckets}, as the MSM's), about half the cost of a mixed addition. At the end, sum t (bit b of window k) is the sum of window k's
 * buckets whose index has bit b: the same subset sum, computed by folding the buckets bit by bit (two additions per
 * bucket, independent of the number of points). Several accumulators (one per thread) merge by adding their sums.
 * The buckets take 6 × 2^11 affine points per accumulator (2.3 MiB on BLS12-381 G2, and as much again in XYZZ
 * overflow accumulators should collisions need them): fewer, wider windows would save additions but cost memory
 * that the proving budget does not count.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class SubsetSumSubgroupCheck {

    /** Independent subset sums: a point outside the subgroup passes with probability at most 2^−TRIALS. */
    public static final int TRIALS = 64;
    private static final int WINDOW_BITS = 11;
    private static final int WINDOWS = (TRIALS + WINDOW_BITS - 1) / WINDOW_BITS;
    private static final int BUCKETS = 1 << WINDOW_BITS;

    /** Additions per batch: amortises an inversion; small against the buckets of a window, so collisions are rare. */
    private static final int BATCH = 256;

    private final CurveOps ops;
    private final int jac;
    /** WINDOWS × BUCKETS buckets: window k's bucket v is k · BUCKETS + v. */
    private final BatchAffineBuckets buckets;

    public SubsetSumSubgroupCheck(CurveGroup group) {
        this.ops = group.newOps();
        this.jac = 3 * ops.fieldWidth();
        this.buckets = new BatchAffineBuckets(group.newOps(), WINDOWS * BUCKETS, BATCH);
    }

    /** Adds the affine point {@code p[po..]} (on the curve) to the sums whose bit is set in {@code selection}. */
    public void add(long[] p, int po, long selection) {
        if (ops.isInfinityAffine(p, po)) {
            return; // changes no sum
        }
        for (int k = 0; k < WINDOWS; k++) {
            int v = (int) (selection >>> (WINDOW_BITS * k)) & (BUCKETS - 1);
            if (v != 0) {
                buckets.add(k * BUCKETS + v, p, po, false);
            }
        }
    }

    /**
     * The {@value #TRIALS} subset sums of the points added, Jacobian, one after another. It ends the accumulation
     * (the buckets are folded into one another): call it once, after the last {@link #add}.
     */
    public long[] sums() {
        buckets.flush();
        int xyzz = 4 * ops.fieldWidth();
        long[] window = new long[BUCKETS * xyzz];
        long[] sum = new long[xyzz];
        long[] sums = new long[TRIALS * jac];
        for (int k = 0; k < WINDOWS; k++) {
            int bits = Math.min(WINDOW_BITS, TRIALS - k * WINDOW_BITS);
            for (int v = 0; v < 1 << bits; v++) {
                buckets.bucketXyzz(k * BUCKETS + v, window, v * xyzz);
            }
            // From the top bit down: the sum of bit b is that of the buckets with bit b set among those below 2^(b+1);
            // then bucket u absorbs bucket u + 2^b, so the buckets below 2^b stand for every value with those low bits.
            for (int b = bits - 1; b >= 0; b--) {
                int half = 1 << b;
                ops.setInfinityXyzz(sum, 0);
                for (int u = 0; u < half; u++) {
                    int high = (half + u) * xyzz;
                    if (ops.isInfinityXyzz(window, high)) {
                        continue;
                    }
                    ops.addXyzz(sum, 0, window, high, sum, 0);
                    ops.addXyzz(window, u * xyzz, window, high, window, u * xyzz);
                }
                ops.xyzzToJacobian(sum, 0, sums, (k * WINDOW_BITS + b) * jac);
            }
        }
        return sums;
    }

    /** {@code into} += {@code other}, sum by sum (both from {@link #sums()} of the same group). */
    public static void merge(CurveOps ops, long[] into, long[] other) {
        int jac = 3 * ops.fieldWidth();
        for (int s = 0; s < TRIALS; s++) {
            ops.addJacobian(into, s * jac, other, s * jac, into, s * jac);
        }
    }

    /** Whether every sum is in the subgroup, by the definition [r]S == O. */
    public static boolean allInSubgroup(CurveOps ops, long[] sums) {
        int w = ops.fieldWidth();
        long[] affine = new long[2 * w];
        for (int s = 0; s < TRIALS; s++) {
            ops.jacobianToAffine(sums, s * 3 * w, affine, 0);
            if (!ops.isInSubgroupSlow(affine, 0)) {
                return false;
            }
            Arrays.fill(affine, 0L);
        }
        return true;
    }
}
