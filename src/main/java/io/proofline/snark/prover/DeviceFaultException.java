package io.proofline.snark.prover;

import java.util.Objects;

/**
 * A device failed rather than the partition it was proving (a CUDA error, a lost device, a device that could not be
 * opened). {@link #kind()} says what that means for the device: the engine counts the fault against the device's
 * circuit breaker — opening it at once unless the fault is {@link DeviceFaultKind#TRANSIENT}, resetting the device
 * after a {@link DeviceFaultKind#STICKY} one — and proves the partition on another device. Running out of device
 * memory is not a fault: see {@link DeviceCapacityException}.
 *
 * <p>One exception from the backend to the engine: a {@link ProverBackend} throws it (unchecked, so that it crosses
 * the backend's interface and the CLI's one-call prover), the engine's adapter names its device in the message, and
 * the pipeline acts on the kind. The engine never throws it to its callers.
 */
public class DeviceFaultException extends RuntimeException {

    private final DeviceFaultKind kind;

    /** A {@link DeviceFaultKind#TRANSIENT} fault. */
    public DeviceFaultException(String message) {
        this(message, null, DeviceFaultKind.TRANSIENT);
    }

    /** A {@link DeviceFaultKind#TRANSIENT} fault. */
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
