package io.proofline.engine.groth16;

import io.proofline.engine.DeviceMemory;
import io.proofline.engine.ProvingDevice;
import io.proofline.snark.prover.ProverBackend;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A proving device backed by one {@link ProverBackend} instance: a GPU backend on one (logical) device, or the CPU
 * backend, which is a {@linkplain #fallback() fallback} device when GPUs are configured. Identity matters: the
 * engine finishes a proof on the very device object that started it.
 */
public final class BackendDevice implements ProvingDevice {

    /** How old the memory figure may get before it is read again. */
    static final Duration MEMORY_REFRESH = Duration.ofSeconds(1);

    private final String id;
    private final ProverBackend backend;
    private final boolean fallback;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile DeviceMemory memory = DeviceMemory.UNKNOWN;
    private volatile long memoryReadAt = System.nanoTime() - MEMORY_REFRESH.toNanos() - 1;

    public BackendDevice(String id, ProverBackend backend, boolean fallback) {
        this.id = Objects.requireNonNull(id, "id");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.fallback = fallback;
    }

    @Override
    public String id() {
        return id;
    }

    public ProverBackend backend() {
        return backend;
    }

    @Override
    public boolean fallback() {
        return fallback;
    }

    /**
     * The device bytes the backend holds (resident keys, working buffers) as last read; the free figure is not
     * known. Never blocks: the tracker asks at every lifecycle event, and a GPU backend answers only between
     * proofs, so the figure is read on a virtual thread and is at most one proof plus {@link #MEMORY_REFRESH} old.
     */
    @Override
    public DeviceMemory memory() {
        long now = System.nanoTime();
        if (now - memoryReadAt > MEMORY_REFRESH.toNanos() && refreshing.compareAndSet(false, true)) {
            memoryReadAt = now;
            Thread.ofVirtual().name("device-memory-" + id).start(() -> {
                try {
                    memory = backend.deviceBytesInUse().stream().mapToObj(used -> new DeviceMemory(used, -1))
                            .findFirst().orElse(DeviceMemory.UNKNOWN);
                } finally {
                    refreshing.set(false);
                }
            });
        }
        return memory;
    }

    @Override
    public String toString() {
        return id + (fallback ? " (" + backend.name() + ", fallback)" : " (" + backend.name() + ")");
    }
}
