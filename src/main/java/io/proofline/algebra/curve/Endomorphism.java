package io.proofline.algebra.curve;

/**
 * An efficiently computable endomorphism of the form (x, y) ↦ (π(x)·cx, π(y)·cy), where π is the identity on 𝔽p
 * or the conjugation (p-power Frobenius) on 𝔽p². It covers
 * <ul>
 *   <li>the GLV map φ(x, y) = (β·x, y) on G1 of j-invariant-0 curves (β a primitive cube root of unity, cy = 1), and
 *   <li>the untwist-Frobenius-twist map ψ on G2: ψ(x, y) = (x̄·ξ^((p−1)/3), ȳ·ξ^((p−1)/2)) for a D-type twist
 *       y² = x³ + b/ξ, and with the inverses of those coefficients for an M-type twist y² = x³ + b·ξ.
 * </ul>
 * Coefficients are Montgomery field elements of the curve's field width.
 */
public record Endomorphism(long[] cx, long[] cy, boolean conjugate) {
}
