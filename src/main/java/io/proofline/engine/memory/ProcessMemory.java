package io.proofline.engine.memory;

/**
 * Process-level memory figures; {@code -1} where the platform does not tell (no {@code /proc}).
 *
 * @param rssBytes          resident set size ({@code VmRSS})
 * @param rssPeakBytes      its high-water mark ({@code VmHWM})
 * @param heapUsedBytes     JVM heap in use
 * @param heapCommittedBytes JVM heap committed
 * @param offHeapBytes      off-heap bytes the service allocated through the tracker, live now
 * @param offHeapBuffers    how many such buffers are live
 * @param heapAfterGcBytes  JVM heap in use right after the last garbage collection ({@link HeapAfterGc}): what the
 *                          heap holds, to hold against {@code heapMaxBytes}
 * @param heapMaxBytes      the JVM's max heap
 */
public record ProcessMemory(long rssBytes, long rssPeakBytes, long heapUsedBytes, long heapCommittedBytes,
                            long offHeapBytes, long offHeapBuffers, long heapAfterGcBytes, long heapMaxBytes) {

    /** Without the heap-after-GC figures (tests). */
    public ProcessMemory(long rssBytes, long rssPeakBytes, long heapUsedBytes, long heapCommittedBytes,
                         long offHeapBytes, long offHeapBuffers) {
        this(rssBytes, rssPeakBytes, heapUsedBytes, heapCommittedBytes, offHeapBytes, offHeapBuffers, -1, -1);
    }
}
