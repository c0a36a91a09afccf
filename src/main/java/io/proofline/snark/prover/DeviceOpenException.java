package io.proofline.snark.prover;

/**
 * A backend's device could not be opened when first used (its context, kernels or worker failed to come up): every
 * proof on it would fail the same way, so the engine opens the device's breaker at once rather than let it look
 * idle and take every partition.
 */
public class DeviceOpenException extends BackendFaultException {

    public DeviceOpenException(String message, Throwable cause) {
        super(message, cause);
    }
}
