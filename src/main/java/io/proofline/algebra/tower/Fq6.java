package io.proofline.algebra.tower;

import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;

/**
 * 𝔽p⁶ = 𝔽p²[v]/(v³ − ξ). An element is three 𝔽p² elements {@code a0 ‖ a1 ‖ a2} meaning a0 + a1·v + a2·v²
 * ({@code 6·limbs} longs). Formulas and costs follow Devegili, Ó hÉigeartaigh, Scott, Dahab, "Multiplication and
 * Squaring on Pairing-Friendly Fields" (ePrint 2006/471); M₂/S₂ are 𝔽p² multiplications/squarings.
 *
 * <p>Holds scratch space: <b>not thread-safe</b>; make one per thread. Outputs may alias inputs unless a method says
 * otherwise.
 */
public final class Fq6 implements FieldOps {

    private final Tower tower;
    private final PrimeField fp;
    private final QuadraticField f2;
    private final int n;
    /** Width of one 𝔽p² element. */
    private final int e;
    private final int xiReal;
    private final long[] t;
    private final long[] xiScratch;

    public Fq6(Tower tower) {
        this.tower = tower;
        this.fp = tower.base();
        this.f2 = new QuadraticField(fp);
        this.n = fp.limbs();
        this.e = 2 * n;
        this.xiReal = tower.xiReal();
        this.t = new long[8 * e];
        this.xiScratch = new long[2 * n];
    }

    public Tower tower() {
        return tower;
    }

    /** The 𝔽p² operations this object uses (same thread confinement). */
    public QuadraticField quadratic() {
        return f2;
    }

    @Override
    public int width() {
        return 3 * e;
    }

    private int slot(int i) {
        return i * e;
    }

    /**
     * r = a·ξ in 𝔽p² with ξ = k + u: (a0 + a1u)(k + u) = (k·a0 − a1) + (a0 + k·a1)u. The small factor k is applied by
     * additions (k = 9: three doublings and an add; k = 1: none), so this costs no multiplication.
     */
    public void mulByXi(long[] a, int ao, long[] r, int ro) {
        mulSmall(a, ao, xiScratch, 0);
        mulSmall(a, ao + n, xiScratch, n);
        fp.sub(xiScratch, 0, a, ao + n, xiScratch, 0);
        fp.add(xiScratch, n, a, ao, r, ro + n);
        System.arraycopy(xiScratch, 0, r, ro, n);
    }

    /** r = k·a in 𝔽p by double-and-add; r must not alias a. */
    private void mulSmall(long[] a, int ao, long[] r, int ro) {
        System.arraycopy(a, ao, r, ro, n);
        for (int bit = 30 - Integer.numberOfLeadingZeros(xiReal); bit >= 0; bit--) {
            fp.dbl(r, ro, r, ro);
            if ((xiReal >>> bit & 1) != 0) {
                fp.add(r, ro, a, ao, r, ro);
            }
        }
    }

    /**
     * Karatsuba (Devegili et al. §4), 6M₂: with vᵢ = aᵢbᵢ,
     * c0 = v0 + ξ((a1+a2)(b1+b2) − v1 − v2), c1 = (a0+a1)(b0+b1) − v0 − v1 + ξv2, c2 = (a0+a2)(b0+b2) − v0 − v2 + v1.
     */
    @Override
    public void mul(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        int v0 = slot(0), v1 = slot(1), v2 = slot(2), s = slot(3), u = slot(4), c0 = slot(5), c1 = slot(6);
        int a0 = ao, a1 = ao + e, a2 = ao + 2 * e, b0 = bo, b1 = bo + e, b2 = bo + 2 * e;
        f2.mul(a, a0, b, b0, t, v0);
        f2.mul(a, a1, b, b1, t, v1);
        f2.mul(a, a2, b, b2, t, v2);

        f2.add(a, a1, a, a2, t, s);
        f2.add(b, b1, b, b2, t, u);
        f2.mul(t, s, t, u, t, s);
        f2.sub(t, s, t, v1, t, s);
        f2.sub(t, s, t, v2, t, s);
        mulByXi(t, s, t, s);
        f2.add(t, s, t, v0, t, c0);

        f2.add(a, a0, a, a1, t, s);
        f2.add(b, b0, b, b1, t, u);
        f2.mul(t, s, t, u, t, s);
        f2.sub(t, s, t, v0, t, s);
        f2.sub(t, s, t, v1, t, s);
        mulByXi(t, v2, t, u);
        f2.add(t, s, t, u, t, c1);

        f2.add(a, a0, a, a2, t, s);
        f2.add(b, b0, b, b2, t, u);
        f2.mul(t, s, t, u, t, s);
        f2.sub(t, s, t, v0, t, s);
        f2.sub(t, s, t, v2, t, s);
        f2.add(t, s, t, v1, r, ro + 2 * e); // every read of a and b is done
        System.arraycopy(t, c0, r, ro, e);
        System.arraycopy(t, c1, r, ro + e, e);
    }

