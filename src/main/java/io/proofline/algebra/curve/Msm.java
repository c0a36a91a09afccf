package io.proofline.algebra.curve;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;

/**
 * Multi-scalar multiplication Σ kᵢ·Pᵢ on the CPU: Pippenger's bucket method with signed (Booth-recoded) digits.
 *
 * <p>Inputs are read in place, never copied to the heap: bases are affine points in the zkey layout (LE Montgomery
 * limbs, x‖y, all-zero = infinity; G2 x.c0‖x.c1‖y.c0‖y.c1) and scalars canonical little-endian 4×64-bit values,
 * both as {@link MemorySegment}s (zkey sections are memory-mapped and not 8-byte aligned, hence unaligned reads).
 * Worker threads read the segments, so they must come from a shared or global arena (or the heap), not a confined one.
 *
 * <p>Algorithm:
 * <ol>
 *   <li>A first pass over chunks of the input sums the points whose scalar is 1 directly (mixed XYZZ additions) and
 *       skips scalars 0 — witnesses are full of both — and finds the largest remaining scalar's bit length B.
 *   <li>The rest goes through ⌈(B+1)/c⌉ windows of c bits, c chosen from n to minimise windows·(n + 2^c). Window j's
 *       digit is the Booth digit b[jc−1] + bits[jc, jc+c−1) − 2^(c−1)·b[jc+c−1] ∈ [−2^(c−1), 2^(c−1)], so only
 *       2^(c−1) XYZZ buckets are needed and a negative digit adds −P (y negated on the fly).
 *   <li>Each (window, point range) pair is an independent task on the executor; each reduces its buckets with the
 *       running-sum trick (2·2^(c−1) XYZZ additions), and the windows are combined by Horner's rule (c doublings
 *       each).
 * </ol>
 * About n·⌈(B+1)/c⌉ bucket additions plus the reductions; no allocation per point. With at least
 * {@link #BATCH_AFFINE_MIN_BUCKETS} buckets a window's buckets are affine and filled by batched affine additions
 * ({@link BatchAffineBuckets}, 5M + 1S each); below that, XYZZ buckets take mixed additions (8M + 2S).
 */
public final class Msm {

    /** Little-endian 64-bit reads at any byte offset. */
    static final ValueLayout.OfLong LIMB = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Bytes per scalar: 4 canonical limbs. */
    public static final int SCALAR_BYTES = 32;
    /** Upper bound on one task's bucket array, which bounds the window size c. */
    private static final long MAX_BUCKET_BYTES = 16L << 20;
    /**
     * Below this many buckets per window the XYZZ buckets are used: a batch must be small against the bucket count
     * (collisions) yet hold hundreds of additions to amortise its inversion, which needs about this many buckets.
     */
    static final int BATCH_AFFINE_MIN_BUCKETS = 1 << 10;
    /** Points per first-pass (ones and bit-length) task. */
    private static final int SCAN_CHUNK = 1 << 15;

    private Msm() {
    }

