package io.proofline.gpu.internal;

/**
 * The tuning numbers of the GPU MSM ({@link GpuMsm}, {@link MsmSchedule}); their measurements are in
 * docs/BENCHMARKS.md and docs/lab/gpu-variants.md, where the variants that lost are recorded.
 *
 * @param chunk       head partials each thread adds per level of combine_heads: a bucket split over many tasks is
 *                    summed in log_chunk(tasks) levels; wider chunks mean fewer launches but longer serial chains
 * @param levelLength entries per run in each level of the bucket reduction (reduce_level): each level divides a
 *                    window's entries by it with about 2·L additions and log₂L doublings a thread; short runs keep the
 *                    latency-bound upper levels, which run on few threads, short
 * @param treeGroup   points each thread adds per level of the partial-sum trees (sum_groups, used for the ones)
 * @param perTask     most pairs one thread adds into a bucket before the bucket is split over several threads, for
 *                    MSMs whose buckets expect few pairs ({@link #perTask(int, int)} raises it for larger ones): large
 *                    enough that uniform scalars give one task per bucket, small enough that a skewed bucket (a
 *                    witness's repeated values) does not hold one thread for the whole MSM; at most
 *                    {@value #MAX_ORDERED_PER_TASK} (tasks are ordered by size in shared memory)
 * @param maxWindow   the widest default window: c = log₂n − 4 up to this; wider windows mean fewer additions but
 *                    more buckets to sort and reduce, which costs more than it saves past the default
 */
public record MsmShape(int chunk, int levelLength, int treeGroup, int perTask, int maxWindow) {

    /** The narrowest window: below it the per-window reduction dominates whatever n. */
    public static final int MIN_WINDOW = 4;
    /**
     * The widest window the kernels take: the sort's keys are a window's bucket in 16 bits. The kernels' number
     * (config.cuh's MSM_MAX_WINDOW_BITS) restated, because settings are checked before any module is loaded;
     * MsmShapeTest fails when the two differ.
     */
    public static final int MAX_WINDOW = 17;
    /** pippenger.cuh's MAX_ORDERED_PER_TASK (the shared-memory counters of the ordering of tasks by size), restated as {@link #MAX_WINDOW}. */
    public static final int MAX_ORDERED_PER_TASK = 1024;

    /** The measured best shape (docs/BENCHMARKS.md). */
    public static final MsmShape DEFAULT = new MsmShape(8, 4, 8, 128, 17);

    public MsmShape {
        for (int knob : new int[] {chunk, levelLength, treeGroup, perTask}) {
            if (knob < 2 || Integer.bitCount(knob) != 1) {
                throw new IllegalArgumentException("MSM shape numbers must be powers of two >= 2: chunk " + chunk
                        + ", level length " + levelLength + ", tree group " + treeGroup + ", per task " + perTask);
            }
        }
        if (perTask > MAX_ORDERED_PER_TASK) {
            throw new IllegalArgumentException("ordering tasks by size allows at most " + MAX_ORDERED_PER_TASK
                    + " pairs per task, not " + perTask);
        }
        if (maxWindow < MIN_WINDOW || maxWindow > MAX_WINDOW) {
            throw new IllegalArgumentException("window cap " + maxWindow + " outside [" + MIN_WINDOW + ", " + MAX_WINDOW
                    + "]");
        }
    }

    /** This shape with another window cap. */
    public MsmShape withMaxWindow(int bits) {
        return new MsmShape(chunk, levelLength, treeGroup, perTask, bits);
    }

    /** The window for an MSM of n points: c = ⌈log₂n⌉ − 4, clamped to [{@value #MIN_WINDOW}, maxWindow]. */
    public int windowBits(int n) {
        int log = 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1));
        return Math.max(MIN_WINDOW, Math.min(maxWindow, log - 4));
    }

    /**
     * W = ⌈(b + 1) / c⌉ signed-digit windows for scalars below 2^b (b: the bit length of the scalar field's modulus,
     * 254 for BN254, 255 for BLS12-381): the top window then holds at most c − 1 of the scalar's bits, so with the
     * carry from below its digit is at most 2^(c−1) and no carry leaves it. At c = 17 that is 15 windows for BN254
     * where ⌈256/c⌉ would be 16.
     */
    public static int windows(int windowBits, int scalarBits) {
        return (scalarBits + windowBits) / windowBits;
    }

    /**
     * Most pairs per task for n points and windows of c bits: {@code perTask}, or twice the pairs a bucket expects
     * with uniform scalars (n / 2^(c−1)) as a power of two where that is more (from 2^23 points at c = 17), so that
     * uniform buckets stay one task each and need no partial sums; at most {@value #MAX_ORDERED_PER_TASK}.
     */
    public int perTask(int n, int windowBits) {
        long expected = Math.max(1, (long) n >> (windowBits - 1));
        long twice = Long.highestOneBit(2 * expected - 1) << 1;
        return (int) Math.min(MAX_ORDERED_PER_TASK, Math.max(perTask, twice));
    }

    /** Level 1 of the partial sums: one per task, at most one per bucket plus one per {@code perTask(n, c)} pairs. */
    long levelEntries(int n, int windowBits, int scalarBits) {
        long maxPairs = (long) n * windows(windowBits, scalarBits);
        long buckets = (long) windows(windowBits, scalarBits) << (windowBits - 1);
        return buckets + maxPairs / perTask(n, windowBits);
    }
}
