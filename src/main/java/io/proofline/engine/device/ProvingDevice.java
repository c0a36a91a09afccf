package io.proofline.engine.device;

/**
 * Something that runs {@link io.proofline.engine.PartitionProver#proveStart}: a GPU (or one logical share of a GPU), or the CPU
 * backend, which is the one device when there is no GPU and a {@linkplain #fallback() fallback} device beside
 * GPUs. The engine puts a Resilience4j bulkhead ({@code workersPerDevice}) and a circuit breaker in front of
 * each device.
 */
public interface ProvingDevice {

    /** A stable name, unique among the engine's devices (e.g. {@code gpu0}, {@code cpu}). */
    String id();

    /**
     * A fallback device (the CPU backend beside GPUs) takes a partition only when every other device's
     * breaker is open or that device already faulted on the partition, never merely because the others are
     * busy: it is much slower, and taking work from a busy GPU would lengthen the job.
     */
    default boolean fallback() {
        return false;
    }

    /** Current memory figures for the buffer table; {@link DeviceMemory#UNKNOWN} by default. */
    default DeviceMemory memory() {
        return DeviceMemory.UNKNOWN;
    }

    /**
     * Closes the device's context and worker and opens them anew, after a {@linkplain io.proofline.snark.prover.DeviceFaultKind#STICKY sticky}
     * fault left them unusable. The engine calls it on a proving thread, holding the device's half-open trial
     * permit, before the trial's prove start; a device without such state does nothing.
     *
     * @throws Exception when the device cannot be opened again (the trial then counts as failed)
     */
    default void reset() throws Exception {
    }
}
