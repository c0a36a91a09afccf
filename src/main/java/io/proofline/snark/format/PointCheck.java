package io.proofline.snark.format;

/**
 * How thoroughly the points of a proving key are checked when it is loaded. Coordinates are always checked to be
 * reduced and points to be on their curve.
 */
public enum PointCheck {
    /** Also check that every point is in the order-r subgroup (the default; costly on large keys, see below). */
    SUBGROUP,
    /**
     * Skip the subgroup checks. A proving key is trusted input chosen by whoever registered the circuit: a point
     * outside the subgroup can only make the prover's proofs invalid (which verification catches), not forge one.
     * Measured on the 2-core development machine: the subgroup check costs about 1–1.6 ms per BLS12-381 G1/G2 or
     * BN254 G2 point, against ~5 µs for the curve equation alone, so a 2^20-constraint key takes hours with it.
     */
    CURVE
}
