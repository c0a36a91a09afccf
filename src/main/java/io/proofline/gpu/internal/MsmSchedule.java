package io.proofline.gpu.internal;

/**
 * The first half of a GPU MSM, which depends on the scalars only: their signed digits counted and sorted into buckets
 * (pairs of point index and sign, in bucket order), and the buckets cut into tasks of at most {@link MsmShape#perTask()}
 * pairs, ordered by size (native-cuda/msm/pippenger.cuh, histogram … task_size_scatter). {@link GpuMsm} adds the points
 * along it.
 *
 * <p>Why a separate object: the MSMs of a proof over one scalar vector — ΣA, ΣB1 and ΣC over G1 and ΣB2 over G2 all
 * take the witness — need one sort between them, not four, and MSMs on two streams can read
 * one schedule at once: after {@link #enqueueSort} it is read-only until the next sort. The window width c and the
 * size n fix every buffer; an MSM reads a schedule only of its own n and c.
 */
public final class MsmSchedule implements AutoCloseable {

    private final KernelModule module;
    private final MsmShape shape;
    private final int n;
    private final int c;
    private final int windows;
    private final int buckets;
    private final long levelEntries;
    private final int scanBlocks;

    final DeviceBuffer counts;
    final DeviceBuffer offsets;
    private final DeviceBuffer cursor;
    final DeviceBuffer scanTotals;
    final DeviceBuffer pairs;
    final DeviceBuffer taskCounts;
    final DeviceBuffer taskOffsets;
    final DeviceBuffer taskBucket;
    /** The tasks by size (largest first): per-size counts, their scan as cursors, and the order itself. */
    private final DeviceBuffer sizeCounts;
    private final DeviceBuffer sizeCursor;
    final DeviceBuffer taskOrder;

    /** A schedule for n scalars, windows of {@code windowBits} and buckets cut into tasks as {@code shape} says. */
    public MsmSchedule(KernelModule module, int n, int windowBits, MsmShape shape) {
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
        this.windows = MsmShape.windows(windowBits);
        this.buckets = windows * (1 << (c - 1));
        long maxPairs = (long) n * windows;
        this.levelEntries = shape.levelEntries(n, windowBits);
        this.scanBlocks = Math.toIntExact(KernelModule.blocksFor(buckets, module.tunables().scanThreads()));
        this.counts = DeviceBuffer.allocate(4L * buckets);
        this.offsets = DeviceBuffer.allocate(4L * buckets);
        this.cursor = DeviceBuffer.allocate(4L * buckets);
        this.scanTotals = DeviceBuffer.allocate(4L * scanBlocks);
        this.pairs = DeviceBuffer.allocate(4L * maxPairs);
        this.taskCounts = DeviceBuffer.allocate(4L * buckets);
        this.taskOffsets = DeviceBuffer.allocate(4L * buckets);
        this.taskBucket = DeviceBuffer.allocate(4L * levelEntries);
        this.sizeCounts = DeviceBuffer.allocate(4L * shape.perTask());
        this.sizeCursor = DeviceBuffer.allocate(4L * shape.perTask());
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

    /** Queues the sort of {@code scalars} (n canonical 256-bit words) and the tasks on {@code stream}. */
    public void enqueueSort(DeviceBuffer scalars, GpuStream stream, StageTimes times) {
        if (scalars.bytes() < (long) n * GpuMsm.SCALAR_BYTES) {
            throw new IllegalArgumentException("scalars shorter than " + n + " entries");
        }
        Tunables t = module.tunables();
        int ew = t.elementwiseThreads();
        long nn = n;
        // Counting sort of (bucket, point) pairs: histogram, exclusive scan, scatter.
        counts.zeroAsync(counts.bytes(), stream);
        module.launch("proofline_msm_histogram", KernelModule.blocksFor(n, ew), ew, stream, scalars, nn, c, windows,
                counts);
        scan(counts, offsets, buckets, stream);
        cursor.copyFromAsync(offsets, offsets.bytes(), stream);
        module.launch("proofline_msm_scatter", KernelModule.blocksFor(n, ew), ew, stream, scalars, nn, c, windows,
                cursor, pairs);
        times.mark("sort", stream);
        // Tasks: ⌈count / PER_TASK⌉ per bucket, their offsets, and each task's bucket.
        module.launch("proofline_msm_task_counts", KernelModule.blocksFor(buckets, ew), ew, stream, counts, buckets,
                shape.perTask(), taskCounts);
        scan(taskCounts, taskOffsets, buckets, stream);
        module.launch("proofline_msm_task_map", KernelModule.blocksFor(buckets, ew), ew, stream, taskOffsets,
                taskCounts, buckets, taskBucket);
        orderTasksBySize(stream);
        times.mark("tasks", stream);
    }

    /** out = the exclusive scan of {@code in}'s first {@code count} words. */
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
                taskBucket, buckets, shape.perTask(), sizeCounts);
        scan(sizeCounts, sizeCursor, shape.perTask(), stream);
        module.launch("proofline_msm_task_size_scatter", grid, ew, stream, offsets, counts, taskOffsets, taskCounts,
                taskBucket, buckets, shape.perTask(), sizeCursor, taskOrder);
    }

    MsmShape shape() {
        return shape;
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
        return new DeviceBuffer[] {counts, offsets, cursor, scanTotals, pairs, taskCounts, taskOffsets,
                taskBucket, sizeCounts, sizeCursor, taskOrder};
    }

    @Override
    public void close() {
        for (DeviceBuffer b : buffers()) {
            b.close();
        }
    }
}
