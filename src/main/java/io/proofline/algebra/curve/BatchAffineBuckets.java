package io.proofline.algebra.curve;

import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.LaneMontgomery;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Pippenger buckets kept in <b>affine</b> form and filled by batches of affine additions that share one field
 * inversion (Montgomery's trick), instead of XYZZ buckets with mixed additions (DESIGN §8).
 *
 * <p>Cost per scheduled addition B ← B + P: 3M for the batch inversion (prefix product, and two multiplications
 * on the way back), then λ = (y_P − y_B)/(x_P − x_B) 1M, x₃ = λ² − x_B − x_P 1S, y₃ = λ(x_B − x₃) − y_B 1M:
 * 5M + 1S, against 8M + 2S for madd-2008-s into XYZZ, plus one inversion per batch (≈ 1.5 bits·M / batch size).
 * Cases:
 * <ul>
 *   <li>empty bucket: the point is copied in, no arithmetic;
 *   <li>a bucket already holding a pending addition of the current batch (a "collision": two additions to one
 *       bucket cannot share a batch, the second needs the first's result) is <i>deferred</i> to the next batch,
 *       up to one batch's worth of deferred points; beyond that it goes to a per-bucket XYZZ <i>overflow</i>
 *       accumulator by a mixed addition — so adversarial inputs (every scalar equal) degrade to the XYZZ cost,
 *       never to one inversion per addition;
 *   <li>P = B (same x, same y): tangent slope λ = 3x²/(2y) (a = 0), or infinity where y = 0;
 *   <li>P = −B (same x, other y): the bucket becomes empty (its denominator is replaced by 1 in the batch).
 * </ul>
 * Where {@link LaneMontgomery} has a kernel for the prime field or the base of the quadratic extension (BN254 and
 * BLS12-381, G1 and G2) and the Vector API is resolved, a batch's multiplications run on SIMD lanes
 * ({@link LaneSlopes}, {@link LaneSlopes2}); a JVM started without
 * {@code --add-modules jdk.incubator.vector} keeps them scalar. Both give identical buckets.
 * Not thread-safe: one per MSM task at a time. Allocates its arrays once; nothing per addition; and an MSM task
 * takes the one its thread kept from its last task of the same shape ({@link #forThisThread}), so a proof's dozens of
 * window tasks allocate no bucket sets once each thread has one.
 */
final class BatchAffineBuckets {

    private static final byte ADD = 0, DOUBLE = 1, CANCEL = 2;
    /**
     * Whether batches may run on Vector API lanes (issue #3): where the JVM resolves the module, which is the one
     * switch (the JVM option {@code --add-modules jdk.incubator.vector}; the lanes trade a faster warm proof for a
     * slower first one and a larger peak while the JIT warms up). Checked here, not in a lane class: initialising one
     * of those without the module throws NoClassDefFoundError.
     */
    static final boolean LANES_ENABLED = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    private final CurveOps ops;
    private final FieldOps f;
    private final int w;
    private final int buckets;
    private final int capacity;
    /** Affine buckets, 2w longs each; meaningful only where {@link #filled}. */
    private final long[] bucket;
    private final boolean[] filled;
    /** XYZZ overflow accumulators, 4w longs each, allocated at the first collision that finds the deferred list full. */
    private long[] overflow;
    /** The overflow accumulators' array, kept across {@link #reset} (cleared when a collision needs it again). */
    private long[] overflowStore;
    /** The batch number that last scheduled an addition to each bucket. */
    private final int[] busy;
    private int generation = 1;
    /** The batch: points to add (2w each), their buckets, kinds, denominators and prefix products (w each). */
    private final long[] pending;
    private final int[] target;
    private final byte[] kind;
    private final long[] den;
    private final long[] prefix;
    private int count;
    /** Points deferred by a collision (2w each) and their buckets; {@code retry*} is the list being re-added. */
    private long[] deferred;
    private int[] deferredBucket;
    private int deferredCount;
    private long[] retry;
    private int[] retryBucket;
    /** Scratch: running product / inverse, λ, and an element or two. */
    private final long[] s;
    private final long[] negated;
    /** The lane path and its numerators (w each), or null where batches stay scalar. */
    private final BatchSlopes lanes;
    private final long[] num;
    /** {@link #segmentedSum}'s accumulator, made at its first use and reused. */
    private BatchAffineBuckets reduction;

    /**
     * The bucket sets threads keep between MSM tasks, one per curve group (the last shape used): at most one set
     * of each group per MSM thread stays on the heap, instead of one new set per window task per MSM.
     */
    private static final ThreadLocal<Map<CurveGroup, BatchAffineBuckets>> PER_THREAD =
            ThreadLocal.withInitial(() -> new IdentityHashMap<>(4));

    /**
     * An empty bucket set of {@code buckets} and {@code capacity} for {@code group} on this thread, with its own
     * {@link CurveOps}: the thread's last one of that group when it has this shape, else a new one that replaces it.
     */
    static BatchAffineBuckets forThisThread(CurveGroup group, int buckets, int capacity, boolean lanesAllowed) {
        Map<CurveGroup, BatchAffineBuckets> kept = PER_THREAD.get();
        BatchAffineBuckets b = kept.get(group);
        if (b == null || b.buckets != buckets || b.capacity != capacity || b.lanesAllowed != lanesAllowed) {
            b = new BatchAffineBuckets(group.newOps(), buckets, capacity, lanesAllowed);
            kept.put(group, b);
        } else {
            b.reset();
        }
        return b;
    }

    /** The curve arithmetic (and its scratch) this bucket set adds with. */
    CurveOps ops() {
        return ops;
    }

    /** Whether batches may run on lanes (as constructed). */
    private final boolean lanesAllowed;

    /** Back to empty buckets and an empty batch, as constructed. */
    void reset() {
        Arrays.fill(filled, false);
        Arrays.fill(busy, 0);
        generation = 1;
        count = 0;
        deferredCount = 0;
        overflow = null;
    }

    /**
     * @param buckets   number of buckets (2^(c−1) for signed c-bit digits)
     * @param capacity  additions per batch: large enough to amortise one inversion (hundreds), small against
     *                  {@code buckets} to keep collisions rare (a fraction ≈ capacity/(2·buckets) overflows)
     */
    BatchAffineBuckets(CurveOps ops, int buckets, int capacity) {
        this(ops, buckets, capacity, lanesPay(ops.field() instanceof QuadraticField qf ? qf.base()
                : ops.field() instanceof PrimeField pf ? pf : null));
    }

    /**
     * Whether batches over {@code base} (or its quadratic extension) should run on lanes in this JVM: the module
     * resolved and the lane kernel faster than the scalar path on this machine's vector width
     * ({@link LaneMontgomery#pays}).
     */
    static boolean lanesPay(PrimeField base) {
        return LANES_ENABLED && base != null && LaneMontgomery.pays(base);
    }

    /**
     * As above; {@code lanesAllowed} true runs batches on lanes wherever a lane kernel exists, also where it is the
     * slower path (tests and {@code bench lanes} compare the two), false keeps every batch scalar.
     */
    BatchAffineBuckets(CurveOps ops, int buckets, int capacity, boolean lanesAllowed) {
        this.ops = ops;
        this.lanesAllowed = lanesAllowed;
        this.f = ops.field();
        this.w = f.width();
        this.buckets = buckets;
        this.capacity = capacity;
        this.bucket = new long[buckets * 2 * w];
        this.filled = new boolean[buckets];
        this.busy = new int[buckets];
        this.pending = new long[capacity * 2 * w];
        this.target = new int[capacity];
        this.kind = new byte[capacity];
        this.den = new long[capacity * w];
        this.prefix = new long[capacity * w];
        this.deferred = new long[capacity * 2 * w];
        this.deferredBucket = new int[capacity];
        this.retry = new long[capacity * 2 * w];
        this.retryBucket = new int[capacity];
        this.s = new long[4 * w];
        this.negated = new long[2 * w];
        this.lanes = !lanesAllowed ? null
                : f instanceof PrimeField pf && LaneMontgomery.supports(pf) ? LaneSlopes.forThisThread(pf, capacity)
                : f instanceof QuadraticField qf && LaneMontgomery.supports(qf.base())
                        ? LaneSlopes2.forThisThread(qf, capacity)
                : null;
        this.num = lanes == null ? null : new long[capacity * w];
    }

    /** Whether batches of at least {@link LaneSlopes#MIN_BATCH} additions run on Vector API lanes. */
    boolean usesLanes() {
        return lanes != null;
    }

    /** Schedules bucket[b] += (negate ? −P : P) for the affine, non-infinity point at {@code p[po]}. */
    void add(int b, long[] p, int po, boolean negate) {
        schedule(b, p, po, negate);
        while (count == capacity) {
            addBatch();
            retryDeferred();
        }
    }

    private void schedule(int b, long[] p, int po, boolean negate) {
        if (!filled[b]) {
            copyPoint(p, po, negate, bucket, b * 2 * w);
            filled[b] = true;
            return;
        }
        if (busy[b] == generation) {
            if (deferredCount < capacity) {
                deferredBucket[deferredCount] = b;
                copyPoint(p, po, negate, deferred, deferredCount++ * 2 * w);
                return;
            }
            if (overflow == null) {
                if (overflowStore == null) {
                    overflowStore = new long[buckets * 4 * w];
                } else {
                    Arrays.fill(overflowStore, 0);
                }
                overflow = overflowStore;
            }
            copyPoint(p, po, negate, negated, 0);
            ops.addAffineToXyzz(overflow, b * 4 * w, negated, 0, overflow, b * 4 * w);
            return;
        }
        busy[b] = generation;
        target[count] = b;
        copyPoint(p, po, negate, pending, count++ * 2 * w);
    }

    /**
     * Schedules the deferred points again, into the (empty) next batch. At most {@code capacity} of them, so the
     * batch cannot overflow; those that collide again are deferred again.
     */
    private void retryDeferred() {
        long[] points = deferred;
        int[] targets = deferredBucket;
        int n = deferredCount;
        deferred = retry;
        deferredBucket = retryBucket;
        deferredCount = 0;
        retry = points;
        retryBucket = targets;
        for (int k = 0; k < n; k++) {
            schedule(targets[k], points, k * 2 * w, false);
        }
    }

    /** Performs every pending and deferred addition. */
    void flush() {
        while (count > 0 || deferredCount > 0) {
            addBatch();
            retryDeferred();
        }
    }

    /** Bucket {@code b}'s value in XYZZ (its affine part plus its overflow accumulator); call after {@link #flush}. */
    void bucketXyzz(int b, long[] r, int ro) {
        ops.setInfinityXyzz(r, ro);
        if (filled[b]) {
            ops.addAffineToXyzz(r, ro, bucket, b * 2 * w, r, ro);
        }
        if (overflow != null) {
            ops.addXyzz(r, ro, overflow, b * 4 * w, r, ro);
        }
    }

    private void copyPoint(long[] p, int po, boolean negate, long[] r, int ro) {
        f.copy(p, po, r, ro);
        if (negate) {
            f.neg(p, po + w, r, ro + w);
        } else {
            f.copy(p, po + w, r, ro + w);
        }
    }

    /** Performs the pending additions with one inversion. */
    private void addBatch() {
        if (count == 0) {
            generation++;
            return;
        }
        if (lanes != null && count >= LaneSlopes.MIN_BATCH) {
            addBatchInLanes();
            count = 0;
            generation++;
            return;
        }
        int acc = 0, lambda = w, t = 2 * w, u = 3 * w;
        // 1. denominators and their prefix products: prefix[k] = den[0]·…·den[k−1]
        f.setOne(s, acc);
        for (int k = 0; k < count; k++) {
            int d = k * w;
            classify(k);
            f.copy(s, acc, prefix, d);
            f.mul(s, acc, den, d, s, acc);
        }
        // 2. one inversion, then back through the batch: 1/den[k] = (1/(den[0]·…·den[k]))·prefix[k]
        f.inv(s, acc, s, acc);
        for (int k = count - 1; k >= 0; k--) {
            int b = target[k], bo = b * 2 * w, po = k * 2 * w, d = k * w;
            f.mul(s, acc, prefix, d, s, t);                              // t = 1/den[k]
            f.mul(s, acc, den, d, s, acc);                               // acc = 1/(den[0]·…·den[k−1])
            switch (kind[k]) {
                case ADD -> {
                    f.sub(pending, po + w, bucket, bo + w, s, u);
                    f.mul(s, u, s, t, s, lambda);                        // λ = (y_P − y_B)/(x_P − x_B)
                }
                case DOUBLE -> {
                    f.sqr(bucket, bo, s, u);
                    f.add(s, u, s, u, s, lambda);
                    f.add(s, lambda, s, u, s, u);                        // 3x²
                    f.mul(s, u, s, t, s, lambda);                        // λ = 3x²/(2y)
                }
                default -> {
                    filled[b] = false;
                    Arrays.fill(bucket, bo, bo + 2 * w, 0L);
                    continue;
                }
            }
            f.sqr(s, lambda, s, u);
            f.sub(s, u, bucket, bo, s, u);
            f.sub(s, u, pending, po, s, u);                              // x₃ = λ² − x_B − x_P
            f.sub(bucket, bo, s, u, s, t);
            f.mul(s, t, s, lambda, s, t);
            f.sub(s, t, bucket, bo + w, bucket, bo + w);                 // y₃ = λ(x_B − x₃) − y_B
            f.copy(s, u, bucket, bo);
        }
        count = 0;
        generation++;
    }

    /**
     * Classifies batch entry k against its bucket and writes its slope denominator: ADD (den = x_P − x_B), DOUBLE
     * (same point: den = 2y) or CANCEL (P = −B, or a doubling of a point with y = 0: den = 1, the bucket empties).
     * Shared by the scalar and the lane path, which differ only in how the slopes are computed.
     */
    private byte classify(int k) {
        int bo = target[k] * 2 * w, po = k * 2 * w, d = k * w;
        byte kd;
        if (f.equal(bucket, bo, pending, po)) {
            if (f.equal(bucket, bo + w, pending, po + w) && !f.isZero(bucket, bo + w)) {
                kd = DOUBLE;
                f.dbl(bucket, bo + w, den, d);                           // 2y
            } else {
                kd = CANCEL;
                f.setOne(den, d);
            }
        } else {
            kd = ADD;
            f.sub(pending, po, bucket, bo, den, d);                      // x_P − x_B
        }
        kind[k] = kd;
        return kd;
    }

    /**
     * {@link #addBatch} with the multiplications on lanes: the scalar side classifies each addition and forms
     * numerator and denominator of its slope, {@link LaneSlopes} returns λ², the scalar side forms x₃ and
     * t = x_B − x₃, and {@link LaneSlopes#timesSlopes} returns λ·t. Same formulas, same results.
     */
    private void addBatchInLanes() {
        int u = 0;
        for (int k = 0; k < count; k++) {
            int bo = target[k] * 2 * w, po = k * 2 * w, d = k * w;
            switch (classify(k)) {
                case DOUBLE -> {
                    f.sqr(bucket, bo, s, u);
                    f.add(s, u, s, u, num, d);
                    f.add(num, d, s, u, num, d);                         // 3x²
                }
                case CANCEL -> f.setZero(num, d);
                default -> f.sub(pending, po + w, bucket, bo + w, num, d);  // y_P − y_B
            }
        }
        lanes.slopes(den, num, count, prefix);                           // prefix[k] = λ²
        for (int k = 0; k < count; k++) {
            int b = target[k], bo = b * 2 * w, po = k * 2 * w, d = k * w;
            if (kind[k] == CANCEL) {
                filled[b] = false;
                Arrays.fill(bucket, bo, bo + 2 * w, 0L);
                f.setZero(den, d);
                continue;
            }
            f.sub(prefix, d, bucket, bo, prefix, d);
            f.sub(prefix, d, pending, po, prefix, d);                    // x₃ = λ² − x_B − x_P
            f.sub(bucket, bo, prefix, d, den, d);                        // den[k] = x_B − x₃
        }
        lanes.timesSlopes(den, count, num);                              // num[k] = λ(x_B − x₃)
        for (int k = 0; k < count; k++) {
            if (kind[k] == CANCEL) {
                continue;
            }
            int bo = target[k] * 2 * w, d = k * w;
            f.sub(num, d, bucket, bo + w, bucket, bo + w);               // y₃ = λ(x_B − x₃) − y_B
            f.copy(prefix, d, bucket, bo);
        }
    }

    /**
     * Σ (b+1)·bucket[b] as XYZZ, after the pending additions. With at least {@code 4·}{@link #REDUCTION_SEGMENTS}
     * buckets and no XYZZ overflow, by {@link #segmentedSum}; otherwise by the running-sum trick in XYZZ.
     */
    long[] weightedSum() {
        flush();
        if (overflow == null && buckets >= 4 * REDUCTION_SEGMENTS) {
            return segmentedSum(REDUCTION_SEGMENTS);
        }
        return runningSum();
    }

    /**
     * Segments in {@link #segmentedSum}: 256 affine additions share each inversion (≈ 1.5M each), and the final
     * XYZZ combination costs ~3·256 additions, small against the 2·2^(c−1) batched ones for c ≥ 11.
     */
    static final int REDUCTION_SEGMENTS = 256;

    /**
     * The weighted sum by the running-sum trick run in {@code segments} independent segments of L consecutive
     * buckets, so that the segments' additions are batched affine additions (≈ 6.5M each, sharing inversions)
     * instead of XYZZ ones (mixed 8M + 2S, then full 12M + 2S per bucket). For bucket b = s·L + j:
     * Σ (b+1)·B_b = Σ_s (W_s + s·L·T_s), with T_s = Σ_j B_{s,j} (the segment's running sum at the end) and
     * W_s = Σ_j (j+1)·B_{s,j} (the sum of its running sums); Σ s·T_s is a short XYZZ running sum, times L by
     * doublings. Package-private with its segment count for tests; needs no overflow and L a power of two.
     */
    long[] segmentedSum(int segments) {
        flush();
        int len = buckets / segments;
        if (overflow != null || len * segments != buckets || Integer.bitCount(len) != 1) {
            throw new IllegalStateException("segmented sum needs no overflow and whole segments of 2^k buckets");
        }
        // targets 0..segments-1: T_s, segments..2·segments-1: W_s; each round adds to distinct targets, no collisions
        if (reduction == null || reduction.buckets != 2 * segments) {
            reduction = new BatchAffineBuckets(ops, 2 * segments, segments, lanes != null);
        } else {
            reduction.reset();
        }
        BatchAffineBuckets acc = reduction;
        for (int j = len - 1; j >= 0; j--) {
            for (int seg = 0; seg < segments; seg++) {
                int b = seg * len + j;
                if (filled[b]) {
                    acc.add(seg, bucket, b * 2 * w, false);
                }
            }
            acc.flush();
            for (int seg = 0; seg < segments; seg++) {
                if (acc.filled[seg]) {
                    acc.add(segments + seg, acc.bucket, seg * 2 * w, false);
                }
            }
            acc.flush();
        }
        int xyzz = 4 * w;
        long[] running = new long[xyzz];
        long[] sum = new long[xyzz];
        for (int seg = segments - 1; seg >= 1; seg--) {
            if (acc.filled[seg]) {
                ops.addAffineToXyzz(running, 0, acc.bucket, seg * 2 * w, running, 0);
            }
            ops.addXyzz(sum, 0, running, 0, sum, 0);
        }
        for (int k = 1; k < len; k <<= 1) {
            ops.doubleXyzz(sum, 0, sum, 0);
        }
        for (int seg = 0; seg < segments; seg++) {
            if (acc.filled[segments + seg]) {
                ops.addAffineToXyzz(sum, 0, acc.bucket, (segments + seg) * 2 * w, sum, 0);
            }
        }
        return sum;
    }

    /** Σ (b+1)·bucket[b] (and the overflow accumulators) by the running-sum trick in XYZZ. */
    private long[] runningSum() {
        int xyzz = 4 * w;
        long[] running = new long[xyzz];
        long[] sum = new long[xyzz];
        for (int b = buckets - 1; b >= 0; b--) {
            if (filled[b]) {
                ops.addAffineToXyzz(running, 0, bucket, b * 2 * w, running, 0);
            }
            if (overflow != null) {
                ops.addXyzz(running, 0, overflow, b * xyzz, running, 0);
            }
            ops.addXyzz(sum, 0, running, 0, sum, 0);
        }
        return sum;
    }
}
