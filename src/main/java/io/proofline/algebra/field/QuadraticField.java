package io.proofline.algebra.field;

/**
 * 𝔽p² = 𝔽p[u]/(u² + 1), the quadratic extension used by both BN254 and BLS12-381 (−1 is a non-residue for both
 * base fields). An element is {@code 2·n} longs: {@code c0} then {@code c1}, meaning {@code c0 + c1·u}.
 *
 * <p>Holds scratch space: <b>not thread-safe</b>; make one per thread ({@link #QuadraticField(PrimeField)} is cheap).
 */
public final class QuadraticField implements FieldOps {

    private final PrimeField fp;
    private final int n;
    private final long[] t;
    /** Scratch for the lazy-reduction multiplication: three 2n-limb products and the two n-limb sums. */
    private final long[] wide;

    public QuadraticField(PrimeField fp) {
        this.fp = fp;
        this.n = fp.limbs();
        this.t = new long[4 * n];
        this.wide = new long[8 * n];
    }

    public PrimeField base() {
        return fp;
    }

    @Override
    public int width() {
        return 2 * n;
    }

    /**
     * Karatsuba with lazy reduction: (a0 + a1u)(b0 + b1u) = (a0b0 − a1b1) + ((a0+a1)(b0+b1) − a0b0 − a1b1)u, with the
     * three products kept at full width (2n limbs, no reduction) and one Montgomery reduction per coefficient: 3
     * products + 2 reductions instead of 3 Montgomery multiplications (3 products + 3 reductions), and the sums
     * a0+a1, b0+b1 unreduced (below 2p). Both wide coefficients are below p·R, as REDC needs: c1 = a0b1 + a1b0 &lt; 2p²,
     * and c0 = a0b0 − a1b1 ∈ (−p², p²) gets p·R added when negative.
     */
    @Override
    public void mul(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        int w0 = 0, w1 = 2 * n, w2 = 4 * n, sa = 6 * n, sb = 7 * n;
        fp.mulWide(a, ao, b, bo, wide, w0);
        fp.mulWide(a, ao + n, b, bo + n, wide, w1);
        fp.addNoReduce(a, ao, a, ao + n, wide, sa);
        fp.addNoReduce(b, bo, b, bo + n, wide, sb);
        fp.mulWide(wide, sa, wide, sb, wide, w2);
        fp.subWide(wide, w2, wide, w0, wide, w2);
        fp.subWide(wide, w2, wide, w1, wide, w2);                // a0b1 + a1b0, never negative
        long negative = fp.subWide(wide, w0, wide, w1, wide, w0);  // a0b0 − a1b1
        fp.addUpperMasked(wide, w0, -negative);
        fp.redc(wide, w0, r, ro);
        fp.redc(wide, w2, r, ro + n);
    }

    /** Complex squaring: (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u, 2 base multiplications. */
    @Override
    public void sqr(long[] a, int ao, long[] r, int ro) {
        int s = 0, d = n, m = 2 * n;
        fp.add(a, ao, a, ao + n, t, s);
        fp.sub(a, ao, a, ao + n, t, d);
        fp.mul(a, ao, a, ao + n, t, m);
        fp.mul(t, s, t, d, r, ro);
        fp.add(t, m, t, m, r, ro + n);
    }

    @Override
    public void add(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        fp.add(a, ao, b, bo, r, ro);
        fp.add(a, ao + n, b, bo + n, r, ro + n);
    }

    @Override
    public void sub(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        fp.sub(a, ao, b, bo, r, ro);
        fp.sub(a, ao + n, b, bo + n, r, ro + n);
    }

    @Override
    public void neg(long[] a, int ao, long[] r, int ro) {
        fp.neg(a, ao, r, ro);
        fp.neg(a, ao + n, r, ro + n);
    }

    /** Conjugate: c0 − c1·u (the p-power Frobenius on 𝔽p²). */
    public void conjugate(long[] a, int ao, long[] r, int ro) {
        System.arraycopy(a, ao, r, ro, n);
        fp.neg(a, ao + n, r, ro + n);
    }

    /** (a0 + a1u)⁻¹ = (a0 − a1u) / (a0² + a1²). */
    @Override
    public void inv(long[] a, int ao, long[] r, int ro) {
        int norm = 0, sq = n;
        fp.sqr(a, ao, t, norm);
        fp.sqr(a, ao + n, t, sq);
        fp.add(t, norm, t, sq, t, norm);
        fp.inv(t, norm, t, norm);
        fp.mul(a, ao, t, norm, r, ro);
        fp.mul(a, ao + n, t, norm, t, sq);
        fp.neg(t, sq, r, ro + n);
    }

    /** r = a·k for k in the base field. */
    public void mulByBase(long[] a, int ao, long[] k, int ko, long[] r, int ro) {
        fp.mul(a, ao, k, ko, r, ro);
        fp.mul(a, ao + n, k, ko, r, ro + n);
    }

    @Override
    public boolean isZero(long[] a, int ao) {
        return fp.isZero(a, ao) && fp.isZero(a, ao + n);
    }

    @Override
    public boolean equal(long[] a, int ao, long[] b, int bo) {
        return fp.equal(a, ao, b, bo) && fp.equal(a, ao + n, b, bo + n);
    }

    @Override
    public void setZero(long[] r, int ro) {
        fp.setZero(r, ro);
        fp.setZero(r, ro + n);
    }

    @Override
    public void setOne(long[] r, int ro) {
        fp.setOne(r, ro);
        fp.setZero(r, ro + n);
    }
}