    /**
     * Chung–Hasan SQR2 (Devegili et al. §4), 2M₂ + 3S₂: s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2,
     * s4 = a2²; c0 = s0 + ξs3, c1 = s1 + ξs4, c2 = s1 + s2 + s3 − s0 − s4.
     */
    @Override
    public void sqr(long[] a, int ao, long[] r, int ro) {
        int s0 = slot(0), s1 = slot(1), s2 = slot(2), s3 = slot(3), s4 = slot(4), x = slot(5);
        int a0 = ao, a1 = ao + e, a2 = ao + 2 * e;
        f2.sqr(a, a0, t, s0);
        f2.mul(a, a0, a, a1, t, s1);
        f2.dbl(t, s1, t, s1);
        f2.sub(a, a0, a, a1, t, s2);
        f2.add(t, s2, a, a2, t, s2);
        f2.sqr(t, s2, t, s2);
        f2.mul(a, a1, a, a2, t, s3);
        f2.dbl(t, s3, t, s3);
        f2.sqr(a, a2, t, s4);

        f2.add(t, s1, t, s2, t, s2);
        f2.add(t, s2, t, s3, t, s2);
        f2.sub(t, s2, t, s0, t, s2);
        f2.sub(t, s2, t, s4, r, ro + 2 * e);
        mulByXi(t, s3, t, x);
        f2.add(t, x, t, s0, r, ro);
        mulByXi(t, s4, t, x);
        f2.add(t, x, t, s1, r, ro + e);
    }

    /**
     * Inverse via the adjugate (Scott, "Implementing cryptographic pairings", 2007), 9M₂ + 3S₂ + one 𝔽p² inverse:
     * t0 = a0² − ξa1a2, t1 = ξa2² − a0a1, t2 = a1² − a0a2, d = a0t0 + ξ(a2t1 + a1t2), a⁻¹ = (t0, t1, t2)/d.
     */
    @Override
    public void inv(long[] a, int ao, long[] r, int ro) {
        if (isZero(a, ao)) {
            throw new ArithmeticException(fp + "⁶: inverse of zero");
        }
        int t0 = slot(0), t1 = slot(1), t2 = slot(2), x = slot(3), d = slot(4);
        int a0 = ao, a1 = ao + e, a2 = ao + 2 * e;
        f2.sqr(a, a0, t, t0);
        f2.mul(a, a1, a, a2, t, x);
        mulByXi(t, x, t, x);
        f2.sub(t, t0, t, x, t, t0);

        f2.sqr(a, a2, t, t1);
        mulByXi(t, t1, t, t1);
        f2.mul(a, a0, a, a1, t, x);
        f2.sub(t, t1, t, x, t, t1);

        f2.sqr(a, a1, t, t2);
        f2.mul(a, a0, a, a2, t, x);
        f2.sub(t, t2, t, x, t, t2);

        f2.mul(a, a2, t, t1, t, d);
        f2.mul(a, a1, t, t2, t, x);
        f2.add(t, d, t, x, t, d);
        mulByXi(t, d, t, d);
        f2.mul(a, a0, t, t0, t, x);
        f2.add(t, d, t, x, t, d);
        f2.inv(t, d, t, d);

        f2.mul(t, t0, t, d, r, ro);
        f2.mul(t, t1, t, d, r, ro + e);
        f2.mul(t, t2, t, d, r, ro + 2 * e);
    }

