package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import io.proofline.algebra.field.FieldOps;

/**
 * Multi-scalar multiplication Σ sᵢ·Pᵢ over G1 or G2 on the GPU (Pippenger, native-cuda/msm/pippenger.cuh), for a
 * fixed number of points n, with its scratch buffers allocated once. Points are affine {@code x‖y} in Montgomery
 * form (snarkjs zkey layout; all-zero is infinity) and stay resident; scalars are canonical little-endian 256-bit
 * words. Scalars 0 and 1 bypass Pippenger: 0 contributes nothing, the points with scalar 1 are summed directly.
 *
 * <p>Window width c = log2(n) − 4 clamped to [4, {@link MsmShape#maxWindow()}] (DESIGN §8: about N·⌈b/c⌉ +
 * ⌈b/c⌉·2^c additions, with signed digits halving the buckets). A bucket holding many points (equal scalars: a
 * witness's repeated values) is split over several threads, so no thread's work grows with the skew of the scalars.
 * The sort of the scalars into buckets is an {@link MsmSchedule}, which several MSMs over the same scalars share
 * ({@link #enqueue(MsmSchedule, DeviceBuffer, DeviceBuffer, GpuStream, StepTimes)}); the one-call API sorts into a
 * schedule of its own. Not thread-safe: one instance per worker, and one MSM in flight per instance (its bucket sums
 * and result are reused).
 *
 * <p>The steps (native-cuda/msm/pippenger.cuh): a thread per bucket task of at most
 * {@link MsmShape#perTask(int, int)} pairs, the tasks ordered by size, largest first, so that a warp's threads add
 * about as many points; the partial sums of split buckets added in levels of {@link MsmShape#chunk()}; the bucket
 * reduction by levels of {@link MsmShape#levelLength()} entries, without scalar multiplications; the points with
 * scalar 1 summed apart, in trees of {@link MsmShape#treeGroup()}.
 */
public final class GpuMsm implements AutoCloseable {

    /** Scalars are 256-bit: 8 words of 32 bits. */
    public static final int SCALAR_BYTES = 32;
    /** Points with scalar 1 summed per thread before the tree of partial sums. */
    private static final int ONES_PER_THREAD = 32;

    private final KernelModule module;
    private final GpuGroup group;
    private final MsmShape shape;
    private final int n;
    private final int c;
    private final int windows;
    private final int bucketsPerWindow;
    private final int buckets;
    private final int levelLength;
    private final int runsPerWindow;
    private final int onesPartials;
    private final long levelEntries;

    private final DeviceBuffer bucketSums;
    /** Level 1 of the partial sums (the tasks' partials) and a spare for the levels above. */
    private final DeviceBuffer levelSums;
    private final DeviceBuffer levelKeys;
    private final DeviceBuffer spareSums;
    private final DeviceBuffer spareKeys;
    /** The bucket reduction: the levels' S (here) and U (levelU*), alternating A, B. */
    private final DeviceBuffer treeA;
    private final DeviceBuffer treeB;
    private final DeviceBuffer levelUA;
    private final DeviceBuffer levelUB;
    private final DeviceBuffer onesA;
    private final DeviceBuffer onesB;
    private final DeviceBuffer result;
    /** {@link #result} on the host, copied on the MSM's stream: {@link #collect()} needs no synchronous download. */
    private final PinnedHostBuffer hostResult;
    private final XyzzHorner horner;
    /** The schedule of the one-call API ({@link #enqueue(DeviceBuffer, DeviceBuffer, GpuStream)}), made on first use. */
    private MsmSchedule ownSchedule;

    /** A G1 MSM of n points with the shape's window. */
    public GpuMsm(KernelModule module, GpuCurve curve, int n, MsmShape shape) {
        this(module, GpuGroup.g1(curve), n, shape.windowBits(n), shape);
    }

    /** An MSM of n points of {@code group} with the shape's window. */
    public GpuMsm(KernelModule module, GpuGroup group, int n, MsmShape shape) {
        this(module, group, n, shape.windowBits(n), shape);
    }

