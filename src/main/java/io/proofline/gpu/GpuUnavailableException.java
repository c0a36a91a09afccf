package io.proofline.gpu;

import io.proofline.snark.prover.DeviceOpenException;

/**
 * No usable GPU: no driver, no device, no kernels in the jar, or the native bridge failed to load. The message is
 * always {@code no GPU available: <reason>}, which the CLI prints as is. For the engine it is a device that could not
 * be opened ({@link DeviceOpenException}): its breaker opens.
 */
public final class GpuUnavailableException extends DeviceOpenException {

    private final String reason;

    public GpuUnavailableException(String reason) {
        super("no GPU available: " + reason, null);
        this.reason = reason;
    }

    public GpuUnavailableException(String reason, Throwable cause) {
        super("no GPU available: " + reason, cause);
        this.reason = reason;
    }

    /** The reason alone, without the prefix. */
    public String reason() {
        return reason;
    }
}
