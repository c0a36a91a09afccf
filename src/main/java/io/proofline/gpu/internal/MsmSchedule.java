package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;

/**
 * The first half of a GPU MSM, which depends on the scalars only: their signed digits sorted into buckets (pairs of
 * point index and sign, in bucket order, by a radix sort of each window's digits: native-cuda/msm/bucket_sort.cuh),
 * and the buckets cut into tasks of at most {@link MsmShape#perTask(int, int)} pairs, ordered by size
 * (native-cuda/msm/pippenger.cuh, task_counts … task_size_scatter). {@link GpuMsm} adds the points along it.
 *
 * <p>Why a separate object: the MSMs of a proof over one scalar vector — ΣA, ΣB1 and ΣC over G1 and ΣB2 over G2 all
 * take the witness — need one sort between them, not four, and MSMs on two streams can read
 * one schedule at once: after {@link #enqueueSort} it is read-only until the next sort. The window width c and the
 * size n fix every buffer; an MSM reads a schedule only of its own n and c.
 */
public final class MsmSchedule implements AutoCloseable {

    /** Bits of a key the radix sort ranks per pass (native-cuda/msm/bucket_sort.cuh: RADIX_BITS). */
    private static final int RADIX_BITS = 8;
    private static final int RADIX = 1 << RADIX_BITS;
    /** A window's bucket |d| − 1 < 2^(c−1) ≤ 2^16 as the sort's key (bucket_sort.cuh: bucket_key). */
    private static final long KEY_BYTES = 2;

    private final KernelModule module;
    private final MsmShape shape;
    private final int n;
    private final int c;
    private final int windows;
    private final int buckets;
    private final long levelEntries;
    private final int perTask;
    private final int scanBlocks;
    /** Tiles of the radix sort per window, and its passes of 8 bits over the keys |d| − 1 < 2^(c−1). */
    private final int tiles;
    private final int sortPasses;

    final DeviceBuffer counts;
    final DeviceBuffer offsets;
    /** Each bucket's end in the sorted pairs (offsets holds its begin until the counts are taken). */
    private final DeviceBuffer ends;
    final DeviceBuffer scanTotals;
    final DeviceBuffer pairs;
    /** The sort's digits per window, their 16-bit keys on the way, and each tile's digit counts (then their scan). */
    private final DeviceBuffer windowFill;
    private final DeviceBuffer keys;
    private final DeviceBuffer keysOther;
    private final DeviceBuffer valuesOther;
    private final DeviceBuffer tileCounts;
    final DeviceBuffer taskCounts;
    final DeviceBuffer taskOffsets;
    final DeviceBuffer taskBucket;
    /** The tasks by size (largest first): per-size counts, their scan as cursors, and the order itself. */
    private final DeviceBuffer sizeCounts;
    private final DeviceBuffer sizeCursor;
    final DeviceBuffer taskOrder;

    /**
     * A schedule for n scalars of {@code curve}'s scalar field (whose bit length sets the number of windows), windows
     * of {@code windowBits} and buckets cut into tasks as {@code shape} says.
     */
    public MsmSchedule(KernelModule module, GpuCurve curve, int n, int windowBits, MsmShape shape) {
        if (n < 1) {
            throw new IllegalArgumentException("MSM of " + n + " points");
        }
        if (windowBits < 2 || windowBits > module.tunables().msmMaxWindowBits()) {
            throw new IllegalArgumentException("window of " + windowBits + " bits");
        }
        this.module = module;
        this.shape = shape;
        this.n = n;
        this.c = windowBits;
        this.windows = MsmShape.windows(windowBits, curve.scalarBits());
        this.buckets = windows * (1 << (c - 1));
        long maxPairs = (long) n * windows;
        this.levelEntries = shape.levelEntries(n, windowBits, curve.scalarBits());
        this.perTask = shape.perTask(n, windowBits);
        Tunables t = module.tunables();
        this.tiles = Math.toIntExact(KernelModule.blocksFor(n, t.sortTile()));
        this.sortPasses = Math.max(1, (c - 1 + RADIX_BITS - 1) / RADIX_BITS);
        long tileCountEntries = (long) windows * RADIX * tiles;
        this.scanBlocks = Math.toIntExact(KernelModule.blocksFor(Math.max(buckets, tileCountEntries), t.scanThreads()));
        this.counts = DeviceBuffer.allocate(4L * buckets);
        this.offsets = DeviceBuffer.allocate(4L * buckets);
        this.ends = DeviceBuffer.allocate(4L * buckets);
        this.scanTotals = DeviceBuffer.allocate(4L * scanBlocks);
        this.pairs = DeviceBuffer.allocate(4L * maxPairs);
        this.windowFill = DeviceBuffer.allocate(4L * windows);
        this.keys = DeviceBuffer.allocate(KEY_BYTES * maxPairs);
        this.keysOther = DeviceBuffer.allocate(KEY_BYTES * maxPairs);
        this.valuesOther = DeviceBuffer.allocate(4L * maxPairs);
        this.tileCounts = DeviceBuffer.allocate(4L * tileCountEntries);
        this.taskCounts = DeviceBuffer.allocate(4L * buckets);
        this.taskOffsets = DeviceBuffer.allocate(4L * buckets);
        this.taskBucket = DeviceBuffer.allocate(4L * levelEntries);
        this.sizeCounts = DeviceBuffer.allocate(4L * perTask);
        this.sizeCursor = DeviceBuffer.allocate(4L * perTask);
        this.taskOrder = DeviceBuffer.allocate(4L * levelEntries);
    }

