package io.proofline.gpu;

import io.proofline.algebra.field.FieldOps;

/**
 * Multi-scalar multiplication Σ sᵢ·Pᵢ over G1 or G2 on the GPU (Pippenger, native-cuda/msm/pippenger.cuh), for a
 * fixed number of points n, with its scratch buffers allocated once. Points are affine {@code x‖y} in Montgomery
 * form (snarkjs zkey layout; all-zero is infinity) and stay resident; scalars are canonical little-endian 256-bit
 * words. Scalars 0 and 1 bypass Pippenger: 0 contributes nothing, the points with scalar 1 are summed directly.
 *
 * <p>Window width c = log2(n) − 4 clamped to [4, 16] (DESIGN §8: about N·⌈b/c⌉ + ⌈b/c⌉·2^c additions, with signed
 * digits halving the buckets). A bucket holding many points (equal scalars: a witness's repeated values) is split over
 * several threads, so no thread's work grows with the skew of the scalars. Not thread-safe: one instance per worker.
 *
 * <p>Shape knobs (system properties, read once; the defaults are the measured best, docs/gpu-notes.md):
 * {@value #SPLIT_PROPERTY} ({@code tasks}: a thread per bucket, several for buckets of over {@value #PER_TASK_PROPERTY}
 * pairs; {@code chunks}: equal chunks of {@value #CHUNK_PROPERTY} pairs), {@value #ORDER_PROPERTY} ({@code size}: the
 * tasks ordered by size, largest first, so that a warp's threads add about as many points; {@code none}),
 * {@value #PREFETCH_PROPERTY} (load the next point while adding the current one), {@value #CHUNK_PROPERTY} entries per
 * thread in the levels that add split buckets' partial sums, {@value #REDUCE_PROPERTY} ({@code levels}: the bucket
 * reduction by levels of {@value #SEGMENT_PROPERTY} entries, no scalar multiplications; {@code segments}: segments of
 * {@value #SEGMENT_PROPERTY} buckets, each scaled by double-and-add, then trees), {@value #TREE_GROUP_PROPERTY} points
 * per thread in each level of the partial-sum trees.
 */
public final class GpuMsm implements AutoCloseable {

    /** Scalars are 256-bit: 8 words of 32 bits. */
    public static final int SCALAR_BYTES = 32;
    public static final String CHUNK_PROPERTY = "proofline.gpu.msm.chunk";
    public static final String SEGMENT_PROPERTY = "proofline.gpu.msm.segment";
    public static final String TREE_GROUP_PROPERTY = "proofline.gpu.msm.tree-group";
    public static final String SPLIT_PROPERTY = "proofline.gpu.msm.split";
    public static final String PER_TASK_PROPERTY = "proofline.gpu.msm.per-task";
    public static final String ORDER_PROPERTY = "proofline.gpu.msm.order";
    public static final String PREFETCH_PROPERTY = "proofline.gpu.msm.prefetch";
    public static final String REDUCE_PROPERTY = "proofline.gpu.msm.reduce";
    private static final int CHUNK = Integer.getInteger(CHUNK_PROPERTY, 8);
    private static final int SEGMENT = Integer.getInteger(SEGMENT_PROPERTY, 4);
    private static final int TREE_GROUP = Integer.getInteger(TREE_GROUP_PROPERTY, 8);
    /** {@code tasks}: a thread per bucket of at most PER_TASK pairs, more for larger ones; {@code chunks}: equal
     *  chunks of the sorted pairs whatever the buckets. */
    private static final boolean CHUNKS = "chunks".equals(System.getProperty(SPLIT_PROPERTY, "tasks"));
    private static final int PER_TASK = Integer.getInteger(PER_TASK_PROPERTY, 128);
    private static final boolean ORDERED = !"none".equals(System.getProperty(ORDER_PROPERTY, "size"));
    private static final boolean PREFETCH = Boolean.parseBoolean(System.getProperty(PREFETCH_PROPERTY, "false"));
    private static final boolean LEVELS = !"segments".equals(System.getProperty(REDUCE_PROPERTY, "levels"));
    /** The most pairs per task that the ordering by size handles (pippenger.cuh: MAX_ORDERED_PER_TASK). */
    private static final int MAX_ORDERED_PER_TASK = 1024;
    /** Points with scalar 1 summed per thread before the tree of partial sums. */
    private static final int ONES_PER_THREAD = 32;

