package io.proofline.engine.device;

/**
 * Thrown by a {@link io.proofline.engine.PartitionProver} adapter's prove start when the partition does not fit the device's memory
 * (device memory exhausted, a key over the device's key budget). The device is healthy, so this is not a
 * {@link DeviceFaultException} and its breaker is untouched: the partition goes to a device where it fits, or waits
 * for room — at most {@link io.proofline.engine.EngineConfig#admissionWait()}, after which its job ends with the retryable
 * {@link DeviceRoomTimeoutException}.
 */
public class DeviceCapacityException extends Exception {

    private final boolean everFits;

    /**
     * @param everFits whether the partition could fit once work on the device frees memory; false when it never
     *                 can (its key alone is over the device's key budget), so waiting for this device is pointless
     */
    public DeviceCapacityException(String message, Throwable cause, boolean everFits) {
        super(message, cause);
        this.everFits = everFits;
    }

    public boolean everFits() {
        return everFits;
    }
}
