package io.proofline.engine;

/**
 * Thrown by a {@link PartitionProver} adapter when the device failed rather than the partition (a CUDA
 * error, a lost device, device memory exhausted). It counts against the device's circuit breaker and the
 * partition is retried on another device. It is not one of the engine's {@link EngineException}s: the
 * engine receives it, it never throws it to callers.
 */
public class DeviceFaultException extends Exception {

    public DeviceFaultException(String message) {
        super(message);
    }

    public DeviceFaultException(String message, Throwable cause) {
        super(message, cause);
    }
}