    private final KernelModule module;
    private final GpuGroup group;
    private final int n;
    private final int c;
    private final int windows;
    private final int bucketsPerWindow;
    private final int buckets;
    private final long maxPairs;
    private final int segmentLength;
    private final int segmentsPerWindow;
    private final int scanBlocks;
    private final int onesPartials;

    private final DeviceBuffer counts;
    private final DeviceBuffer offsets;
    private final DeviceBuffer cursor;
    private final DeviceBuffer scanTotals;
    private final DeviceBuffer pairs;
    private final DeviceBuffer pairKeys;
    private final DeviceBuffer bucketSums;
    /** Level 1 of the partial sums (chunk heads, or the tasks' partials) and a spare for the levels above. */
    private final DeviceBuffer levelSums;
    private final DeviceBuffer levelKeys;
    private final DeviceBuffer spareSums;
    private final DeviceBuffer spareKeys;
    private final long levelEntries;
    private final DeviceBuffer taskCounts;
    private final DeviceBuffer taskOffsets;
    private final DeviceBuffer taskBucket;
    /** The tasks by size (largest first): per-size counts, their scan as cursors, and the order itself. */
    private final DeviceBuffer sizeCounts;
    private final DeviceBuffer sizeCursor;
    private final DeviceBuffer taskOrder;
    /** The bucket reduction: segment partial sums (segments), or the levels' S (here) and U (levelU*), alternating A, B. */
    private final DeviceBuffer treeA;
    private final DeviceBuffer treeB;
    private final DeviceBuffer levelUA;
    private final DeviceBuffer levelUB;
    private final DeviceBuffer onesA;
    private final DeviceBuffer onesB;
    private final DeviceBuffer result;
    private final XyzzHorner horner;

    /** A G1 MSM of n points with the default window. */
    public GpuMsm(KernelModule module, GpuCurve curve, int n) {
        this(module, GpuGroup.g1(curve), n, defaultWindowBits(n));
    }

    /** A G1 MSM of n points with a window of {@code windowBits}. */
    public GpuMsm(KernelModule module, GpuCurve curve, int n, int windowBits) {
        this(module, GpuGroup.g1(curve), n, windowBits);
    }

    public GpuMsm(KernelModule module, GpuGroup group, int n) {
        this(module, group, n, defaultWindowBits(n));
    }

