package io.proofline.algebra.pairing;

import io.proofline.algebra.tower.Fq12;

import java.math.BigInteger;

/**
 * f ↦ f^(c·(p¹² − 1)/r) with c = {@link PairingCurve#exponentMultiplier()}, split as (p⁶ − 1)(p² + 1) ·
 * c·(p⁴ − p² + 1)/r. The easy part costs an inverse, a conjugation and a Frobenius; its output lies in the
 * cyclotomic subgroup, where inversion is conjugation and squaring is {@link Fq12#cyclotomicSqr}. The hard part has
 * two implementations that give the same value:
 * <ul>
 *   <li>{@link Strategy#EXPONENT}: square-and-multiply by c·(p⁴ − p² + 1)/r (the definition; BN254 ~950, BLS12-381
 *       ~1270 cyclotomic squarings);</li>
 *   <li>{@link Strategy#CHAIN}: the family's decomposition λ0 + λ1·p + λ2·p² + λ3·p³ with λᵢ polynomials in x, so
 *       the long exponentiations are by |x| (64 bits): 3 of them for BN, 5 for BLS12.</li>
 * </ul>
 * The decompositions are re-derived with BigInteger for the curve at construction and rejected if they do not hold.
 * Per-thread: all scratch preallocated.
 */
public final class FinalExponentiation {

    /** Which hard-part algorithm {@link #apply} uses. */
    public enum Strategy { EXPONENT, CHAIN }

    private final PairingCurve curve;
    private final Fq12 f12;
    private final int w;
    private final long[] t;
    private final BigInteger hardExponent;

    FinalExponentiation(PairingCurve curve, Fq12 f12) {
        this.curve = curve;
        this.f12 = f12;
        this.w = f12.width();
        this.t = new long[8 * w];
        this.hardExponent = curve.hardExponent().multiply(curve.exponentMultiplier());
        checkDecomposition(curve, hardExponent);
    }

    private static void checkDecomposition(PairingCurve curve, BigInteger hard) {
        BigInteger x = curve.x(), p = curve.fq().modulus(), one = BigInteger.ONE;
        BigInteger chain;
        if (curve.family() == PairingCurve.Family.BN) {
            BigInteger l1 = poly(x, 0, 4, 6, 12);
            BigInteger l3 = l1.subtract(one), l2 = poly(x, 0, 6, 6, 12), l0 = poly(x, 1, 6, 12, 12);
            chain = l0.add(l1.multiply(p)).add(l2.multiply(p.pow(2))).add(l3.multiply(p.pow(3)));
        } else {
            chain = x.subtract(one).pow(2).multiply(x.add(p)).multiply(x.pow(2).add(p.pow(2)).subtract(one))
                    .add(BigInteger.valueOf(3));
        }
        if (!chain.equals(hard)) {
            throw new IllegalStateException(curve + ": hard-part decomposition does not hold");
        }
    }

    /** c0 + c1·x + c2·x² + c3·x³. */
    private static BigInteger poly(BigInteger x, long c0, long c1, long c2, long c3) {
        return BigInteger.valueOf(c3).multiply(x).add(BigInteger.valueOf(c2)).multiply(x)
                .add(BigInteger.valueOf(c1)).multiply(x).add(BigInteger.valueOf(c0));
    }

    /** r = f^(c·(p¹² − 1)/r) with the {@link Strategy#CHAIN} hard part. */
    public void apply(long[] f, int fo, long[] r, int ro) {
        apply(f, fo, r, ro, Strategy.CHAIN);
    }

    public void apply(long[] f, int fo, long[] r, int ro, Strategy strategy) {
        easyPart(f, fo, r, ro);
        if (strategy == Strategy.EXPONENT) {
            f12.cyclotomicPow(r, ro, hardExponent, r, ro);
        } else if (curve.family() == PairingCurve.Family.BN) {
            bnHardPart(r, ro);
        } else {
            bls12HardPart(r, ro);
        }
    }

    /** r = f^((p⁶ − 1)(p² + 1)) = (f̄ · f⁻¹)^(p² + 1). */
    public void easyPart(long[] f, int fo, long[] r, int ro) {
        int a = 0;
        f12.inv(f, fo, t, a);
        f12.conjugate(f, fo, r, ro);
        f12.mul(r, ro, t, a, r, ro);
        f12.frobenius(r, ro, 2, t, a);
        f12.mul(r, ro, t, a, r, ro);
    }

    /** r = a^x for cyclotomic a (x may be negative: then conjugate). r must not alias a's scratch. */
    private void expByX(long[] a, int ao, long[] r, int ro) {
        f12.cyclotomicPow(a, ao, curve.absX(), r, ro);
        if (curve.xIsNegative()) {
            f12.conjugate(r, ro, r, ro);
        }
    }

