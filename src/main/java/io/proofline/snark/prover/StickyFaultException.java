package io.proofline.snark.prover;

/**
 * A device fault that leaves the backend's device context unusable (a sticky CUDA error such as an illegal address):
 * every later call on it fails until {@link ProverBackend#reopen()} closes the context and worker and opens them
 * anew. The engine opens the device's breaker at once and resets the backend before its half-open trial.
 */
public class StickyFaultException extends BackendFaultException {

    public StickyFaultException(String message, Throwable cause) {
        super(message, cause);
    }
}