    public int size() {
        return n;
    }

    public int windowBits() {
        return c;
    }

    int windowCount() {
        return windows;
    }

    int buckets() {
        return buckets;
    }

    long levelEntries() {
        return levelEntries;
    }

    /** Most pairs per task of this schedule ({@link MsmShape#perTask(int, int)}). */
    int perTask() {
        return perTask;
    }

    /** Queues the sort of {@code scalars} (n canonical 256-bit words) and the tasks on {@code stream}. */
    public void enqueueSort(DeviceBuffer scalars, GpuStream stream, StepTimes times) {
        if (scalars.bytes() < (long) n * GpuMsm.SCALAR_BYTES) {
            throw new IllegalArgumentException("scalars shorter than " + n + " entries");
        }
        int ew = module.tunables().elementwiseThreads();
        sortDigits(scalars, stream);
        times.mark("sort", stream);
        // Tasks: ⌈count / PER_TASK⌉ per bucket, their offsets, and each task's bucket.
        module.launch("proofline_msm_task_counts", KernelModule.blocksFor(buckets, ew), ew, stream, counts, buckets,
                perTask, taskCounts);
        scan(taskCounts, taskOffsets, buckets, stream);
        module.launch("proofline_msm_task_map", KernelModule.blocksFor(buckets, ew), ew, stream, taskOffsets,
                taskCounts, buckets, taskBucket);
        orderTasksBySize(stream);
        times.mark("tasks", stream);
    }

    /**
     * The pairs in bucket order, offsets = each bucket's begin and counts its size: each window's digits compacted
     * into its region, then passes of 8 bits (digit counts per tile, their scan, a stable scatter), the last of which
     * writes the pairs densely, window after window; then each bucket's bounds where the sorted keys change.
     * Buffers alternate so that the last pass ends in {@code pairs} and {@code keys}.
     */
    private void sortDigits(DeviceBuffer scalars, GpuStream stream) {
        Tunables t = module.tunables();
        int st = t.sortThreads();
        long nn = n;
        long grid = (long) windows * tiles;
        windowFill.zeroAsync(windowFill.bytes(), stream);
        boolean evenPasses = sortPasses % 2 == 0;
        DeviceBuffer keysIn = evenPasses ? keys : keysOther;
        DeviceBuffer valuesIn = evenPasses ? pairs : valuesOther;
        module.launch("proofline_msm_digits", KernelModule.blocksFor(n, st), st, stream, scalars, nn, c, windows,
                windowFill, keysIn, valuesIn);
        int keyBits = c - 1;
        for (int pass = 0; pass < sortPasses; pass++) {
            int bit = pass * RADIX_BITS;
            int bits = Math.min(RADIX_BITS, keyBits - bit);
            boolean last = pass == sortPasses - 1;
            DeviceBuffer keysOut = keysIn == keys ? keysOther : keys;
            DeviceBuffer valuesOut = valuesIn == pairs ? valuesOther : pairs;
            module.launch("proofline_msm_sort_count", grid, st, stream, keysIn, nn, windowFill, tiles, bit, tileCounts);
            scan(tileCounts, tileCounts, (long) windows * RADIX * tiles, stream);
            module.launch("proofline_msm_sort_scatter", grid, st, stream, keysIn, valuesIn, nn, windowFill, tiles, bit,
                    bits, tileCounts, last ? 1 : 0, keysOut, valuesOut);
            keysIn = keysOut;
            valuesIn = valuesOut;
        }
        offsets.zeroAsync(offsets.bytes(), stream);
        ends.zeroAsync(ends.bytes(), stream);
        module.launch("proofline_msm_bucket_bounds", grid, st, stream, keys, windowFill, tiles, 1 << (c - 1), offsets,
                ends);
        module.launch("proofline_msm_bucket_counts", KernelModule.blocksFor(buckets, t.elementwiseThreads()),
                t.elementwiseThreads(), stream, offsets, ends, buckets, counts);
    }