    /**
     * BN hard part, exponent 2x(6x² + 3x + 1)·(p⁴ − p² + 1)/r = λ0 + λ1p + λ2p² + λ3p³ with λ1 = 12x³ + 6x² + 4x,
     * λ3 = λ1 − 1, λ2 = λ1 + 2x, λ0 = λ2 + 6x² + 1 (Fuentes-Castañeda, Knapp, Rodríguez-Henríquez, "Faster hashing
     * to G2", SAC 2011, §6). Chain: f^(2x), f^(4x), f^(6x), f^(6x²), f^(12x³), then the λ's by multiplication.
     * Cost: 3 exponentiations by x, 3 cyclotomic squarings, 8 multiplications, 3 Frobenius maps.
     */
    private void bnHardPart(long[] r, int ro) {
        int f = 0, x2 = w, x4 = 2 * w, x6sq = 3 * w, y1 = 4 * w, y2 = 5 * w, tmp = 6 * w;
        System.arraycopy(r, ro, t, f, w);
        expByX(t, f, t, x2);
        f12.cyclotomicSqr(t, x2, t, x2);                 // f^(2x)
        f12.cyclotomicSqr(t, x2, t, x4);                 // f^(4x)
        f12.mul(t, x4, t, x2, t, tmp);                   // f^(6x)
        expByX(t, tmp, t, x6sq);                         // f^(6x²)
        f12.cyclotomicSqr(t, x6sq, t, tmp);              // f^(12x²)
        expByX(t, tmp, t, y1);                           // f^(12x³)
        f12.mul(t, y1, t, x6sq, t, y1);
        f12.mul(t, y1, t, x4, t, y1);                    // y1 = f^λ1
        f12.mul(t, y1, t, x2, t, y2);                    // y2 = f^λ2
        f12.mul(t, y2, t, x6sq, r, ro);
        f12.mul(r, ro, t, f, r, ro);                     // y0 = f^λ0
        f12.frobenius(t, y1, 1, t, tmp);
        f12.mul(r, ro, t, tmp, r, ro);                   // · y1^p
        f12.frobenius(t, y2, 2, t, tmp);
        f12.mul(r, ro, t, tmp, r, ro);                   // · y2^(p²)
        f12.conjugate(t, f, t, f);
        f12.mul(t, y1, t, f, t, y1);                     // y3 = f^λ3 = y1 / f
        f12.frobenius(t, y1, 3, t, tmp);
        f12.mul(r, ro, t, tmp, r, ro);                   // · y3^(p³)
    }

    /**
     * BLS12 hard part, exponent 3·(p⁴ − p² + 1)/r = (x − 1)²·(x + p)·(x² + p² − 1) + 3 (Hayashida, Hayasaka, Teruya,
     * "Efficient final exponentiation via cyclotomic structure for pairings over families of elliptic curves",
     * ePrint 2020/875): a = f^((x−1)²), b = a^(x+p) = a^x·a^p, c = b^(x² + p² − 1) = (b^x)^x·b^(p²)·b⁻¹, result c·f³.
     * Cost: 5 exponentiations by x, 1 cyclotomic squaring, 8 multiplications, 2 Frobenius maps.
     */
    private void bls12HardPart(long[] r, int ro) {
        int f = 0, a = w, b = 2 * w, c = 3 * w, tmp = 4 * w;
        System.arraycopy(r, ro, t, f, w);
        f12.conjugate(t, f, t, tmp);
        expByX(t, f, t, a);
        f12.mul(t, a, t, tmp, t, a);                     // f^(x−1)
        f12.conjugate(t, a, t, tmp);
        expByX(t, a, t, a);
        f12.mul(t, a, t, tmp, t, a);                     // a = f^((x−1)²)
        expByX(t, a, t, b);
        f12.frobenius(t, a, 1, t, tmp);
        f12.mul(t, b, t, tmp, t, b);                     // b = a^(x+p)
        expByX(t, b, t, c);
        expByX(t, c, t, c);
        f12.frobenius(t, b, 2, t, tmp);
        f12.mul(t, c, t, tmp, t, c);
        f12.conjugate(t, b, t, tmp);
        f12.mul(t, c, t, tmp, t, c);                     // c = b^(x² + p² − 1)
        f12.cyclotomicSqr(t, f, t, tmp);
        f12.mul(t, tmp, t, f, t, tmp);
        f12.mul(t, c, t, tmp, r, ro);                    // c·f³
    }
}
