package io.proofline.engine;

/** Every device's breaker is open, or every device faulted on this partition already. */
public final class NoDeviceAvailableException extends EngineException {

    public NoDeviceAvailableException(String detail, Throwable lastFault) {
        super("no proving device available: " + detail, lastFault);
    }
}
