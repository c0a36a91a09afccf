package io.proofline.algebra.curve;

import io.proofline.algebra.field.LaneMontgomery;
import io.proofline.algebra.field.PrimeField;

/**
 * The multiplications of one batch of affine additions ({@link BatchAffineBuckets}) run on Vector API lanes
 * ({@link LaneMontgomery}, issue #3): the batch is cut into {@link LaneMontgomery#LANES} interleaved chains, element
 * k in lane k mod LANES, so Montgomery's trick runs as LANES independent prefix-product chains that advance one vector
 * multiplication per step; the LANES chain totals are inverted together by the scalar field (one inversion).
 *
 * <p>{@link #slopes} computes λ_k = num_k/den_k (kept in lane form) and returns λ_k²; {@link #timesSlopes} then
 * returns λ_k·t_k. Both outputs are reduced elements in the 64-bit Montgomery form, identical to the scalar path's.
 * Domains (see {@link LaneMontgomery}): den, the prefix products, the inverses and λ scaled ({@code scaleGroup}) are
 * in lane form; num, λ, t and the outputs in plain lane form, so no output needs the division by the scale.
 *
 * <p>Not thread-safe. Its lane scratch (about 300 bytes per addition) is large against a window task's other
 * arrays, and MSMs create a bucket set per window task: {@link #forThisThread} keeps one per thread instead of one
 * per task (a fresh one per task tripled a 2^16 proof's peak RSS through allocation churn). The state between
 * {@link #slopes} and {@link #timesSlopes} lives only within one batch, so sharing it across bucket sets that the
 * same thread runs one batch at a time is safe.
 */
final class LaneSlopes implements BatchSlopes {

    /** Fewer additions than this stay on the scalar path: the vectors would be mostly padding. */
    static final int MIN_BATCH = 4 * LaneMontgomery.LANES;

    private static final int LANES = LaneMontgomery.LANES;

    private final PrimeField f;
    private final LaneMontgomery lanes;
    /** Lane index stride: room for every group of the batch plus one group (the chain totals, then their inverses). */
    private final int stride;
    private final long[] den;
    /** Prefix products, then the inverses of the denominators. */
    private final long[] prefix;
    /** The numerators, then λ². */
    private final long[] num;
    /** λ in lane form (scaled from plain), kept for {@link #timesSlopes}. */
    private final long[] slope;
    private final long[] totals;
    private final long[] one;
    private final long[] zero;
    private int groups;

    LaneSlopes(PrimeField f, int capacity) {
        this.f = f;
        this.lanes = LaneMontgomery.of(f);
        this.stride = (capacity + LANES - 1) / LANES * LANES + LANES;
        int limbs = lanes.limbs();
        this.den = new long[limbs * stride];
        this.prefix = new long[limbs * stride];
        this.num = new long[limbs * stride];
        this.slope = new long[limbs * stride];
        this.totals = new long[f.limbs() * LANES];
        this.one = f.montgomeryOne();
        this.zero = new long[f.limbs()];
    }

    private static final ThreadLocal<LaneSlopes> PER_THREAD = new ThreadLocal<>();

    /** This thread's instance for field f, with room for at least {@code capacity} additions. */
    static LaneSlopes forThisThread(PrimeField f, int capacity) {
        LaneSlopes cached = PER_THREAD.get();
        if (cached == null || cached.f != f || cached.stride < capacity + LANES) {
            cached = new LaneSlopes(f, capacity);
            PER_THREAD.set(cached);
        }
        return cached;
    }

    /**
     * λ_k = num_k / den_k for k &lt; count (den_k ≠ 0; the field's 64-bit Montgomery form), kept for
     * {@link #timesSlopes}; writes λ_k² to {@code lambdaSq}.
     */
    @Override
    public void slopes(long[] denominators, long[] numerators, int count, long[] lambdaSq) {
        groups = (count + LANES - 1) / LANES;
        int padded = groups * LANES;
        lanes.toLanes(denominators, 0, count, den, stride, 0);
        lanes.toPlainLanes(numerators, 0, count, num, stride, 0);
        for (int e = count; e < padded; e++) {
            lanes.toLanes(one, 0, 1, den, stride, e);          // padding: den 1, num 0, so λ = 0
            lanes.toPlainLanes(zero, 0, 1, num, stride, e);
        }
        // 1. LANES prefix-product chains: prefix[g] = den[0]·…·den[g−1] per lane; the totals land in group `groups`
        for (int e = 0; e < LANES; e++) {
            lanes.toLanes(one, 0, 1, prefix, stride, e);
        }
        for (int g = 0; g < groups; g++) {
            lanes.mulGroup(prefix, g * LANES, den, g * LANES, prefix, (g + 1) * LANES, stride);
        }
        // 2. the LANES totals inverted together on the scalar side (one inversion), back into the same group
        int last = groups * LANES;
        lanes.fromLanesScalar(prefix, stride, last, LANES, totals, 0, f.limbs());   // scalar: see fromLanesScalar
        f.batchInverse(totals, 0, LANES);
        lanes.toLanes(totals, 0, LANES, prefix, stride, last);
        // 3. back through the chains: 1/den[g] = acc·prefix[g], acc ← acc·den[g]; then λ (plain, then lane form) and λ²
        for (int g = groups - 1; g >= 0; g--) {
            int e = g * LANES;
            lanes.mulGroup(prefix, last, prefix, e, prefix, e, stride);
            lanes.mulGroup(prefix, last, den, e, prefix, last, stride);
            lanes.mulGroup(prefix, e, num, e, num, e, stride);      // λ (plain)
            lanes.scaleGroup(num, e, slope, e, stride);             // λ (lane form)
            lanes.mulGroup(slope, e, num, e, num, e, stride);       // λ² (plain)
        }
        lanes.fromPlainLanes(num, stride, 0, count, lambdaSq, 0);
    }

    /**
     * r_k = λ_k·t_k for the slopes of the last {@link #slopes} call (t_k reduced). The denominators'
     * lanes, no longer needed, hold t and then the products.
     */
    @Override
    public void timesSlopes(long[] t, int count, long[] r) {
        long[] product = den;
        int padded = groups * LANES;
        lanes.toPlainLanes(t, 0, count, product, stride, 0);
        for (int e = count; e < padded; e++) {
            lanes.toPlainLanes(zero, 0, 1, product, stride, e);
        }
        for (int g = 0; g < groups; g++) {
            lanes.mulGroup(slope, g * LANES, product, g * LANES, product, g * LANES, stride);
        }
        lanes.fromPlainLanes(product, stride, 0, count, r, 0);
    }
}
