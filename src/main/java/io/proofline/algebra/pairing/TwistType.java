package io.proofline.algebra.pairing;

/**
 * How the sextic twist E': y² = x³ + b' over 𝔽p² maps into E(𝔽p¹²) (w⁶ = ξ); it fixes where a line's three nonzero
 * coefficients sit in 𝔽p¹² (see {@link io.proofline.algebra.tower.Fq12#mulBy034} / {@code mulBy014}).
 */
public enum TwistType {
    /** Divisive: b' = b/ξ, ψ(x, y) = (x·w², y·w³). BN254. Lines have the shape ℓ0 + ℓ3·w + ℓ4·w³. */
    D,
    /** Multiplicative: b' = b·ξ, ψ(x, y) = (x·w⁻², y·w⁻³). BLS12-381. Lines (times w³) have the shape ℓ0 + ℓ1·w² + ℓ4·w³. */
    M
}
