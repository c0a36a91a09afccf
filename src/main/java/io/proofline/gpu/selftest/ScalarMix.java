package io.proofline.gpu.selftest;

/** How the MSM's scalars are drawn: uniform in Fr, or witness-like (many 0 and 1, some small, some r − 1). */
public enum ScalarMix {
    /** uniform in Fr */
    UNIFORM,
    /** like a witness: a quarter 0, a quarter 1, some below 2^16, some r − 1, the rest uniform */
    WITNESS,
    /** all 1: only the direct sum of the ones runs */
    ONES,
    /** below 2^8: one Pippenger window */
    SMALL,
    /** one uniform value for every point: each window's digits all fall into one bucket */
    EQUAL
}
