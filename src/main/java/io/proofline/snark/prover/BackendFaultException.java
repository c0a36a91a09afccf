package io.proofline.snark.prover;

/**
 * A backend's device failed (a CUDA error, a lost device, device memory exhausted) rather than the partition: the
 * engine's adapter turns it into a {@code DeviceFaultException}, which counts against that device's circuit breaker
 * and sends the partition to another device.
 */
public class BackendFaultException extends RuntimeException {

    public BackendFaultException(String message, Throwable cause) {
        super(message, cause);
    }
}