    /**
     * r = a·(b0 + b1·v), the product with a sparse element whose v² coefficient is zero, 5M₂:
     * c0 = a0b0 + ξ·a2b1 with a2b1 = (a1+a2)b1 − a1b1, c1 = (a0+a1)(b0+b1) − a0b0 − a1b1, c2 = (a0+a2)b0 − a0b0 + a1b1.
     * The b's must not alias r.
     */
    public void mulBy01(long[] a, int ao, long[] b, int b0, int b1, long[] r, int ro) {
        int v0 = slot(0), v1 = slot(1), s = slot(2), u = slot(3), c0 = slot(4), c1 = slot(5);
        int a0 = ao, a1 = ao + e, a2 = ao + 2 * e;
        f2.mul(a, a0, b, b0, t, v0);
        f2.mul(a, a1, b, b1, t, v1);

        f2.add(a, a1, a, a2, t, s);
        f2.mul(t, s, b, b1, t, s);
        f2.sub(t, s, t, v1, t, s);
        mulByXi(t, s, t, s);
        f2.add(t, s, t, v0, t, c0);

        f2.add(a, a0, a, a1, t, s);
        f2.add(b, b0, b, b1, t, u);
        f2.mul(t, s, t, u, t, s);
        f2.sub(t, s, t, v0, t, s);
        f2.sub(t, s, t, v1, t, c1);

        f2.add(a, a0, a, a2, t, s);
        f2.mul(t, s, b, b0, t, s);
        f2.sub(t, s, t, v0, t, s);
        f2.add(t, s, t, v1, r, ro + 2 * e);
        System.arraycopy(t, c0, r, ro, e);
        System.arraycopy(t, c1, r, ro + e, e);
    }

    /** r = a·(b1·v) = ξa2b1 + a0b1·v + a1b1·v², 3M₂. b must not alias r. */
    public void mulBy1(long[] a, int ao, long[] b, int b1, long[] r, int ro) {
        int x = slot(0);
        f2.mul(a, ao + 2 * e, b, b1, t, x);
        mulByXi(t, x, t, x);
        f2.mul(a, ao + e, b, b1, r, ro + 2 * e);
        f2.mul(a, ao, b, b1, r, ro + e);
        System.arraycopy(t, x, r, ro, e);
    }

    /** r = a·v = ξa2 + a0·v + a1·v² (a shift and one multiplication by ξ). */
    public void mulByV(long[] a, int ao, long[] r, int ro) {
        int x = slot(7);
        mulByXi(a, ao + 2 * e, t, x);
        System.arraycopy(a, ao + e, r, ro + 2 * e, e);
        System.arraycopy(a, ao, r, ro + e, e);
        System.arraycopy(t, x, r, ro, e);
    }

    /** r = a·s for s ∈ 𝔽p², 3M₂. s must not alias r. */
    public void mulByQuadratic(long[] a, int ao, long[] s, int so, long[] r, int ro) {
        for (int i = 0; i < 3; i++) {
            f2.mul(a, ao + i * e, s, so, r, ro + i * e);
        }
    }

    /**
     * r = a^(pᵏ), k = 1..3: each 𝔽p² coefficient is conjugated k times and v^(j·pᵏ) = v^j·ξ^(2j(pᵏ−1)/6) supplies
     * the factor (coefficients from {@link Tower}).
     */
    public void frobenius(long[] a, int ao, int k, long[] r, int ro) {
        for (int j = 0; j < 3; j++) {
            frobeniusCoefficient(a, ao + j * e, k, 2 * j, r, ro + j * e);
        }
    }

    /** r = conj^k(c)·γ[k][exp] for one 𝔽p² coefficient; shared with {@link Fq12}. */
    void frobeniusCoefficient(long[] c, int co, int k, int exp, long[] r, int ro) {
        if ((k & 1) == 1) {
            f2.conjugate(c, co, r, ro);
        } else if (c != r || co != ro) {
            System.arraycopy(c, co, r, ro, e);
        }
        if (exp == 0) {
            return;
        }
        long[] g = tower.gamma(k, exp);
        if (fp.isZero(g, n)) {
            f2.mulByBase(r, ro, g, 0, r, ro); // for even k the coefficients lie in 𝔽p: 2M instead of 3M
        } else {
            f2.mul(r, ro, g, 0, r, ro);
        }
    }

    @Override
    public void add(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        for (int i = 0; i < 3; i++) {
            f2.add(a, ao + i * e, b, bo + i * e, r, ro + i * e);
        }
    }

    @Override
    public void sub(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        for (int i = 0; i < 3; i++) {
            f2.sub(a, ao + i * e, b, bo + i * e, r, ro + i * e);
        }
    }

    @Override
    public void neg(long[] a, int ao, long[] r, int ro) {
        for (int i = 0; i < 3; i++) {
            f2.neg(a, ao + i * e, r, ro + i * e);
        }
    }

    @Override
    public boolean isZero(long[] a, int ao) {
        return f2.isZero(a, ao) && f2.isZero(a, ao + e) && f2.isZero(a, ao + 2 * e);
    }

    @Override
    public void setZero(long[] r, int ro) {
        java.util.Arrays.fill(r, ro, ro + 3 * e, 0L);
    }

    @Override
    public void setOne(long[] r, int ro) {
        setZero(r, ro);
        f2.setOne(r, ro);
    }
}
