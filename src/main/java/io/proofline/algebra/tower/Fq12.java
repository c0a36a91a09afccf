package io.proofline.algebra.tower;

import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;

import java.math.BigInteger;

/**
 * 𝔽p¹² = 𝔽p⁶[w]/(w² − v), the pairing target field. An element is {@code c0 ‖ c1} (two {@link Fq6}, 12·limbs longs)
 * meaning c0 + c1·w. Its six 𝔽p² coefficients are addressed by <i>slot</i> 3i + j for c_i.a_j, which is the
 * coefficient of w^(i + 2j): slot 0 ↔ 1, 1 ↔ w², 2 ↔ w⁴, 3 ↔ w, 4 ↔ w³, 5 ↔ w⁵ (the numbering of the sparse
 * products {@link #mulBy034} and {@link #mulBy014}, as in the literature).
 *
 * <p>Holds scratch space: <b>not thread-safe</b>; make one per thread. Outputs may alias inputs unless a method says
 * otherwise.
 */
public final class Fq12 implements FieldOps {

    private final Fq6 f6;
    private final QuadraticField f2;
    private final PrimeField fp;
    private final int e;
    private final int h;
    private final long[] t;
    private final long[] powScratch;

    public Fq12(Tower tower) {
        this.f6 = new Fq6(tower);
        this.f2 = f6.quadratic();
        this.fp = tower.base();
        this.e = 2 * fp.limbs();
        this.h = 3 * e;
        this.t = new long[6 * h];
        this.powScratch = new long[2 * width()];
    }

    /** The 𝔽p⁶ operations this object uses (same thread confinement). */
    public Fq6 sextic() {
        return f6;
    }

    public Tower tower() {
        return f6.tower();
    }

    @Override
    public int width() {
        return 2 * h;
    }

    /** Karatsuba over 𝔽p⁶, 3 𝔽p⁶ multiplications (18M₂): c0 = a0b0 + v·a1b1, c1 = (a0+a1)(b0+b1) − a0b0 − a1b1. */
    @Override
    public void mul(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        int t0 = 0, t1 = h, s = 2 * h, u = 3 * h;
        f6.mul(a, ao, b, bo, t, t0);
        f6.mul(a, ao + h, b, bo + h, t, t1);
        f6.add(a, ao, a, ao + h, t, s);
        f6.add(b, bo, b, bo + h, t, u);
        f6.mul(t, s, t, u, t, s);
        f6.sub(t, s, t, t0, t, s);
        f6.sub(t, s, t, t1, r, ro + h);
        f6.mulByV(t, t1, t, t1);
        f6.add(t, t0, t, t1, r, ro);
    }

    /**
     * Complex squaring, 2 𝔽p⁶ multiplications (12M₂): with m = a0a1, c0 = (a0 + a1)(a0 + v·a1) − m − v·m, c1 = 2m.
     */
    @Override
    public void sqr(long[] a, int ao, long[] r, int ro) {
        int m = 0, s = h, u = 2 * h;
        f6.mul(a, ao, a, ao + h, t, m);
        f6.add(a, ao, a, ao + h, t, s);
        f6.mulByV(a, ao + h, t, u);
        f6.add(t, u, a, ao, t, u);
        f6.mul(t, s, t, u, t, s);
        f6.sub(t, s, t, m, t, s);
        f6.mulByV(t, m, t, u);
        f6.sub(t, s, t, u, r, ro);
        f6.dbl(t, m, r, ro + h);
    }

    /** (a0 + a1w)⁻¹ = (a0 − a1w)/(a0² − v·a1²): one 𝔽p⁶ inverse. */
    @Override
    public void inv(long[] a, int ao, long[] r, int ro) {
        if (isZero(a, ao)) {
            throw new ArithmeticException(fp + "¹²: inverse of zero");
        }
        int t0 = 0, t1 = h;
        f6.sqr(a, ao, t, t0);
        f6.sqr(a, ao + h, t, t1);
        f6.mulByV(t, t1, t, t1);
        f6.sub(t, t0, t, t1, t, t0);
        f6.inv(t, t0, t, t0);
        f6.mul(a, ao, t, t0, r, ro);
        f6.mul(a, ao + h, t, t0, t, t1);
        f6.neg(t, t1, r, ro + h);
    }

