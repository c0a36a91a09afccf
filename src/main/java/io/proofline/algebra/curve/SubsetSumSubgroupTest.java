package io.proofline.algebra.curve;

import java.util.Arrays;

/**
 * A batched test that many points, each already known to be on the curve, all lie in the order-r subgroup G:
 * {@value #TRIALS} random subset sums S_1..S_64 are formed, and each is tested on its own with the definition
 * [r]S == O. It costs about {@value #TRIALS} / {@value #WINDOW_BITS} = 8 mixed additions per point instead of the
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
 * <p><b>Cost.</b> The 64 bits of ρ_i are cut into 8 windows of 8 bits; window k keeps 255 buckets (Jacobian) and point i
 * is added to bucket ρ_i's k-th byte of each window (bucket 0 is never read: 8 additions at most). At the end, sum
 * t = 8k + b is the sum of window k's buckets whose index has bit b: the same subset sum, computed with work
 * independent of the number of points. Several accumulators (one per thread) merge by adding their sums.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class SubsetSumSubgroupTest {

    /** Independent subset sums: a point outside the subgroup passes with probability at most 2^−TRIALS. */
    public static final int TRIALS = 64;
    private static final int WINDOW_BITS = 8;
    private static final int WINDOWS = TRIALS / WINDOW_BITS;
    private static final int BUCKETS = 1 << WINDOW_BITS;

    private final CurveOps ops;
    private final int jac;
    /** WINDOWS × BUCKETS Jacobian points, all infinity (zeros) at the start. */
    private final long[] buckets;

    public SubsetSumSubgroupTest(CurveGroup group) {
        this.ops = group.newOps();
        this.jac = 3 * ops.fieldWidth();
        this.buckets = new long[WINDOWS * BUCKETS * jac];
    }

    /** Adds the affine point {@code p[po..]} (on the curve) to the sums whose bit is set in {@code selection}. */
    public void add(long[] p, int po, long selection) {
        for (int k = 0; k < WINDOWS; k++) {
            int v = (int) (selection >>> (WINDOW_BITS * k)) & (BUCKETS - 1);
            if (v != 0) {
                int at = (k * BUCKETS + v) * jac;
                ops.addAffineToJacobian(buckets, at, p, po, buckets, at);
            }
        }
    }

    /** The {@value #TRIALS} subset sums of the points added so far, Jacobian, one after another. */
    public long[] sums() {
        long[] sums = new long[TRIALS * jac];
        for (int k = 0; k < WINDOWS; k++) {
            for (int v = 1; v < BUCKETS; v++) {
                int at = (k * BUCKETS + v) * jac;
                if (ops.isInfinityJacobian(buckets, at)) {
                    continue;
                }
                for (int b = 0; b < WINDOW_BITS; b++) {
                    if ((v >>> b & 1) != 0) {
                        int s = (k * WINDOW_BITS + b) * jac;
                        ops.addJacobian(sums, s, buckets, at, sums, s);
                    }
                }
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
