package io.proofline.algebra.curve;

import io.proofline.algebra.field.LaneMontgomery;
import io.proofline.algebra.field.QuadraticField;

/**
 * {@link LaneSlopes} for 𝔽q² = 𝔽q[u]/(u² + 1) (the G2 MSM, issues #3, #22): each coefficient in its own lane arrays,
 * one 𝔽q² product per lane as four lane products, (a0b0 − a1b1) + (a0b1 + a1b0)u, with
 * {@link LaneMontgomery#subGroup} and {@link LaneMontgomery#addGroup}. Not Karatsuba: BN254's lane form has no room
 * for the sums a0 + a1 as operands, and on BLS12-381, where it has, three products and five lane additions measured
 * slower than four products and two (docs/lab/benchmarks-history.md). Every lane value stays in lane form (see
 * {@link LaneMontgomery#subGroup} for the bounds). The LANES chain totals are inverted on the scalar side with one
 * 𝔽q² inversion.
 *
 * <p>Not thread-safe; one per thread through {@link #forThisThread}, for the same reason as {@link LaneSlopes}.
 */
final class LaneSlopes2 implements BatchSlopes {

    private static final int LANES = LaneMontgomery.LANES;

    private final QuadraticField f;
    private final LaneMontgomery lanes;
    /** 𝔽q² elements are c0 then c1, {@code words} longs each. */
    private final int words, width;
    private final int stride;
    private final long[] den0, den1, prefix0, prefix1, num0, num1;
    /** Four products of one 𝔽q² multiplication, at lane indices 0, LANES, 2·LANES, 3·LANES. */
    private final long[] products;
    private final long[] totals, totalsPrefix, scratch, one, zero;
    private int groups;

    private static final ThreadLocal<LaneSlopes2> PER_THREAD = new ThreadLocal<>();

    /** This thread's instance for field f, with room for at least {@code capacity} additions. */
    static LaneSlopes2 forThisThread(QuadraticField f, int capacity) {
        LaneSlopes2 cached = PER_THREAD.get();
        if (cached == null || cached.f.base() != f.base() || cached.stride < capacity + LANES) {
            cached = new LaneSlopes2(f, capacity);
            PER_THREAD.set(cached);
        }
        return cached;
    }

    private LaneSlopes2(QuadraticField f, int capacity) {
        // a fresh 𝔽q² (it holds scratch), the same base field
        this.f = new QuadraticField(f.base());
        this.lanes = LaneMontgomery.of(f.base());
        this.words = f.base().limbs();
        this.width = 2 * words;
        this.stride = Math.max((capacity + LANES - 1) / LANES * LANES + LANES, 4 * LANES);
        int limbs = lanes.limbs();
        this.den0 = new long[limbs * stride];
        this.den1 = new long[limbs * stride];
        this.prefix0 = new long[limbs * stride];
        this.prefix1 = new long[limbs * stride];
        this.num0 = new long[limbs * stride];
        this.num1 = new long[limbs * stride];
        this.products = new long[limbs * stride];
        this.totals = new long[width * LANES];
        this.totalsPrefix = new long[width * LANES];
        this.scratch = new long[2 * width];
        this.one = new long[width];
        this.zero = new long[width];
        this.f.setOne(one, 0);
    }

    /** (r0, r1)[re] = (a0, a1)[ae]·(b0, b1)[be] for one vector; r may be a or b (products are formed first). */
    private void mul(long[] a0, long[] a1, int ae, long[] b0, long[] b1, int be, long[] r0, long[] r1, int re) {
        int p00 = 0, p11 = LANES, p01 = 2 * LANES, p10 = 3 * LANES;
        lanes.mulGroup(a0, ae, b0, be, products, p00, stride);
        lanes.mulGroup(a1, ae, b1, be, products, p11, stride);
        lanes.mulGroup(a0, ae, b1, be, products, p01, stride);
        lanes.mulGroup(a1, ae, b0, be, products, p10, stride);
        lanes.subGroup(products, p00, products, p11, r0, re, stride);   // a0b0 − a1b1 (u² = −1)
        lanes.addGroup(products, p01, products, p10, r1, re, stride);   // a0b1 + a1b0
    }