    /**
     * The default executor: one daemon worker per core. Not the common pool, whose parallelism is cores − 1 (it
     * counts on the caller joining in, which a caller blocked in {@code invokeAll} does not), leaving a core idle.
     */
    private static final class DefaultPool {
        static final ForkJoinPool POOL = new ForkJoinPool(Runtime.getRuntime().availableProcessors(), pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("msm-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, false);
    }

    /** The executor used when none is given (one worker per core). */
    public static ExecutorService defaultExecutor() {
        return DefaultPool.POOL;
    }

    /** Σ scalars[i]·bases[i] on {@link #defaultExecutor()}; the result is an affine point ({@link Affine}). */
    public static long[] compute(CurveGroup g, MemorySegment bases, long basesOffset,
                                 MemorySegment scalars, long scalarsOffset, int count) {
        return compute(g, bases, basesOffset, scalars, scalarsOffset, count, defaultExecutor());
    }

    /** Heap convenience: {@code bases} flat affine Montgomery points, {@code scalars} 4 canonical limbs each. */
    public static long[] compute(CurveGroup g, long[] bases, long[] scalars) {
        return compute(g, bases, scalars, BatchAffineBuckets.lanesPay(g.baseField()));
    }

    /**
     * As {@link #compute(CurveGroup, long[], long[])}; {@code vectorLanes} true puts the batch-affine additions on
     * lanes wherever this JVM resolves the Vector API, also where they are the slower path, false keeps them on the
     * scalar path, so that a benchmark compares both in one run.
     */
    public static long[] compute(CurveGroup g, long[] bases, long[] scalars, boolean vectorLanes) {
        int count = scalars.length / 4;
        if (bases.length < count * g.affineWidth()) {
            throw new IllegalArgumentException("fewer bases than scalars");
        }
        return compute(g, MemorySegment.ofArray(bases), 0, MemorySegment.ofArray(scalars), 0, count,
                defaultExecutor(), vectorLanes);
    }

    /**
     * Σ scalars[i]·bases[i] for i &lt; count, with byte offsets into the two segments, on {@code executor}
     * (which must not be a fixed pool already saturated by the caller's own tasks).
     */
    public static long[] compute(CurveGroup g, MemorySegment bases, long basesOffset,
                                 MemorySegment scalars, long scalarsOffset, int count, ExecutorService executor) {
        return compute(g, bases, basesOffset, scalars, scalarsOffset, count, executor,
                BatchAffineBuckets.lanesPay(g.baseField()));
    }

    private static long[] compute(CurveGroup g, MemorySegment bases, long basesOffset, MemorySegment scalars,
                                  long scalarsOffset, int count, ExecutorService executor, boolean vectorLanes) {
        long pointBytes = g.affineBytes();
        if (basesOffset + count * pointBytes > bases.byteSize() || scalarsOffset + (long) count * SCALAR_BYTES > scalars.byteSize()) {
            throw new IndexOutOfBoundsException("MSM of " + count + " points runs past the end of its segments");
        }
        Job job = new Job(g, bases, basesOffset, scalars, scalarsOffset, count,
                vectorLanes && BatchAffineBuckets.LANES_ENABLED);
        int parallelism = executor instanceof ForkJoinPool fj ? fj.getParallelism() : Runtime.getRuntime().availableProcessors();

        // 1. ones, zeros and the largest bit length
        List<Callable<ScanResult>> scans = new ArrayList<>();
        for (int from = 0; from < count; from += SCAN_CHUNK) {
            int lo = from, hi = Math.min(count, from + SCAN_CHUNK);
            scans.add(() -> job.scan(lo, hi));
        }
        CurveOps ops = g.newOps();
        int w = g.fieldWidth();
        long[] acc = new long[4 * w];
        int maxBits = 0;
        long general = 0;
        for (ScanResult s : runAll(executor, scans)) {
            ops.addXyzz(acc, 0, s.onesSum, 0, acc, 0);
            maxBits = Math.max(maxBits, s.maxBits);
            general += s.general;
        }
        if (general > 0) {
            // 2. windows × point ranges
            int c = windowBits(general, maxBits, w);
            int windows = (maxBits + 1 + c - 1) / c;
            int chunks = Math.max(1, Math.min((2 * parallelism + windows - 1) / windows, (int) (general >> c)));
            List<Callable<long[]>> tasks = new ArrayList<>();
            for (int j = 0; j < windows; j++) {
                for (int k = 0; k < chunks; k++) {
                    int window = j;
                    int lo = (int) ((long) count * k / chunks), hi = (int) ((long) count * (k + 1) / chunks);
                    tasks.add(() -> job.window(window, c, lo, hi));
                }
            }
            List<long[]> sums = runAll(executor, tasks);
            // 3. Horner over windows, most significant first
            long[] total = new long[4 * w];
            for (int j = windows - 1; j >= 0; j--) {
                for (int i = 0; i < c && j < windows - 1; i++) {
                    ops.doubleXyzz(total, 0, total, 0);
                }
                for (int k = 0; k < chunks; k++) {
                    ops.addXyzz(total, 0, sums.get(j * chunks + k), 0, total, 0);
                }
            }
            ops.addXyzz(acc, 0, total, 0, acc, 0);
        }
        long[] result = new long[2 * w];
        ops.xyzzToAffine(acc, 0, result, 0);
        return result;
    }

    /**
     * The window size c minimising ⌈(B+1)/c⌉·(n + 2^c) (mixed additions plus bucket reduction), capped so that one
     * task's 2^(c−1) XYZZ buckets stay within {@link #MAX_BUCKET_BYTES}.
     */
    static int windowBits(long n, int maxBits, int fieldWidth) {
        int best = 1;
        double bestCost = Double.MAX_VALUE;
        for (int c = 1; c <= 24; c++) {
            // affine buckets (2w) plus their XYZZ overflow accumulators (4w), as BatchAffineBuckets holds them
            if ((1L << (c - 1)) * 6L * fieldWidth * 8 > MAX_BUCKET_BYTES) {
                break;
            }
            double cost = (double) ((maxBits + c) / c) * (n + (1L << c));
            if (cost < bestCost) {
                bestCost = cost;
                best = c;
            }
        }
        return best;
    }

    /**
     * Whether the batch-affine additions of {@code g}'s MSMs run on Vector API lanes in this JVM (the module resolved
     * and lanes the faster path for its base field on this machine), for benchmark headers.
     */
    public static boolean usesVectorLanes(CurveGroup g) {
        return BatchAffineBuckets.lanesPay(g.baseField());
    }

    /**
     * Additions per batch-affine batch: buckets/4, at least 256 (one inversion ≈ 1.5·bits multiplications, so
     * ≲ 1.5M per addition) and at most 4096. Collisions are deferred to the next batch, so a larger batch costs
     * little; measured on 2^16 bn254 G1 (process CPU time): buckets/8 → buckets/4 ~7 % faster, buckets/2 no better.
     */
    static int batchCapacity(int buckets) {
        return Math.min(4096, Math.max(256, buckets / 4));
    }

    private static <T> List<T> runAll(ExecutorService executor, List<Callable<T>> tasks) {
        try {
            List<T> results = new ArrayList<>(tasks.size());
            for (Future<T> f : executor.invokeAll(tasks)) {
                results.add(f.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("MSM interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("MSM task failed", e.getCause());
        }
    }

    private record ScanResult(long[] onesSum, int maxBits, long general) {
    }

    /** One MSM's inputs; its methods are the tasks, each with its own {@link CurveOps} and buffers. */
    private record Job(CurveGroup g, MemorySegment bases, long basesOffset, MemorySegment scalars, long scalarsOffset,
                       int count, boolean vectorLanes) {

        /** Sums points with scalar 1, counts the others that are non-zero, and finds their largest bit length. */
        ScanResult scan(int from, int to) {
            CurveOps ops = g.newOps();
            int w = g.fieldWidth();
            long[] acc = new long[4 * w];
            long[] point = new long[2 * w];
            int maxBits = 0;
            long general = 0;
            for (int i = from; i < to; i++) {
                long so = scalarsOffset + (long) i * SCALAR_BYTES;
                long s0 = scalars.get(LIMB, so), s1 = scalars.get(LIMB, so + 8);
                long s2 = scalars.get(LIMB, so + 16), s3 = scalars.get(LIMB, so + 24);
                if ((s1 | s2 | s3) == 0 && (s0 & ~1L) == 0) {
                    if (s0 == 1 && loadPoint(i, point, w)) {
                        ops.addAffineToXyzz(acc, 0, point, 0, acc, 0);
                    }
                    continue;
                }
                general++;
                int bits = s3 != 0 ? 256 - Long.numberOfLeadingZeros(s3)
                        : s2 != 0 ? 192 - Long.numberOfLeadingZeros(s2)
                        : s1 != 0 ? 128 - Long.numberOfLeadingZeros(s1)
                        : 64 - Long.numberOfLeadingZeros(s0);
                maxBits = Math.max(maxBits, bits);
            }
            return new ScanResult(acc, maxBits, general);
        }

        /** Window {@code j}'s bucket sum Σ d·(Σ points with digit d) over points [from, to), as XYZZ. */
        long[] window(int j, int c, int from, int to) {
            int w = g.fieldWidth();
            int xyzz = 4 * w;
            int buckets = 1 << (c - 1);
            BatchAffineBuckets batch = buckets >= BATCH_AFFINE_MIN_BUCKETS
                    ? BatchAffineBuckets.forThisThread(g, buckets, batchCapacity(buckets), vectorLanes) : null;
            CurveOps ops = batch != null ? batch.ops() : g.newOps();
            var f = ops.field();
            long[] bucket = batch == null ? new long[buckets * xyzz] : null;
            long[] point = new long[2 * w];
            int start = j * c - 1;             // the bit below the window carries the Booth borrow
            long halfMask = (1L << (c - 1)) - 1;
            for (int i = from; i < to; i++) {
                long so = scalarsOffset + (long) i * SCALAR_BYTES;
                long s0 = scalars.get(LIMB, so), s1 = scalars.get(LIMB, so + 8);
                long s2 = scalars.get(LIMB, so + 16), s3 = scalars.get(LIMB, so + 24);
                if ((s1 | s2 | s3) == 0 && (s0 & ~1L) == 0) {
                    continue;                  // 0 and 1 were handled by scan()
                }
                long v = start < 0 ? bits(s0, s1, s2, s3, 0, c) << 1 : bits(s0, s1, s2, s3, start, c + 1);
                int digit = (int) ((v & 1) + ((v >>> 1) & halfMask) - (((v >>> c) & 1) << (c - 1)));
                if (digit == 0 || !loadPoint(i, point, w)) {
                    continue;
                }
                if (batch != null) {
                    batch.add(Math.abs(digit) - 1, point, 0, digit < 0);
                    continue;
                }
                if (digit < 0) {
                    f.neg(point, w, point, w);
                    digit = -digit;
                }
                int b = (digit - 1) * xyzz;
                ops.addAffineToXyzz(bucket, b, point, 0, bucket, b);
            }
            if (batch != null) {
                return batch.weightedSum();
            }
            long[] running = new long[xyzz];
            long[] sum = new long[xyzz];
            for (int b = buckets - 1; b >= 0; b--) {
                ops.addXyzz(running, 0, bucket, b * xyzz, running, 0);
                ops.addXyzz(sum, 0, running, 0, sum, 0);
            }
            return sum;
        }

        /** Reads base i into {@code point}; false when it is the all-zero infinity. */
        private boolean loadPoint(int i, long[] point, int w) {
            long off = basesOffset + (long) i * 16 * w;
            long any = 0;
            for (int l = 0; l < 2 * w; l++) {
                long v = bases.get(LIMB, off + 8L * l);
                point[l] = v;
                any |= v;
            }
            return any != 0;
        }
    }

    /** {@code len} (≤ 63) bits of the 256-bit scalar s3‖s2‖s1‖s0 from bit {@code pos}; zeros above bit 255. */
    static long bits(long s0, long s1, long s2, long s3, int pos, int len) {
        int limb = pos >>> 6;
        int shift = pos & 63;
        long lo = limb(s0, s1, s2, s3, limb);
        long v = lo >>> shift;
        if (shift != 0) {
            v |= limb(s0, s1, s2, s3, limb + 1) << (64 - shift);
        }
        return v & ((1L << len) - 1);
    }

    private static long limb(long s0, long s1, long s2, long s3, int i) {
        return switch (i) {
            case 0 -> s0;
            case 1 -> s1;
            case 2 -> s2;
            case 3 -> s3;
            default -> 0;
        };
    }
}