    /** An MSM of n points of {@code group} with a window of {@code windowBits}. */
    public GpuMsm(KernelModule module, GpuGroup group, int n, int windowBits, MsmShape shape) {
        if (n < 1) {
            throw new IllegalArgumentException("MSM of " + n + " points");
        }
        if (windowBits < 2 || windowBits > module.tunables().msmMaxWindowBits()) {
            throw new IllegalArgumentException("window of " + windowBits + " bits");
        }
        this.module = module;
        this.group = group;
        this.shape = shape;
        this.n = n;
        this.c = windowBits;
        this.windows = MsmShape.windows(c, group.curve().scalarBits());
        this.bucketsPerWindow = 1 << (c - 1);
        this.buckets = windows * bucketsPerWindow;
        this.levelLength = Math.min(shape.levelLength(), bucketsPerWindow);
        this.runsPerWindow = bucketsPerWindow / levelLength;
        this.onesPartials = Math.toIntExact(KernelModule.blocksFor(n, ONES_PER_THREAD));
        this.levelEntries = shape.levelEntries(n, c, group.curve().scalarBits());
        long xyzz = group.xyzzBytes();
        this.bucketSums = DeviceBuffer.allocate(xyzz * buckets);
        this.levelSums = DeviceBuffer.allocate(xyzz * levelEntries);
        this.levelKeys = DeviceBuffer.allocate(4L * levelEntries);
        this.spareSums = DeviceBuffer.allocate(xyzz * ceilDiv(levelEntries, shape.chunk()));
        this.spareKeys = DeviceBuffer.allocate(4L * ceilDiv(levelEntries, shape.chunk()));
        // Levels: level 1 writes windows·(2^(c−1)/L) entries into the A pair, level 2 L times fewer into the B pair,
        // level 3 into A again, and so on.
        long levelTwo = (long) windows * Math.max(1, runsPerWindow / levelLength);
        this.treeA = DeviceBuffer.allocate(xyzz * windows * runsPerWindow);
        this.treeB = DeviceBuffer.allocate(xyzz * levelTwo);
        this.levelUA = DeviceBuffer.allocate(xyzz * windows * runsPerWindow);
        this.levelUB = DeviceBuffer.allocate(xyzz * levelTwo);
        this.onesA = DeviceBuffer.allocate(xyzz * onesPartials);
        this.onesB = DeviceBuffer.allocate(xyzz * onesPartials);
        this.result = DeviceBuffer.allocate(xyzz * (windows + 1));
        this.hostResult = PinnedHostBuffer.allocate(xyzz * (windows + 1));
        this.horner = new XyzzHorner(group.coordinateField());
    }