    private void toLanes(long[] src, int count, long[] c0, long[] c1, int to) {
        lanes.toLanes(src, 0, width, count, c0, stride, to);
        lanes.toLanes(src, words, width, count, c1, stride, to);
    }

    private void fromLanes(long[] c0, long[] c1, int from, int count, long[] dst) {
        lanes.fromLanes(c0, stride, from, count, dst, 0, width);
        lanes.fromLanes(c1, stride, from, count, dst, words, width);
    }

    @Override
    public void slopes(long[] denominators, long[] numerators, int count, long[] lambdaSq) {
        groups = (count + LANES - 1) / LANES;
        int padded = groups * LANES;
        toLanes(denominators, count, den0, den1, 0);
        toLanes(numerators, count, num0, num1, 0);
        for (int e = count; e < padded; e++) {
            toLanes(one, 1, den0, den1, e);                 // padding: den 1, num 0, so λ = 0
            toLanes(zero, 1, num0, num1, e);
        }
        // 1. LANES prefix-product chains; the totals land in group `groups`
        for (int e = 0; e < LANES; e++) {
            toLanes(one, 1, prefix0, prefix1, e);
        }
        for (int g = 0; g < groups; g++) {
            mul(prefix0, prefix1, g * LANES, den0, den1, g * LANES, prefix0, prefix1, (g + 1) * LANES);
        }
        // 2. the totals inverted together on the scalar side: one 𝔽q² inversion (Montgomery's trick over LANES)
        int last = groups * LANES;
        lanes.fromLanesScalar(prefix0, stride, last, LANES, totals, 0, width);   // scalar: see fromLanesScalar
        lanes.fromLanesScalar(prefix1, stride, last, LANES, totals, words, width);
        invertAll(totals);
        toLanes(totals, LANES, prefix0, prefix1, last);
        // 3. back through the chains, then λ and λ² (into the denominators' lanes)
        for (int g = groups - 1; g >= 0; g--) {
            int e = g * LANES;
            mul(prefix0, prefix1, last, prefix0, prefix1, e, prefix0, prefix1, e);   // 1/den[g]
            mul(prefix0, prefix1, last, den0, den1, e, prefix0, prefix1, last);
            mul(prefix0, prefix1, e, num0, num1, e, num0, num1, e);                  // λ
            mul(num0, num1, e, num0, num1, e, den0, den1, e);                        // λ²
        }
        fromLanes(den0, den1, 0, count, lambdaSq);
    }

    @Override
    public void timesSlopes(long[] t, int count, long[] r) {
        int padded = groups * LANES;
        toLanes(t, count, prefix0, prefix1, 0);
        for (int e = count; e < padded; e++) {
            toLanes(zero, 1, prefix0, prefix1, e);
        }
        for (int g = 0; g < groups; g++) {
            mul(num0, num1, g * LANES, prefix0, prefix1, g * LANES, prefix0, prefix1, g * LANES);
        }
        fromLanes(prefix0, prefix1, 0, count, r);
    }

    /** Replaces each of the LANES elements of v (none zero) by its inverse: prefix products, one inversion. */
    private void invertAll(long[] v) {
        int acc = 0, tmp = width;
        f.setOne(scratch, acc);
        for (int i = 0; i < LANES; i++) {
            System.arraycopy(scratch, acc, totalsPrefix, i * width, width);
            f.mul(scratch, acc, v, i * width, scratch, acc);
        }
        f.inv(scratch, acc, scratch, acc);
        for (int i = LANES - 1; i >= 0; i--) {
            f.mul(scratch, acc, totalsPrefix, i * width, scratch, tmp);    // 1/v_i
            f.mul(scratch, acc, v, i * width, scratch, acc);
            System.arraycopy(scratch, tmp, v, i * width, width);
        }
    }
}
