package io.proofline.algebra.tower;

import io.proofline.algebra.field.FieldPowers;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;

import java.math.BigInteger;

/**
 * The parameters of the pairing tower 𝔽p² ⊂ 𝔽p⁶ ⊂ 𝔽p¹² used by BN and BLS12 curves:
 * <pre>
 *   𝔽p²  = 𝔽p[u]/(u² + 1)         ({@link QuadraticField})
 *   𝔽p⁶  = 𝔽p²[v]/(v³ − ξ)        ({@link Fq6}),  ξ = k + u  (BN254: k = 9, BLS12-381: k = 1)
 *   𝔽p¹² = 𝔽p⁶[w]/(w² − v)        ({@link Fq12}), so w⁶ = ξ
 * </pre>
 * Only ξ is given; every Frobenius coefficient is derived here from p and ξ when the tower is built.
 *
 * <p>Immutable and thread-safe: one instance per curve, shared by the per-thread {@link Fq6}/{@link Fq12} objects.
 */
public final class Tower {

    /** Highest Frobenius power with a coefficient table; the pairing needs π, π² and π³ (π⁶ is conjugation). */
    public static final int MAX_FROBENIUS = 3;

    private final PrimeField fp;
    private final int xiReal;
    private final long[] xi;
    /** gamma[k][e] = ξ^(e·(pᵏ − 1)/6) for k = 1..3, e = 0..5: the factor w^(e·pᵏ) = w^e · gamma[k][e]. */
    private final long[][][] gamma;

    /**
     * @param fp     the base field (p ≡ 3 mod 4, so u² = −1 defines 𝔽p²)
     * @param xiReal k in ξ = k + u; must be a non-square and a non-cube in 𝔽p² (checked)
     */
    public Tower(PrimeField fp, int xiReal) {
        if (xiReal < 1) {
            throw new IllegalArgumentException("ξ = k + u needs k ≥ 1, got " + xiReal);
        }
        this.fp = fp;
        this.xiReal = xiReal;
        int n = fp.limbs();
        this.xi = new long[2 * n];
        fp.fromBigInteger(BigInteger.valueOf(xiReal), xi, 0);
        fp.setOne(xi, n);

        QuadraticField f2 = new QuadraticField(fp);
        BigInteger p = fp.modulus();
        BigInteger p2MinusOne = p.pow(2).subtract(BigInteger.ONE);
        // v³ − ξ and w⁶ − ξ are irreducible iff ξ is neither a square nor a cube in 𝔽p².
        if (isOne(f2, pow(f2, xi, p2MinusOne.shiftRight(1))) || isOne(f2, pow(f2, xi, p2MinusOne.divide(BigInteger.valueOf(3))))) {
            throw new IllegalArgumentException("ξ = " + xiReal + " + u is a square or a cube in " + fp + "²");
        }
        this.gamma = new long[MAX_FROBENIUS + 1][6][];
        BigInteger six = BigInteger.valueOf(6);
        for (int k = 1; k <= MAX_FROBENIUS; k++) {
            BigInteger step = p.pow(k).subtract(BigInteger.ONE).divide(six);
            for (int e = 0; e < 6; e++) {
                gamma[k][e] = pow(f2, xi, step.multiply(BigInteger.valueOf(e)));
            }
        }
    }

    public PrimeField base() {
        return fp;
    }

    /** k in ξ = k + u. */
    public int xiReal() {
        return xiReal;
    }

    /** A copy of ξ as an 𝔽p² element. */
    public long[] xi() {
        return xi.clone();
    }

    /** A copy of ξ^(e·(pᵏ − 1)/6) ∈ 𝔽p², the coefficient that the k-th Frobenius puts on w^e. */
    public long[] frobeniusCoefficient(int k, int e) {
        return gamma[k][e].clone();
    }

    /** Shared, read-only view for the per-thread field objects of this package. */
    long[] gamma(int k, int e) {
        return gamma[k][e];
    }

    private static long[] pow(QuadraticField f2, long[] a, BigInteger e) {
        return FieldPowers.pow(f2, a, e);
    }

    private static boolean isOne(QuadraticField f2, long[] a) {
        long[] one = new long[f2.width()];
        f2.setOne(one, 0);
        return f2.equal(a, 0, one, 0);
    }

    @Override
    public String toString() {
        return fp + "¹² tower, ξ = " + xiReal + " + u";
    }
}
