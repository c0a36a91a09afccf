package io.proofline.algebra.curve;

import io.proofline.algebra.field.FieldPowers;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;

import java.math.BigInteger;

/**
 * The sextic twist E'(𝔽p²) that carries G2, given the non-residue ξ ∈ 𝔽p² with w⁶ = ξ in 𝔽p¹²:
 * <ul>
 *   <li>{@link #D}: E': y² = x³ + b/ξ (BN254, ξ = 9 + u), untwisted by (x, y) ↦ (x·w², y·w³);
 *   <li>{@link #M}: E': y² = x³ + b·ξ (BLS12-381, ξ = 1 + u), untwisted by (x, y) ↦ (x/w², y/w³).
 * </ul>
 * It derives the twisted b' and the endomorphism ψ = untwist⁻¹ ∘ Frobenius ∘ untwist from ξ, so no constant of ψ is
 * typed by hand.
 */
public enum Twist {
    D, M;

    /** b' = b/ξ (D) or b·ξ (M), from b ∈ 𝔽p. */
    public long[] twistedB(PrimeField fp, long b, long[] xi) {
        QuadraticField f2 = new QuadraticField(fp);
        long[] bb = fp2(fp, BigInteger.valueOf(b), BigInteger.ZERO);
        long[] r = new long[2 * fp.limbs()];
        if (this == D) {
            long[] inv = new long[r.length];
            f2.inv(xi, 0, inv, 0);
            f2.mul(bb, 0, inv, 0, r, 0);
        } else {
            f2.mul(bb, 0, xi, 0, r, 0);
        }
        return r;
    }

    /**
     * ψ(x, y) = (x̄·cx, ȳ·cy). For D: the untwist sends x to x·w², Frobenius to x̄·w^(2p), and twisting back divides by
     * w², so cx = w^(2(p−1)) = ξ^((p−1)/3) and likewise cy = ξ^((p−1)/2). For M the signs of the exponents flip.
     */
    public Endomorphism psi(PrimeField fp, long[] xi) {
        QuadraticField f2 = new QuadraticField(fp);
        BigInteger pMinus1 = fp.modulus().subtract(BigInteger.ONE);
        long[] cx = FieldPowers.pow(f2, xi, pMinus1.divide(BigInteger.valueOf(3)));
        long[] cy = FieldPowers.pow(f2, xi, pMinus1.shiftRight(1));
        if (this == M) {
            f2.inv(cx, 0, cx, 0);
            f2.inv(cy, 0, cy, 0);
        }
        return new Endomorphism(cx, cy, true);
    }

    /** The 𝔽p² element c0 + c1·u in Montgomery form. */
    public static long[] fp2(PrimeField fp, BigInteger c0, BigInteger c1) {
        int n = fp.limbs();
        long[] r = new long[2 * n];
        fp.fromBigInteger(c0, r, 0);
        fp.fromBigInteger(c1, r, n);
        return r;
    }
}
