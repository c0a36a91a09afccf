package io.proofline.engine.memory;

/**
 * The classes of large buffers a proof needs (DESIGN §3). Every live buffer is counted in the
 * {@link BufferTracker} under one class and the stage it is in.
 */
public enum BufferClass {
    /** The raw upload ({@code .wtns} bytes or {@code input.json}) held by the caller; request → parsed. */
    INPUT,
    /** The assignment {@code w}: {@code m × 32} B; synthesis → finish. */
    WITNESS,
    /** The a/b/c evaluation vectors: {@code 3 × N × 32} B; synthesis → end of prove start. */
    ABC,
    /** The pending-proof handle: G1 MSM results and what finish still needs; prove start → finish. */
    PENDING,
    /** A parsed proving key in host memory, shared by jobs; first use → evicted. */
    KEY_HOST,
    /** A proving key resident on a GPU; first use → evicted. */
    KEY_DEVICE,
    /** Per-worker GPU working buffers; worker start → stop. */
    SCRATCH_DEVICE,
    /**
     * The CPU prover's NTT twiddle tables ({@code 16 × N} B per domain size), off the heap, shared by partitions of
     * that size; first CPU prove start of the size → evicted (a bounded cache, emptied under memory pressure).
     */
    TWIDDLES;

    /** Whether the class's bytes are resident host memory outside the JVM heap (what RSS holds besides the heap). */
    public boolean offHeapHost() {
        return switch (this) {
            case WITNESS, ABC, PENDING, KEY_HOST, TWIDDLES -> true;
            // INPUT is a heap upload (counted in the heap committed); device classes are not in RSS
            case INPUT, KEY_DEVICE, SCRATCH_DEVICE -> false;
        };
    }
}
