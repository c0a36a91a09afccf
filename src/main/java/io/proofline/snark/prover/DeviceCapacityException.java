package io.proofline.snark.prover;

/**
 * The proof does not fit the device's memory (device memory exhausted, a key over the device's key budget). The
 * device is healthy, so this is not a {@link DeviceFaultException} and its breaker is untouched: the engine sends the
 * partition to a device where it fits, or lets it wait for room on this one. Unchecked like the fault, and named in
 * the engine's adapter the same way.
 */
public class DeviceCapacityException extends RuntimeException {

    private final boolean everFits;

    /**
     * @param everFits whether the proof could fit once other work on the device frees memory; false when it never
     *                 can (the key alone is over the device's key budget), so waiting for this device is pointless
     */
    public DeviceCapacityException(String message, Throwable cause, boolean everFits) {
        super(message, cause);
        this.everFits = everFits;
    }

    public boolean everFits() {
        return everFits;
    }
}
