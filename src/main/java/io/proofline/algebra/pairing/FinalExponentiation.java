package io.proofline.algebra.pairing;

import io.proofline.algebra.tower.Fq12;

import java.math.BigInteger;

/**
 * f ↦ f^((p¹² − 1)/r), split as (p⁶ − 1)(p² + 1) · (p⁴ − p² + 1)/r. The easy part costs an inverse, a conjugation
 * and a Frobenius; its output lies in the cyclotomic subgroup, where inversion is conjugation and squaring is
 * {@link Fq12#cyclotomicSqr}. The hard part has two implementations that give the same value:
 * <ul>
 *   <li>{@link Strategy#EXPONENT}: square-and-multiply by (p⁴ − p² + 1)/r (the definition; ~|p|·3 squarings);</li>
 *   <li>{@link Strategy#CHAIN}: the family's decomposition in x and powers of p, so the long exponentiations are by
 *       |x| (64 bits) — about a quarter of the squarings.</li>
 * </ul>
 * Per-thread: all scratch preallocated.
 */
public final class FinalExponentiation {

    /** Which hard-part algorithm {@link #apply} uses. */
    public enum Strategy { EXPONENT, CHAIN }

    private final PairingCurve curve;
    private final Fq12 f12;
    private final int w;
    private final long[] t;
    private final BigInteger blsThirdOfXMinusOneSquared;

    FinalExponentiation(PairingCurve curve, Fq12 f12) {
        this.curve = curve;
        this.f12 = f12;
        this.w = f12.width();
        this.t = new long[12 * w];
        BigInteger x = curve.x();
        BigInteger xm1sq = x.subtract(BigInteger.ONE).pow(2);
        this.blsThirdOfXMinusOneSquared = xm1sq.divide(BigInteger.valueOf(3));
        if (curve.family() == PairingCurve.Family.BLS12) {
            // The chain below relies on (p⁴ − p² + 1)/r = ((x − 1)²/3)·(x + p)·(x² + p² − 1) + 1; check it for this curve.
            BigInteger p = curve.fq().modulus();
            BigInteger chain = blsThirdOfXMinusOneSquared.multiply(x.add(p)).multiply(x.pow(2).add(p.pow(2)).subtract(BigInteger.ONE)).add(BigInteger.ONE);
            if (!xm1sq.mod(BigInteger.valueOf(3)).equals(BigInteger.ZERO) || !chain.equals(curve.hardExponent())) {
                throw new IllegalStateException(curve + ": BLS12 hard-part decomposition does not hold");
            }
        }
    }

    /** r = f^((p¹² − 1)/r) with the {@link Strategy#CHAIN} hard part. */
    public void apply(long[] f, int fo, long[] r, int ro) {
        apply(f, fo, r, ro, Strategy.CHAIN);
    }

