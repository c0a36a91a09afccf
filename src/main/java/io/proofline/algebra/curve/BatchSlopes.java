package io.proofline.algebra.curve;

/**
 * The multiplications of one batch of affine additions, done elsewhere than in the field's scalar code (issue #3:
 * on Vector API lanes). Elements are in the field's 64-bit Montgomery layout, {@code w} longs each.
 */
interface BatchSlopes {

    /**
     * λ_k = num_k / den_k for k &lt; count (every den_k ≠ 0), kept for {@link #timesSlopes}; writes λ_k² to
     * {@code lambdaSq}.
     */
    void slopes(long[] den, long[] num, int count, long[] lambdaSq);

    /** r_k = λ_k·t_k for the slopes of the last {@link #slopes} call. */
    void timesSlopes(long[] t, int count, long[] r);
}
