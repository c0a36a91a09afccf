package io.proofline.engine.memory;

/**
 * The part of the JVM heap declared for the witness calculators' linear memory (Chicory keeps a module's memory in
 * a heap array): at most {@link #HEAP_FRACTION} of the max heap, split evenly between the instances that may run at
 * once. Each instance's cap is the configured one, lowered to its even share where the configured one would not
 * fit, so that {@code instances × cap} can never exceed the heap however the modules grow (a module growing past
 * its cap is stopped naming the limit, instead of the JVM running out of heap).
 *
 * @param instances         witness-calculator instances that may live at once: one per synthesis worker (a
 *                          partition's {@code input} is computed on its worker, a first load too) and one per
 *                          registration that may check its wasm at once ({@code proofline.registration.concurrent})
 * @param configuredBytes   {@code proofline.witness.max-memory}
 * @param perInstanceBytes  the cap each instance runs under: the configured one, or its share of the heap if less
 */
public record WitnessHeapShare(int instances, long configuredBytes, long perInstanceBytes) {

    /** The share of the max heap the witness calculators may fill together (the rest: the service's own objects). */
    public static final int HEAP_FRACTION = 2;
    /** Wasm memory grows in pages of 64 KiB; a cap is a whole number of them. */
    public static final long WASM_PAGE = 64 * 1024;

    public WitnessHeapShare {
        if (instances < 1 || perInstanceBytes < WASM_PAGE || perInstanceBytes > configuredBytes) {
            throw new IllegalArgumentException("witness heap share: " + instances + " instances of "
                    + perInstanceBytes + " B (configured " + configuredBytes + " B)");
        }
    }

    /**
     * The share of a heap of {@code maxHeapBytes} for {@code synthesisWorkers} workers (plus one instance for a
     * registration), each capped at {@code configuredBytes}.
     */
    public static WitnessHeapShare of(long maxHeapBytes, int synthesisWorkers, long configuredBytes) {
        return of(maxHeapBytes, synthesisWorkers, 1, configuredBytes);
    }

    /**
     * As above, with {@code registrations} registrations that may load (read, parse, compile and probe) an uploaded
     * wasm at once, each an instance of its own.
     */
    public static WitnessHeapShare of(long maxHeapBytes, int synthesisWorkers, int registrations,
                                      long configuredBytes) {
        int instances = Math.addExact(synthesisWorkers, Math.max(1, registrations));
        long even = maxHeapBytes / HEAP_FRACTION / instances / WASM_PAGE * WASM_PAGE;
        long cap = Math.max(WASM_PAGE, Math.min(configuredBytes, even));
        return new WitnessHeapShare(instances, Math.max(configuredBytes, cap), cap);
    }

    /** What the instances may hold together: {@code instances × perInstanceBytes}. */
    public long totalBytes() {
        return Math.multiplyExact((long) instances, perInstanceBytes);
    }

    /** Whether the configured cap was lowered to fit the heap. */
    public boolean lowered() {
        return perInstanceBytes < configuredBytes;
    }

    /** One line for the start-up log. */
    public String describe() {
        return instances + " witness-calculator instances × " + (perInstanceBytes >> 20) + " MiB"
                + (lowered() ? " (proofline.witness.max-memory " + (configuredBytes >> 20) + " MiB lowered to fit "
                + "1/" + HEAP_FRACTION + " of the max heap)" : "");
    }
}
