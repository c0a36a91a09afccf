package io.proofline.witness.internal;

/**
 * Thrown from inside a running module (a host import, a memory growth) when it passes one of its
 * {@link io.proofline.witness.WitnessLimits}; the calculator reports it as a {@code LIMIT} failure with this message.
 */
public final class SandboxLimitException extends RuntimeException {

    public SandboxLimitException(String message) {
        super(message, null, false, false);
    }
}