    /** out = the exclusive scan of {@code in}'s first {@code count} words (in place when out is in). */
    private void scan(DeviceBuffer in, DeviceBuffer out, long count, GpuStream stream) {
        Tunables t = module.tunables();
        long blocks = KernelModule.blocksFor(count, t.scanThreads());
        module.launch("proofline_scan_blocks", blocks, t.scanThreads(), stream, in, out, scanTotals, count);
        module.launch("proofline_scan_totals", 1, t.scanThreads(), stream, scanTotals, (int) blocks);
        module.launch("proofline_scan_add", blocks, t.scanThreads(), stream, out, scanTotals, count);
    }

    /**
     * task_order = the tasks sorted by size, largest first: a histogram of the sizes, its exclusive scan as cursors,
     * and a scatter (native-cuda/msm/pippenger.cuh, task_size_histogram and task_size_scatter).
     */
    private void orderTasksBySize(GpuStream stream) {
        int ew = module.tunables().elementwiseThreads();
        long grid = KernelModule.blocksFor(levelEntries, ew);
        sizeCounts.zeroAsync(sizeCounts.bytes(), stream);
        module.launch("proofline_msm_task_size_histogram", grid, ew, stream, offsets, counts, taskOffsets, taskCounts,
                taskBucket, buckets, perTask, sizeCounts);
        scan(sizeCounts, sizeCursor, perTask, stream);
        module.launch("proofline_msm_task_size_scatter", grid, ew, stream, offsets, counts, taskOffsets, taskCounts,
                taskBucket, buckets, perTask, sizeCursor, taskOrder);
    }

    MsmShape shape() {
        return shape;
    }

    /**
     * The last sort's result read back, for the self-test's check of the sort against the CPU: waits for
     * {@code stream}.
     *
     * @param pairs   point index | sign bit, in bucket order; only the first Σ counts are the sort's
     * @param offsets each bucket's first pair (meaningful for non-empty buckets)
     * @param counts  each bucket's pairs (bucket key = window · 2^(c−1) + |digit| − 1)
     */
    public record Sorted(int[] pairs, int[] offsets, int[] counts) {
    }

    /** Reads the last sort back (see {@link Sorted}). */
    public Sorted downloadSorted(GpuStream stream) {
        stream.synchronize();
        int[] p = new int[Math.toIntExact((long) n * windows)];
        int[] o = new int[buckets];
        int[] k = new int[buckets];
        pairs.download(p);
        offsets.download(o);
        counts.download(k);
        return new Sorted(p, o, k);
    }

    /** Device bytes this schedule holds. */
    public long bytes() {
        long bytes = 0;
        for (DeviceBuffer b : buffers()) {
            bytes += b.bytes();
        }
        return bytes;
    }

    private DeviceBuffer[] buffers() {
        return new DeviceBuffer[] {counts, offsets, ends, scanTotals, pairs, windowFill, keys, keysOther, valuesOther,
                tileCounts, taskCounts, taskOffsets, taskBucket, sizeCounts, sizeCursor, taskOrder};
    }

    @Override
    public void close() {
        for (DeviceBuffer b : buffers()) {
            b.close();
        }
    }
}