    public GpuMsm(KernelModule module, GpuGroup group, int n, int windowBits) {
        if (n < 1) {
            throw new IllegalArgumentException("MSM of " + n + " points");
        }
        if (windowBits < 2 || windowBits > module.tunables().msmMaxWindowBits()) {
            throw new IllegalArgumentException("window of " + windowBits + " bits");
        }
        for (int knob : new int[] {CHUNK, SEGMENT, TREE_GROUP, PER_TASK}) {
            if (knob < 2 || Integer.bitCount(knob) != 1) {
                throw new IllegalArgumentException("MSM shape knobs must be powers of two >= 2: chunk " + CHUNK
                        + ", segment " + SEGMENT + ", tree group " + TREE_GROUP + ", per task " + PER_TASK);
            }
        }
        if (ORDERED && !CHUNKS && PER_TASK > MAX_ORDERED_PER_TASK) {
            throw new IllegalArgumentException("ordering tasks by size allows at most " + MAX_ORDERED_PER_TASK
                    + " pairs per task, not " + PER_TASK + " (or set " + ORDER_PROPERTY + "=none)");
        }
        this.module = module;
        this.group = group;
        this.n = n;
        this.c = windowBits;
        this.windows = (256 + c - 1) / c;
        this.bucketsPerWindow = 1 << (c - 1);
        this.buckets = windows * bucketsPerWindow;
        this.maxPairs = (long) n * windows;
        this.segmentLength = Math.min(SEGMENT, bucketsPerWindow);
        this.segmentsPerWindow = bucketsPerWindow / segmentLength;
        this.scanBlocks = Math.toIntExact(KernelModule.blocksFor(buckets, module.tunables().scanThreads()));
        this.onesPartials = Math.toIntExact(KernelModule.blocksFor(n, ONES_PER_THREAD));
        long xyzz = group.xyzzBytes();
        // Level 1: one head per chunk, or one partial per task (at most one per bucket plus one per PER_TASK pairs).
        this.levelEntries = CHUNKS ? ceilDiv(maxPairs, CHUNK) : buckets + maxPairs / PER_TASK;
        this.counts = DeviceBuffer.allocate(4L * buckets);
        this.offsets = DeviceBuffer.allocate(4L * buckets);
        this.cursor = DeviceBuffer.allocate(4L * buckets);
        this.scanTotals = DeviceBuffer.allocate(4L * scanBlocks);
        this.pairs = DeviceBuffer.allocate(4L * maxPairs);
        this.pairKeys = DeviceBuffer.allocate(CHUNKS ? 4L * maxPairs : 4);
        this.bucketSums = DeviceBuffer.allocate(xyzz * buckets);
        this.levelSums = DeviceBuffer.allocate(xyzz * levelEntries);
        this.levelKeys = DeviceBuffer.allocate(4L * levelEntries);
        this.spareSums = DeviceBuffer.allocate(xyzz * ceilDiv(levelEntries, CHUNK));
        this.spareKeys = DeviceBuffer.allocate(4L * ceilDiv(levelEntries, CHUNK));
        this.taskCounts = DeviceBuffer.allocate(CHUNKS ? 4 : 4L * buckets);
        this.taskOffsets = DeviceBuffer.allocate(CHUNKS ? 4 : 4L * buckets);
        this.taskBucket = DeviceBuffer.allocate(CHUNKS ? 4 : 4L * levelEntries);
        boolean ordering = ORDERED && !CHUNKS;
        this.sizeCounts = DeviceBuffer.allocate(ordering ? 4L * PER_TASK : 4);
        this.sizeCursor = DeviceBuffer.allocate(ordering ? 4L * PER_TASK : 4);
        this.taskOrder = DeviceBuffer.allocate(ordering ? 4L * levelEntries : 4);
        // Levels: level 1 writes windows·(2^(c−1)/L) entries into the A pair, level 2 L times fewer into the B pair,
        // level 3 into A again, and so on.
        long levelTwo = (long) windows * Math.max(1, segmentsPerWindow / segmentLength);
        this.treeA = DeviceBuffer.allocate(xyzz * windows * segmentsPerWindow);
        this.treeB = DeviceBuffer.allocate(xyzz * (LEVELS ? levelTwo : (long) windows * segmentsPerWindow));
        this.levelUA = DeviceBuffer.allocate(LEVELS ? xyzz * windows * segmentsPerWindow : 4);
        this.levelUB = DeviceBuffer.allocate(LEVELS ? xyzz * levelTwo : 4);
        this.onesA = DeviceBuffer.allocate(xyzz * onesPartials);
        this.onesB = DeviceBuffer.allocate(xyzz * onesPartials);
        this.result = DeviceBuffer.allocate(xyzz * (windows + 1));
        this.horner = new XyzzHorner(group.coordinateField());
    }

