package io.proofline.engine.memory;

/**
 * The part of the JVM heap declared for what the engine remembers of finished jobs (their status, a bounded failure
 * text and their proofs, for status queries after the end): a byte cap, not a count, since one job of a circuit with
 * 10,000 public signals holds about 800 KB of proof text and one failure may carry a megabyte of wasm log. By default
 * {@code 1/}{@value #HEAP_FRACTION} of the max heap; a configured cap must leave the rest of the heap its share.
 */
public final class FinishedJobsHeap {

    /** The default share of the max heap: 32 MiB of the 512 MiB heap of a 2 GB limit. */
    public static final int HEAP_FRACTION = 16;
    /** The least cap: a few finished jobs' status, so that a client asking right after the end is answered. */
    public static final long MIN_BYTES = 1L << 20;

    private FinishedJobsHeap() {
    }

    /** The default cap for a heap of {@code maxHeapBytes}. */
    public static long defaultBytes(long maxHeapBytes) {
        return Math.max(MIN_BYTES, maxHeapBytes / HEAP_FRACTION);
    }

    /** The cap: {@code configuredBytes} where positive, else the default for the heap. */
    public static long of(long maxHeapBytes, long configuredBytes) {
        return configuredBytes > 0 ? Math.max(MIN_BYTES, configuredBytes) : defaultBytes(maxHeapBytes);
    }
}
