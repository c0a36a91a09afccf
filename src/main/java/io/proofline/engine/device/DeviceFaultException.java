package io.proofline.engine.device;

import java.util.Objects;

/**
 * Thrown by a {@link io.proofline.engine.PartitionProver} adapter when the device failed rather than the partition (a CUDA
 * error, a lost device, a device that cannot be opened). It counts against the device's circuit breaker — its
 * {@link #kind()} says whether the breaker opens at once and whether the device is reset before it is tried
 * again — and the partition is retried on another device. Running out of device memory is not a fault:
 * see {@link DeviceCapacityException}. It is not one of the engine's {@link io.proofline.engine.EngineException}s: the engine receives
 * it, it never throws it to callers.
 */
public class DeviceFaultException extends Exception {

    private final DeviceFaultKind kind;

    public DeviceFaultException(String message) {
        this(message, null, DeviceFaultKind.TRANSIENT);
    }

    public DeviceFaultException(String message, Throwable cause) {
        this(message, cause, DeviceFaultKind.TRANSIENT);
    }

    public DeviceFaultException(String message, Throwable cause, DeviceFaultKind kind) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public DeviceFaultKind kind() {
        return kind;
    }
}