    /** a0 − a1w = a^(p⁶); on the cyclotomic subgroup (after the easy part of the final exponentiation) it is a⁻¹. */
    public void conjugate(long[] a, int ao, long[] r, int ro) {
        if (a != r || ao != ro) {
            System.arraycopy(a, ao, r, ro, h);
        }
        f6.neg(a, ao + h, r, ro + h);
    }

    /** r = a^(pᵏ) for k = 1..3: conjugate each 𝔽p² coefficient k times, multiply the w^i coefficient by ξ^(i(pᵏ−1)/6). */
    public void frobenius(long[] a, int ao, int k, long[] r, int ro) {
        if (k < 1 || k > Tower.MAX_FROBENIUS) {
            throw new IllegalArgumentException("Frobenius power " + k + " not tabulated");
        }
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 3; j++) {
                int off = (3 * i + j) * e;
                f6.frobeniusCoefficient(a, ao + off, k, i + 2 * j, r, ro + off);
            }
        }
    }

    /**
     * r = a·ℓ for a line ℓ = ℓ0 + ℓ3·w + ℓ4·w³ (slots 0, 3, 4: the shape of a D-type-twist line), 13M₂: with
     * L0 = (ℓ0, 0, 0), L1 = (ℓ3, ℓ4, 0): c0 = a0L0 + v·a1L1, c1 = (a0 + a1)(L0 + L1) − a0L0 − a1L1.
     * The three coefficients lie at {@code l, l + 2n, l + 4n} of {@code line}, which must not alias r.
     */
    public void mulBy034(long[] a, int ao, long[] line, int l, long[] r, int ro) {
        int l0 = l, l3 = l + e, l4 = l + 2 * e;
        int x0 = 0, x1 = h, s = 2 * h, sum = 3 * h; // sum: ℓ0 + ℓ3 in its first 𝔽p² slot
        f6.mulByQuadratic(a, ao, line, l0, t, x0);
        f6.mulBy01(a, ao + h, line, l3, l4, t, x1);
        f6.add(a, ao, a, ao + h, t, s);
        f2.add(line, l0, line, l3, t, sum);
        System.arraycopy(line, l4, t, sum + e, e);
        f6.mulBy01(t, s, t, sum, sum + e, t, s);
        f6.sub(t, s, t, x0, t, s);
        f6.sub(t, s, t, x1, r, ro + h);
        f6.mulByV(t, x1, t, x1);
        f6.add(t, x0, t, x1, r, ro);
    }

    /**
     * r = a·ℓ for a line ℓ = ℓ0 + ℓ1·w² + ℓ4·w³ (slots 0, 1, 4: the shape of an M-type-twist line), 13M₂: with
     * L0 = (ℓ0, ℓ1, 0), L1 = (0, ℓ4, 0): c0 = a0L0 + v·a1L1, c1 = (a0 + a1)(L0 + L1) − a0L0 − a1L1.
     * The three coefficients lie at {@code l, l + 2n, l + 4n} of {@code line}, which must not alias r.
     */
    public void mulBy014(long[] a, int ao, long[] line, int l, long[] r, int ro) {
        int l0 = l, l1 = l + e, l4 = l + 2 * e;
        int x0 = 0, x1 = h, s = 2 * h, sum = 3 * h; // sum: (ℓ0, ℓ1 + ℓ4)
        f6.mulBy01(a, ao, line, l0, l1, t, x0);
        f6.mulBy1(a, ao + h, line, l4, t, x1);
        f6.add(a, ao, a, ao + h, t, s);
        System.arraycopy(line, l0, t, sum, e);
        f2.add(line, l1, line, l4, t, sum + e);
        f6.mulBy01(t, s, t, sum, sum + e, t, s);
        f6.sub(t, s, t, x0, t, s);
        f6.sub(t, s, t, x1, r, ro + h);
        f6.mulByV(t, x1, t, x1);
        f6.add(t, x0, t, x1, r, ro);
    }

    /**
     * Squaring in the cyclotomic subgroup G_Φ6(p²) (the a with a^(p⁴ − p² + 1) = 1, where the easy part of the final
     * exponentiation lands): Granger–Scott, "Faster Squaring in the Cyclotomic Subgroup of Sixth Degree
     * Extensions" (PKC 2010, §3.2), 9S₂ instead of 12M₂. View a = A + B·w + C·w² with A, B, C in 𝔽p⁴ = 𝔽p²[y],
     * y = w³, y² = ξ: A = z0 + z1y, B = z2 + z3y, C = z4 + z5y. Then a² = (3A² − 2Ā) + (3ξ'C² + 2B̄)w + (3B² − 2C̄)w²,
     * where ξ' multiplies by y (so 3yC² adds 3ξ·t5 to the 1-part and 3t4 to the y-part).
     * Result is only correct for cyclotomic inputs.
     */
    public void cyclotomicSqr(long[] a, int ao, long[] r, int ro) {
        // slots of z0..z5 in this layout: z0 = c0.a0, z1 = c1.a1, z2 = c1.a0, z3 = c0.a2, z4 = c0.a1, z5 = c1.a2
        int z0 = 0, z1 = 4 * e, z2 = 3 * e, z3 = 2 * e, z4 = e, z5 = 5 * e;
        int tt = 6 * e; // t0..t5 at tt + i·e, a temporary at tt + 6e, another at tt + 7e
        fp4Sqr(a, ao + z0, ao + z1, tt, tt + e);
        fp4Sqr(a, ao + z2, ao + z3, tt + 2 * e, tt + 3 * e);
        fp4Sqr(a, ao + z4, ao + z5, tt + 4 * e, tt + 5 * e);
        if (a != r || ao != ro) {
            System.arraycopy(a, ao, r, ro, width());
        }
        // A: z0 = 3t0 − 2z0, z1 = 3t1 + 2z1
        threeTMinusTwoZ(tt, r, ro + z0);
        threeTPlusTwoZ(tt + e, r, ro + z1);
        // B: z2 = 3ξt5 + 2z2, z3 = 3t4 − 2z3
        f6.mulByXi(t, tt + 5 * e, t, tt + 6 * e);
        threeTPlusTwoZ(tt + 6 * e, r, ro + z2);
        threeTMinusTwoZ(tt + 4 * e, r, ro + z3);
        // C: z4 = 3t2 − 2z4, z5 = 3t3 + 2z5
        threeTMinusTwoZ(tt + 2 * e, r, ro + z4);
        threeTPlusTwoZ(tt + 3 * e, r, ro + z5);
    }

    /** (x + y·Y)² in 𝔽p⁴ (Y² = ξ): t_even = x² + ξy², t_odd = (x + y)² − x² − y², 3S₂. Results in t. */
    private void fp4Sqr(long[] a, int x, int y, int even, int odd) {
        int xs = 12 * e, ys = 13 * e;
        f2.sqr(a, x, t, xs);
        f2.sqr(a, y, t, ys);
        f2.add(a, x, a, y, t, odd);
        f2.sqr(t, odd, t, odd);
        f2.sub(t, odd, t, xs, t, odd);
        f2.sub(t, odd, t, ys, t, odd);
        f6.mulByXi(t, ys, t, ys);
        f2.add(t, xs, t, ys, t, even);
    }

    /** z = 3t − 2z = 2(t − z) + t. */
    private void threeTMinusTwoZ(int tOff, long[] r, int z) {
        f2.sub(t, tOff, r, z, r, z);
        f2.dbl(r, z, r, z);
        f2.add(r, z, t, tOff, r, z);
    }

    /** z = 3t + 2z = 2(t + z) + t. */
    private void threeTPlusTwoZ(int tOff, long[] r, int z) {
        f2.add(t, tOff, r, z, r, z);
        f2.dbl(r, z, r, z);
        f2.add(r, z, t, tOff, r, z);
    }

    /**
     * r = a^k for a cyclotomic a and an unsigned 64-bit k (square-and-multiply, most significant bit first, with
     * {@link #cyclotomicSqr}): the "exponentiation by the curve parameter" of the final exponentiation.
     */
    public void cyclotomicPow(long[] a, int ao, long k, long[] r, int ro) {
        int base = 0, acc = width();
        System.arraycopy(a, ao, powScratch, base, width());
        setOne(powScratch, acc);
        for (int bit = 63 - Long.numberOfLeadingZeros(k); bit >= 0; bit--) {
            cyclotomicSqr(powScratch, acc, powScratch, acc);
            if ((k >>> bit & 1) != 0) {
                mul(powScratch, acc, powScratch, base, powScratch, acc);
            }
        }
        System.arraycopy(powScratch, acc, r, ro, width());
    }

    /** r = a^k for a cyclotomic a and k ≥ 0 of any size (square-and-multiply with {@link #cyclotomicSqr}). */
    public void cyclotomicPow(long[] a, int ao, BigInteger k, long[] r, int ro) {
        powBig(a, ao, k, r, ro, true);
    }

    /** r = a^k for any a and k ≥ 0 (square-and-multiply with the general squaring; for tests and set-up). */
    public void pow(long[] a, int ao, BigInteger k, long[] r, int ro) {
        powBig(a, ao, k, r, ro, false);
    }

    private void powBig(long[] a, int ao, BigInteger k, long[] r, int ro, boolean cyclotomic) {
        if (k.signum() < 0) {
            throw new IllegalArgumentException("negative exponent");
        }
        int base = 0, acc = width();
        System.arraycopy(a, ao, powScratch, base, width());
        setOne(powScratch, acc);
        for (int bit = k.bitLength() - 1; bit >= 0; bit--) {
            if (cyclotomic) {
                cyclotomicSqr(powScratch, acc, powScratch, acc);
            } else {
                sqr(powScratch, acc, powScratch, acc);
            }
            if (k.testBit(bit)) {
                mul(powScratch, acc, powScratch, base, powScratch, acc);
            }
        }
        System.arraycopy(powScratch, acc, r, ro, width());
    }

    @Override
    public void add(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        f6.add(a, ao, b, bo, r, ro);
        f6.add(a, ao + h, b, bo + h, r, ro + h);
    }

    @Override
    public void sub(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        f6.sub(a, ao, b, bo, r, ro);
        f6.sub(a, ao + h, b, bo + h, r, ro + h);
    }

    @Override
    public void neg(long[] a, int ao, long[] r, int ro) {
        f6.neg(a, ao, r, ro);
        f6.neg(a, ao + h, r, ro + h);
    }

    @Override
    public boolean isZero(long[] a, int ao) {
        return f6.isZero(a, ao) && f6.isZero(a, ao + h);
    }

    @Override
    public boolean isOne(long[] a, int ao) {
        if (!fp.isOne(a, ao)) {
            return false;
        }
        for (int i = fp.limbs(); i < width(); i++) {
            if (a[ao + i] != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void setZero(long[] r, int ro) {
        java.util.Arrays.fill(r, ro, ro + width(), 0L);
    }

    @Override
    public void setOne(long[] r, int ro) {
        setZero(r, ro);
        fp.setOne(r, ro);
    }

    // ---- allocating conveniences (not for hot loops) -----------------------------------------------------------

    public long[] one() {
        long[] r = new long[width()];
        setOne(r, 0);
        return r;
    }

    /** A uniformly random element. */
    public long[] random(java.util.random.RandomGenerator rnd) {
        long[] r = new long[width()];
        int n = fp.limbs();
        for (int i = 0; i < 12; i++) {
            System.arraycopy(fp.random(rnd), 0, r, i * n, n);
        }
        return r;
    }

    /** The twelve canonical 𝔽p coefficients in layout order (c0.a0.re, c0.a0.im, c0.a1.re, …, c1.a2.im). */
    public BigInteger[] toBigIntegers(long[] a, int ao) {
        BigInteger[] r = new BigInteger[12];
        for (int i = 0; i < 12; i++) {
            r[i] = fp.toBigInteger(a, ao + i * fp.limbs());
        }
        return r;
    }
}
