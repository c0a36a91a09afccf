package io.proofline.engine.groth16;

import io.proofline.engine.device.DeviceMemory;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.DeviceUsage;
import io.proofline.snark.prover.ProverBackend;

import java.util.Objects;

/**
 * A proving device backed by one {@link ProverBackend} instance: a GPU backend on one (logical) device, or the CPU
 * backend, which is a {@linkplain #fallback() fallback} device when GPUs are configured. Identity matters: the
 * engine finishes a proof on the very device object that started it. Its {@link #memory()} is what a
 * {@link DeviceProverBackend} reports ({@link DeviceProverBackend#deviceUsage()}: resident keys and working buffers), so
 * the buffer table and the metrics show them per device; {@link #reset()} reopens such a backend's device.
 */
public final class BackendDevice implements ProvingDevice {

    private static final System.Logger LOG = System.getLogger(BackendDevice.class.getName());

    private final String id;
    private final ProverBackend backend;
    private final boolean fallback;

    public BackendDevice(String id, ProverBackend backend, boolean fallback) {
        this.id = Objects.requireNonNull(id, "id");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.fallback = fallback;
    }

    /** A device that is not a fallback. */
    public BackendDevice(String id, ProverBackend backend) {
        this(id, backend, false);
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
     * The backend's published figures; {@link DeviceMemory#UNKNOWN} when it has no device or fails to give them (they
     * are for display). Never blocks: {@link DeviceProverBackend#deviceUsage()} must not wait for a running proof.
     */
    @Override
    public DeviceMemory memory() {
        if (!(backend instanceof DeviceProverBackend device)) {
            return DeviceMemory.UNKNOWN;
        }
        try {
            return toMemory(device.deviceUsage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "device " + id + ": memory figures unavailable", e);
            return DeviceMemory.UNKNOWN;
        }
    }

    /** Closes and re-opens the backend's device context and worker (after a sticky fault); nothing without a device. */
    @Override
    public void reset() {
        if (backend instanceof DeviceProverBackend device) {
            device.reopen();
        }
    }

    static DeviceMemory toMemory(DeviceUsage u) {
        return new DeviceMemory(u.usedBytes(), u.freeBytes(), u.residentKeys(), u.residentKeyBytes(),
                u.scratchBuffers(), u.scratchBytes(), u.abcBuffers(), u.abcBytes());
    }

    @Override
    public String toString() {
        return id + (fallback ? " (" + backend.name() + ", fallback)" : " (" + backend.name() + ")");
    }
}