    /** c = log2(n) − 4, clamped to [4, 16]. */
    public static int defaultWindowBits(int n) {
        int log = 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1));
        return Math.max(4, Math.min(16, log - 4));
    }

    public int size() {
        return n;
    }

    public GpuCurve curve() {
        return group.curve();
    }

    public GpuGroup group() {
        return group;
    }

    public int windowBits() {
        return c;
    }

    /** Device bytes this instance holds. */
    public long scratchBytes() {
        long bytes = 0;
        for (DeviceBuffer b : buffers()) {
            bytes += b.bytes();
        }
        return bytes;
    }

    /** Queues the GPU part of the MSM on {@code stream} (everything but the host's final Horner step). */
    public void enqueue(DeviceBuffer points, DeviceBuffer scalars, GpuStream stream) {
        enqueue(points, scalars, stream, StageTimes.NONE);
    }

    /** As {@link #enqueue(DeviceBuffer, DeviceBuffer, GpuStream)}, marking each stage's end in {@code times}. */
    public void enqueue(DeviceBuffer points, DeviceBuffer scalars, GpuStream stream, StageTimes times) {
        if (points.bytes() < (long) n * group.affineBytes() || scalars.bytes() < (long) n * SCALAR_BYTES) {
            throw new IllegalArgumentException("points or scalars shorter than " + n + " entries");
        }
        Tunables t = module.tunables();
        int ew = t.elementwiseThreads();
        int pt = t.pointThreads();
        long nn = n;
        times.mark("start", stream);
        // 1. Counting sort of (bucket, point) pairs: histogram, exclusive scan, scatter.
        counts.zeroAsync(counts.bytes(), stream);
        module.launch("proofline_msm_histogram", KernelModule.blocksFor(n, ew), ew, stream, scalars, nn, c, windows,
                counts);
        module.launch("proofline_scan_blocks", scanBlocks, t.scanThreads(), stream, counts, offsets, scanTotals,
                (long) buckets);
        module.launch("proofline_scan_totals", 1, t.scanThreads(), stream, scanTotals, scanBlocks);
        module.launch("proofline_scan_add", scanBlocks, t.scanThreads(), stream, offsets, scanTotals, (long) buckets);
        cursor.copyFromAsync(offsets, offsets.bytes(), stream);
        module.launch("proofline_msm_scatter", KernelModule.blocksFor(n, ew), ew, stream, scalars, nn, c, windows,
                cursor, pairs, pairKeys, CHUNKS ? 1 : 0);
        times.mark("sort", stream);
        // 2. Bucket sums (level 0), then the partial sums of buckets split over several threads, level by level until
        //    one chunk holds a whole level (the kernels read the pair and task totals on the device).
        bucketSums.zeroAsync(bucketSums.bytes(), stream);
        DeviceBuffer totalOffsets = offsets;
        DeviceBuffer totalCounts = counts;
        long span;
        if (CHUNKS) {
            module.launch(group.kernel("accumulate_chunks"), KernelModule.blocksFor(levelEntries, pt), pt, stream,
                    points, pairs, pairKeys, offsets, counts, buckets, CHUNK, bucketSums, levelSums, levelKeys);
            span = CHUNK;
        } else {
            module.launch("proofline_msm_task_counts", KernelModule.blocksFor(buckets, ew), ew, stream, counts,
                    buckets, PER_TASK, taskCounts);
            module.launch("proofline_scan_blocks", scanBlocks, t.scanThreads(), stream, taskCounts, taskOffsets,
                    scanTotals, (long) buckets);
            module.launch("proofline_scan_totals", 1, t.scanThreads(), stream, scanTotals, scanBlocks);
            module.launch("proofline_scan_add", scanBlocks, t.scanThreads(), stream, taskOffsets, scanTotals,
                    (long) buckets);
            module.launch("proofline_msm_task_map", KernelModule.blocksFor(buckets, ew), ew, stream, taskOffsets,
                    taskCounts, buckets, taskBucket);
            if (ORDERED) {
                orderTasksBySize(stream);
            }
            times.mark("tasks", stream);
            module.launch(group.kernel(PREFETCH ? "accumulate_tasks" : "accumulate_tasks_plain"),
                    KernelModule.blocksFor(levelEntries, pt), pt, stream, points, pairs, offsets, counts, taskOffsets,
                    taskCounts, taskBucket, taskOrder, ORDERED ? 1 : 0, buckets, PER_TASK, bucketSums, levelSums,
                    levelKeys);
            totalOffsets = taskOffsets;
            totalCounts = taskCounts;
            span = 1;
        }
        times.mark("accumulate", stream);
        DeviceBuffer inSums = levelSums;
        DeviceBuffer inKeys = levelKeys;
        DeviceBuffer outSums = spareSums;
        DeviceBuffer outKeys = spareKeys;
        for (long entries = levelEntries; entries > 1; span *= CHUNK) {
            module.launch(group.kernel("combine_heads"), KernelModule.blocksFor(ceilDiv(entries, CHUNK), pt), pt,
                    stream, inSums, inKeys, totalOffsets, totalCounts, buckets, span, CHUNK, bucketSums, outSums,
                    outKeys);
            if (entries <= CHUNK) {
                break;
            }
            entries = ceilDiv(entries, CHUNK);
            DeviceBuffer s = inSums;
            inSums = outSums;
            outSums = s;
            DeviceBuffer k = inKeys;
            inKeys = outKeys;
            outKeys = k;
        }
        times.mark("heads", stream);
        // 3. Bucket reduction Σ v·B_v per window: by levels, or segments and then trees down to one per window.
        DeviceBuffer windowSums;
        if (LEVELS) {
            windowSums = reduceByLevels(stream, times);
        } else {
            long segments = (long) windows * segmentsPerWindow;
            module.launch(group.kernel("segments"), KernelModule.blocksFor(segments, pt), pt, stream, bucketSums,
                    windows, c, segmentLength, treeA);
            times.mark("segments", stream);
            windowSums = reduceTree(treeA, treeB, segments, segmentsPerWindow, stream);
            times.mark("window trees", stream);
        }
        // 4. The points with scalar 1.
        module.launch(group.kernel("ones"), KernelModule.blocksFor(onesPartials, pt), pt, stream, points, scalars,
                nn, ONES_PER_THREAD, onesA);
        DeviceBuffer onesSum = reduceTree(onesA, onesB, onesPartials, onesPartials, stream);
        times.mark("ones", stream);
        // 5. The window sums and the ones' sum side by side, for the host's Horner step (XyzzHorner says why).
        result.copyFromAsync(windowSums, (long) windows * xyzz(), stream);
        result.copyFromAsync(onesSum, xyzz(), (long) windows * xyzz(), stream);
        times.mark("copy out", stream);
    }

    /**
     * Runs the MSM and returns Σ sᵢ·Pᵢ as XYZZ limbs {@code X‖Y‖ZZ‖ZZZ} (Montgomery form): the GPU's window sums
     * and ones' sum, combined on the host as Σ_w 2^(c·w)·window_w + ones.
     */
    public long[] run(DeviceBuffer points, DeviceBuffer scalars, GpuStream stream) {
        enqueue(points, scalars, stream);
        stream.synchronize();
        int w = group.coordinateLongs();
        long[] sums = result.downloadLongs(0, (windows + 1) * 4 * w);
        long[] ones = java.util.Arrays.copyOfRange(sums, windows * 4 * w, (windows + 1) * 4 * w);
        return horner.combine(sums, windows, c, ones);
    }

    /**
     * As {@link #run}, as an affine point {@code x‖y} in the zkey's layout (Montgomery form; infinity all zeros):
     * x = X/ZZ, y = Y/ZZZ (two inversions on the host).
     */
    public long[] runAffine(DeviceBuffer points, DeviceBuffer scalars, GpuStream stream) {
        return toAffine(group.coordinateField(), run(points, scalars, stream));
    }

    /** XYZZ {@code X‖Y‖ZZ‖ZZZ} → affine {@code x‖y}; ZZ = 0 is the point at infinity, (0, 0). */
    static long[] toAffine(FieldOps fq, long[] xyzz) {
        int w = fq.width();
        long[] out = new long[2 * w];
        if (fq.isZero(xyzz, 2 * w)) {
            return out;
        }
        long[] inv = new long[w];
        fq.inv(xyzz, 2 * w, inv, 0);
        fq.mul(xyzz, 0, inv, 0, out, 0);
        fq.inv(xyzz, 3 * w, inv, 0);
        fq.mul(xyzz, w, inv, 0, out, w);
        return out;
    }

    private long xyzz() {
        return group.xyzzBytes();
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /**
     * Sums runs of {@code runLength} consecutive points (runLength a power of two, or everything) down to one per
     * run, {@link #TREE_GROUP} per thread per level, ping-ponging between {@code a} and {@code b}; returns the holder.
     */
    private DeviceBuffer reduceTree(DeviceBuffer a, DeviceBuffer b, long count, long runLength, GpuStream stream) {
        int pt = module.tunables().pointThreads();
        DeviceBuffer in = a;
        DeviceBuffer out = b;
        while (runLength > 1) {
            int width = (int) Math.min(TREE_GROUP, runLength);
            long outCount = (count + width - 1) / width;
            module.launch(group.kernel("sum_groups"), KernelModule.blocksFor(outCount, pt), pt, stream, in, count,
                    width, out);
            count = outCount;
            runLength = (runLength + width - 1) / width;
            DeviceBuffer swap = in;
            in = out;
            out = swap;
        }
        return in;
    }

    /**
     * task_order = the tasks sorted by size, largest first: a histogram of the sizes, its exclusive scan as cursors,
     * and a scatter (native-cuda/msm/pippenger.cuh, task_size_histogram and task_size_scatter).
     */
    private void orderTasksBySize(GpuStream stream) {
        Tunables t = module.tunables();
        int ew = t.elementwiseThreads();
        long grid = KernelModule.blocksFor(levelEntries, ew);
        sizeCounts.zeroAsync(sizeCounts.bytes(), stream);
        module.launch("proofline_msm_task_size_histogram", grid, ew, stream, offsets, counts, taskOffsets, taskCounts,
                taskBucket, buckets, PER_TASK, sizeCounts);
        long bins = PER_TASK;
        long binBlocks = KernelModule.blocksFor(bins, t.scanThreads());
        module.launch("proofline_scan_blocks", binBlocks, t.scanThreads(), stream, sizeCounts, sizeCursor, scanTotals,
                bins);
        module.launch("proofline_scan_totals", 1, t.scanThreads(), stream, scanTotals, (int) binBlocks);
        module.launch("proofline_scan_add", binBlocks, t.scanThreads(), stream, sizeCursor, scanTotals, bins);
        module.launch("proofline_msm_task_size_scatter", grid, ew, stream, offsets, counts, taskOffsets, taskCounts,
                taskBucket, buckets, PER_TASK, sizeCursor, taskOrder);
    }

    /**
     * R_w = Σ_v v·B_v for every window by levels of {@link #segmentLength} entries (reduce_level): level 1 turns the
     * 2^(c−1) buckets of a window into 2^(c−1)/L pairs (S, U), each level above divides the count by L, until one
     * entry per window is left, whose U is R_w. Returns the buffer holding the windows' R_w in order.
     */
    private DeviceBuffer reduceByLevels(GpuStream stream, StageTimes times) {
        int pt = module.tunables().pointThreads();
        DeviceBuffer sIn = bucketSums;
        DeviceBuffer uIn = bucketSums;
        DeviceBuffer[] sOut = {treeA, treeB};
        DeviceBuffer[] uOut = {levelUA, levelUB};
        int entries = bucketsPerWindow;
        for (int level = 0; entries > 1 || level == 0; level++) {
            int len = Math.min(segmentLength, entries);
            long threads = (long) windows * (entries / len);
            module.launch(group.kernel("reduce_level"), KernelModule.blocksFor(threads, pt), pt, stream, sIn, uIn,
                    windows, entries, len, level == 0 ? 1 : 0, sOut[level & 1], uOut[level & 1]);
            if (level == 0) {
                times.mark("segments", stream);
            }
            sIn = sOut[level & 1];
            uIn = uOut[level & 1];
            entries /= len;
        }
        times.mark("window trees", stream);
        return uIn;
    }

    private DeviceBuffer[] buffers() {
        return new DeviceBuffer[] {counts, offsets, cursor, scanTotals, pairs, pairKeys, bucketSums, levelSums,
                levelKeys, spareSums, spareKeys, taskCounts, taskOffsets, taskBucket, sizeCounts, sizeCursor,
                taskOrder, treeA, treeB, levelUA, levelUB, onesA, onesB, result};
    }

    @Override
    public void close() {
        for (DeviceBuffer b : buffers()) {
            b.close();
        }
    }
}