    public void apply(long[] f, int fo, long[] r, int ro, Strategy strategy) {
        easyPart(f, fo, r, ro);
        if (strategy == Strategy.EXPONENT) {
            f12.cyclotomicPow(r, ro, curve.hardExponent(), r, ro);
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

    /** r = a^x for cyclotomic a (x may be negative: then conjugate). */
    private void expByX(long[] a, int ao, long[] r, int ro) {
        f12.cyclotomicPow(a, ao, curve.absX(), r, ro);
        if (curve.xIsNegative()) {
            f12.conjugate(r, ro, r, ro);
        }
    }

    /**
     * BN hard part (Scott, Benger, Charlemagne, Dominguez Perez, Kachisa, "On the final exponentiation for calculating
     * pairings on ordinary elliptic curves", Pairing 2009, §5): with f^x, f^x², f^x³ and Frobenius maps,
     * y0 = f^(p+p²+p³), y1 = f⁻¹, y2 = (f^x²)^p², y3 = ((f^x)^p)⁻¹, y4 = (f^x·(f^x²)^p)⁻¹, y5 = (f^x²)⁻¹,
     * y6 = (f^x³·(f^x³)^p)⁻¹, and f^hard = y0·y1²·y2⁶·y3¹²·y4¹⁸·y5³⁰·y6³⁶ by a short addition chain.
     * Cost: 3 exponentiations by x, 13 multiplications, 4 squarings, 7 Frobenius maps.
     */
    private void bnHardPart(long[] r, int ro) {
        int f = 0, fx = w, fx2 = 2 * w, fx3 = 3 * w, y0 = 4 * w, tmp = 5 * w, y3 = 6 * w, y4 = 7 * w, y6 = 8 * w,
                t0 = 9 * w, t1 = 10 * w;
        System.arraycopy(r, ro, t, f, w);
        expByX(t, f, t, fx);
        expByX(t, fx, t, fx2);
        expByX(t, fx2, t, fx3);

        f12.frobenius(t, f, 1, t, y0);
        f12.frobenius(t, f, 2, t, tmp);
        f12.mul(t, y0, t, tmp, t, y0);
        f12.frobenius(t, f, 3, t, tmp);
        f12.mul(t, y0, t, tmp, t, y0);
        f12.conjugate(t, f, t, f); // y1 = f⁻¹ (f is not needed any more)
        f12.frobenius(t, fx, 1, t, y3);
        f12.conjugate(t, y3, t, y3);
        f12.frobenius(t, fx2, 1, t, y4);
        f12.mul(t, y4, t, fx, t, y4);
        f12.conjugate(t, y4, t, y4);
        f12.frobenius(t, fx3, 1, t, y6);
        f12.mul(t, y6, t, fx3, t, y6);
        f12.conjugate(t, y6, t, y6);
        int y1 = f, y2 = fx3, y5 = fx; // reuse: fx3 and fx are consumed above
        f12.frobenius(t, fx2, 2, t, y2);
        f12.conjugate(t, fx2, t, y5);

        f12.cyclotomicSqr(t, y6, t, t0);
        f12.mul(t, t0, t, y4, t, t0);
        f12.mul(t, t0, t, y5, t, t0);
        f12.mul(t, y3, t, y5, t, t1);
        f12.mul(t, t1, t, t0, t, t1);
        f12.mul(t, t0, t, y2, t, t0);
        f12.cyclotomicSqr(t, t1, t, t1);
        f12.mul(t, t1, t, t0, t, t1);
        f12.cyclotomicSqr(t, t1, t, t1);
        f12.mul(t, t1, t, y1, t, t0);
        f12.mul(t, t1, t, y0, t, t1);
        f12.cyclotomicSqr(t, t0, t, t0);
        f12.mul(t, t0, t, t1, r, ro);
    }

    /**
     * BLS12 hard part from the decomposition (p⁴ − p² + 1)/r = ((x − 1)²/3)·(x + p)·(x² + p² − 1) + 1 (Hayashida,
     * Hayasaka, Teruya, ePrint 2020/875, who use 3× this exponent; we keep the exact one so that the pairing value
     * is the textbook e(P, Q)): a = f^((x−1)²/3), b = a^x·a^p, c = (b^x)^x·b^(p²)·b⁻¹, result c·f.
     * Cost: one 2|x|-bit and three |x|-bit exponentiations, ~7 multiplications, 2 Frobenius maps.
     */
    private void bls12HardPart(long[] r, int ro) {
        int f = 0, a = w, b = 2 * w, c = 3 * w, tmp = 4 * w;
        System.arraycopy(r, ro, t, f, w);
        f12.cyclotomicPow(t, f, blsThirdOfXMinusOneSquared, t, a);
        expByX(t, a, t, b);
        f12.frobenius(t, a, 1, t, tmp);
        f12.mul(t, b, t, tmp, t, b);
        expByX(t, b, t, c);
        expByX(t, c, t, c);
        f12.frobenius(t, b, 2, t, tmp);
        f12.mul(t, c, t, tmp, t, c);
        f12.conjugate(t, b, t, tmp);
        f12.mul(t, c, t, tmp, t, c);
        f12.mul(t, c, t, f, r, ro);
    }
}
