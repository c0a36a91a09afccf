package io.proofline.snark.prover;

/**
 * The proof does not fit the backend's device memory (device memory exhausted, a key over the device's key budget).
 * The device is healthy: this is not a {@link BackendFaultException}, and the engine's adapter turns it into a
 * capacity refusal that sends the partition where it fits, or lets it wait for room, without touching the device's
 * breaker.
 */
public class BackendCapacityException extends RuntimeException {

    private final boolean everFits;

    /**
     * @param everFits whether the proof could fit once other work on the device frees memory; false when it never
     *                 can (the key alone is over the device's key budget)
     */
    public BackendCapacityException(String message, Throwable cause, boolean everFits) {
        super(message, cause);
        this.everFits = everFits;
    }

    public boolean everFits() {
        return everFits;
    }
}
