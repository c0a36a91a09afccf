package io.proofline.engine;

/**
 * Something that runs {@link PartitionProver#proveStart}: a GPU, or the CPU backend, which counts as one
 * device when there is no GPU. The engine puts a Resilience4j bulkhead ({@code workersPerDevice}) and a
 * circuit breaker in front of each device.
 */
public interface ProvingDevice {

    /** A stable name, unique among the engine's devices (e.g. {@code gpu0}, {@code cpu}). */
    String id();

    /** Current memory figures for the buffer table; {@link DeviceMemory#UNKNOWN} by default. */
    default DeviceMemory memory() {
        return DeviceMemory.UNKNOWN;
    }
}
