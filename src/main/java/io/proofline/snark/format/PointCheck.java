package io.proofline.snark.format;

/**
 * How thoroughly the points of a proving key are checked when it is loaded. Coordinates are always checked to be
 * reduced and points to be on their curve.
 */
public enum PointCheck {
    /**
     * Also check that every point is in the order-r subgroup (the default): the point sections by a batched test of
     * a few additions per point ({@link io.proofline.algebra.curve.SubsetSumSubgroupCheck}).
     */
    SUBGROUP,
    /**
     * Skip the subgroup checks of the point sections, for a key checked before (the service checks it at
     * registration) or trusted (the CLI): a point outside the subgroup can only make the prover's proofs invalid
     * (which verification catches), not forge one.
     */
    CURVE,
    /**
     * Check only the header and IC points now (fully) and the point sections' sizes; the caller checks the point
     * sections with {@link ZkeyReader#checkPointSections} before the key is used (the service: off the request thread,
     * with progress).
     */
    LATER
}
