package io.proofline.gpu;

import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.prover.DeviceFaultKind;

/**
 * No usable GPU: no driver, no device, no kernels in the jar, or the native bridge failed to load. The message is
 * always {@code no GPU available: <reason>}, which the CLI prints as is. For the engine it is a device that could not
 * be opened (a {@link DeviceFaultKind#UNUSABLE} fault): its breaker opens.
 */
public final class GpuUnavailableException extends DeviceFaultException {

    private final String reason;

    public GpuUnavailableException(String reason) {
        super("no GPU available: " + reason, null, DeviceFaultKind.UNUSABLE);
        this.reason = reason;
    }

    public GpuUnavailableException(String reason, Throwable cause) {
        super("no GPU available: " + reason, cause, DeviceFaultKind.UNUSABLE);
        this.reason = reason;
    }

    /** The reason alone, without the prefix. */
    public String reason() {
        return reason;
    }
}