    /** A schedule that this MSM can read: its n and c. */
    public MsmSchedule newSchedule() {
        return new MsmSchedule(module, group.curve(), n, c, shape);
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

    public MsmShape shape() {
        return shape;
    }

    /** Device bytes this instance holds. */
    public long scratchBytes() {
        long bytes = ownSchedule == null ? 0 : ownSchedule.bytes();
        for (DeviceBuffer b : buffers()) {
            bytes += b.bytes();
        }
        return bytes;
    }

    /** Queues the GPU part of the MSM on {@code stream} (everything but the host's final Horner step). */
    public void enqueue(DeviceBuffer points, DeviceBuffer scalars, GpuStream stream) {
        enqueue(points, scalars, stream, StepTimes.NONE);
    }

    /** As {@link #enqueue(DeviceBuffer, DeviceBuffer, GpuStream)}, marking each stage's end in {@code times}. */
    public void enqueue(DeviceBuffer points, DeviceBuffer scalars, GpuStream stream, StepTimes times) {
        if (ownSchedule == null) {
            ownSchedule = newSchedule();
        }
        times.mark("start", stream);
        ownSchedule.enqueueSort(scalars, stream, times);
        enqueue(ownSchedule, points, scalars, stream, times);
    }

    /**
     * Queues the bucket sums along {@code schedule} — sorted from {@code scalars} earlier on this stream, or on another
     * stream that this one waits for — and the reduction; the result is read by {@link #collect()} once the stream is
     * done. Several MSMs over one scalar vector share one schedule.
     */
    public void enqueue(MsmSchedule schedule, DeviceBuffer points, DeviceBuffer scalars, GpuStream stream,
                        StepTimes times) {
        if (schedule.size() != n || schedule.windowBits() != c || schedule.windowCount() != windows) {
            throw new IllegalArgumentException("a schedule of " + schedule.size() + " scalars, c = "
                    + schedule.windowBits() + ", " + schedule.windowCount() + " windows, for an MSM of " + n + ", c = "
                    + c + ", " + windows + " windows");
        }
        if (points.bytes() < (long) n * group.affineBytes() || scalars.bytes() < (long) n * SCALAR_BYTES) {
            throw new IllegalArgumentException("points or scalars shorter than " + n + " entries");
        }
        int pt = module.tunables().pointThreads();
        long nn = n;
        // Bucket sums (level 0), then the partial sums of buckets split over several threads, level by level until
        // one chunk holds a whole level (the kernels read the pair and task totals on the device).
        bucketSums.zeroAsync(bucketSums.bytes(), stream);
        module.launch(group.kernel("accumulate_tasks"), KernelModule.blocksFor(levelEntries, pt), pt, stream, points,
                schedule.pairs, schedule.offsets, schedule.counts, schedule.taskOffsets, schedule.taskCounts,
                schedule.taskBucket, schedule.taskOrder, buckets, schedule.perTask(), bucketSums, levelSums, levelKeys);
        DeviceBuffer totalOffsets = schedule.taskOffsets;
        DeviceBuffer totalCounts = schedule.taskCounts;
        int chunk = shape.chunk();
        long span = 1;
        times.mark("accumulate", stream);
        DeviceBuffer inSums = levelSums;
        DeviceBuffer inKeys = levelKeys;
        DeviceBuffer outSums = spareSums;
        DeviceBuffer outKeys = spareKeys;
        for (long entries = levelEntries; entries > 1; span *= chunk) {
            module.launch(group.kernel("combine_heads"), KernelModule.blocksFor(ceilDiv(entries, chunk), pt), pt,
                    stream, inSums, inKeys, totalOffsets, totalCounts, buckets, span, chunk, bucketSums, outSums,
                    outKeys);
            if (entries <= chunk) {
                break;
            }
            entries = ceilDiv(entries, chunk);
            DeviceBuffer s = inSums;
            inSums = outSums;
            outSums = s;
            DeviceBuffer k = inKeys;
            inKeys = outKeys;
            outKeys = k;
        }
        times.mark("heads", stream);
        // 3. Bucket reduction Σ v·B_v per window, by levels down to one per window.
        DeviceBuffer windowSums = reduceByLevels(stream, times);
        // 4. The points with scalar 1.
        module.launch(group.kernel("ones"), KernelModule.blocksFor(onesPartials, pt), pt, stream, points, scalars,
                nn, ONES_PER_THREAD, onesA);
        DeviceBuffer onesSum = reduceTree(onesA, onesB, onesPartials, onesPartials, stream);
        times.mark("ones", stream);
        // 5. The window sums and the ones' sum side by side, for the host's Horner step (XyzzHorner says why).
        result.copyFromAsync(windowSums, (long) windows * xyzz(), stream);
        result.copyFromAsync(onesSum, xyzz(), (long) windows * xyzz(), stream);
        result.downloadAsync(hostResult, result.bytes(), stream);
        times.mark("copy out", stream);
    }

    /**
     * Runs the MSM and returns Σ sᵢ·Pᵢ as XYZZ limbs {@code X‖Y‖ZZ‖ZZZ} (Montgomery form): the GPU's window sums
     * and ones' sum, combined on the host as Σ_w 2^(c·w)·window_w + ones.
     */
    public long[] run(DeviceBuffer points, DeviceBuffer scalars, GpuStream stream) {
        enqueue(points, scalars, stream);
        stream.synchronize();
        return collect();
    }

    /**
     * Σ sᵢ·Pᵢ of the last enqueued MSM, whose stream must have finished it (the stream synchronized, or an event
     * after the enqueue done): the window sums and the ones' sum, copied to the host at the end of the enqueue, combined
     * on the host (XYZZ limbs {@code X‖Y‖ZZ‖ZZZ}, Montgomery form).
     */
    public long[] collect() {
        int w = group.coordinateLongs();
        long[] sums = new long[(windows + 1) * 4 * w];
        hostResult.view().asLongBuffer().get(sums);
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

    /** {@link #collect()} as an affine point {@code x‖y} (infinity all zeros). */
    public long[] collectAffine() {
        return toAffine(group.coordinateField(), collect());
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
     * run, {@link MsmShape#treeGroup()} per thread per level, ping-ponging between {@code a} and {@code b}; returns the holder.
     */
    private DeviceBuffer reduceTree(DeviceBuffer a, DeviceBuffer b, long count, long runLength, GpuStream stream) {
        int pt = module.tunables().pointThreads();
        DeviceBuffer in = a;
        DeviceBuffer out = b;
        while (runLength > 1) {
            int width = (int) Math.min(shape.treeGroup(), runLength);
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
     * R_w = Σ_v v·B_v for every window by levels of {@link #levelLength} entries (reduce_level): level 1 turns the
     * 2^(c−1) buckets of a window into 2^(c−1)/L pairs (S, U), each level above divides the count by L, until one
     * entry per window is left, whose U is R_w. Returns the buffer holding the windows' R_w in order.
     */
    private DeviceBuffer reduceByLevels(GpuStream stream, StepTimes times) {
        int pt = module.tunables().pointThreads();
        DeviceBuffer sIn = bucketSums;
        DeviceBuffer uIn = bucketSums;
        DeviceBuffer[] sOut = {treeA, treeB};
        DeviceBuffer[] uOut = {levelUA, levelUB};
        int entries = bucketsPerWindow;
        for (int level = 0; entries > 1 || level == 0; level++) {
            int len = Math.min(levelLength, entries);
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
        return new DeviceBuffer[] {bucketSums, levelSums, levelKeys, spareSums, spareKeys, treeA, treeB, levelUA,
                levelUB, onesA, onesB, result};
    }

    @Override
    public void close() {
        for (DeviceBuffer b : buffers()) {
            b.close();
        }
        hostResult.close();
        if (ownSchedule != null) {
            ownSchedule.close();
            ownSchedule = null;
        }
    }
}
