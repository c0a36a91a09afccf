package io.proofline.engine.groth16;

import io.proofline.engine.DeviceMemory;
import io.proofline.engine.ProvingDevice;
import io.proofline.snark.prover.DeviceUsage;
import io.proofline.snark.prover.ProverBackend;

import java.util.Objects;

/**
 * A device served by a prover backend that holds memory on it (a GPU): its {@link #memory()} is what the backend
 * reports ({@link ProverBackend#deviceUsage()}), so the buffer table and the metrics show the keys resident there and
 * the working buffers per device.
 */
public record BackendDevice(String id, ProverBackend backend) implements ProvingDevice {

    private static final System.Logger LOG = System.getLogger(BackendDevice.class.getName());

    public BackendDevice {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(backend, "backend");
    }

    /** The backend's figures; {@link DeviceMemory#UNKNOWN} when it has none or fails to give them (they are display). */
    @Override
    public DeviceMemory memory() {
        try {
            return backend.deviceUsage().map(BackendDevice::toMemory).orElse(DeviceMemory.UNKNOWN);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "device " + id + ": memory figures unavailable", e);
            return DeviceMemory.UNKNOWN;
        }
    }

    static DeviceMemory toMemory(DeviceUsage u) {
        return new DeviceMemory(u.usedBytes(), u.freeBytes(), u.residentKeys(), u.residentKeyBytes(),
                u.scratchBuffers(), u.scratchBytes());
    }
}
